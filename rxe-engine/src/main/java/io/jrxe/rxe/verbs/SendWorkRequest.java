package io.jrxe.rxe.verbs;

/**
 * A send work request ({@code struct ib_send_wr} with its rdma/atomic/ud/bind extensions): reusable, chained
 * through {@link #next()} to post several in one call. Only the fields the opcode uses are read.
 */
public final class SendWorkRequest
{
    private long wrId;
    private int opcode = WrOpcode.SEND;
    private int sendFlags;
    private final SgeList sgl;
    private int immData;
    private int invalidateRkey;
    private long remoteAddr;
    private int rkey;
    private long compareAdd;
    private long swap;
    private AddressHandle ah;
    private int remoteQpn;
    private int remoteQkey;
    private int remoteSrqn;
    private MemoryWindow mw;
    private MemoryRegion bindMr;
    private long bindAddr;
    private long bindLength;
    private int bindAccess;
    private int bindKey;
    private MemoryRegion regMr;
    private int regKey;
    private int regAccess;
    private SendWorkRequest next;

    /**
     * @param maxSge capacity of the SGE list.
     */
    public SendWorkRequest(final int maxSge)
    {
        sgl = new SgeList(maxSge);
    }

    /** @return id returned in the completion. */
    public long wrId()
    {
        return wrId;
    }

    /**
     * @param value wrId.
     * @return this.
     */
    public SendWorkRequest wrId(final long value)
    {
        wrId = value;
        return this;
    }

    /** @return {@link WrOpcode}. */
    public int opcode()
    {
        return opcode;
    }

    /**
     * @param value {@link WrOpcode}.
     * @return this.
     */
    public SendWorkRequest opcode(final int value)
    {
        opcode = value;
        return this;
    }

    /** @return {@link SendFlags}. */
    public int sendFlags()
    {
        return sendFlags;
    }

    /**
     * @param value {@link SendFlags}.
     * @return this.
     */
    public SendWorkRequest sendFlags(final int value)
    {
        sendFlags = value;
        return this;
    }

    /** @return the gather list (payload, or the 8-byte result buffer of an atomic / the READ target). */
    public SgeList sgl()
    {
        return sgl;
    }

    /** @return immediate data (WITH_IMM opcodes), sent big-endian. */
    public int immData()
    {
        return immData;
    }

    /**
     * @param value immediate data.
     * @return this.
     */
    public SendWorkRequest immData(final int value)
    {
        immData = value;
        return this;
    }

    /** @return rkey to invalidate (SEND_WITH_INV, LOCAL_INV). */
    public int invalidateRkey()
    {
        return invalidateRkey;
    }

    /**
     * @param value rkey to invalidate.
     * @return this.
     */
    public SendWorkRequest invalidateRkey(final int value)
    {
        invalidateRkey = value;
        return this;
    }

    /** @return remote VA (RDMA and atomic). */
    public long remoteAddr()
    {
        return remoteAddr;
    }

    /**
     * @param value remote VA.
     * @return this.
     */
    public SendWorkRequest remoteAddr(final long value)
    {
        remoteAddr = value;
        return this;
    }

    /** @return remote rkey (RDMA and atomic). */
    public int rkey()
    {
        return rkey;
    }

    /**
     * @param value remote rkey.
     * @return this.
     */
    public SendWorkRequest rkey(final int value)
    {
        rkey = value;
        return this;
    }

    /** @return compare value (CMP_AND_SWP) or add value (FETCH_AND_ADD). */
    public long compareAdd()
    {
        return compareAdd;
    }

    /**
     * @param value compare or add operand.
     * @return this.
     */
    public SendWorkRequest compareAdd(final long value)
    {
        compareAdd = value;
        return this;
    }

    /** @return swap value (CMP_AND_SWP) or the value of an ATOMIC_WRITE. */
    public long swap()
    {
        return swap;
    }

    /**
     * @param value swap operand.
     * @return this.
     */
    public SendWorkRequest swap(final long value)
    {
        swap = value;
        return this;
    }

    /** @return address handle (UD/GSI). */
    public AddressHandle ah()
    {
        return ah;
    }

