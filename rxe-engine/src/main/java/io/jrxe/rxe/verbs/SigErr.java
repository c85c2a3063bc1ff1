package io.jrxe.rxe.verbs;

/**
 * A signature error ({@code struct ib_sig_err}), immutable.
 * <p>
 * {@code sigErrOffset} counts in the interleaved layout of data and tuples (block b starts at
 * {@code b * (pi_interval + 8)}), whatever the domains: iSER and the NVMe-oF target divide it by
 * {@code sector_size + 8} to find the failing block, and jrxe reports the offset of the failing block's first byte
 * in that layout, so the division gives the block whichever domain found the error.
 */
public final class SigErr
{
    private final SigErrType errType;
    private final int expected;
    private final int actual;
    private final long sigErrOffset;
    private final int key;

    /**
     * @param errType      what failed
     * @param expected     the value the check expected (guard computed over the block, expected tag)
     * @param actual       the value found in the tuple
     * @param sigErrOffset offset of the failing block (see the class comment)
     * @param key          the region's key at the time
     */
    public SigErr(final SigErrType errType, final int expected, final int actual, final long sigErrOffset,
        final int key)
    {
        this.errType = errType;
        this.expected = expected;
        this.actual = actual;
        this.sigErrOffset = sigErrOffset;
        this.key = key;
    }

    /** @return what failed ({@code err_type}). */
    public SigErrType errType()
    {
        return errType;
    }

    /** @return expected value ({@code expected}). */
    public int expected()
    {
        return expected;
    }

    /** @return value found ({@code actual}). */
    public int actual()
    {
        return actual;
    }

    /** @return offset of the failing block in the interleaved layout ({@code sig_err_offset}). */
    public long sigErrOffset()
    {
        return sigErrOffset;
    }

    /** @return the region's key ({@code key}). */
    public int key()
    {
        return key;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "SigErr{" + errType + ", expected=0x" + Integer.toHexString(expected) + ", actual=0x" +
            Integer.toHexString(actual) + ", sigErrOffset=" + sigErrOffset + ", key=0x" + Integer.toHexString(key) +
            '}';
    }
}
