package io.jrxe.ulp.cm;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.QpType;

/**
 * One IB CM communication (Linux's {@code ib_cm_id}): the comm IDs and transaction ID that name it on the wire,
 * its {@link CmState}, the path and QP parameters exchanged in REQ/REP, and what retransmission needs (the last
 * MAD, the retries left, its timer). Owned by the CM thread: the consumer sets the parameters before
 * {@link CmService#sendReq} / {@link CmService#sendRep} and reads them in its {@link CmHandler} callbacks.
 * <p>
 * Parameters use the wire's encodings: MTU as the IB enum (1 = 256 .. 5 = 4096), timeouts as the 5-bit
 * exponent t of 4.096 µs · 2^t, PSNs and QPNs as 24-bit values, GIDs as two big-endian longs.
 * <p>
 * Starting PSNs follow Linux cm.c, the peer that matters: the Starting PSN a side puts in its REQ or REP is the
 * PSN it expects to <em>receive</em> first (cm.c keeps it as its {@code rq_psn}; the other side sends from it,
 * {@code sq_psn}). So {@link #startingPsn()} is our receive queue's first PSN and {@link #remoteStartingPsn()}
 * our send queue's.
 */
public final class CmConnection
{
    final CmService service;
    final int localCommId;
    CmState state = CmState.IDLE;
    CmHandler handler;
    Object context;
    long transactionId;
    int remoteCommId;
    long remoteCaGuid;
    long serviceId;
    boolean passive;

    long localGidHi;
    long localGidLo;
    long remoteGidHi;
    long remoteGidLo;
    int trafficClass;
    int hopLimit = 64;
    int flowLabel;
    AddressHandle ah;

    QpType qpType = QpType.RC;
    int localQpn;
    int remoteQpn;
    int startingPsn;
    int remoteStartingPsn;
    int responderResources;
    int initiatorDepth;
    int pathMtu = 3;
    int retryCount = 7;
    int rnrRetryCount = 7;
    int localAckTimeout;
    int localCmResponseTimeout;
    int remoteCmResponseTimeout;
    int maxCmRetries;
    int targetAckDelay;
    boolean srq;
    boolean flowControl;
    int qkey;
    int sidrRequestId;
    int peerResponderResources;
    int peerInitiatorDepth;
    boolean peerSrq;
    int peerQkey;

    final byte[] lastMad = new byte[io.jrxe.ulp.cm.mad.MadHeader.MAD_SIZE];
    int lastAttributeId;
    int retriesLeft;
    long retryTimeoutNs;
    CmTimers.Timer timer;

    CmConnection(final CmService service, final int localCommId)
    {
        this.service = service;
        this.localCommId = localCommId;
    }

    /** @return our comm ID (or SIDR request ID) */
    public int localCommId()
    {
        return localCommId;
    }

    /** @return the peer's comm ID, 0 until known */
    public int remoteCommId()
    {
        return remoteCommId;
    }

    /** @return the state */
    public CmState state()
    {
        return state;
    }

    /** @return true for the side that received the REQ */
    public boolean isPassive()
    {
        return passive;
    }

    /** @return the consumer's object */
    public Object context()
    {
        return context;
    }

    /**
     * @param context the consumer's object
     * @return this
     */
    public CmConnection context(final Object context)
    {
        this.context = context;
        return this;
    }

    /**
     * @param handler receives this connection's events
     * @return this
     */
    public CmConnection handler(final CmHandler handler)
    {
        this.handler = handler;
        return this;
    }

    /** @return the service ID */
    public long serviceId()
    {
        return serviceId;
    }

    /**
     * @param serviceId service ID (active side, before the REQ)
     * @return this
     */
    public CmConnection serviceId(final long serviceId)
    {
        this.serviceId = serviceId;
        return this;
    }

    /**
     * The path (a RoCE path is synthesised locally: there is no SA).
     *
     * @param localHi our GID, bytes 0..7
     * @param localLo our GID, bytes 8..15
     * @param remoteHi the peer's GID, bytes 0..7
     * @param remoteLo the peer's GID, bytes 8..15
     * @param trafficClass IP traffic class (TOS)
     * @param hopLimit IP hop limit / TTL
     * @return this
     */
    public CmConnection path(
        final long localHi, final long localLo, final long remoteHi, final long remoteLo, final int trafficClass,
        final int hopLimit)
    {
        this.localGidHi = localHi;
        this.localGidLo = localLo;
        this.remoteGidHi = remoteHi;
        this.remoteGidLo = remoteLo;
        this.trafficClass = trafficClass;
        this.hopLimit = hopLimit;
        return this;
    }

