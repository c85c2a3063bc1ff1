package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.Errno;
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

import java.net.InetSocketAddress;

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
 * Addressing is IPv4 or IPv6 over RoCEv2, and the address is the GID: the IPv4-mapped address at index
 * {@link RoceNode#GID_INDEX_IPV4}, or an IPv6 address of the node at its own index; rdma_cm's 36-byte header
 * (Annex A11, IP version 4 or 6) carries the addresses and the source port in the REQ's private data.
 * <p>
 * The id holds the state and checks each call; the work is done by the package's classes by concern:
 * {@code CmIdAddressing} (bind, resolve address and route), {@code CmIdActive} (connect, establish),
 * {@code CmIdPassive} (listen, get_request, accept, reject), {@code CmIdCallbacks} (the IB CM's callbacks, on the
 * CM thread) and {@code CmIdWaits} (a synchronous id's waits, work run on the CM thread); {@code NodeAddresses}
 * knows the node's addresses and their GID indexes.
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

    final RdmaCm rdmaCm;
    final CmService cm;
    final RxeDevice device;
    private final PortSpace ps;
    private final QpType qpType;
    final boolean sync;
    private final Object context;
    EventChannel channel;
    State state = State.IDLE;
    /** Our address: the node's IPv4 address, one of its IPv6 addresses, or :: while bound to the IPv6 wildcard. */
    IpAddress localAddr = IpAddress.IPV4_ANY;
    int localPort;
    IpAddress remoteAddr = IpAddress.IPV4_ANY;
    int remotePort;
    /** Bound to a wildcard (0.0.0.0 or ::): the source address follows the destination. */
    boolean anyAddress;
    /** The index of our address's GID: the source GID of the QP's path and of address handles. */
    int sgidIndex = RoceNode.GID_INDEX_IPV4;
    int ackTimeout = -1;
    int tos;
    boolean reuseAddr;
    QueuePair qp;
    private ProtectionDomain pd;
    private boolean ownsPd;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private CompletionChannel sendChannel;
    private CompletionChannel recvChannel;
    private boolean ownsCqs;
    int qkey = RDMA_UDP_QKEY;
    CmConnection conn;
    CmId listener;
    int backlog;
    int pendingRequests;
    boolean requestOpen;
    boolean disconnectReported;
    ConnParam established;
    /** The CONNECT_REQUEST's values, what accept(null) answers with (librdmacm keeps them per id for any id). */
    ConnParam requestParam;
    QpInitAttr listenQpInit;
    ProtectionDomain listenPd;
    private int unacked;
    /** The IB CM's callbacks of this id's connection (or listen). */
    final CmIdCallbacks handler;
    private final CmIdAddressing addressing;
    private final CmIdPassive passive;
    private final CmIdActive active;
    private final CmIdMulticast multicast;
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
        this.handler = new CmIdCallbacks(this);
        this.addressing = new CmIdAddressing(this);
        this.passive = new CmIdPassive(this);
        this.active = new CmIdActive(this);
        this.multicast = new CmIdMulticast(this);
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

    /**
     * @return local address and port (after bind or resolve): an {@link java.net.Inet4Address}, or an
     *     {@link java.net.Inet6Address} for an IPv6 id ({@code ::} while bound to the IPv6 wildcard)
     */
    public synchronized InetSocketAddress localAddress()
    {
        return new InetSocketAddress(localAddr.toInet(), localPort);
    }

    /** @return remote address and port (after resolve, or of a request), of the local address's family */
    public synchronized InetSocketAddress remoteAddress()
    {
        return new InetSocketAddress(remoteAddr.toInet(), remotePort);
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
     * {@code rdma_bind_addr}: take a local address (this node's IPv4 address or one of its IPv6 addresses, or a
     * wildcard) and a port (0: ephemeral). A listener bound to 0.0.0.0 or an IPv4 address takes IPv4 requests, one
     * bound to {@code ::} IPv4 and IPv6 ones, one bound to an IPv6 address IPv6 requests to it (as the kernel's
     * default, {@code bindv6only} 0).
     *
     * @param address local address and port
     */
    public synchronized void bindAddr(final InetSocketAddress address)
    {
        addressing.bindAddr(address);
    }

    /**
     * {@code rdma_resolve_addr}: find the peer's MAC through the node's ARP (IPv4) or Neighbor Discovery (IPv6),
     * binding the id first if needed. ADDR_RESOLVED, or ADDR_ERROR (-ETIMEDOUT after {@code timeoutMs},
     * -EHOSTUNREACH if resolution failed). An id bound to a wildcard takes its address from the destination: the
     * node's IPv4 address, or its first IPv6 address of the destination's scope (link-local fe80::/10 or global);
     * an id bound to an address reaches destinations of its family only (EINVAL).
     *
     * @param src local address, or null
     * @param dst the peer and its port
     * @param timeoutMs how long ARP or ND may take
     */
    public void resolveAddr(final InetSocketAddress src, final InetSocketAddress dst, final int timeoutMs)
    {
        addressing.resolveAddr(src, dst, timeoutMs);
    }

    /**
     * {@code rdma_resolve_route}: on RoCE the path is made locally (there is no SA): ROUTE_RESOLVED, or
     * ROUTE_ERROR (-ENETUNREACH) while the port is down.
     *
     * @param timeoutMs unused on RoCE (kept for librdmacm's signature)
     */
    public void resolveRoute(final int timeoutMs)
    {
        addressing.resolveRoute();
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
            multicast.detachAll(qp);
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
    // Multicast
    // ---------------------------------------------------------------------------------------------------------

    /**
     * {@code rdma_join_multicast}: join the IPv4 or IPv6 multicast group {@code address} ({@link CmIdMulticast}).
     * The id's QP, if it has one, is attached to the group. MULTICAST_JOIN follows, carrying what a sender needs:
     * {@link CmEvent#ahAttr()} (the group's GID), {@link CmEvent#qpNum()} 0xFFFFFF and {@link CmEvent#qkey()}.
     *
     * @param address the group (its port is ignored)
     * @param context the application's, kept with the join
     */
    public void joinMulticast(final InetSocketAddress address, final Object context)
    {
        final AhAttr ah;
        final int joinQkey;
        synchronized (this)
        {
            ah = multicast.join(address, context);
            joinQkey = qkey;
        }
        final long deadline = multicast.filterDeadline();
        cm.submit(() -> multicast.whenTaken(() -> deliver(CmEventType.MULTICAST_JOIN, 0,
            new ConnParam().qpNum(CmIdMulticast.multicastQpn()), null, joinQkey, ah), deadline));
        CmIdWaits.awaitSync(this, CmEventType.MULTICAST_JOIN);
    }

    /**
     * {@code rdma_leave_multicast}: the QP is detached from the group; EADDRNOTAVAIL if the id has not joined it.
     *
     * @param address the group
     */
    public synchronized void leaveMulticast(final InetSocketAddress address)
    {
        multicast.leave(address);
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
        passive.listen(backlog);
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
        return passive.getRequest();
    }

    /**
     * {@code rdma_accept}: answer a connection request. RC/UC: the QP goes to RTR and RTS with the request's
     * values and a REP goes out; ESTABLISHED follows the peer's RTU. UD: a SIDR_REP with the QP's number.
     *
     * @param param our parameters, or null for the request's, limited to the device's maxima
     */
    public void accept(final ConnParam param)
    {
        passive.accept(param);
    }

    /**
     * {@code rdma_reject}: refuse a connection request (REJ reason 28, consumer defined, with the private data;
     * a SIDR_REP with status REJECT for UD).
     *
     * @param privateData up to 148 bytes (136 for UD), or null
     */
    public void reject(final byte[] privateData)
    {
        passive.reject(privateData);
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
        active.connect(param);
    }

    /**
     * {@code rdma_establish}: after CONNECT_RESPONSE on an id without a QP, send the RTU.
     */
    public void establish()
    {
        active.establish();
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
        runOnCm(() -> keep[0] = endOnCm(listening, c));
        synchronized (this)
        {
            multicast.leaveAll();
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

    /**
     * On the CM thread: stop listening and end the connection.
     *
     * @return the QP a connection in time-wait (or waiting for its DREP) keeps until time-wait ends, or null
     */
    private QueuePair endOnCm(final boolean listening, final CmConnection c)
    {
        if (listening)
        {
            cm.unlisten(ps.serviceId(localPort));
        }
        if (null == c)
        {
            return null;
        }
        cm.destroy(c);
        if (CmState.TIMEWAIT != c.state() && CmState.DREQ_SENT != c.state())
        {
            return null;
        }
        final QueuePair kept = qp;
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
        return kept;
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
    // Events
    // ---------------------------------------------------------------------------------------------------------

    void releaseRequestSlot()
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

    void disconnected(final int status)
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

    void deliver(
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

    /** Run on the CM thread and wait ({@link CmIdWaits#runOnCm}). */
    void runOnCm(final Runnable task)
    {
        CmIdWaits.runOnCm(rdmaCm, task);
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
