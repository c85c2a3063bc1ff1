package io.jrxe.rxe.pi;

import io.jrxe.rxe.verbs.T10DifBgType;
import io.jrxe.rxe.verbs.T10DifDomain;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Generation of the 8-byte T10-DIF tuple (SBC-3 protection information), big-endian on the wire and in memory:
 * <pre>
 *   offset 0        2           4                     8
 *          | guard  | app tag   | ref tag             |
 * </pre>
 * guard = CRC-16/T10-DIF or IP checksum of the block's data (seeded with {@code bg}); app tag = {@code app_tag};
 * ref tag = {@code ref_tag}, plus the block index when {@code ref_remap} (types 1 and 2).
 */
public final class PiTuple
{
    /** Bytes of a tuple. */
    public static final int SIZE = 8;
    /** Offset of the guard. */
    public static final int GUARD_OFFSET = 0;
    /** Offset of the application tag. */
    public static final int APP_TAG_OFFSET = 2;
    /** Offset of the reference tag. */
    public static final int REF_TAG_OFFSET = 4;

    private PiTuple()
    {
    }

    /**
     * @param domain the domain whose guard type and seed apply
     * @param block  the block's data
     * @param offset its first byte
     * @param length {@code pi_interval}
     * @return the 16-bit guard
     */
    public static int guard(final T10DifDomain domain, final DirectBuffer block, final int offset, final int length)
    {
        return T10DifBgType.CRC == domain.bgType() ? Crc16T10Dif.update(domain.bg(), block, offset, length) :
            IpChecksum.compute(domain.bg(), block, offset, length);
    }

    /**
     * Write the tuple the domain gives block {@code index} with this guard.
     *
     * @param domain domain parameters
     * @param guard  guard of the block
     * @param index  block index from the start of the registration
     * @param dst    destination
     * @param offset first tuple byte in dst
     */
    public static void generate(
        final T10DifDomain domain, final int guard, final long index, final MutableDirectBuffer dst, final int offset)
    {
        dst.putShort(offset + GUARD_OFFSET, (short)guard, ByteOrder.BIG_ENDIAN);
        dst.putShort(offset + APP_TAG_OFFSET, (short)domain.appTag(), ByteOrder.BIG_ENDIAN);
        dst.putInt(offset + REF_TAG_OFFSET, domain.refTagOf(index), ByteOrder.BIG_ENDIAN);
    }

    /** @return the guard of the tuple at offset. */
    public static int guardOf(final DirectBuffer pi, final int offset)
    {
        return pi.getShort(offset + GUARD_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff;
    }

    /** @return the application tag of the tuple at offset. */
    public static int appTagOf(final DirectBuffer pi, final int offset)
    {
        return pi.getShort(offset + APP_TAG_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff;
    }

    /** @return the reference tag of the tuple at offset. */
    public static int refTagOf(final DirectBuffer pi, final int offset)
    {
        return pi.getInt(offset + REF_TAG_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /**
     * Translate a checked tuple from one domain to another (pass-through with different parameters): each field is
     * copied when both domains define it alike (guard: type and seed; app tag: value; ref tag: value and remap, as
     * mlx5's BSF copy_byte_mask copies a field whose definition matches) and generated for the target otherwise.
     *
     * @param from       domain of the source tuple
     * @param to         domain of the target tuple
     * @param src        source tuple
     * @param srcOffset  its offset
     * @param blockGuard the block's guard computed for {@code to} (used only if the guard is regenerated)
     * @param index      block index
     * @param dst        target
     * @param dstOffset  its offset
     */
    public static void convert(
        final T10DifDomain from,
        final T10DifDomain to,
        final DirectBuffer src,
        final int srcOffset,
        final int blockGuard,
        final long index,
        final MutableDirectBuffer dst,
        final int dstOffset)
    {
        final boolean sameGuard = from.bgType() == to.bgType() && from.bg() == to.bg();
        final boolean sameApp = from.appTag() == to.appTag();
        final boolean sameRef = from.refTag() == to.refTag() && from.refRemap() == to.refRemap();
        dst.putShort(dstOffset + GUARD_OFFSET, (short)(sameGuard ? guardOf(src, srcOffset) : blockGuard),
            ByteOrder.BIG_ENDIAN);
        dst.putShort(dstOffset + APP_TAG_OFFSET, (short)(sameApp ? appTagOf(src, srcOffset) : to.appTag()),
            ByteOrder.BIG_ENDIAN);
        dst.putInt(dstOffset + REF_TAG_OFFSET, sameRef ? refTagOf(src, srcOffset) : to.refTagOf(index),
            ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param from source domain
     * @param to   target domain
     * @return whether {@link #convert} needs the guard computed for {@code to}
     */
    public static boolean regeneratesGuard(final T10DifDomain from, final T10DifDomain to)
    {
        return from.bgType() != to.bgType() || from.bg() != to.bg();
    }
}
