package io.jrxe.rxe.verbs;


/**
 * Configuration of an {@link RxeDevice}: the device and port limits, with defaults equal to current upstream rxe
 * ({@code drivers/infiniband/sw/rxe/rxe_param.h}). Fluent setters share the getter's name; {@link #conclude()}
 * validates the values once and freezes nothing else.
 */
public final class RxeContext
{
    /** rxe {@code DEFAULT_MAX_VALUE}: the upper bound of most object counts. */
    public static final int DEFAULT_MAX_VALUE = 1 << 20;
    /** First QPN handed out to ordinary QPs ({@code RXE_MIN_QP_INDEX}); 0 and 1 are SMI and GSI. */
    public static final int MIN_QP_INDEX = 16;

    private int maxQpWr = DEFAULT_MAX_VALUE;
    private int maxSge = 32;
    private int maxSgeRd = 32;
    private int maxSrqSge = 27;
    private int maxInlineData = 512;
    private long maxMrSize = -1L;
    private long pageSizeCap = 0xfffff000L;
    private int maxQp = DEFAULT_MAX_VALUE - MIN_QP_INDEX;
    private int maxCq = DEFAULT_MAX_VALUE;
    private int maxCqe = (1 << 15) - 1;
    private int maxMr = (DEFAULT_MAX_VALUE >> 1) - 1;
    private int maxMw = DEFAULT_MAX_VALUE >> 1;
    private int maxPd = DEFAULT_MAX_VALUE;
    private int maxAh = (1 << 15) - 1;
    private int maxSrq = DEFAULT_MAX_VALUE;
    private int maxSrqWr = DEFAULT_MAX_VALUE;
    private int maxQpRdAtom = 128;
    private int maxQpInitRdAtom = 128;
    private int maxResRdAtom = 0x3f000;
    private int maxPkeys = 64;
    private int localCaAckDelay = 15;
    private int vendorId = 0xffffff;
    private int maxFastRegPageListLen = 512;
    private int gidTableLength = 1024;
    private int pkeyTableLength = 1;
    private long maxMsgSize = 1L << 31;
    private int netdevMtu = 1500;
    private long macAddress = 0x02_00_00_00_00_01L;
    private long keySeed = 0x5eed_0f_4b_e7L;
    private int compVectors = 1;

    /** @return max WRs per send or receive queue. */
    public int maxQpWr()
    {
        return maxQpWr;
    }

    /**
     * @param value max WRs per work queue.
     * @return this.
     */
    public RxeContext maxQpWr(final int value)
    {
        maxQpWr = value;
        return this;
    }

    /** @return max SGEs per send or receive WR. */
    public int maxSge()
    {
        return maxSge;
    }

    /**
     * @param value max SGEs per WR.
     * @return this.
     */
    public RxeContext maxSge(final int value)
    {
        maxSge = value;
        return this;
    }

    /** @return max SGEs per RDMA READ WR. */
    public int maxSgeRd()
    {
        return maxSgeRd;
    }

    /**
     * @param value max SGEs per RDMA READ.
     * @return this.
     */
    public RxeContext maxSgeRd(final int value)
    {
        maxSgeRd = value;
        return this;
    }

    /** @return max SGEs per SRQ WR. */
    public int maxSrqSge()
    {
        return maxSrqSge;
    }

    /**
     * @param value max SGEs per SRQ WR.
     * @return this.
     */
    public RxeContext maxSrqSge(final int value)
    {
        maxSrqSge = value;
        return this;
    }

    /** @return max inline data bytes per send WR (rxe: 32 x sizeof(ib_sge) = 512). */
    public int maxInlineData()
    {
        return maxInlineData;
    }

    /**
     * @param value max inline bytes.
     * @return this.
     */
    public RxeContext maxInlineData(final int value)
    {
        maxInlineData = value;
        return this;
    }

    /** @return max MR size as an unsigned 64-bit value (-1 means 2^64-1). */
    public long maxMrSize()
    {
        return maxMrSize;
    }

    /**
     * @param value max MR size, unsigned.
     * @return this.
     */
    public RxeContext maxMrSize(final long value)
    {
        maxMrSize = value;
        return this;
    }

    /** @return supported page sizes bit mask. */
    public long pageSizeCap()
    {
        return pageSizeCap;
    }

