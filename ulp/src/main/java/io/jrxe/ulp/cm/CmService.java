package io.jrxe.ulp.cm;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.DrepMessage;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.MraMessage;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.RtuMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import io.jrxe.ulp.cm.mad.SidrStatus;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The IB communication manager of one jrxe device (Linux's {@code drivers/infiniband/core/cm.c}): it owns QP1
 * through a {@link MadPort}, the table of connections by local comm ID and by the peer's (comm ID, CA GUID), the
 * listeners by service ID, and the timers that retransmit unanswered MADs (IBA 12.6, 12.9). What it receives, it
 * hands to its {@link CmReceiver} (the receive side: one handler per message, on the same thread and tables).
 * <p>
 * Threading: one owner. Everything below runs on the CM thread ({@link #start()}) or on the caller's thread when
 * the caller drives {@link #doWork()} (tests, with a manual clock). Other threads hand it work through
 * {@link #submit(Runnable)}, which wakes the thread; completions on QP1 wake it through the CQ's completion handler.
 * When idle the thread parks until the next timer, so a quiet CM costs nothing.
 * <pre>
 *   app threads --submit--> [command queue] --+
 *   engine thread --QP1 completion event------+--> CM thread: commands, MADs (CmReceiver: REQ/REP/...), timers
 *                                                    |--> CmHandler callbacks (rdma_cm layer)
 *                                                    '--> MadPort.send (QP1 SEND to the peer's QP1)
 * </pre>
 * Transaction IDs: each connection keeps the TID of the exchange that opened it (ours for an active connection,
 * the REQ's for a passive one) on every message it sends, as the kernel does.
 */
public final class CmService implements AutoCloseable
{
    /** Settings, with the kernel's rdma_cm values as defaults. */
    public static final class Context
    {
        private NanoClock clock = System::nanoTime;
        private int recvSlots = 64;
        private int sendSlots = 32;
        private int packetLifetime = 16;
        private int cmResponseTimeout = 20;
        private int maxCmRetries = 15;
        int mraServiceTimeout = 24; // read by CmReceiver
        private String name = "jrxe-cm";
        private CmCounters counters;

        /**
         * @param clock the clock every CM timer runs on
         * @return this
         */
        public Context clock(final NanoClock clock)
        {
            this.clock = clock;
            return this;
        }

        /**
         * @param packetLifetime RoCE packet lifetime exponent (CMA_IBOE_PACKET_LIFETIME, 16)
         * @return this
         */
        public Context packetLifetime(final int packetLifetime)
        {
            this.packetLifetime = packetLifetime;
            return this;
        }

        /**
         * @param cmResponseTimeout CM response timeout exponent (CMA_CM_RESPONSE_TIMEOUT, 20)
         * @return this
         */
        public Context cmResponseTimeout(final int cmResponseTimeout)
        {
            this.cmResponseTimeout = cmResponseTimeout;
            return this;
        }

        /**
         * @param maxCmRetries retransmissions before giving up (CMA_MAX_CM_RETRIES, 15)
         * @return this
         */
        public Context maxCmRetries(final int maxCmRetries)
        {
            this.maxCmRetries = maxCmRetries;
            return this;
        }

        /**
         * @param name thread name
         * @return this
         */
        public Context name(final String name)
        {
            this.name = name;
            return this;
        }

        /**
         * @param recvSlots QP1 receive buffers
         * @param sendSlots QP1 send buffers
         * @return this
         */
        public Context slots(final int recvSlots, final int sendSlots)
        {
            this.recvSlots = recvSlots;
            this.sendSlots = sendSlots;
            return this;
        }

        /**
         * @param counters where to count (a {@link CmCountersFile}'s); default counters of the service's own
         * @return this
         */
        public Context counters(final CmCounters counters)
        {
            this.counters = counters;
            return this;
        }

        /** @return CM response timeout exponent we advertise */
        public int cmResponseTimeout()
        {
            return cmResponseTimeout;
        }

        /** @return max CM retries we advertise */
        public int maxCmRetries()
        {
            return maxCmRetries;
        }

        /** @return packet lifetime exponent */
        public int packetLifetime()
        {
            return packetLifetime;
        }
    }

    /** Key of a connection by the peer's identity (IBA 12.9.8.3: duplicate REQ detection). */
    record RemoteId(long caGuid, int commId)
    {
    }

    /** Key of a passive connection by the peer's QP (IBA 12.9.8.3.1: stale connection detection). */
    record RemoteQp(long gidHi, long gidLo, int qpn)
    {
    }

    private static final long PARK_MAX_NS = 100_000_000L;
    private static final byte[] NO_DATA = new byte[0];

    private final RxeDevice device;
    private final Context ctx;
    final NanoClock clock;
    final MadPort port;
    final CmTimers timers = new CmTimers();
    private final CmCounters counters;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    final Map<Integer, CmConnection> byLocalId = new HashMap<>();
    final Map<RemoteId, CmConnection> byRemoteId = new HashMap<>();
    final Map<RemoteQp, CmConnection> byRemoteQp = new HashMap<>();
    final Map<Long, CmHandler> listeners = new HashMap<>();
    private final long caGuid;
    private final UnsafeBuffer out = new UnsafeBuffer(0, 0);
    // the message flyweights, one of each for the CM thread: CmReceiver reads received MADs with the same ones
    final ReqMessage req = new ReqMessage();
    final RepMessage rep = new RepMessage();
    final RtuMessage rtu = new RtuMessage();
    final RejMessage rej = new RejMessage();
    final MraMessage mra = new MraMessage();
    final DreqMessage dreq = new DreqMessage();
    final DrepMessage drep = new DrepMessage();
    final SidrReqMessage sidrReq = new SidrReqMessage();
    final SidrRepMessage sidrRep = new SidrRepMessage();
    private final AhAttr ahAttr = new AhAttr();
    private final CmReceiver receiver;
    private final int tidHigh = ThreadLocalRandom.current().nextInt();
    private int nextCommId = ThreadLocalRandom.current().nextInt();
    private volatile Thread thread;
    private volatile boolean running;

    /**
     * Opens QP1 on {@code device} and readies the CM; nothing runs until {@link #start()} or {@link #doWork()}.
     *
     * @param device the verbs device (one CM per device, as one GSI QP per port)
     * @param ctx settings
     */
    public CmService(final RxeDevice device, final Context ctx)
    {
        this.device = device;
        this.ctx = ctx;
        this.clock = ctx.clock;
        this.caGuid = device.queryDevice().nodeGuid();
        this.counters = null == ctx.counters ? new CmCounters() : ctx.counters;
        this.port = new MadPort(device, ctx.recvSlots, ctx.sendSlots, cq -> wake());
        this.receiver = new CmReceiver(this);
    }

    /** Run the CM on a thread of its own (a daemon, named after the context). */
    public synchronized void start()
    {
        if (null != thread)
        {
            return;
        }
        running = true;
        final Thread t = new Thread(this::run, ctx.name);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void run()
    {
        while (running)
        {
            if (0 == doWork())
            {
                port.arm();
                if (0 == doWork())
                {
                    final long wait = Math.min(PARK_MAX_NS, timers.nextDeadlineNs() - clock.nanoTime());
                    if (wait > 0)
                    {
                        LockSupport.parkNanos(this, wait);
                    }
                }
            }
        }
    }

    /**
     * One duty cycle: commands, then received MADs and send completions, then due timers.
     *
     * @return work done (0 = idle)
     */
    public int doWork()
    {
        int work = 0;
        Runnable command;
        while (null != (command = commands.poll()))
        {
            command.run();
            work++;
        }
        work += port.poll(receiver);
        work += timers.expire(clock.nanoTime());
        return work;
    }

    /**
     * Hand a task to the CM thread (thread-safe); it runs in the next duty cycle.
     *
     * @param task the task
     */
    public void submit(final Runnable task)
    {
        commands.add(task);
        wake();
    }

    private void wake()
    {
        final Thread t = thread;
        if (null != t)
        {
            LockSupport.unpark(t);
        }
    }

    /** @return true on the CM's own thread */
    public boolean isCmThread()
    {
        return Thread.currentThread() == thread;
    }

    /** @return the device */
    public RxeDevice device()
    {
        return device;
    }

    /** @return the settings */
    public Context context()
    {
        return ctx;
    }

    /** @return the counters */
    public CmCounters counters()
    {
        return counters;
    }

    /** @return the clock now, in ns */
    public long nanoTime()
    {
        return clock.nanoTime();
    }

    /** @return connections still holding a comm ID (for leak checks; CM thread) */
    public int connectionCount()
    {
        return byLocalId.size();
    }

    /** @return timers queued (for leak checks; CM thread) */
    public int timerCount()
    {
        return timers.size();
    }

    /** @return this device's CA GUID (the node GUID) */
    public long caGuid()
    {
        return caGuid;
    }

    /**
     * Run a task on the CM thread at a time (CM thread only).
     *
     * @param deadlineNs when, on the CM clock
     * @param task the task
     * @return a handle whose {@code run()} cancels it
     */
    public Runnable at(final long deadlineNs, final Runnable task)
    {
        final CmTimers.Timer timer = timers.at(deadlineNs, task);
        return timer::cancel;
    }

    /**
     * IBA timeout encoding (e.g. CM response timeout, 12.6.5): 4.096 µs · 2^t.
     *
     * @param t exponent 0..31
     * @return nanoseconds
     */
    public static long timeoutNs(final int t)
    {
        return 4096L << Math.min(31, Math.max(0, t));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Consumer calls (CM thread only: from a CmHandler callback or a submitted task)
    // ---------------------------------------------------------------------------------------------------------

    /**
     * A new connection, idle, with a fresh local comm ID.
     *
     * @param handler its events
     * @return the connection
     */
    public CmConnection create(final CmHandler handler)
    {
        int id;
        do
        {
            id = nextCommId++;
        }
        while (0 == id || byLocalId.containsKey(id));
        final CmConnection conn = new CmConnection(this, id);
        conn.handler = handler;
        byLocalId.put(id, conn);
        return conn;
    }

    /**
     * Listen for REQs and SIDR_REQs to a service ID ({@code ib_cm_listen}).
     *
     * @param serviceId the service ID
     * @param handler gets {@link CmHandler#onReq} and {@link CmHandler#onSidrReq}
     * @return false if someone listens on it already
     */
    public boolean listen(final long serviceId, final CmHandler handler)
    {
        return null == listeners.putIfAbsent(serviceId, handler);
    }

    /**
     * @param serviceId stop listening on it
     */
    public void unlisten(final long serviceId)
    {
        listeners.remove(serviceId);
    }

    /**
     * Send the REQ of an active connection ({@code ib_send_cm_req}); the connection's path, QP and transport
     * parameters must be set.
     *
     * @param conn an IDLE connection
     * @param privateData up to 92 bytes (rdma_cm puts its 36-byte header first)
     * @param length bytes of private data
     * @param sgidIndex our GID's index (the AH's source)
     */
    public void sendReq(final CmConnection conn, final byte[] privateData, final int length, final int sgidIndex)
    {
        requireState(conn, CmState.IDLE);
        conn.transactionId = ((long)tidHigh << 32) | (conn.localCommId & 0xFFFF_FFFFL);
        conn.ah = createAh(conn, sgidIndex);
        conn.remoteCmResponseTimeout = ctx.cmResponseTimeout;
        conn.localCmResponseTimeout = ctx.cmResponseTimeout;
        conn.maxCmRetries = ctx.maxCmRetries;
        req.wrap(mad(conn), 0);
        req.init(conn.transactionId).localCommId(conn.localCommId).serviceId(conn.serviceId).localCaGuid(caGuid)
            .localQpn(conn.localQpn).responderResources(conn.responderResources).initiatorDepth(conn.initiatorDepth)
            .remoteCmResponseTimeout(conn.remoteCmResponseTimeout).transportServiceType(transportType(conn))
            .endToEndFlowControl(conn.flowControl).startingPsn(conn.startingPsn)
            .localCmResponseTimeout(conn.localCmResponseTimeout).retryCount(conn.retryCount)
            .partitionKey(RxeDevice.DEFAULT_PKEY).pathMtu(conn.pathMtu).rnrRetryCount(conn.rnrRetryCount)
            .maxCmRetries(conn.maxCmRetries).srq(conn.srq)
            // RoCE has no LIDs: the kernel writes the permissive LID for a path that is not subnet-local
            .primaryLocalLid(0xFFFF).primaryRemoteLid(0xFFFF)
            .primaryLocalGid(conn.localGidHi, conn.localGidLo).primaryRemoteGid(conn.remoteGidHi, conn.remoteGidLo)
            .primaryFlowLabel(conn.flowLabel).primaryTrafficClass(conn.trafficClass).primaryHopLimit(conn.hopLimit)
            .primarySl(0).primarySubnetLocal(conn.hopLimit <= 1).primaryLocalAckTimeout(conn.localAckTimeout);
        req.putPrivateData(orEmpty(privateData), 0, length);
        conn.state = CmState.REQ_SENT;
        // the REQ waits for 2 packet lifetimes + the response time we asked of the peer (cm.c ib_send_cm_req)
        transmit(conn, CmAttributes.REQ, requestTimeoutNs(conn.remoteCmResponseTimeout), conn.maxCmRetries);
    }

    /**
     * Accept a REQ with a REP ({@code ib_send_cm_rep}); our QP, PSN and resources must be set.
     *
     * @param conn a passive connection in REQ_RCVD or MRA_REQ_SENT
     * @param privateData up to 196 bytes
     * @param length bytes
     */
    public void sendRep(final CmConnection conn, final byte[] privateData, final int length)
    {
        if (CmState.REQ_RCVD != conn.state && CmState.MRA_REQ_SENT != conn.state)
        {
            throw new IllegalStateException("REP needs a received REQ: " + conn);
        }
        cancelTimer(conn);
        rep.wrap(mad(conn), 0);
        rep.init(conn.transactionId).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId)
            .localQkey(conn.qkey).localQpn(conn.localQpn).startingPsn(conn.startingPsn)
            .responderResources(conn.responderResources).initiatorDepth(conn.initiatorDepth)
            .targetAckDelay(conn.targetAckDelay).failoverAccepted(0).endToEndFlowControl(conn.flowControl)
            .rnrRetryCount(conn.rnrRetryCount).srq(conn.srq).localCaGuid(caGuid);
        rep.putPrivateData(orEmpty(privateData), 0, length);
        conn.state = CmState.REP_SENT;
        // the REP waits for the active side's response time, from its REQ (cm.c cm_prep_rep)
        transmit(conn, CmAttributes.REP, requestTimeoutNs(conn.remoteCmResponseTimeout), conn.maxCmRetries);
    }

    /**
     * Complete an active connection with an RTU ({@code ib_send_cm_rtu}).
     *
     * @param conn a connection in REP_RCVD or MRA_REP_SENT
     * @param privateData up to 224 bytes
     * @param length bytes
     */
    public void sendRtu(final CmConnection conn, final byte[] privateData, final int length)
    {
        if (CmState.REP_RCVD != conn.state && CmState.MRA_REP_SENT != conn.state)
        {
            throw new IllegalStateException("RTU needs a received REP: " + conn);
        }
        cancelTimer(conn);
        rtu.wrap(mad(conn), 0);
        rtu.init(conn.transactionId).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId);
        rtu.putPrivateData(orEmpty(privateData), 0, length);
        conn.state = CmState.ESTABLISHED;
        transmit(conn, CmAttributes.RTU, 0, 0);
        notifyEstablished(conn);
    }

    /**
     * Refuse a connection ({@code ib_send_cm_rej}), before it is established.
     *
     * @param conn the connection
     * @param reason REJ reason
     * @param privateData up to 148 bytes
     * @param length bytes
     */
    public void sendRej(final CmConnection conn, final RejReason reason, final byte[] privateData, final int length)
    {
        if (!conn.state.isConnecting())
        {
            throw new IllegalStateException("REJ only before a connection is established: " + conn);
        }
        final boolean repSent = CmState.REP_SENT == conn.state || CmState.MRA_REP_RCVD == conn.state;
        final int rejected = conn.passive && !repSent ? RejMessage.MESSAGE_REQ :
            (!conn.passive ? RejMessage.MESSAGE_REP : RejMessage.MESSAGE_OTHER);
        cancelTimer(conn);
        rej.wrap(mad(conn), 0);
        rej.init(conn.transactionId).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId)
            .messageRejected(rejected).reason(reason.code());
        rej.putPrivateData(orEmpty(privateData), 0, length);
        transmit(conn, CmAttributes.REJ, 0, 0);
        if (repSent)
        {
            enterTimewait(conn); // our REP may have brought the peer's QP up: its packets die out first (IBA 12.9.7)
        }
        else
        {
            release(conn, CmState.IDLE);
        }
    }

    /**
     * Ask for more time before answering a REQ ({@code ib_send_cm_mra}).
     *
     * @param conn a passive connection in REQ_RCVD
     * @param serviceTimeout exponent of the time we need
     */
    public void sendMra(final CmConnection conn, final int serviceTimeout)
    {
        if (CmState.REQ_RCVD != conn.state)
        {
            return;
        }
        cancelTimer(conn);
        mra.wrap(mad(conn), 0);
        mra.init(conn.transactionId).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId)
            .messageMraed(MraMessage.MESSAGE_REQ).serviceTimeout(serviceTimeout);
        conn.state = CmState.MRA_REQ_SENT;
        transmit(conn, CmAttributes.MRA, 0, 0);
    }

    /**
     * Disconnect ({@code ib_send_cm_dreq}).
     *
     * @param conn an ESTABLISHED connection (or one whose REP was sent: the peer may already use the QP)
     * @param privateData up to 220 bytes
     * @param length bytes
     */
    public void sendDreq(final CmConnection conn, final byte[] privateData, final int length)
    {
        if (CmState.ESTABLISHED != conn.state && CmState.REP_SENT != conn.state &&
            CmState.MRA_REP_RCVD != conn.state)
        {
            throw new IllegalStateException("DREQ needs a connection: " + conn);
        }
        cancelTimer(conn);
        dreq.wrap(mad(conn), 0);
        dreq.init(conn.transactionId).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId)
            .remoteQpn(conn.remoteQpn);
        dreq.putPrivateData(orEmpty(privateData), 0, length);
        conn.state = CmState.DREQ_SENT;
        transmit(conn, CmAttributes.DREQ, requestTimeoutNs(conn.remoteCmResponseTimeout), conn.maxCmRetries);
    }

    /**
     * Answer a DREQ ({@code ib_send_cm_drep}); the connection enters time-wait.
     *
     * @param conn a connection in DREQ_RCVD
     * @param privateData up to 224 bytes
     * @param length bytes
     */
    public void sendDrep(final CmConnection conn, final byte[] privateData, final int length)
    {
        requireState(conn, CmState.DREQ_RCVD);
        drep.wrap(mad(conn), 0);
        drep.init(conn.transactionId).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId);
        drep.putPrivateData(orEmpty(privateData), 0, length);
        transmit(conn, CmAttributes.DREP, 0, 0);
        enterTimewait(conn);
    }

    /**
     * Resolve a service ID to a UD QPN and Q_Key ({@code ib_send_cm_sidr_req}).
     *
     * @param conn an IDLE connection with its path and service ID set
     * @param privateData up to 216 bytes (rdma_cm's header first)
     * @param length bytes
     * @param sgidIndex our GID's index
     */
    public void sendSidrReq(final CmConnection conn, final byte[] privateData, final int length, final int sgidIndex)
    {
        requireState(conn, CmState.IDLE);
        conn.transactionId = ((long)tidHigh << 32) | (conn.localCommId & 0xFFFF_FFFFL);
        conn.ah = createAh(conn, sgidIndex);
        conn.sidrRequestId = conn.localCommId;
        conn.remoteCmResponseTimeout = ctx.cmResponseTimeout;
        sidrReq.wrap(mad(conn), 0);
        sidrReq.init(conn.transactionId).requestId(conn.sidrRequestId).partitionKey(RxeDevice.DEFAULT_PKEY)
            .serviceId(conn.serviceId);
        sidrReq.putPrivateData(orEmpty(privateData), 0, length);
        conn.state = CmState.SIDR_REQ_SENT;
        transmit(conn, CmAttributes.SIDR_REQ, requestTimeoutNs(conn.remoteCmResponseTimeout), ctx.maxCmRetries);
    }

    /**
     * Answer a SIDR_REQ ({@code ib_send_cm_sidr_rep}); the exchange ends.
     *
     * @param conn the exchange, in SIDR_REQ_RCVD
     * @param status {@link SidrStatus}
     * @param privateData up to 136 bytes
     * @param length bytes
     */
    public void sendSidrRep(final CmConnection conn, final int status, final byte[] privateData, final int length)
    {
        requireState(conn, CmState.SIDR_REQ_RCVD);
        cancelTimer(conn);
        sidrRep.wrap(mad(conn), 0);
        sidrRep.init(conn.transactionId).requestId(conn.sidrRequestId).status(status).serviceId(conn.serviceId);
        if (SidrStatus.SUCCESS == status)
        {
            sidrRep.qpn(conn.localQpn).qkey(conn.qkey);
        }
        sidrRep.putPrivateData(orEmpty(privateData), 0, length);
        transmit(conn, CmAttributes.SIDR_REP, 0, 0);
        release(conn, CmState.IDLE);
    }

    /**
     * The consumer is done with a connection ({@code ib_destroy_cm_id}): whatever exchange is open ends as the
     * kernel ends it (REJ before establishment, DREQ or DREP after), and no more callbacks come. A connection that
     * must still answer its peer's retransmissions stays in time-wait for a while, silently.
     *
     * @param conn the connection
     */
    public void destroy(final CmConnection conn)
    {
        switch (conn.state)
        {
            case REQ_SENT:
            case MRA_REQ_RCVD:
                conn.handler = null;
                sendRej(conn, RejReason.TIMEOUT, null, 0);
                break;
            case REQ_RCVD:
            case MRA_REQ_SENT:
            case REP_RCVD:
            case MRA_REP_SENT:
            case REP_SENT:
            case MRA_REP_RCVD:
                conn.handler = null;
                sendRej(conn, RejReason.CONSUMER_DEFINED, null, 0);
                break;
            case ESTABLISHED:
                conn.handler = null;
                sendDreq(conn, null, 0);
                break;
            case DREQ_RCVD:
                conn.handler = null;
                sendDrep(conn, null, 0);
                break;
            case SIDR_REQ_RCVD:
                conn.handler = null;
                sendSidrRep(conn, SidrStatus.REJECT, null, 0);
                break;
            case DREQ_SENT:
            case TIMEWAIT:
                conn.handler = null;
                break;
            default:
                conn.handler = null;
                release(conn, CmState.IDLE);
                break;
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Send, retransmit, timers
    // ---------------------------------------------------------------------------------------------------------

    private UnsafeBuffer mad(final CmConnection conn)
    {
        out.wrap(conn.lastMad);
        return out;
    }

    private void transmit(final CmConnection conn, final int attributeId, final long timeoutNs, final int retries)
    {
        conn.lastAttributeId = attributeId;
        conn.retriesLeft = retries;
        conn.retryTimeoutNs = timeoutNs;
        counters.increment(CmCounters.Group.CM_TX_MSGS, attributeId);
        port.send(conn.lastMad, conn.ah, false);
        if (timeoutNs > 0)
        {
            conn.timer = timers.at(clock.nanoTime() + timeoutNs, () -> onRetryTimeout(conn));
        }
    }

    void retransmit(final CmConnection conn)
    {
        counters.increment(CmCounters.Group.CM_TX_MSGS, conn.lastAttributeId);
        port.send(conn.lastMad, conn.ah, false);
    }

    void onRetryTimeout(final CmConnection conn)
    {
        conn.timer = null;
        if (conn.retriesLeft > 0)
        {
            conn.retriesLeft--;
            counters.increment(CmCounters.Group.CM_TX_RETRIES, conn.lastAttributeId);
            retransmit(conn);
            conn.timer = timers.at(clock.nanoTime() + conn.retryTimeoutNs, () -> onRetryTimeout(conn));
            return;
        }
        final CmState failed = conn.state;
        final CmHandler h = conn.handler;
        switch (failed)
        {
            case REQ_SENT:
            case MRA_REQ_RCVD:
            case REP_SENT:
            case MRA_REP_RCVD:
                conn.handler = null;
                sendRej(conn, RejReason.TIMEOUT, null, 0); // IBA 12.6.7: tell the peer we gave up
                break;
            case DREQ_SENT:
                enterTimewait(conn); // IBA 12.9.7: no DREP: time-wait anyway
                break;
            default:
                release(conn, CmState.IDLE);
                break;
        }
        if (null != h)
        {
            h.onTimeout(conn, failed);
        }
    }

    private long requestTimeoutNs(final int responseTimeout)
    {
        return 2 * timeoutNs(ctx.packetLifetime) + timeoutNs(responseTimeout);
    }

    void enterTimewait(final CmConnection conn)
    {
        cancelTimer(conn);
        conn.state = CmState.TIMEWAIT;
        // IBA 12.9.7: long enough for packets of the old connection to die (the kernel waits the path's ACK timeout)
        conn.timer = timers.at(clock.nanoTime() + timeoutNs(ctx.packetLifetime + 1), () -> exitTimewait(conn));
    }

    private void exitTimewait(final CmConnection conn)
    {
        conn.timer = null;
        final CmHandler h = conn.handler;
        release(conn, CmState.IDLE);
        if (null != h)
        {
            h.onTimewaitExit(conn);
        }
    }

    void notifyEstablished(final CmConnection conn)
    {
        final CmHandler h = conn.handler;
        if (null != h)
        {
            h.onEstablished(conn);
        }
    }

    void cancelTimer(final CmConnection conn)
    {
        if (null != conn.timer)
        {
            conn.timer.cancel();
            conn.timer = null;
        }
    }

    void release(final CmConnection conn, final CmState state)
    {
        cancelTimer(conn);
        conn.state = state;
        byLocalId.remove(conn.localCommId, conn);
        byRemoteId.remove(new RemoteId(conn.remoteCaGuid, conn.remoteCommId), conn);
        if (conn.passive)
        {
            byRemoteQp.remove(new RemoteQp(conn.remoteGidHi, conn.remoteGidLo, conn.remoteQpn), conn);
        }
        if (null != conn.ah)
        {
            device.destroyAh(conn.ah);
            conn.ah = null;
        }
    }

    private AddressHandle createAh(final CmConnection conn, final int sgidIndex)
    {
        ahAttr.dgid(conn.remoteGidHi, conn.remoteGidLo).sgidIndex(sgidIndex).hopLimit(conn.hopLimit)
            .trafficClass(conn.trafficClass).flowLabel(conn.flowLabel).portNum(RxeDevice.PORT);
        return device.createAh(port.pd(), ahAttr);
    }

    private static void requireState(final CmConnection conn, final CmState expected)
    {
        if (expected != conn.state)
        {
            throw new IllegalStateException("needs " + expected + ": " + conn);
        }
    }

    private static byte[] orEmpty(final byte[] data)
    {
        return null == data ? NO_DATA : data;
    }

    private static int transportType(final CmConnection conn)
    {
        return io.jrxe.rxe.verbs.QpType.UC == conn.qpType ? 1 : 0;
    }

    /** Stop the thread (if any), end every connection's timers and close QP1. */
    @Override
    public void close()
    {
        running = false;
        final Thread t = thread;
        if (null != t)
        {
            LockSupport.unpark(t);
            try
            {
                t.join(5000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        for (final CmConnection conn : byLocalId.values().toArray(new CmConnection[0]))
        {
            cancelTimer(conn);
            if (null != conn.ah)
            {
                device.destroyAh(conn.ah);
                conn.ah = null;
            }
        }
        port.close();
    }
}