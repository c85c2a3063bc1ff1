package io.jrxe.rxe.pi;

import io.jrxe.rxe.verbs.T10DifDomain;
import org.agrona.DirectBuffer;

/**
 * Checks a T10-DIF tuple against its domain, as the HCA does on the fly (mlx5 BSF semantics). A block is skipped
 * when an escape applies: {@code ref_escape} and app tag 0xFFFF and ref tag 0xFFFFFFFF (the type 3 escape, mlx5
 * {@code MLX5_BSF_APPREF_ESCAPE}), else {@code app_escape} and app tag 0xFFFF (types 1 and 2,
 * {@code MLX5_BSF_APPTAG_ESCAPE}). Otherwise the guard, then the app tag (under {@code apptag_check_mask}), then
 * the ref tag are compared, each only in the bytes {@code check_mask} selects (bit 7 - i for tuple byte i):
 * <pre>
 *   check_mask:  b7 b6 | b5 b4 | b3 b2 b1 b0
 *                guard | app   | ref tag
 * </pre>
 * One instance per region, engine thread: {@link #expected()} and {@link #actual()} describe the last failure.
 */
public final class PiVerifier
{
    /** The tuple passed (or was escaped). */
    public static final int OK = 0;
    /** Guard mismatch. */
    public static final int GUARD = 1;
    /** Reference tag mismatch. */
    public static final int REFTAG = 2;
    /** Application tag mismatch. */
    public static final int APPTAG = 3;

    private int expected;
    private int actual;

    /**
     * @param domain    domain the tuple belongs to
     * @param checkMask {@code check_mask} of the attributes
     * @param guard     the guard computed over the block's data for this domain
     * @param index     block index from the start of the registration
     * @param pi        the tuple
     * @param offset    its first byte
     * @return {@link #OK}, {@link #GUARD}, {@link #APPTAG} or {@link #REFTAG}
     */
    public int verify(
        final T10DifDomain domain, final int checkMask, final int guard, final long index, final DirectBuffer pi,
        final int offset)
    {
        final int app = PiTuple.appTagOf(pi, offset);
        final int ref = PiTuple.refTagOf(pi, offset);
        if (domain.refEscape() && 0xffff == app && -1 == ref || domain.appEscape() && 0xffff == app)
        {
            return OK;
        }
        final int guardBytes = bytes16(checkMask >>> 6);
        final int found = PiTuple.guardOf(pi, offset);
        if (0 != ((found ^ guard) & guardBytes))
        {
            return fail(GUARD, guard, found);
        }
        final int appBytes = bytes16(checkMask >>> 4) & domain.apptagCheckMask();
        if (0 != ((app ^ domain.appTag()) & appBytes))
        {
            return fail(APPTAG, domain.appTag() & appBytes, app & appBytes);
        }
        final int refBytes = bytes32(checkMask);
        final int expectedRef = domain.refTagOf(index);
        if (0 != ((ref ^ expectedRef) & refBytes))
        {
            return fail(REFTAG, expectedRef, ref);
        }
        return OK;
    }

    /** @return the expected value of the last failure. */
    public int expected()
    {
        return expected;
    }

    /** @return the value found by the last failure. */
    public int actual()
    {
        return actual;
    }

    private int fail(final int type, final int expectedValue, final int actualValue)
    {
        expected = expectedValue;
        actual = actualValue;
        return type;
    }

    // two check-mask bits (b1 = first byte) to a 16-bit byte mask
    private static int bytes16(final int bits)
    {
        return (0 != (bits & 2) ? 0xff00 : 0) | (0 != (bits & 1) ? 0x00ff : 0);
    }

    // four check-mask bits (b3 = first byte) to a 32-bit byte mask
    private static int bytes32(final int bits)
    {
        int mask = 0;
        for (int i = 0; i < 4; i++)
        {
            if (0 != (bits & (8 >>> i)))
            {
                mask |= 0xff00_0000 >>> (8 * i);
            }
        }
        return mask;
    }
}
