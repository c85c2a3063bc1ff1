package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SgeList;
import io.jrxe.rxe.verbs.SigAttrs;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A send queue slot: a validated copy of a {@link SendWorkRequest} made at post time, plus the bookkeeping the
 * requester and completer keep while the WQE is in flight. Preallocated per slot; the application thread writes
 * the request part before publishing the slot, the engine thread owns everything after that.
 * <p>
 * Inline sends carry their payload in {@link #inlineData()} (copied at post time, no lkey involved); other sends
 * reference memory through {@link #sgl()}. For UD/GSI the address vector is copied into {@link #av()}, so an
 * address handle may be destroyed while the WQE is outstanding.
 */
public final class SendWqe
{
    /** Transport state: queued, not yet started. */
    public static final int STATE_POSTED = 0;
    /** Transport state: some packets sent. */
    public static final int STATE_PROCESSING = 1;
    /** Transport state: all packets sent, waiting for the ACK/response. */
    public static final int STATE_PENDING = 2;
    /** Transport state: completed (successfully or not). */
    public static final int STATE_DONE = 3;
    /** Transport state: failed; {@link #status()} holds the WC status. */
    public static final int STATE_ERROR = 4;

    /** Shared by every WQE without inline room: an empty buffer nobody writes. */
    private static final UnsafeBuffer NO_INLINE = new UnsafeBuffer(new byte[0]);

    private long wrId;
    private int opcode;
    private int sendFlags;
    private final SgeList sgl;
    private final UnsafeBuffer inlineData;
    private int inlineLength;
    private long length;
    private int immData;
    private int invalidateRkey;
    private long remoteAddr;
    private int rkey;
    private long compareAdd;
    private long swap;
    /** UD/GSI only: a connected QP's WQEs have no address vector (it is the QP's path), and no memory for one. */
    private final AhAttr av;
    private int remoteQpn;
    private int remoteQkey;
    private int remoteSrqn;
    private MwEntry mw;
    private MrEntry bindMr;
    private MrEntry regMr;
    private SigAttrs regSigAttrs;
    private int regKey;
    private int regAccess;
    private long bindAddr;
    private long bindLength;
    private int bindAccess;
    private int bindKey;
    private int bindMwRkey;
    private int bindMrLkey;

    private int state;
    private int status;
    private int firstPsn;
    private int lastPsn;
    private long bytesDone;
    private int sgeIndex;
    private int sgeOffset;
    private long postNs;
    private long requestSentNs;
    private int requestSends;

    /**
     * @param maxSge    SGEs per WQE
     * @param maxInline inline bytes per WQE
     * @param datagram  whether the QP is UD/GSI (its WQEs carry an address vector)
     */
    public SendWqe(final int maxSge, final int maxInline, final boolean datagram)
    {
        sgl = new SgeList(maxSge);
        inlineData = 0 == maxInline ? NO_INLINE : new UnsafeBuffer(new byte[maxInline]);
        av = datagram ? new AhAttr() : null;
    }

    public void fill(final SendWorkRequest wr, final int flags, final long totalLength)
    {
        wrId = wr.wrId();
        opcode = wr.opcode();
        sendFlags = flags;
        length = totalLength;
        immData = wr.immData();
        invalidateRkey = wr.invalidateRkey();
        remoteAddr = wr.remoteAddr();
        rkey = wr.rkey();
        compareAdd = wr.compareAdd();
        swap = wr.swap();
        remoteQpn = wr.remoteQpn();
        remoteQkey = wr.remoteQkey();
        remoteSrqn = wr.remoteSrqn();
        mw = null;
        bindMr = null;
        regMr = null;
        regSigAttrs = null;
        regKey = wr.regKey();
        regAccess = wr.regAccess();
        bindAddr = wr.bindAddr();
        bindLength = wr.bindLength();
        bindAccess = wr.bindAccess();
        bindKey = wr.bindKey();
        inlineLength = 0;
        state = STATE_POSTED;
        status = 0;
        firstPsn = 0;
        lastPsn = 0;
        bytesDone = 0;
        sgeIndex = 0;
        sgeOffset = 0;
        requestSends = 0;
    }

    public SgeList sglForFill()
    {
        return sgl;
    }

    public UnsafeBuffer inlineBuffer()
    {
        return inlineData;
    }

    public void inlineLength(final int value)
    {
        inlineLength = value;
    }

    public AhAttr avForFill()
    {
        return av;
    }

    /** @return wrId. */
    public long wrId()
    {
        return wrId;
    }

    /** @return {@link WrOpcode}. */
    public int opcode()
    {
        return opcode;
    }

    /** @return {@link SendFlags}; SIGNALED is set here when the QP signals all WRs. */
    public int sendFlags()
    {
        return sendFlags;
    }

    /** @return true if a successful completion must be generated (errors always complete). */
    public boolean isSignaled()
    {
        return 0 != (sendFlags & SendFlags.SIGNALED);
    }

    /** @return true if the payload is in {@link #inlineData()}. */
    public boolean isInline()
    {
        return 0 != (sendFlags & SendFlags.INLINE);
    }

    /** @return gather list (not used when inline). */
    public SgeList sgl()
    {
        return sgl;
    }

    /** @return inline payload buffer; valid bytes are [0, {@link #inlineLength()}). */
    public UnsafeBuffer inlineData()
    {
        return inlineData;
    }

    /** @return inline payload length. */
    public int inlineLength()
    {
        return inlineLength;
    }

    /** @return total message length in bytes (sum of the SGEs). */
    public long length()
    {
        return length;
    }

    /** @return immediate data. */
    public int immData()
    {
        return immData;
    }

    /** @return rkey to invalidate. */
    public int invalidateRkey()
    {
        return invalidateRkey;
    }

    /** @return remote VA. */
    public long remoteAddr()
    {
        return remoteAddr;
    }

    /** @return remote rkey. */
    public int rkey()
    {
        return rkey;
    }

    /** @return atomic compare/add operand. */
    public long compareAdd()
    {
        return compareAdd;
    }

    /** @return atomic swap operand / atomic write value. */
    public long swap()
    {
        return swap;
    }

    /** @return UD/GSI address vector copied from the AH. */
    public AhAttr av()
    {
        return av;
    }

    /** @return UD/GSI destination QPN. */
    public int remoteQpn()
    {
        return remoteQpn;
    }

    /** @return UD/GSI Q_Key. */
    public int remoteQkey()
    {
        return remoteQkey;
    }

    /** @return the XRC SRQ number the XRCETH names (XRC initiator QPs). */
    public int remoteSrqn()
    {
        return remoteSrqn;
    }

    /**
     * The key objects a local operation names (the posting side resolves them from the WR's API objects).
     *
     * @param window window of a BIND_MW, or null
     * @param region region of a BIND_MW, or null
     * @param registered region of a REG_MR, or null
     * @return this
     */
    public SendWqe localTargets(final MwEntry window, final MrEntry region, final MrEntry registered)
    {
        mw = window;
        bindMr = region;
        regMr = registered;
        return this;
    }

    /**
     * What the poster saw when it posted a BIND_MW (rxe compares them at execution: a window re-bound or a region
     * re-keyed since then fails the bind).
     *
     * @param mwRkey the window's rkey
     * @param mrLkey the region's lkey, 0 without a region
     * @return this
     */
    public SendWqe bindSnapshot(final int mwRkey, final int mrLkey)
    {
        bindMwRkey = mwRkey;
        bindMrLkey = mrLkey;
        return this;
    }

    /** @return the window's rkey when the BIND_MW was posted. */
    public int bindMwRkey()
    {
        return bindMwRkey;
    }

    /** @return the region's lkey when the BIND_MW was posted. */
    public int bindMrLkey()
    {
        return bindMrLkey;
    }

    /** @return window of a BIND_MW. */
    public MwEntry mw()
    {
        return mw;
    }

    /** @return region of a BIND_MW. */
    public MrEntry bindMr()
    {
        return bindMr;
    }

    /**
     * @param attrs the signature attributes a REG_MR_INTEGRITY carries (the region's when posted), or null
     * @return this
     */
    public SendWqe regSigAttrs(final SigAttrs attrs)
    {
        regSigAttrs = attrs;
        return this;
    }

    /** @return the signature attributes of a REG_MR_INTEGRITY, null for other WQEs. */
    public SigAttrs regSigAttrs()
    {
        return regSigAttrs;
    }

    /** @return region of a REG_MR. */
    public MrEntry regMr()
    {
        return regMr;
    }

    /** @return the key a REG_MR gives the region (index of the region, key byte of the consumer's choice). */
    public int regKey()
    {
        return regKey;
    }

    /** @return the rights a REG_MR grants. */
    public int regAccess()
    {
        return regAccess;
    }

    /** @return start of a BIND_MW. */
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

    /** @return transport state ({@code STATE_*}). */
    public int state()
    {
        return state;
    }

    /**
     * @param value transport state.
     * @return this.
     */
    public SendWqe state(final int value)
    {
        state = value;
        return this;
    }

    /** @return {@link WcStatus} code to report. */
    public int status()
    {
        return status;
    }

    /**
     * @param value {@link WcStatus} code.
     * @return this.
     */
    public SendWqe status(final int value)
    {
        status = value;
        return this;
    }

    /** @return PSN of the first packet. */
    public int firstPsn()
    {
        return firstPsn;
    }

    /**
     * @param value first PSN.
     * @return this.
     */
    public SendWqe firstPsn(final int value)
    {
        firstPsn = value;
        return this;
    }

    /** @return PSN of the last packet. */
    public int lastPsn()
    {
        return lastPsn;
    }

    /**
     * @param value last PSN.
     * @return this.
     */
    public SendWqe lastPsn(final int value)
    {
        lastPsn = value;
        return this;
    }

    /** @return payload bytes already sent (or received for a READ). */
    public long bytesDone()
    {
        return bytesDone;
    }

    /**
     * @param value bytes done.
     * @return this.
     */
    public SendWqe bytesDone(final long value)
    {
        bytesDone = value;
        return this;
    }

    /** @return gather cursor: current SGE. */
    public int sgeIndex()
    {
        return sgeIndex;
    }

    /**
     * @param value current SGE.
     * @return this.
     */
    public SendWqe sgeIndex(final int value)
    {
        sgeIndex = value;
        return this;
    }

    /** @return gather cursor: offset within the current SGE. */
    public int sgeOffset()
    {
        return sgeOffset;
    }

    /**
     * @param value offset within the current SGE.
     * @return this.
     */
    public SendWqe sgeOffset(final int value)
    {
        sgeOffset = value;
        return this;
    }

    /** @return when the engine first saw the WQE posted (its duty-cycle clock), for the QP's latency histograms */
    public long postNs()
    {
        return postNs;
    }

    /**
     * @param value the engine's clock reading when it first saw the WQE posted
     * @return this.
     */
    public SendWqe postNs(final long value)
    {
        postNs = value;
        return this;
    }

    /**
     * @return when the request packet that asks for the acknowledgement (the last packet of a SEND/WRITE, the
     * READ or atomic request) was sent; meaningful when {@link #requestSends()} is 1
     */
    public long requestSentNs()
    {
        return requestSentNs;
    }

    /** @return how often that packet was sent: 0, 1, or 2 for "more than once" (a round trip is then ambiguous) */
    public int requestSends()
    {
        return requestSends;
    }

    /**
     * Notes a send of the packet that asks for the acknowledgement.
     *
     * @param nowNs the engine's clock reading
     * @return this.
     */
    public SendWqe requestSent(final long nowNs)
    {
        if (0 == requestSends)
        {
            requestSentNs = nowNs;
            requestSends = 1;
        }
        else
        {
            requestSends = 2;
        }
        return this;
    }
}
