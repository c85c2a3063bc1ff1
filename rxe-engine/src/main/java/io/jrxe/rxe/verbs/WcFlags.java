package io.jrxe.rxe.verbs;

/**
 * Work completion flags, values of {@code enum ib_wc_flags}.
 */
public final class WcFlags
{
    /** A GRH (for RoCE: the IP header) is present; UD receives. */
    public static final int GRH = 1;
    /** {@link WorkCompletion#immData()} is valid. */
    public static final int WITH_IMM = 1 << 1;
    /** {@link WorkCompletion#invalidatedRkey()} is valid. */
    public static final int WITH_INVALIDATE = 1 << 2;
    /** IP checksum verified. */
    public static final int IP_CSUM_OK = 1 << 3;
    /** Source MAC present. */
    public static final int WITH_SMAC = 1 << 4;
    /** VLAN id present. */
    public static final int WITH_VLAN = 1 << 5;
    /** {@link WorkCompletion#networkHdrType()} is valid. */
    public static final int WITH_NETWORK_HDR_TYPE = 1 << 6;

    private WcFlags()
    {
    }
}