    /**
     * QP parameters of our side, sent in the REQ or REP.
     *
     * @param type RC, UC or UD
     * @param qpn our QPN
     * @param psn our starting PSN: the first PSN we expect to receive
     * @param responderResources incoming RDMA READ/atomic we accept
     * @param initiatorDepth outgoing RDMA READ/atomic we issue
     * @return this
     */
    public CmConnection qp(
        final QpType type, final int qpn, final int psn, final int responderResources, final int initiatorDepth)
    {
        this.qpType = type;
        this.localQpn = qpn;
        this.startingPsn = psn & 0xFF_FFFF;
        this.responderResources = responderResources;
        this.initiatorDepth = initiatorDepth;
        return this;
    }

    /**
     * Transport parameters (REQ, and REP's RNR retry count).
     *
     * @param pathMtu IB MTU enum
     * @param retryCount transport retries (0..7)
     * @param rnrRetryCount RNR retries (0..7, 7 = infinite)
     * @param localAckTimeout QP ACK timeout exponent
     * @param flowControl end-to-end flow control
     * @param srq our QP uses an SRQ
     * @return this
     */
    public CmConnection transport(
        final int pathMtu, final int retryCount, final int rnrRetryCount, final int localAckTimeout,
        final boolean flowControl, final boolean srq)
    {
        this.pathMtu = pathMtu;
        this.retryCount = retryCount;
        this.rnrRetryCount = rnrRetryCount;
        this.localAckTimeout = localAckTimeout;
        this.flowControl = flowControl;
        this.srq = srq;
        return this;
    }

    /**
     * @param qkey Q_Key (UD: sent in the SIDR_REP)
     * @return this
     */
    public CmConnection qkey(final int qkey)
    {
        this.qkey = qkey;
        return this;
    }

    /** @return the peer's QPN (from its REQ, REP or SIDR_REP) */
    public int remoteQpn()
    {
        return remoteQpn;
    }

    /** @return the PSN the peer starts sending with */
    public int remoteStartingPsn()
    {
        return remoteStartingPsn;
    }

    /** @return our QPN */
    public int localQpn()
    {
        return localQpn;
    }

    /** @return our starting PSN */
    public int startingPsn()
    {
        return startingPsn;
    }

    /** @return responder resources (ours) */
    public int responderResources()
    {
        return responderResources;
    }

    /** @return initiator depth (ours) */
    public int initiatorDepth()
    {
        return initiatorDepth;
    }

    /** @return path MTU (IB enum) */
    public int pathMtu()
    {
        return pathMtu;
    }

    /** @return transport retry count */
    public int retryCount()
    {
        return retryCount;
    }

    /** @return RNR retry count */
    public int rnrRetryCount()
    {
        return rnrRetryCount;
    }

    /** @return QP local ACK timeout exponent */
    public int localAckTimeout()
    {
        return localAckTimeout;
    }

    /** @return the peer's GID bytes 0..7 */
    public long remoteGidHi()
    {
        return remoteGidHi;
    }

    /** @return the peer's GID bytes 8..15 */
    public long remoteGidLo()
    {
        return remoteGidLo;
    }

    /** @return our GID bytes 0..7 */
    public long localGidHi()
    {
        return localGidHi;
    }

    /** @return our GID bytes 8..15 */
    public long localGidLo()
    {
        return localGidLo;
    }

    /** @return IP traffic class */
    public int trafficClass()
    {
        return trafficClass;
    }

    /** @return IP hop limit */
    public int hopLimit()
    {
        return hopLimit;
    }

    /** @return Q_Key */
    public int qkey()
    {
        return qkey;
    }

    /** @return the QP type */
    public QpType qpType()
    {
        return qpType;
    }

    /** @return the peer's responder resources (REQ or REP); rdma_cm offers them as our initiator depth */
    public int peerResponderResources()
    {
        return peerResponderResources;
    }

    /** @return the peer's initiator depth (REQ or REP); rdma_cm offers it as our responder resources */
    public int peerInitiatorDepth()
    {
        return peerInitiatorDepth;
    }

    /** @return the peer's QP uses an SRQ */
    public boolean peerSrq()
    {
        return peerSrq;
    }

    /** @return the peer's Q_Key (SIDR_REP, UD REP) */
    public int peerQkey()
    {
        return peerQkey;
    }

    /** @return the peer's flow control flag (REQ) */
    public boolean flowControl()
    {
        return flowControl;
    }

    /** @return the CM response timeout exponent of the peer */
    public int remoteCmResponseTimeout()
    {
        return remoteCmResponseTimeout;
    }

    @Override
    public String toString()
    {
        return "CmConnection{local=0x" + Integer.toHexString(localCommId) + ", remote=0x" +
            Integer.toHexString(remoteCommId) + ", " + state + ", sid=0x" + Long.toHexString(serviceId) + '}';
    }
}