    /** @return max number of QPs. */
    public int maxQp()
    {
        return maxQp;
    }

    /**
     * @param value max QPs.
     * @return this.
     */
    public RxeContext maxQp(final int value)
    {
        maxQp = value;
        return this;
    }

    /** @return max number of CQs. */
    public int maxCq()
    {
        return maxCq;
    }

    /**
     * @param value max CQs.
     * @return this.
     */
    public RxeContext maxCq(final int value)
    {
        maxCq = value;
        return this;
    }

    /** @return max entries of one CQ ({@code (1 << RXE_MAX_LOG_CQE) - 1}). */
    public int maxCqe()
    {
        return maxCqe;
    }

    /**
     * @param value max CQ entries.
     * @return this.
     */
    public RxeContext maxCqe(final int value)
    {
        maxCqe = value;
        return this;
    }

    /** @return max number of MRs (indices 1..maxMr, the lower half of the key index space). */
    public int maxMr()
    {
        return maxMr;
    }

    /**
     * @param value max MRs.
     * @return this.
     */
    public RxeContext maxMr(final int value)
    {
        maxMr = value;
        return this;
    }

    /** @return max number of MWs (indices above the MR range). */
    public int maxMw()
    {
        return maxMw;
    }

    /**
     * @param value max MWs.
     * @return this.
     */
    public RxeContext maxMw(final int value)
    {
        maxMw = value;
        return this;
    }

    /** @return max number of PDs. */
    public int maxPd()
    {
        return maxPd;
    }

    /**
     * @param value max PDs.
     * @return this.
     */
    public RxeContext maxPd(final int value)
    {
        maxPd = value;
        return this;
    }

    /** @return max number of AHs. */
    public int maxAh()
    {
        return maxAh;
    }

    /**
     * @param value max AHs.
     * @return this.
     */
    public RxeContext maxAh(final int value)
    {
        maxAh = value;
        return this;
    }

    /** @return max number of SRQs. */
    public int maxSrq()
    {
        return maxSrq;
    }

    /**
     * @param value max SRQs.
     * @return this.
     */
    public RxeContext maxSrq(final int value)
    {
        maxSrq = value;
        return this;
    }

    /** @return max WRs of one SRQ. */
    public int maxSrqWr()
    {
        return maxSrqWr;
    }

    /**
     * @param value max SRQ WRs.
     * @return this.
     */
    public RxeContext maxSrqWr(final int value)
    {
        maxSrqWr = value;
        return this;
    }

    /** @return max outstanding RDMA READ/atomic requests a QP may have as responder. */
    public int maxQpRdAtom()
    {
        return maxQpRdAtom;
    }

    /**
     * @param value max responder read/atomic depth.
     * @return this.
     */
    public RxeContext maxQpRdAtom(final int value)
    {
        maxQpRdAtom = value;
        return this;
    }

    /** @return max outstanding RDMA READ/atomic requests a QP may initiate. */
    public int maxQpInitRdAtom()
    {
        return maxQpInitRdAtom;
    }

    /**
     * @param value max initiator read/atomic depth.
     * @return this.
     */
    public RxeContext maxQpInitRdAtom(final int value)
    {
        maxQpInitRdAtom = value;
        return this;
    }

    /** @return total responder read/atomic resources. */
    public int maxResRdAtom()
    {
        return maxResRdAtom;
    }

    /** @return max P_Keys (device attribute). */
    public int maxPkeys()
    {
        return maxPkeys;
    }

    /** @return local CA ACK delay exponent. */
    public int localCaAckDelay()
    {
        return localCaAckDelay;
    }

    /** @return vendor id (0xFFFFFF per IBTA A3.3.1 for a software device). */
    public int vendorId()
    {
        return vendorId;
    }

    /** @return max fast-registration page list length. */
    public int maxFastRegPageListLen()
    {
        return maxFastRegPageListLen;
    }

    /** @return GID table entries of the port. */
    public int gidTableLength()
    {
        return gidTableLength;
    }

    /**
     * @param value GID table entries.
     * @return this.
     */
    public RxeContext gidTableLength(final int value)
    {
        gidTableLength = value;
        return this;
    }

    /** @return P_Key table entries of the port (rxe exposes only the default full P_Key at index 0). */
    public int pkeyTableLength()
    {
        return pkeyTableLength;
    }

