package io.jrxe.rxe.verbs;

/**
 * A work completion ({@code struct ib_wc}): a reusable mutable object. The application preallocates an array and
 * {@link CompletionQueue#poll(WorkCompletion[])} fills it; the engine fills one scratch instance and hands it to
 * {@link CompletionQueue#post(WorkCompletion, boolean)}, which copies it into the ring. Fluent setters share the
 * getter's name.
 */
public final class WorkCompletion
{
    private long wrId;
    private int status;
    private int opcode;
    private int vendorErr;
    private int byteLen;
    private int immData;
    private int invalidatedRkey;
    private int qpNum;
    private int srcQp;
    private int wcFlags;
    private int pkeyIndex;
    private int slid;
    private int sl;
    private int dlidPathBits;
    private int networkHdrType;
    private int portNum = 1;

    /** @return the wrId of the completed work request. */
    public long wrId()
    {
        return wrId;
    }

    /**
     * @param value wrId.
     * @return this.
     */
    public WorkCompletion wrId(final long value)
    {
        wrId = value;
        return this;
    }

    /** @return {@link WcStatus} code. */
    public int status()
    {
        return status;
    }

    /**
     * @param value {@link WcStatus} code.
     * @return this.
     */
    public WorkCompletion status(final int value)
    {
        status = value;
        return this;
    }

    /** @return {@link WcOpcode} value (undefined when status is not SUCCESS, as in the kernel). */
    public int opcode()
    {
        return opcode;
    }

    /**
     * @param value {@link WcOpcode}.
     * @return this.
     */
    public WorkCompletion opcode(final int value)
    {
        opcode = value;
        return this;
    }

    /** @return vendor error (engine-specific detail of a failed completion). */
    public int vendorErr()
    {
        return vendorErr;
    }

    /**
     * @param value vendor error.
     * @return this.
     */
    public WorkCompletion vendorErr(final int value)
    {
        vendorErr = value;
        return this;
    }

    /** @return bytes transferred (receives, RDMA READ, atomics: 8). */
    public int byteLen()
    {
        return byteLen;
    }

    /**
     * @param value byte count.
     * @return this.
     */
    public WorkCompletion byteLen(final int value)
    {
        byteLen = value;
        return this;
    }

    /** @return immediate data as read big-endian from the ImmDt header; valid with {@link WcFlags#WITH_IMM}. */
    public int immData()
    {
        return immData;
    }

    /**
     * @param value immediate data.
     * @return this.
     */
    public WorkCompletion immData(final int value)
    {
        immData = value;
        return this;
    }

    /** @return rkey invalidated by a SEND with invalidate; valid with {@link WcFlags#WITH_INVALIDATE}. */
    public int invalidatedRkey()
    {
        return invalidatedRkey;
    }

    /**
     * @param value invalidated rkey.
     * @return this.
     */
    public WorkCompletion invalidatedRkey(final int value)
    {
        invalidatedRkey = value;
        return this;
    }

    /** @return local QP number. */
    public int qpNum()
    {
        return qpNum;
    }

    /**
     * @param value local QPN.
     * @return this.
     */
    public WorkCompletion qpNum(final int value)
    {
        qpNum = value;
        return this;
    }

    /** @return source QP number (UD receives). */
    public int srcQp()
    {
        return srcQp;
    }

    /**
     * @param value source QPN.
     * @return this.
     */
    public WorkCompletion srcQp(final int value)
    {
        srcQp = value;
        return this;
    }

    /** @return {@link WcFlags}. */
    public int wcFlags()
    {
        return wcFlags;
    }

    /**
     * @param value {@link WcFlags}.
     * @return this.
     */
    public WorkCompletion wcFlags(final int value)
    {
        wcFlags = value;
        return this;
    }

    /** @return P_Key index (GSI receives). */
    public int pkeyIndex()
    {
        return pkeyIndex;
    }

    /**
     * @param value P_Key index.
     * @return this.
     */
    public WorkCompletion pkeyIndex(final int value)
    {
        pkeyIndex = value;
        return this;
    }

    /** @return source LID (0 on RoCE). */
    public int slid()
    {
        return slid;
    }

    /**
     * @param value source LID.
     * @return this.
     */
    public WorkCompletion slid(final int value)
    {
        slid = value;
        return this;
    }

    /** @return service level (0 on rxe). */
    public int sl()
    {
        return sl;
    }

    /**
     * @param value service level.
     * @return this.
     */
    public WorkCompletion sl(final int value)
    {
        sl = value;
        return this;
    }

    /** @return DLID path bits (0 on RoCE). */
    public int dlidPathBits()
    {
        return dlidPathBits;
    }

    /**
     * @param value path bits.
     * @return this.
     */
    public WorkCompletion dlidPathBits(final int value)
    {
        dlidPathBits = value;
        return this;
    }

    /** @return {@link NetworkType#code()} of a UD receive; valid with {@link WcFlags#WITH_NETWORK_HDR_TYPE}. */
    public int networkHdrType()
    {
        return networkHdrType;
    }

    /**
     * @param value network header type code.
     * @return this.
     */
    public WorkCompletion networkHdrType(final int value)
    {
        networkHdrType = value;
        return this;
    }

    /** @return port number (always 1). */
    public int portNum()
    {
        return portNum;
    }

    /**
     * @param value port number.
     * @return this.
     */
    public WorkCompletion portNum(final int value)
    {
        portNum = value;
        return this;
    }

    /**
     * Zero every field (port number back to 1).
     *
     * @return this.
     */
    public WorkCompletion reset()
    {
        wrId = 0;
        status = 0;
        opcode = 0;
        vendorErr = 0;
        byteLen = 0;
        immData = 0;
        invalidatedRkey = 0;
        qpNum = 0;
        srcQp = 0;
        wcFlags = 0;
        pkeyIndex = 0;
        slid = 0;
        sl = 0;
        dlidPathBits = 0;
        networkHdrType = 0;
        portNum = 1;
        return this;
    }

    /**
     * Copy all fields of another completion.
     *
     * @param other source.
     * @return this.
     */
    public WorkCompletion copyFrom(final WorkCompletion other)
    {
        wrId = other.wrId;
        status = other.status;
        opcode = other.opcode;
        vendorErr = other.vendorErr;
        byteLen = other.byteLen;
        immData = other.immData;
        invalidatedRkey = other.invalidatedRkey;
        qpNum = other.qpNum;
        srcQp = other.srcQp;
        wcFlags = other.wcFlags;
        pkeyIndex = other.pkeyIndex;
        slid = other.slid;
        sl = other.sl;
        dlidPathBits = other.dlidPathBits;
        networkHdrType = other.networkHdrType;
        portNum = other.portNum;
        return this;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        final WcStatus s = WcStatus.of(status);
        return "WorkCompletion{wrId=" + wrId + ", status=" + (null == s ? status : s) +
            ", opcode=" + WcOpcode.name(opcode) + ", byteLen=" + byteLen + ", qpNum=" + qpNum +
            ", srcQp=" + srcQp + ", wcFlags=0x" + Integer.toHexString(wcFlags) + '}';
    }
}
