package io.jrxe.rxe.verbs;

/**
 * Device attributes ({@code struct ib_device_attr}) of an rxe device, fixed at device creation from the
 * {@link RxeContext}. Returned by {@link RxeDevice#queryDevice()}; immutable, so sharing it costs nothing.
 */
public final class DeviceAttr
{
    /** Atomic operations are atomic with respect to this HCA only ({@code IB_ATOMIC_HCA}). */
    public static final int ATOMIC_HCA = 1;

    private final long nodeGuid;
    private final long sysImageGuid;
    private final int vendorId;
    private final long maxMrSize;
    private final long pageSizeCap;
    private final int maxQp;
    private final int maxQpWr;
    private final int maxSendSge;
    private final int maxRecvSge;
    private final int maxSgeRd;
    private final int maxCq;
    private final int maxCqe;
    private final int maxMr;
    private final int maxMw;
    private final int maxPd;
    private final int maxQpRdAtom;
    private final int maxQpInitRdAtom;
    private final int maxResRdAtom;
    private final int maxAh;
    private final int maxSrq;
    private final int maxSrqWr;
    private final int maxSrqSge;
    private final int maxFastRegPageListLen;
    private final int maxPkeys;
    private final int localCaAckDelay;
    private final int maxInlineData;

    DeviceAttr(final RxeContext ctx)
    {
        nodeGuid = eui64(ctx.macAddress());
        sysImageGuid = nodeGuid;
        vendorId = ctx.vendorId();
        maxMrSize = ctx.maxMrSize();
        pageSizeCap = ctx.pageSizeCap();
        maxQp = ctx.maxQp();
        maxQpWr = ctx.maxQpWr();
        maxSendSge = ctx.maxSge();
        maxRecvSge = ctx.maxSge();
        maxSgeRd = ctx.maxSgeRd();
        maxCq = ctx.maxCq();
        maxCqe = ctx.maxCqe();
        maxMr = ctx.maxMr();
        maxMw = ctx.maxMw();
        maxPd = ctx.maxPd();
        maxQpRdAtom = ctx.maxQpRdAtom();
        maxQpInitRdAtom = ctx.maxQpInitRdAtom();
        maxResRdAtom = ctx.maxResRdAtom();
        maxAh = ctx.maxAh();
        maxSrq = ctx.maxSrq();
        maxSrqWr = ctx.maxSrqWr();
        maxSrqSge = ctx.maxSrqSge();
        maxFastRegPageListLen = ctx.maxFastRegPageListLen();
        maxPkeys = ctx.maxPkeys();
        localCaAckDelay = ctx.localCaAckDelay();
        maxInlineData = ctx.maxInlineData();
    }

    /**
     * Modified EUI-64 of a MAC (RFC 4291 App. A): insert FF:FE in the middle and flip the universal/local bit.
     * rxe derives the node GUID and the link-local default GID this way.
     *
     * @param mac MAC in the low 48 bits.
     * @return the EUI-64.
     */
    public static long eui64(final long mac)
    {
        final long hi = (mac >>> 24) & 0xffffffL;
        final long lo = mac & 0xffffffL;
        return ((hi << 40) | (0xfffeL << 24) | lo) ^ (0x02L << 56);
    }

    /** @return node GUID (EUI-64 of the netdev MAC). */
    public long nodeGuid()
    {
        return nodeGuid;
    }

    /** @return system image GUID. */
    public long sysImageGuid()
    {
        return sysImageGuid;
    }

    /** @return vendor id. */
    public int vendorId()
    {
        return vendorId;
    }

    /** @return max MR size, unsigned. */
    public long maxMrSize()
    {
        return maxMrSize;
    }

    /** @return page size capability mask. */
    public long pageSizeCap()
    {
        return pageSizeCap;
    }

    /** @return max QPs. */
    public int maxQp()
    {
        return maxQp;
    }

    /** @return max WRs per work queue. */
    public int maxQpWr()
    {
        return maxQpWr;
    }

    /** @return max SGEs per send WR. */
    public int maxSendSge()
    {
        return maxSendSge;
    }

    /** @return max SGEs per receive WR. */
    public int maxRecvSge()
    {
        return maxRecvSge;
    }

    /** @return max SGEs per RDMA READ WR. */
    public int maxSgeRd()
    {
        return maxSgeRd;
    }

    /** @return max CQs. */
    public int maxCq()
    {
        return maxCq;
    }

    /** @return max entries per CQ. */
    public int maxCqe()
    {
        return maxCqe;
    }

    /** @return max MRs. */
    public int maxMr()
    {
        return maxMr;
    }

    /** @return max MWs. */
    public int maxMw()
    {
        return maxMw;
    }

    /** @return max PDs. */
    public int maxPd()
    {
        return maxPd;
    }

    /** @return max responder RDMA READ/atomic depth per QP. */
    public int maxQpRdAtom()
    {
        return maxQpRdAtom;
    }

    /** @return max initiator RDMA READ/atomic depth per QP. */
    public int maxQpInitRdAtom()
    {
        return maxQpInitRdAtom;
    }

    /** @return total responder RDMA READ/atomic resources. */
    public int maxResRdAtom()
    {
        return maxResRdAtom;
    }

    /** @return atomic capability ({@link #ATOMIC_HCA}). */
    public int atomicCap()
    {
        return ATOMIC_HCA;
    }

    /** @return max AHs. */
    public int maxAh()
    {
        return maxAh;
    }

    /** @return max SRQs. */
    public int maxSrq()
    {
        return maxSrq;
    }

    /** @return max WRs per SRQ. */
    public int maxSrqWr()
    {
        return maxSrqWr;
    }

    /** @return max SGEs per SRQ WR. */
    public int maxSrqSge()
    {
        return maxSrqSge;
    }

    /** @return max fast-registration page list length. */
    public int maxFastRegPageListLen()
    {
        return maxFastRegPageListLen;
    }

    /** @return max P_Keys. */
    public int maxPkeys()
    {
        return maxPkeys;
    }

    /** @return local CA ACK delay exponent. */
    public int localCaAckDelay()
    {
        return localCaAckDelay;
    }

    /** @return capability bits ({@link DeviceCapFlags}), 64 bits as in {@code device_cap_flags_ex}. */
    public long deviceCapFlags()
    {
        return DeviceCapFlags.JRXE;
    }

    /** @return max inline data per send WR. */
    public int maxInlineData()
    {
        return maxInlineData;
    }
}
