package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.cm.CmConnection;
import io.jrxe.ulp.cm.CmHandler;
import io.jrxe.ulp.cm.CmService;
import io.jrxe.ulp.cm.CmState;
import io.jrxe.ulp.cm.mad.CmaHeader;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import io.jrxe.ulp.cm.mad.SidrStatus;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * An RDMA CM identifier ({@code struct rdma_cm_id}): the socket-like handle through which an application binds,
 * resolves, listens, connects, accepts and disconnects, and which carries the QP, its PD and CQs. Control calls
 * are thread-safe and throw {@link RdmaCmException} with librdmacm's errno; their results arrive as
 * {@link CmEvent}s on the id's {@link EventChannel}, or, for a synchronous id (created without a channel), are
 * waited for by the call itself, as librdmacm does. The data calls of {@code rdma_verbs.h} are in
 * {@link RdmaVerbs}.
 * <pre>
 *   active:  IDLE -resolveAddr-> ADDR_QUERY -> ADDR_RESOLVED -resolveRoute-> ROUTE_RESOLVED -connect-> CONNECT
 *            (REQ/SIDR_REQ ... ESTABLISHED) -disconnect-> DISCONNECT
 *   passive: IDLE -bindAddr-> ADDR_BOUND -listen-> LISTEN ; each REQ makes a new id in CONNECT (CONNECT_REQUEST),
 *            which accept()s or reject()s
 * </pre>
 * Addressing is IPv4 over RoCEv2: the GID is the IPv4-mapped address at index {@link RoceNode#GID_INDEX_IPV4};
 * rdma_cm's 36-byte header (Annex A11) carries the addresses and the source port in the REQ's private data.
 */
public final class CmId
{
    /** rdma_cm's Q_Key for the UDP port space ({@code RDMA_UDP_QKEY}). */
    public static final int RDMA_UDP_QKEY = 0x0123_4567;
    /** The port rdma_cm ids live on. */
    public static final int PORT_NUM = RxeDevice.PORT;

    enum State
    {
        IDLE, ADDR_QUERY, ADDR_RESOLVED, ROUTE_QUERY, ROUTE_RESOLVED, CONNECT, DISCONNECT, ADDR_BOUND, LISTEN,
        DEVICE_REMOVAL, DESTROYING
    }

    private final RdmaCm rdmaCm;
    private final CmService cm;
    private final RxeDevice device;
    private final PortSpace ps;
    private final QpType qpType;
    private final boolean sync;
    private final Object context;
    private EventChannel channel;
    private State state = State.IDLE;
    private int localIp;
    private int localPort;
    private int remoteIp;
    private int remotePort;
    private int ackTimeout = -1;
    private int tos;
    private boolean reuseAddr;
    private QueuePair qp;
    private ProtectionDomain pd;
    private boolean ownsPd;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private CompletionChannel sendChannel;
    private CompletionChannel recvChannel;
    private boolean ownsCqs;
    private int qkey = RDMA_UDP_QKEY;
    private CmConnection conn;
    private CmId listener;
    private int backlog;
    private int pendingRequests;
    private boolean requestOpen;
    private boolean disconnectReported;
    private ConnParam established;
    /** The CONNECT_REQUEST's values, what accept(null) answers with (librdmacm keeps them per id for any id). */
    private ConnParam requestParam;
    private QpInitAttr listenQpInit;
    private ProtectionDomain listenPd;
    private int unacked;
    private final Handler handler = new Handler();
    final RdmaVerbs.Scratch scratch = new RdmaVerbs.Scratch();

    CmId(final RdmaCm rdmaCm, final EventChannel channel, final Object context, final PortSpace ps,
        final QpType qpType)
    {
        this.rdmaCm = rdmaCm;
        this.cm = rdmaCm.cm();
        this.device = rdmaCm.device();
        this.sync = null == channel;
        this.channel = sync ? new EventChannel() : channel;
        this.context = context;
        this.ps = ps;
        this.qpType = qpType;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Accessors
    // ---------------------------------------------------------------------------------------------------------

    /** @return the verbs device ({@code id->verbs}) */
    public RxeDevice verbs()
    {
        return device;
    }

    /** @return the QP, or null ({@code id->qp}) */
    public synchronized QueuePair qp()
    {
        return qp;
    }

    /** @return the PD of the QP, or null */
    public synchronized ProtectionDomain pd()
    {
        return pd;
    }

    /** @return the send CQ */
    public synchronized CompletionQueue sendCq()
    {
        return sendCq;
    }

    /** @return the receive CQ */
    public synchronized CompletionQueue recvCq()
    {
        return recvCq;
    }

    /** @return the send CQ's completion channel (when the id made the CQs) */
    public synchronized CompletionChannel sendCqChannel()
    {
        return sendChannel;
    }

    /** @return the receive CQ's completion channel (when the id made the CQs) */
    public synchronized CompletionChannel recvCqChannel()
    {
        return recvChannel;
    }

    /** @return the port space */
    public PortSpace portSpace()
    {
        return ps;
    }

    /** @return the QP type */
    public QpType qpType()
    {
        return qpType;
    }

    /** @return the caller's object */
    public Object context()
    {
        return context;
    }

    /** @return the event channel (a private one for a synchronous id) */
    public synchronized EventChannel channel()
    {
        return channel;
    }

    /** @return the port number (1) */
    public int portNum()
    {
        return PORT_NUM;
    }

    /** @return local address and port (after bind or resolve) */
    public synchronized InetSocketAddress localAddress()
    {
        return new InetSocketAddress(toInet(localIp), localPort);
    }

    /** @return remote address and port (after resolve, or of a request) */
    public synchronized InetSocketAddress remoteAddress()
    {
        return new InetSocketAddress(toInet(remoteIp), remotePort);
    }

    /** @return the Q_Key of the id's UD QP */
    public int qkey()
    {
        return qkey;
    }

    synchronized boolean reuseAddr()
    {
        return reuseAddr;
    }

    synchronized boolean isListening()
    {
        return State.LISTEN == state;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Options
    // ---------------------------------------------------------------------------------------------------------

    /**
     * {@code RDMA_OPTION_ID_ACK_TIMEOUT}: the QP's local ACK timeout exponent, instead of the path's.
     *
     * @param timeout 0..31
     */
    public synchronized void setAckTimeout(final int timeout)
    {
        if (timeout < 0 || timeout > 31)
        {
            throw new RdmaCmException(Errno.EINVAL, "ACK timeout is a 5-bit exponent (0..31), got " + timeout);
        }
        this.ackTimeout = timeout;
    }

    /**
     * {@code RDMA_OPTION_ID_TOS}: the IP type of service of the connection (the GRH traffic class).
     *
     * @param tos 0..255
     */
    public synchronized void setTos(final int tos)
    {
        if (tos < 0 || tos > 255)
        {
            throw new RdmaCmException(Errno.EINVAL, "TOS is one byte, got " + tos);
        }
        this.tos = tos;
    }

    /**
     * {@code RDMA_OPTION_ID_REUSEADDR}: the port may be bound again while this id holds it (not listening).
     *
     * @param reuse allow reuse
     */
    public synchronized void setReuseAddr(final boolean reuse)
    {
        if (State.IDLE != state)
        {
            throw new RdmaCmException(Errno.EINVAL, "set REUSEADDR before binding the id");
        }
        this.reuseAddr = reuse;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Addressing
    // ---------------------------------------------------------------------------------------------------------

    /**
     * {@code rdma_bind_addr}: take a local address (this node's, or the wildcard) and a port (0: ephemeral).
     *
     * @param address local address and port
     */
    public synchronized void bindAddr(final InetSocketAddress address)
    {
        if (State.IDLE != state)
        {
            throw new RdmaCmException(Errno.EINVAL, "bind needs a new id; this one is " + state);
        }
        final int ip = ipv4Of(address.getAddress());
        if (0 != ip && ip != rdmaCm.ipv4Address())
        {
            throw new RdmaCmException(Errno.EADDRNOTAVAIL, address.getAddress().getHostAddress() +
                " is not this node's address (" + toInet(rdmaCm.ipv4Address()).getHostAddress() + ")");
        }
        localPort = rdmaCm.bind(this, ps, address.getPort(), reuseAddr);
        localIp = rdmaCm.ipv4Address();
        state = State.ADDR_BOUND;
    }

    /**
     * {@code rdma_resolve_addr}: find the peer's MAC through the node's ARP, binding the id first if needed.
     * ADDR_RESOLVED, or ADDR_ERROR (-ETIMEDOUT after {@code timeoutMs}, -EHOSTUNREACH if ARP failed).
     *
     * @param src local address, or null
     * @param dst the peer and its port
     * @param timeoutMs how long ARP may take
     */
    public void resolveAddr(final InetSocketAddress src, final InetSocketAddress dst, final int timeoutMs)
    {
        final int ip;
        synchronized (this)
        {
            if (State.IDLE != state && State.ADDR_BOUND != state)
            {
                throw new RdmaCmException(Errno.EINVAL, "resolve_addr needs an idle or bound id; this one is " +
                    state);
            }
            if (null == dst || dst.isUnresolved())
            {
                throw new RdmaCmException(Errno.EINVAL, "resolve_addr needs a resolved destination address");
            }
            ip = ipv4Of(dst.getAddress());
            if (0 == ip)
            {
                throw new RdmaCmException(Errno.EINVAL, "destination " + dst + " is not an IPv4 unicast address");
            }
            if (State.IDLE == state)
            {
                bindAddr(null == src ? new InetSocketAddress(0) : src);
            }
            remoteIp = ip;
            remotePort = dst.getPort();
            state = State.ADDR_QUERY;
        }
        final long deadline = cm.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, timeoutMs));
        cm.submit(() -> arpAttempt(ip, deadline));
        awaitSync(CmEventType.ADDR_RESOLVED);
    }

    private void arpAttempt(final int ip, final long deadline)
    {
        if (ip == rdmaCm.ipv4Address())
        {
            addrResult(0);
            return;
        }
        final boolean queued = device.invoke(() ->
        {
            final boolean known = rdmaCm.stack().resolve4(ip);
            final boolean waiting = !known && rdmaCm.stack().awaitingNeighbor4(ip);
            cm.submit(() -> arpAnswer(ip, deadline, known, waiting));
        });
        if (!queued)
        {
            cm.at(cm.nanoTime() + 1_000_000L, () -> arpAttempt(ip, deadline));
        }
    }

    private void arpAnswer(final int ip, final long deadline, final boolean known, final boolean waiting)
    {
        if (known)
        {
            addrResult(0);
        }
        else if (!waiting)
        {
            addrResult(-Errno.EHOSTUNREACH);
        }
        else if (cm.nanoTime() >= deadline)
        {
            addrResult(-Errno.ETIMEDOUT);
        }
        else
        {
            cm.at(cm.nanoTime() + 1_000_000L, () -> arpAttempt(ip, deadline));
        }
    }

    private void addrResult(final int status)
    {
        synchronized (this)
        {
            if (State.ADDR_QUERY != state)
            {
                return;
            }
            state = 0 == status ? State.ADDR_RESOLVED : State.ADDR_BOUND;
        }
        deliver(0 == status ? CmEventType.ADDR_RESOLVED : CmEventType.ADDR_ERROR, status, null, null, 0, null);
    }

    /**
     * {@code rdma_resolve_route}: on RoCE the path is made locally (there is no SA): ROUTE_RESOLVED, or
     * ROUTE_ERROR (-ENETUNREACH) while the port is down.
     *
     * @param timeoutMs unused on RoCE (kept for librdmacm's signature)
     */
    public void resolveRoute(final int timeoutMs)
    {
        synchronized (this)
        {
            if (State.ADDR_RESOLVED != state)
            {
                throw new RdmaCmException(Errno.EINVAL, "resolve_route needs a resolved address; the id is " + state);
            }
            state = State.ROUTE_QUERY;
        }
        cm.submit(() ->
        {
            final boolean up = PortState.ACTIVE == device.queryPort(PORT_NUM, new PortAttr()).state();
            synchronized (this)
            {
                if (State.ROUTE_QUERY != state)
                {
                    return;
                }
                state = up ? State.ROUTE_RESOLVED : State.ADDR_RESOLVED;
            }
            deliver(up ? CmEventType.ROUTE_RESOLVED : CmEventType.ROUTE_ERROR, up ? 0 : -101, null, null, 0, null);
        });
        awaitSync(CmEventType.ROUTE_RESOLVED);
    }

    // ---------------------------------------------------------------------------------------------------------
    // QP
    // ---------------------------------------------------------------------------------------------------------

    /**
     * {@code rdma_create_qp}: a QP of the id's type on its device. Missing CQs are made, each with a completion
     * channel (what {@link RdmaVerbs#getSendComp} and {@link RdmaVerbs#getRecvComp} wait on). An RC/UC QP goes
     * to INIT; a UD QP up to RTS with the id's Q_Key.
     *
     * @param pd the PD, or null for one of the id's own
     * @param init capabilities and CQs (its type is set to the id's)
     * @return the QP
     */
    public synchronized QueuePair createQp(final ProtectionDomain pd, final QpInitAttr init)
    {
        if (null != qp)
        {
            throw new RdmaCmException(Errno.EINVAL, "the id has a QP already");
        }
        this.pd = null == pd ? device.allocPd() : pd;
        this.ownsPd = null == pd;
        try
        {
            if (null == init.sendCq() || null == init.recvCq())
            {
                final int depth = Math.max(1, init.cap().maxSendWr() + init.cap().maxRecvWr());
                sendChannel = device.createCompChannel();
                recvChannel = device.createCompChannel();
                sendCq = device.createCq(new CqInitAttr().cqe(Math.max(1, init.cap().maxSendWr())).channel(sendChannel));
                recvCq = device.createCq(new CqInitAttr().cqe(Math.max(1, init.cap().maxRecvWr())).channel(recvChannel));
                ownsCqs = depth > 0;
                init.sendCq(sendCq).recvCq(recvCq);
            }
            else
            {
                sendCq = init.sendCq();
                recvCq = init.recvCq();
            }
            qp = device.createQp(this.pd, init.qpType(qpType));
            if (QpType.UD == qpType)
            {
                QpTransitions.datagramUp(device, qp, qkey);
            }
            else
            {
                QpTransitions.init(device, qp, 0);
            }
            return qp;
        }
        catch (final VerbsException e)
        {
            releaseQp();
            throw new RdmaCmException(e.errno(), "create_qp: " + e.getMessage());
        }
    }

    /** {@code rdma_destroy_qp}. */
    public synchronized void destroyQp()
    {
        releaseQp();
    }

    private void releaseQp()
    {
        if (null != qp)
        {
            device.destroyQp(qp);
            qp = null;
        }
        if (ownsCqs)
        {
            device.destroyCq(sendCq);
            device.destroyCq(recvCq);
            device.destroyCompChannel(sendChannel);
            device.destroyCompChannel(recvChannel);
            ownsCqs = false;
        }
        sendCq = null;
        recvCq = null;
        sendChannel = null;
        recvChannel = null;
        if (ownsPd && null != pd)
        {
            device.deallocPd(pd);
        }
        pd = null;
        ownsPd = false;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Passive side
    // ---------------------------------------------------------------------------------------------------------

    /**
     * {@code rdma_listen}: take connection requests (REQ, or SIDR_REQ for UD) on the bound port.
     *
     * @param backlog requests that may wait for accept/reject at once (0: 1024)
     */
    public void listen(final int backlog)
    {
        synchronized (this)
        {
            if (State.IDLE == state)
            {
                bindAddr(new InetSocketAddress(0));
            }
            if (State.ADDR_BOUND != state)
            {
                throw new RdmaCmException(Errno.EINVAL, "listen needs a bound id; this one is " + state);
            }
            this.backlog = backlog <= 0 ? 1024 : backlog;
            state = State.LISTEN;
        }
        final long serviceId = ps.serviceId(localPort);
        final int[] result = new int[1];
        runOnCm(() -> result[0] = cm.listen(serviceId, handler) ? 0 : -Errno.EADDRINUSE);
        if (0 != result[0])
        {
            synchronized (this)
            {
                state = State.ADDR_BOUND;
            }
            throw new RdmaCmException(Errno.EADDRINUSE, "service 0x" + Long.toHexString(serviceId) + " has a listener");
        }
    }

    /**
     * Remember what QP {@link #getRequest()} makes for each new id (as {@code rdma_create_ep} on a passive
     * address does).
     *
     * @param pd the PD, or null
     * @param init the QP's attributes, or null for none
     */
    public synchronized void requestQpAttributes(final ProtectionDomain pd, final QpInitAttr init)
    {
        this.listenPd = pd;
        this.listenQpInit = init;
    }

    /**
     * {@code rdma_get_request}: on a synchronous listening id, wait for the next connection request.
     *
     * @return the new id (with a QP if {@link #requestQpAttributes} was given)
     * @throws InterruptedException if interrupted
     */
    public CmId getRequest() throws InterruptedException
    {
        if (!sync)
        {
            throw new RdmaCmException(Errno.EINVAL, "get_request is for synchronous ids (created without a channel)");
        }
        synchronized (this)
        {
            if (State.LISTEN != state)
            {
                throw new RdmaCmException(Errno.EINVAL, "get_request needs a listening id");
            }
        }
        while (true)
        {
            final CmEvent event = channel.getEvent();
            channel.ackEvent(event);
            if (CmEventType.CONNECT_REQUEST == event.type())
            {
                final CmId child = event.id();
                child.established = event.param();
                final QpInitAttr init;
                final ProtectionDomain requestPd;
                synchronized (this)
                {
                    init = listenQpInit;
                    requestPd = listenPd;
                }
                if (null != init)
                {
                    child.createQp(requestPd, copy(init));
                }
                return child;
            }
        }
    }

    /**
     * {@code rdma_accept}: answer a connection request. RC/UC: the QP goes to RTR and RTS with the request's
     * values and a REP goes out; ESTABLISHED follows the peer's RTU. UD: a SIDR_REP with the QP's number.
     *
     * @param param our parameters, or null for the request's, limited to the device's maxima
     */
    public void accept(final ConnParam param)
    {
        final ConnParam p;
        synchronized (this)
        {
            if (!requestOpen || null == conn)
            {
                throw new RdmaCmException(Errno.EINVAL, "accept needs an id from a CONNECT_REQUEST not yet answered");
            }
            p = null == param ? defaultAcceptParam() : param;
            checkPrivateData(p, QpType.UD == qpType ? ConnParam.MAX_SIDR_REP_PRIVATE_DATA :
                ConnParam.MAX_REP_PRIVATE_DATA, "accept");
            if (null == qp && 0 == p.qpNum())
            {
                throw new RdmaCmException(Errno.EINVAL, "accept needs a QP (create_qp) or a qp_num in the parameters");
            }
            requestOpen = false;
        }
        releaseRequestSlot();
        if (QpType.UD == qpType)
        {
            final int qpn = null == qp ? p.qpNum() : qp.qpn();
            final byte[] data = p.privateData();
            runOnCm(() ->
            {
                conn.qp(QpType.UD, qpn, 0, 0, 0).qkey(qkey);
                cm.sendSidrRep(conn, SidrStatus.SUCCESS, data, data.length);
            });
            return;
        }
        final CmConnection c = conn;
        final int psn = ThreadLocalRandom.current().nextInt() & 0xFF_FFFF;
        final int rr = p.responderResources();
        final int id = p.initiatorDepth();
        if (rr > device.queryDevice().maxQpRdAtom() || id > device.queryDevice().maxQpInitRdAtom())
        {
            throw new RdmaCmException(Errno.EINVAL, "responder resources " + rr + " / initiator depth " + id +
                " exceed the device's " + device.queryDevice().maxQpRdAtom() + " / " +
                device.queryDevice().maxQpInitRdAtom());
        }
        final Mtu mtu = Mtu.ofCode(Math.min(c.pathMtu(), activeMtu().code()));
        if (null != qp)
        {
            try
            {
                QpTransitions.init(device, qp, QpTransitions.access(rr));
                QpTransitions.rtr(device, qp, c.remoteGidHi(), c.remoteGidLo(), RoceNode.GID_INDEX_IPV4,
                    c.hopLimit(), c.trafficClass(), c.remoteQpn(), psn, mtu, rr);
                // cm.c's convention: a Starting PSN is what its sender expects to receive (REP: psn, above);
                // we send from the REQ's
                final int timeout = ackTimeout >= 0 ? ackTimeout : c.localAckTimeout();
                QpTransitions.rts(device, qp, c.remoteStartingPsn(), timeout, c.retryCount(), c.rnrRetryCount(),
                    id);
            }
            catch (final VerbsException e)
            {
                runOnCm(() -> cm.sendRej(c, RejReason.CONSUMER_DEFINED, null, 0));
                throw new RdmaCmException(e.errno(), "accept: the QP refused the request's values: " + e.getMessage());
            }
        }
        final int qpn = null == qp ? p.qpNum() : qp.qpn();
        final byte[] data = p.privateData();
        runOnCm(() ->
        {
            c.qp(qpType, qpn, psn, rr, id).transport(mtu.code(), c.retryCount(), p.rnrRetryCount(),
                c.localAckTimeout(), p.flowControl(), p.srq() || (null != qp && null != qp.srq()));
            cm.sendRep(c, data, data.length);
        });
        awaitSync(CmEventType.ESTABLISHED);
    }

    /**
     * {@code rdma_reject}: refuse a connection request (REJ reason 28, consumer defined, with the private data;
     * a SIDR_REP with status REJECT for UD).
     *
     * @param privateData up to 148 bytes (136 for UD), or null
     */
    public void reject(final byte[] privateData)
    {
        final byte[] data = null == privateData ? new byte[0] : privateData.clone();
        synchronized (this)
        {
            if (!requestOpen || null == conn)
            {
                throw new RdmaCmException(Errno.EINVAL, "reject needs an id from a CONNECT_REQUEST not yet answered");
            }
            final int max = QpType.UD == qpType ? ConnParam.MAX_SIDR_REP_PRIVATE_DATA : ConnParam.MAX_REJ_PRIVATE_DATA;
            if (data.length > max)
            {
                throw new RdmaCmException(Errno.EINVAL, "reject private data is " + data.length + " bytes; at most " +
                    max + " fit");
            }
            requestOpen = false;
        }
        releaseRequestSlot();
        final CmConnection c = conn;
        runOnCm(() ->
        {
            if (QpType.UD == qpType)
            {
                cm.sendSidrRep(c, SidrStatus.REJECT, data, data.length);
            }
            else if (c.state().isConnecting())
            {
                cm.sendRej(c, RejReason.CONSUMER_DEFINED, data, data.length);
            }
        });
    }

    // ---------------------------------------------------------------------------------------------------------
    // Active side
    // ---------------------------------------------------------------------------------------------------------

    /**
     * {@code rdma_connect}: send the REQ (RC/UC) or SIDR_REQ (UD) with rdma_cm's header and the private data.
     * ESTABLISHED when connected (CONNECT_RESPONSE first for an id without a QP), else REJECTED, UNREACHABLE or
     * CONNECT_ERROR.
     *
     * @param param responder resources, initiator depth, retry counts, private data (56 bytes; 180 for UD); null
     *              for librdmacm's defaults: the device's maximum responder resources and initiator depth, retry 7,
     *              RNR retry 7
     */
    public void connect(final ConnParam param)
    {
        final ConnParam p = null == param ? defaultConnectParam() : param;
        final byte[] data;
        final int sgid = RoceNode.GID_INDEX_IPV4;
        synchronized (this)
        {
            if (State.ROUTE_RESOLVED != state)
            {
                throw new RdmaCmException(Errno.EINVAL, "connect needs a resolved route; the id is " + state);
            }
            final boolean ud = QpType.UD == qpType;
            checkPrivateData(p, ud ? ConnParam.MAX_SIDR_REQ_PRIVATE_DATA : ConnParam.MAX_REQ_PRIVATE_DATA, "connect");
            if (!ud && null == qp && 0 == p.qpNum())
            {
                throw new RdmaCmException(Errno.EINVAL, "connect needs a QP (create_qp) or a qp_num in the parameters");
            }
            if (p.responderResources() > device.queryDevice().maxQpRdAtom() ||
                p.initiatorDepth() > device.queryDevice().maxQpInitRdAtom() ||
                p.retryCount() < 0 || p.retryCount() > 7 || p.rnrRetryCount() < 0 || p.rnrRetryCount() > 7)
            {
                throw new RdmaCmException(Errno.EINVAL, "connect parameters out of range: " + p);
            }
            data = cmaHeader(p.privateData());
            state = State.CONNECT;
            disconnectReported = false;
        }
        final int qpn = null == qp ? p.qpNum() : qp.qpn();
        final int psn = ThreadLocalRandom.current().nextInt() & 0xFF_FFFF;
        final int timeout = ackTimeout >= 0 ? ackTimeout : cm.context().packetLifetime() + 1;
        final int mtu = activeMtu().code();
        final long serviceId = ps.serviceId(remotePort);
        runOnCm(() ->
        {
            final CmConnection c = cm.create(handler);
            conn = c;
            c.serviceId(serviceId).path(0, gidLo(localIp), 0, gidLo(remoteIp), tos, 64);
            if (QpType.UD == qpType)
            {
                c.qkey(qkey);
                cm.sendSidrReq(c, data, data.length, sgid);
            }
            else
            {
                c.qp(qpType, qpn, psn, p.responderResources(), p.initiatorDepth())
                    .transport(mtu, p.retryCount(), p.rnrRetryCount(), timeout, p.flowControl(),
                        p.srq() || (null != qp && null != qp.srq()));
                cm.sendReq(c, data, data.length, sgid);
            }
        });
        awaitSync(null == qp && QpType.UD != qpType ? CmEventType.CONNECT_RESPONSE : CmEventType.ESTABLISHED);
    }

    /**
     * {@code rdma_establish}: after CONNECT_RESPONSE on an id without a QP, send the RTU.
     */
    public void establish()
    {
        final CmConnection c;
        synchronized (this)
        {
            c = conn;
            if (null == c || State.CONNECT != state)
            {
                throw new RdmaCmException(Errno.EINVAL, "establish follows CONNECT_RESPONSE");
            }
        }
        runOnCm(() ->
        {
            if (CmState.REP_RCVD == c.state())
            {
                cm.sendRtu(c, null, 0);
            }
        });
    }

    /**
     * {@code rdma_disconnect}: the QP goes to ERR (its work requests flush) and a DREQ goes out, or the DREP if
     * the peer disconnected first. DISCONNECTED follows (once per connection).
     */
    public void disconnect()
    {
        final CmConnection c;
        synchronized (this)
        {
            c = conn;
            if (null == c || (State.CONNECT != state && State.DISCONNECT != state))
            {
                throw new RdmaCmException(Errno.EINVAL, "disconnect needs a connection; the id is " + state);
            }
            if (QpType.UD == qpType)
            {
                return;
            }
            QpTransitions.error(device, qp);
        }
        runOnCm(() ->
        {
            switch (c.state())
            {
                case ESTABLISHED:
                case REP_SENT:
                case MRA_REP_RCVD:
                    cm.sendDreq(c, null, 0);
                    break;
                case DREQ_RCVD:
                    cm.sendDrep(c, null, 0);
                    break;
                default:
                    break;
            }
        });
    }

    /**
     * {@code rdma_migrate_id}: move the id to another channel; its events must all be acknowledged.
     *
     * @param to the new channel
     */
    public synchronized void migrate(final EventChannel to)
    {
        if (unacked > 0)
        {
            throw new RdmaCmException(Errno.EBUSY, "migrate_id: acknowledge the id's " + unacked + " events first");
        }
        if (null == to)
        {
            throw new RdmaCmException(Errno.EINVAL, "migrate_id needs a channel");
        }
        channel = to;
    }

    /**
     * {@code rdma_destroy_id} (and the QP, as {@code rdma_destroy_ep}): ends whatever exchange is open (REJ, DREQ
     * or DREP as the kernel does) and releases the port. A connection in time-wait keeps its QP, in ERR, until
     * time-wait ends, so no late packet finds a new QP with the same number.
     */
    public void destroy()
    {
        final CmConnection c;
        final boolean listening;
        synchronized (this)
        {
            if (State.DESTROYING == state)
            {
                return;
            }
            if (unacked > 0 && !sync)
            {
                throw new RdmaCmException(Errno.EBUSY, "destroy_id: acknowledge the id's " + unacked +
                    " events first");
            }
            listening = State.LISTEN == state;
            state = State.DESTROYING;
            c = conn;
            if (requestOpen)
            {
                requestOpen = false;
                releaseRequestSlotLocked();
            }
        }
        final QueuePair[] keep = new QueuePair[1];
        runOnCm(() ->
        {
            if (listening)
            {
                cm.unlisten(ps.serviceId(localPort));
            }
            if (null != c)
            {
                cm.destroy(c);
                if (CmState.TIMEWAIT == c.state() || CmState.DREQ_SENT == c.state())
                {
                    keep[0] = qp;
                    c.handler(new CmHandler()
                    {
                        @Override
                        public void onTimewaitExit(final CmConnection done)
                        {
                            reapTimewait();
                        }

                        @Override
                        public void onTimeout(final CmConnection done, final CmState failed)
                        {
                            // DREQ unanswered: time-wait follows, and then the reap
                        }
                    });
                }
            }
        });
        synchronized (this)
        {
            if (null == keep[0])
            {
                releaseQp();
            }
            else
            {
                QpTransitions.error(device, qp);
            }
            if (0 != localPort)
            {
                rdmaCm.unbind(this, ps, localPort);
            }
        }
        if (null == keep[0])
        {
            rdmaCm.forget(this);
        }
    }

    private synchronized void reapTimewait()
    {
        releaseQp();
        rdmaCm.forget(this);
    }

    void deviceRemoved()
    {
        synchronized (this)
        {
            if (State.DESTROYING == state)
            {
                return;
            }
            state = State.DEVICE_REMOVAL;
        }
        deliver(CmEventType.DEVICE_REMOVAL, 0, null, null, 0, null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // CM callbacks (CM thread)
    // ---------------------------------------------------------------------------------------------------------

    private final class Handler implements CmHandler
    {
        @Override
        public void onReq(final CmConnection c, final ReqMessage req)
        {
            final byte[] pd = new byte[ReqMessage.PRIVATE_DATA_LENGTH];
            req.getPrivateData(pd, 0, pd.length);
            final CmId child = request(c, pd);
            if (null == child)
            {
                cm.sendRej(c, RejReason.CONSUMER_DEFINED, null, 0);
                return;
            }
            final ConnParam param = new ConnParam()
                .privateData(java.util.Arrays.copyOfRange(pd, CmaHeader.LENGTH, pd.length))
                .responderResources(c.peerInitiatorDepth()).initiatorDepth(c.peerResponderResources())
                .flowControl(c.flowControl()).retryCount(c.retryCount()).rnrRetryCount(c.rnrRetryCount())
                .srq(c.peerSrq()).qpNum(c.remoteQpn());
            child.deliverRequest(param, CmId.this);
        }

        @Override
        public void onSidrReq(final CmConnection c, final SidrReqMessage req)
        {
            final byte[] pd = new byte[SidrReqMessage.PRIVATE_DATA_LENGTH];
            req.getPrivateData(pd, 0, pd.length);
            final CmId child = request(c, pd);
            if (null == child)
            {
                cm.sendSidrRep(c, SidrStatus.REJECT, null, 0);
                return;
            }
            final ConnParam param = new ConnParam().retryCount(0).rnrRetryCount(0)
                .privateData(java.util.Arrays.copyOfRange(pd, CmaHeader.LENGTH, pd.length));
            child.deliverRequest(param, CmId.this);
        }

        @Override
        public void onRep(final CmConnection c, final RepMessage rep)
        {
            final byte[] pd = new byte[RepMessage.PRIVATE_DATA_LENGTH];
            rep.getPrivateData(pd, 0, pd.length);
            final ConnParam param = new ConnParam().privateData(pd)
                .responderResources(c.peerInitiatorDepth()).initiatorDepth(c.peerResponderResources())
                .flowControl(rep.endToEndFlowControl()).rnrRetryCount(c.rnrRetryCount()).retryCount(c.retryCount())
                .srq(c.peerSrq()).qpNum(c.remoteQpn());
            final QueuePair q;
            synchronized (CmId.this)
            {
                q = qp;
                established = param;
            }
            if (null == q)
            {
                deliver(CmEventType.CONNECT_RESPONSE, 0, param, null, 0, null);
                return;
            }
            try
            {
                // cm.c: our READs are limited by the peer's responder resources, its READs by our initiator depth
                final int maxDest = Math.min(c.responderResources(), c.peerInitiatorDepth());
                final int maxRd = Math.min(c.initiatorDepth(), c.peerResponderResources());
                QpTransitions.init(device, q, QpTransitions.access(c.responderResources()));
                // cm.c's convention: our REQ's Starting PSN is what we expect, the REP's what the peer expects
                QpTransitions.rtr(device, q, c.remoteGidHi(), c.remoteGidLo(), RoceNode.GID_INDEX_IPV4,
                    c.hopLimit(), c.trafficClass(), c.remoteQpn(), c.startingPsn(), Mtu.ofCode(c.pathMtu()),
                    maxDest);
                QpTransitions.rts(device, q, c.remoteStartingPsn(), c.localAckTimeout(), c.retryCount(),
                    c.rnrRetryCount(), maxRd);
            }
            catch (final VerbsException e)
            {
                cm.sendRej(c, RejReason.CONSUMER_DEFINED, null, 0); // cma.c cma_rep_recv failure
                deliver(CmEventType.CONNECT_ERROR, -e.errno(), param, null, 0, null);
                return;
            }
            cm.sendRtu(c, null, 0);
        }

        @Override
        public void onEstablished(final CmConnection c)
        {
            final ConnParam param;
            synchronized (CmId.this)
            {
                param = null == established ? new ConnParam().qpNum(c.remoteQpn()) : established;
            }
            deliver(CmEventType.ESTABLISHED, 0, param, null, 0, null);
        }

        @Override
        public void onRej(final CmConnection c, final RejMessage rej)
        {
            final byte[] pd = new byte[RejMessage.PRIVATE_DATA_LENGTH];
            rej.getPrivateData(pd, 0, pd.length);
            synchronized (CmId.this)
            {
                QpTransitions.error(device, qp);
            }
            deliver(CmEventType.REJECTED, rej.reason(), new ConnParam().privateData(pd), null, 0, null);
        }

        @Override
        public void onTimeout(final CmConnection c, final CmState failed)
        {
            if (CmState.DREQ_SENT == failed)
            {
                disconnected(-Errno.ETIMEDOUT);
            }
            else
            {
                deliver(CmEventType.UNREACHABLE, -Errno.ETIMEDOUT, null, null, 0, null);
            }
        }

        @Override
        public void onDreq(final CmConnection c, final DreqMessage dreq)
        {
            disconnected(0);
        }

        @Override
        public void onDrep(final CmConnection c)
        {
            disconnected(0);
        }

        @Override
        public void onTimewaitExit(final CmConnection c)
        {
            deliver(CmEventType.TIMEWAIT_EXIT, 0, null, null, 0, null);
        }

        @Override
        public void onSidrRep(final CmConnection c, final SidrRepMessage rep)
        {
            final byte[] pd = new byte[SidrRepMessage.PRIVATE_DATA_LENGTH];
            rep.getPrivateData(pd, 0, pd.length);
            final ConnParam param = new ConnParam().retryCount(0).rnrRetryCount(0).privateData(pd).qpNum(rep.qpn());
            if (SidrStatus.SUCCESS != rep.status())
            {
                deliver(CmEventType.UNREACHABLE, rep.status(), param, null, 0, null);
            }
            else if (rep.qkey() != qkey)
            {
                deliver(CmEventType.UNREACHABLE, -Errno.EINVAL, param, null, 0, null); // cma.c: Q_Key mismatch
            }
            else
            {
                final AhAttr ah = new AhAttr().dgid(c.remoteGidHi(), c.remoteGidLo())
                    .sgidIndex(RoceNode.GID_INDEX_IPV4).hopLimit(64).trafficClass(tos).portNum(PORT_NUM);
                deliver(CmEventType.ESTABLISHED, 0, param, null, rep.qkey(), ah);
            }
        }
    }

    private CmId request(final CmConnection c, final byte[] privateData)
    {
        final CmaHeader hdr = new CmaHeader();
        hdr.wrap(new UnsafeBuffer(privateData), 0);
        if (!hdr.isValid() || 4 != hdr.ipVersion())
        {
            return null; // cma.c cma_check_req_qp_type / cma_save_ip_info: not an rdma_cm IPv4 request
        }
        synchronized (this)
        {
            if (State.LISTEN != state || pendingRequests >= backlog)
            {
                return null;
            }
            pendingRequests++;
        }
        final CmId child = rdmaCm.createId(sync ? null : channel, context, ps, qpType);
        synchronized (child)
        {
            child.conn = c;
            child.listener = this;
            child.requestOpen = true;
            child.localIp = hdr.dstIpv4();
            child.localPort = localPort;
            child.remoteIp = hdr.srcIpv4();
            child.remotePort = hdr.port();
            child.state = State.CONNECT;
            child.ackTimeout = ackTimeout;
            child.tos = c.trafficClass();
        }
        c.handler(child.handler).context(child);
        return child;
    }

    private void deliverRequest(final ConnParam param, final CmId listenId)
    {
        final CmEvent event;
        synchronized (this)
        {
            established = null;
            requestParam = param;
            event = new CmEvent(CmEventType.CONNECT_REQUEST, 0, this, listenId, param, 0, null);
        }
        listenId.channel().deliver(event);
    }

    private void releaseRequestSlot()
    {
        synchronized (this)
        {
            releaseRequestSlotLocked();
        }
    }

    private void releaseRequestSlotLocked()
    {
        final CmId l = listener;
        if (null != l)
        {
            synchronized (l)
            {
                l.pendingRequests--;
            }
            listener = null;
        }
    }

    private void disconnected(final int status)
    {
        synchronized (this)
        {
            if (disconnectReported)
            {
                return;
            }
            disconnectReported = true;
            if (State.CONNECT == state)
            {
                state = State.DISCONNECT;
            }
        }
        deliver(CmEventType.DISCONNECTED, status, null, null, 0, null);
    }

    private void deliver(
        final CmEventType type, final int status, final ConnParam param, final CmId listenId, final int qk,
        final AhAttr ah)
    {
        final EventChannel ch;
        synchronized (this)
        {
            if (State.DESTROYING == state)
            {
                return;
            }
            ch = channel;
        }
        ch.deliver(new CmEvent(type, status, this, listenId, param, qk, ah));
    }

    /**
     * An event of this id is handed to the application ({@code rdma_get_cm_event}): from now on it must be
     * acknowledged before the id can be destroyed or migrated. Events still queued for a destroyed id are dropped.
     *
     * @return false to drop the event
     */
    synchronized boolean eventReported()
    {
        if (State.DESTROYING == state)
        {
            return false;
        }
        unacked++;
        return true;
    }

    synchronized void eventAcked()
    {
        if (unacked > 0)
        {
            unacked--;
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Helpers
    // ---------------------------------------------------------------------------------------------------------

    private void awaitSync(final CmEventType expected)
    {
        if (!sync)
        {
            return;
        }
        try
        {
            while (true)
            {
                final CmEvent event = channel.getEvent();
                channel.ackEvent(event);
                if (expected == event.type())
                {
                    if (null != event.param())
                    {
                        established = event.param();
                    }
                    return;
                }
                if (isError(event.type()))
                {
                    final int status = event.status();
                    throw new RdmaCmException(status < 0 ? -status : errnoOf(event.type()), event.type().str() +
                        (status != 0 ? " (status " + status + ")" : "") + " while waiting for " + expected.str(),
                        event.type(), status);
                }
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new RdmaCmException(Errno.EINTR, "interrupted waiting for " + expected.str());
        }
    }

    private static boolean isError(final CmEventType type)
    {
        switch (type)
        {
            case ADDR_ERROR:
            case ROUTE_ERROR:
            case CONNECT_ERROR:
            case UNREACHABLE:
            case REJECTED:
            case DEVICE_REMOVAL:
            case DISCONNECTED:
                return true;
            default:
                return false;
        }
    }

    private static int errnoOf(final CmEventType type)
    {
        switch (type)
        {
            case REJECTED: return Errno.ECONNREFUSED;
            case UNREACHABLE: return Errno.EHOSTUNREACH;
            case DEVICE_REMOVAL: return Errno.ENODEV;
            case DISCONNECTED: return Errno.ECONNRESET;
            default: return Errno.EIO;
        }
    }

    /** Run on the CM thread and wait (inline when the caller drives the CM, or is the CM thread). */
    private void runOnCm(final Runnable task)
    {
        final java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        cm.submit(() ->
        {
            try
            {
                task.run();
                done.complete(null);
            }
            catch (final RuntimeException e)
            {
                done.completeExceptionally(e);
            }
        });
        if (cm.isCmThread() || rdmaCm.callerDrives())
        {
            while (!done.isDone())
            {
                cm.doWork();
            }
        }
        try
        {
            done.get();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new RdmaCmException(Errno.EINTR, "interrupted waiting for the CM thread");
        }
        catch (final java.util.concurrent.ExecutionException e)
        {
            final Throwable cause = e.getCause();
            if (cause instanceof RdmaCmException)
            {
                throw (RdmaCmException)cause;
            }
            if (cause instanceof VerbsException)
            {
                throw new RdmaCmException(((VerbsException)cause).errno(), cause.getMessage());
            }
            throw new RdmaCmException(Errno.EIO, String.valueOf(cause));
        }
    }

    private ConnParam defaultAcceptParam()
    {
        // librdmacm rdma_accept(NULL): the request's values, capped by the device
        final ConnParam req = null != requestParam ? requestParam : null == established ? new ConnParam() : established;
        return new ConnParam()
            .responderResources(Math.min(req.responderResources(), device.queryDevice().maxQpRdAtom()))
            .initiatorDepth(Math.min(req.initiatorDepth(), device.queryDevice().maxQpInitRdAtom()))
            .retryCount(7).rnrRetryCount(7);
    }

    private ConnParam defaultConnectParam()
    {
        // librdmacm rdma_connect(NULL): the device's maxima (RDMA_MAX_RESP_RES / RDMA_MAX_INIT_DEPTH), retry 7, rnr 7
        return new ConnParam().responderResources(Math.min(255, device.queryDevice().maxQpRdAtom()))
            .initiatorDepth(Math.min(255, device.queryDevice().maxQpInitRdAtom())).retryCount(7).rnrRetryCount(7);
    }

    private static void checkPrivateData(final ConnParam p, final int max, final String call)
    {
        if (p.privateDataLength() > max)
        {
            throw new RdmaCmException(Errno.EINVAL, call + ": private data is " + p.privateDataLength() +
                " bytes; at most " + max + " fit");
        }
    }

    private byte[] cmaHeader(final byte[] user)
    {
        final byte[] data = new byte[CmaHeader.LENGTH + user.length];
        final CmaHeader hdr = new CmaHeader();
        hdr.wrap(new UnsafeBuffer(data), 0);
        hdr.cmaVersion(CmaHeader.CMA_VERSION).ipVersion(4).port(localPort).srcIpv4(localIp).dstIpv4(remoteIp);
        System.arraycopy(user, 0, data, CmaHeader.LENGTH, user.length);
        return data;
    }

    private Mtu activeMtu()
    {
        return device.queryPort(PORT_NUM, new PortAttr()).activeMtu();
    }

    private static QpInitAttr copy(final QpInitAttr init)
    {
        final QpInitAttr c = new QpInitAttr().qpType(init.qpType()).sendCq(init.sendCq()).recvCq(init.recvCq())
            .srq(init.srq()).sqSigAll(init.sqSigAll());
        c.cap().maxSendWr(init.cap().maxSendWr()).maxRecvWr(init.cap().maxRecvWr())
            .maxSendSge(init.cap().maxSendSge()).maxRecvSge(init.cap().maxRecvSge())
            .maxInlineData(init.cap().maxInlineData());
        return c;
    }

    static long gidLo(final int ipv4)
    {
        return 0x0000_FFFF_0000_0000L | (ipv4 & 0xFFFF_FFFFL);
    }

    private static int ipv4Of(final InetAddress address)
    {
        if (null == address || address.isAnyLocalAddress())
        {
            return 0;
        }
        if (!(address instanceof Inet4Address))
        {
            throw new RdmaCmException(Errno.EINVAL, "jrxe's rdma_cm addresses IPv4 peers; got " + address);
        }
        final byte[] b = address.getAddress();
        return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
    }

    private static InetAddress toInet(final int ip)
    {
        try
        {
            return InetAddress.getByAddress(new byte[]{(byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8),
                (byte)ip});
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalStateException(e);
        }
    }

    WorkCompletion wcScratch()
    {
        return scratch.wc;
    }

    @Override
    public String toString()
    {
        return "CmId{" + ps + ", " + qpType + ", " + state + (null == qp ? "" : ", qpn=0x" +
            Integer.toHexString(qp.qpn())) + '}';
    }
}