    /**
     * @param value address handle.
     * @return this.
     */
    public SendWorkRequest ah(final AddressHandle value)
    {
        ah = value;
        return this;
    }

    /** @return destination QPN (UD/GSI). */
    public int remoteQpn()
    {
        return remoteQpn;
    }

    /**
     * @param value destination QPN, 24 bits.
     * @return this.
     */
    public SendWorkRequest remoteQpn(final int value)
    {
        remoteQpn = value;
        return this;
    }

    /**
     * @return destination Q_Key (UD; a Q_Key with the high bit set means "use the QP's Q_Key"). Ignored on the
     * GSI QP, which always sends QP1's Q_Key 0x80010000, as rxe does.
     */
    public int remoteQkey()
    {
        return remoteQkey;
    }

    /**
     * @param value Q_Key.
     * @return this.
     */
    public SendWorkRequest remoteQkey(final int value)
    {
        remoteQkey = value;
        return this;
    }

    /** @return the XRC SRQ number the WR targets on an XRC initiator QP ({@code wr.xrc.remote_srqn}). */
    public int remoteSrqn()
    {
        return remoteSrqn;
    }

    /**
     * @param value the remote XRC SRQ number, 24 bits: every packet of the message carries it in its XRCETH and the
     *              target delivers to that SRQ (IBA 9.3.4). Ignored on other QP types.
     * @return this.
     */
    public SendWorkRequest remoteSrqn(final int value)
    {
        remoteSrqn = value;
        return this;
    }

    /** @return window to bind (BIND_MW). */
    public MemoryWindow mw()
    {
        return mw;
    }

    /**
     * Describe a BIND_MW.
     *
     * @param window window to bind.
     * @param mr region to bind it to (null to unbind a type 1 window).
     * @param addr start VA inside the region.
     * @param length length.
     * @param access window rights.
     * @param keyByte new key byte of the window's rkey.
     * @return this.
     */
    public SendWorkRequest bind(
        final MemoryWindow window,
        final MemoryRegion mr,
        final long addr,
        final long length,
        final int access,
        final int keyByte)
    {
        mw = window;
        bindMr = mr;
        bindAddr = addr;
        bindLength = length;
        bindAccess = access;
        bindKey = keyByte;
        return this;
    }

    /** @return region of a BIND_MW. */
    public MemoryRegion bindMr()
    {
        return bindMr;
    }

    /** @return start VA of a BIND_MW. */
    public long bindAddr()
    {
        return bindAddr;
    }

    /** @return length of a BIND_MW. */
    public long bindLength()
    {
        return bindLength;
    }

    /** @return rights of a BIND_MW. */
    public int bindAccess()
    {
        return bindAccess;
    }

    /** @return new key byte of a BIND_MW. */
    public int bindKey()
    {
        return bindKey;
    }

    /**
     * Describe a REG_MR ({@code struct ib_reg_wr}): register a fast-registration region with the page list of its
     * last {@link RxeDevice#mapMrSg}, under a new key and rights, in send-queue order.
     *
     * @param mr     the region (from {@link RxeDevice#allocMr})
     * @param key    its new lkey/rkey: the region's index in the upper 24 bits and a key byte of the consumer's
     *               choice (usually {@code mr.rkey()} after {@link RxeDevice#updateFastRegKey})
     * @param access {@link AccessFlags} to grant
     * @return this
     */
    public SendWorkRequest reg(final MemoryRegion mr, final int key, final int access)
    {
        regMr = mr;
        regKey = key;
        regAccess = access;
        return this;
    }

    /** @return region of a REG_MR. */
    public MemoryRegion regMr()
    {
        return regMr;
    }

    /** @return key of a REG_MR. */
    public int regKey()
    {
        return regKey;
    }

    /** @return rights of a REG_MR. */
    public int regAccess()
    {
        return regAccess;
    }

    /** @return next WR in the chain or null. */
    public SendWorkRequest next()
    {
        return next;
    }

    /**
     * @param value next WR or null.
     * @return this.
     */
    public SendWorkRequest next(final SendWorkRequest value)
    {
        next = value;
        return this;
    }
}