    /**
     * @param value P_Key table entries.
     * @return this.
     */
    public RxeContext pkeyTableLength(final int value)
    {
        pkeyTableLength = value;
        return this;
    }

    /** @return max message size of the port in bytes. */
    public long maxMsgSize()
    {
        return maxMsgSize;
    }

    /** @return netdev (Ethernet) MTU the active IB MTU is derived from. */
    public int netdevMtu()
    {
        return netdevMtu;
    }

    /**
     * @param value netdev MTU, 256 + 80 .. 65535.
     * @return this.
     */
    public RxeContext netdevMtu(final int value)
    {
        netdevMtu = value;
        return this;
    }

    /** @return MAC address of the netdev in the low 48 bits; the node GUID is its EUI-64. */
    public long macAddress()
    {
        return macAddress;
    }

    /**
     * @param value MAC address in the low 48 bits.
     * @return this.
     */
    public RxeContext macAddress(final long value)
    {
        macAddress = value;
        return this;
    }

    /** @return seed of the generator of the key byte of lkeys/rkeys. */
    public long keySeed()
    {
        return keySeed;
    }

    /**
     * @param value seed for the MR/MW key byte generator (set for reproducible tests).
     * @return this.
     */
    public RxeContext keySeed(final long value)
    {
        keySeed = value;
        return this;
    }

    /** @return completion vectors ({@code num_comp_vectors}): one per engine shard (thread). */
    public int compVectors()
    {
        return compVectors;
    }

    /**
     * Completion vectors, one per engine shard: a CQ created on vector v is filled by shard v only (its one
     * producer), and a QP's CQs and SRQ must share a vector (see {@link io.jrxe.rxe.spi.ShardMap}). Set by the
     * node from its shard count; default 1 (rxe's one tasklet context).
     *
     * @param value vectors, 1..{@link io.jrxe.rxe.spi.ShardMap#MAX_SHARDS}
     * @return this.
     */
    public RxeContext compVectors(final int value)
    {
        compVectors = value;
        return this;
    }

    /**
     * Validate the configuration.
     *
     * @return this.
     * @throws VerbsException naming the first bad value.
     */
    public RxeContext conclude()
    {
        requireRange("maxQpWr", maxQpWr, 1, DEFAULT_MAX_VALUE);
        requireRange("maxSge", maxSge, 1, 32);
        requireRange("maxSgeRd", maxSgeRd, 1, maxSge);
        requireRange("maxSrqSge", maxSrqSge, 1, maxSge);
        requireRange("maxInlineData", maxInlineData, 0, 1 << 16);
        requireRange("maxQp", maxQp, 1, (1 << 24) - MIN_QP_INDEX);
        requireRange("maxCq", maxCq, 1, DEFAULT_MAX_VALUE);
        requireRange("maxCqe", maxCqe, 1, 1 << 22);
        requireRange("maxMr", maxMr, 1, (1 << 23) - 1);
        requireRange("maxMw", maxMw, 0, (1 << 23) - 1);
        requireRange("maxMr + maxMw", maxMr + maxMw, 1, (1 << 24) - 1);
        requireRange("maxPd", maxPd, 1, DEFAULT_MAX_VALUE);
        requireRange("maxAh", maxAh, 1, DEFAULT_MAX_VALUE);
        requireRange("maxSrq", maxSrq, 1, DEFAULT_MAX_VALUE);
        requireRange("maxSrqWr", maxSrqWr, 1, DEFAULT_MAX_VALUE);
        requireRange("maxQpRdAtom", maxQpRdAtom, 0, 255);
        requireRange("maxQpInitRdAtom", maxQpInitRdAtom, 0, 255);
        requireRange("gidTableLength", gidTableLength, 1, 1 << 16);
        requireRange("pkeyTableLength", pkeyTableLength, 1, maxPkeys);
        requireRange("netdevMtu", netdevMtu, 256 + Mtu.RXE_MAX_HDR_LENGTH, 65535);
        requireRange("compVectors", compVectors, 1, io.jrxe.rxe.spi.ShardMap.MAX_SHARDS);
        return this;
    }

    private static void requireRange(final String name, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new VerbsException(Errno.EINVAL,
                "RxeContext." + name + " = " + value + " is outside [" + min + ", " + max + "]");
        }
    }
}
