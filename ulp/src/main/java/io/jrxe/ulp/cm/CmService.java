package io.jrxe.ulp.cm;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.cm.mad.AprMessage;
import io.jrxe.ulp.cm.mad.ClassPortInfo;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.DrepMessage;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.LapMessage;
import io.jrxe.ulp.cm.mad.MadHeader;
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
 * listeners by service ID, and the timers that retransmit unanswered MADs (IBA 12.6, 12.9).
 * <p>
 * Threading: one owner. Everything below runs on the CM thread ({@link #start()}) or on the caller's thread when
 * the caller drives {@link #doWork()} (tests, with a manual clock). Other threads hand it work through
 * {@link #submit(Runnable)}, which wakes the thread; completions on QP1 wake it through the CQ's completion handler.
 * When idle the thread parks until the next timer, so a quiet CM costs nothing.
 * <pre>
 *   app threads --submit--> [command queue] --+
 *   engine thread --QP1 completion event------+--> CM thread: commands, MADs (REQ/REP/...), timers
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
        private int mraServiceTimeout = 24;
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
    private record RemoteId(long caGuid, int commId)
    {
    }

    /** Key of a passive connection by the peer's QP (IBA 12.9.8.3.1: stale connection detection). */
    private record RemoteQp(long gidHi, long gidLo, int qpn)
    {
    }

    private static final long PARK_MAX_NS = 100_000_000L;
    private static final byte[] NO_DATA = new byte[0];

    private final RxeDevice device;
    private final Context ctx;
    private final NanoClock clock;
    private final MadPort port;
    private final CmTimers timers = new CmTimers();
    private final CmCounters counters;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Map<Integer, CmConnection> byLocalId = new HashMap<>();
    private final Map<RemoteId, CmConnection> byRemoteId = new HashMap<>();
    private final Map<RemoteQp, CmConnection> byRemoteQp = new HashMap<>();
    private final Map<Long, CmHandler> listeners = new HashMap<>();
    private final long caGuid;
    private final byte[] scratch = new byte[MadHeader.MAD_SIZE];
    private final UnsafeBuffer out = new UnsafeBuffer(0, 0);
    private final MadHeader header = new MadHeader();
    private final ReqMessage req = new ReqMessage();
    private final RepMessage rep = new RepMessage();
    private final RtuMessage rtu = new RtuMessage();
    private final RejMessage rej = new RejMessage();
    private final MraMessage mra = new MraMessage();
    private final DreqMessage dreq = new DreqMessage();
    private final DrepMessage drep = new DrepMessage();
    private final SidrReqMessage sidrReq = new SidrReqMessage();
    private final SidrRepMessage sidrRep = new SidrRepMessage();
    private final LapMessage lap = new LapMessage();
    private final AprMessage apr = new AprMessage();
    private final ClassPortInfo classPortInfo = new ClassPortInfo();
    private final AhAttr ahAttr = new AhAttr();
    private final MadPort.Receiver receiver = this::onMad;
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
            enterTimewait(conn); // our REP may have set the peer's QP up: let it drain (cm.c cm_reject_sidr...)
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
    // Receive
    // ---------------------------------------------------------------------------------------------------------

    private void onMad(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        final int mad = slot + MadPort.GRH_LENGTH;
        if (wc.byteLen() < MadPort.GRH_LENGTH + MadHeader.MAD_SIZE)
        {
            counters.drop(CmCounters.Drop.SHORT);
            return;
        }
        header.wrap(buffer, mad);
        final int method = header.method();
        if (MadHeader.BASE_VERSION != header.baseVersion() || MadHeader.MGMT_CLASS_CM != header.mgmtClass() ||
            MadHeader.CM_CLASS_VERSION != header.classVersion())
        {
            counters.drop(CmCounters.Drop.BAD_VERSION);
            if (MadHeader.METHOD_GET == method && MadHeader.MGMT_CLASS_CM == header.mgmtClass())
            {
                replyStatus(buffer, slot, wc, MadHeader.STATUS_BAD_VERSION); // IBA 13.4.7: a Get is answered
            }
            return;
        }
        final int attributeId = header.attributeId();
        if (MadHeader.METHOD_SEND != method)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_ATTRIBUTE);
            if (MadHeader.METHOD_GET == method)
            {
                if (CmAttributes.CLASS_PORT_INFO == attributeId)
                {
                    replyClassPortInfo(buffer, slot, wc);
                }
                else
                {
                    replyStatus(buffer, slot, wc, MadHeader.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE);
                }
            }
            else if (MadHeader.METHOD_SET == method)
            {
                replyStatus(buffer, slot, wc, MadHeader.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE);
            }
            return;
        }
        if (CmCounters.typeIndex(attributeId) < 0)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_ATTRIBUTE);
            return;
        }
        counters.increment(CmCounters.Group.CM_RX_MSGS, attributeId);
        switch (attributeId)
        {
            case CmAttributes.REQ: onReq(buffer, slot, wc); break;
            case CmAttributes.MRA: onMra(buffer, mad); break;
            case CmAttributes.REJ: onRej(buffer, mad); break;
            case CmAttributes.REP: onRep(buffer, slot, wc); break;
            case CmAttributes.RTU: onRtu(buffer, mad); break;
            case CmAttributes.DREQ: onDreq(buffer, slot, wc); break;
            case CmAttributes.DREP: onDrep(buffer, mad); break;
            case CmAttributes.SIDR_REQ: onSidrReq(buffer, slot, wc); break;
            case CmAttributes.SIDR_REP: onSidrRep(buffer, mad); break;
            case CmAttributes.LAP: onLap(buffer, mad); break;
            default: counters.drop(CmCounters.Drop.BAD_STATE); break; // APR: we never send a LAP
        }
    }

    private void onReq(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        req.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final RemoteId remote = new RemoteId(req.localCaGuid(), req.localCommId());
        final CmConnection existing = byRemoteId.get(remote);
        if (null != existing)
        {
            duplicateReq(existing, buffer, slot, wc);
            return;
        }
        final long tid = req.header().transactionId();
        final CmHandler listener = listeners.get(req.serviceId());
        if (null == listener)
        {
            // IBA 12.6.7.1: no one serves this service ID
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ,
                RejReason.INVALID_SERVICE_ID);
            return;
        }
        final int type = req.transportServiceType();
        if (0 != type && 1 != type)
        {
            counters.drop(CmCounters.Drop.INVALID);
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ,
                RejReason.INVALID_TRANSPORT_TYPE); // RD and XRC are not served
            return;
        }
        if (req.pathMtu() < 1 || req.pathMtu() > 5)
        {
            counters.drop(CmCounters.Drop.INVALID);
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ, RejReason.INVALID_MTU);
            return;
        }
        if (isStale(req))
        {
            // IBA 12.9.8.3.1: the peer's QP is still part of a connection we know
            rejectUnknown(buffer, slot, wc, tid, req.localCommId(), RejMessage.MESSAGE_REQ, RejReason.STALE_CONN);
            return;
        }
        final CmConnection conn = create(null);
        conn.passive = true;
        conn.transactionId = tid;
        conn.remoteCommId = req.localCommId();
        conn.remoteCaGuid = req.localCaGuid();
        conn.serviceId = req.serviceId();
        conn.qpType = 0 == type ? io.jrxe.rxe.verbs.QpType.RC : io.jrxe.rxe.verbs.QpType.UC;
        conn.remoteQpn = req.localQpn();
        conn.remoteStartingPsn = req.startingPsn();
        conn.peerResponderResources = req.responderResources();
        conn.peerInitiatorDepth = req.initiatorDepth();
        conn.localGidHi = req.primaryRemoteGidHi();
        conn.localGidLo = req.primaryRemoteGidLo();
        conn.remoteGidHi = req.primaryLocalGidHi();
        conn.remoteGidLo = req.primaryLocalGidLo();
        conn.trafficClass = req.primaryTrafficClass();
        conn.hopLimit = req.primaryHopLimit();
        conn.flowLabel = req.primaryFlowLabel();
        conn.pathMtu = req.pathMtu();
        conn.retryCount = req.retryCount();
        conn.rnrRetryCount = req.rnrRetryCount();
        conn.localAckTimeout = req.primaryLocalAckTimeout();
        conn.remoteCmResponseTimeout = req.localCmResponseTimeout();
        conn.maxCmRetries = req.maxCmRetries();
        conn.flowControl = req.endToEndFlowControl();
        conn.peerSrq = req.srq();
        conn.ah = port.createAhFromWc(wc, buffer, slot);
        conn.state = CmState.REQ_RCVD;
        byRemoteId.put(remote, conn);
        byRemoteQp.put(new RemoteQp(conn.remoteGidHi, conn.remoteGidLo, conn.remoteQpn), conn);
        // a consumer slower than half the peer's response time gets an MRA sent for it (cma.c sends one for
        // every user-space REQ); it then has the MRA's service timeout to answer
        final long mraAfter = timeoutNs(conn.remoteCmResponseTimeout) / 2;
        conn.timer = timers.at(clock.nanoTime() + mraAfter, () -> sendMra(conn, ctx.mraServiceTimeout));
        listener.onReq(conn, req);
    }

    private void duplicateReq(
        final CmConnection existing, final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REQ);
        switch (existing.state)
        {
            case MRA_REQ_SENT:
            case REP_SENT:
            case MRA_REP_RCVD:
                retransmit(existing); // IBA 12.9.8.3: a duplicate REQ re-sends our answer (MRA or REP)
                break;
            case ESTABLISHED:
            case TIMEWAIT:
                rejectUnknown(buffer, slot, wc, req.header().transactionId(), req.localCommId(),
                    RejMessage.MESSAGE_REQ, RejReason.STALE_CONN);
                break;
            default:
                break; // REQ_RCVD: the consumer has not answered yet; the MRA timer will
        }
    }

    private boolean isStale(final ReqMessage request)
    {
        final CmConnection c = byRemoteQp.get(
            new RemoteQp(request.primaryLocalGidHi(), request.primaryLocalGidLo(), request.localQpn()));
        return null != c &&
            (CmState.ESTABLISHED == c.state || CmState.DREQ_SENT == c.state || CmState.DREQ_RCVD == c.state);
    }

    private void onRep(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        rep.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final CmConnection conn = byLocalId.get(rep.remoteCommId());
        if (null == conn || conn.passive)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            // cm.c cm_rep_handler: a REP for no connection of ours is refused
            rejectUnknown(buffer, slot, wc, rep.header().transactionId(), rep.localCommId(), RejMessage.MESSAGE_REP,
                RejReason.INVALID_COMM_ID);
            return;
        }
        switch (conn.state)
        {
            case REQ_SENT:
            case MRA_REQ_RCVD:
                break;
            case ESTABLISHED:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REP);
                retransmit(conn); // IBA 12.9.8.4: a duplicate REP re-sends the RTU
                return;
            case REP_RCVD:
            case MRA_REP_SENT:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REP);
                return;
            default:
                counters.drop(CmCounters.Drop.BAD_STATE);
                return;
        }
        cancelTimer(conn);
        conn.remoteCommId = rep.localCommId();
        conn.remoteCaGuid = rep.localCaGuid();
        conn.remoteQpn = rep.localQpn();
        conn.remoteStartingPsn = rep.startingPsn();
        conn.peerResponderResources = rep.responderResources();
        conn.peerInitiatorDepth = rep.initiatorDepth();
        conn.rnrRetryCount = rep.rnrRetryCount(); // the passive side chooses our RNR retries (cm.c)
        conn.targetAckDelay = rep.targetAckDelay();
        conn.peerSrq = rep.srq();
        conn.peerQkey = rep.localQkey();
        byRemoteId.put(new RemoteId(conn.remoteCaGuid, conn.remoteCommId), conn);
        conn.state = CmState.REP_RCVD;
        final CmHandler h = conn.handler;
        if (null != h)
        {
            h.onRep(conn, rep);
        }
    }

    private void onRtu(final UnsafeBuffer buffer, final int mad)
    {
        rtu.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(rtu.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        if (CmState.REP_SENT != conn.state && CmState.MRA_REP_RCVD != conn.state)
        {
            if (CmState.ESTABLISHED == conn.state)
            {
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.RTU);
            }
            else
            {
                counters.drop(CmCounters.Drop.BAD_STATE);
            }
            return;
        }
        cancelTimer(conn);
        conn.state = CmState.ESTABLISHED;
        notifyEstablished(conn);
    }

    private void onMra(final UnsafeBuffer buffer, final int mad)
    {
        mra.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(mra.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        final int what = mra.messageMraed();
        final CmState next;
        if (MraMessage.MESSAGE_REQ == what && (CmState.REQ_SENT == conn.state || CmState.MRA_REQ_RCVD == conn.state))
        {
            next = CmState.MRA_REQ_RCVD;
        }
        else if (MraMessage.MESSAGE_REP == what &&
            (CmState.REP_SENT == conn.state || CmState.MRA_REP_RCVD == conn.state))
        {
            next = CmState.MRA_REP_RCVD;
        }
        else
        {
            counters.drop(CmCounters.Drop.BAD_STATE);
            return;
        }
        if (next == conn.state)
        {
            counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.MRA);
        }
        conn.state = next;
        // IBA 12.6.6: the peer needs its service timeout; our message stays outstanding that much longer
        cancelTimer(conn);
        final long wait = timeoutNs(mra.serviceTimeout()) + timeoutNs(ctx.packetLifetime);
        conn.timer = timers.at(clock.nanoTime() + wait, () -> onRetryTimeout(conn));
    }

    private void onRej(final UnsafeBuffer buffer, final int mad)
    {
        rej.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(rej.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        if (!conn.state.isConnecting() && CmState.ESTABLISHED != conn.state)
        {
            counters.drop(CmCounters.Drop.BAD_STATE);
            return;
        }
        final boolean repSent = CmState.REP_SENT == conn.state || CmState.MRA_REP_RCVD == conn.state ||
            CmState.ESTABLISHED == conn.state;
        cancelTimer(conn);
        final CmHandler h = conn.handler;
        if (repSent)
        {
            enterTimewait(conn);
        }
        else
        {
            release(conn, CmState.IDLE);
        }
        if (null != h)
        {
            h.onRej(conn, rej);
        }
    }

    private void onDreq(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        dreq.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final CmConnection conn = byLocalId.get(dreq.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            // cm.c cm_dreq_handler: answer anyway, so the peer's DREQ does not time out
            drep.wrap(outBuffer(), 0);
            drep.init(dreq.header().transactionId()).localCommId(dreq.remoteCommId())
                .remoteCommId(dreq.localCommId());
            sendReply(buffer, slot, wc, CmAttributes.DREP);
            return;
        }
        if (conn.localQpn != dreq.remoteQpn())
        {
            counters.drop(CmCounters.Drop.BAD_QPN); // IBA 12.6.10: the DREQ must name our QP
            return;
        }
        switch (conn.state)
        {
            case ESTABLISHED:
            case REP_SENT:
            case MRA_REP_RCVD:
            case DREQ_SENT:
                cancelTimer(conn);
                conn.state = CmState.DREQ_RCVD;
                final CmHandler h = conn.handler;
                if (null != h)
                {
                    h.onDreq(conn, dreq);
                }
                else
                {
                    sendDrep(conn, null, 0); // destroyed already: answer for the consumer
                }
                break;
            case TIMEWAIT:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.DREQ);
                if (CmAttributes.DREP == conn.lastAttributeId)
                {
                    retransmit(conn);
                }
                break;
            case DREQ_RCVD:
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.DREQ);
                break;
            default:
                counters.drop(CmCounters.Drop.BAD_STATE);
                break;
        }
    }

    private void onDrep(final UnsafeBuffer buffer, final int mad)
    {
        drep.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(drep.remoteCommId());
        if (null == conn)
        {
            counters.drop(CmCounters.Drop.UNKNOWN_COMM_ID);
            return;
        }
        if (CmState.DREQ_SENT != conn.state)
        {
            if (CmState.TIMEWAIT == conn.state)
            {
                counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.DREP);
            }
            else
            {
                counters.drop(CmCounters.Drop.BAD_STATE);
            }
            return;
        }
        cancelTimer(conn);
        enterTimewait(conn);
        final CmHandler h = conn.handler;
        if (null != h)
        {
            h.onDrep(conn);
        }
    }

    private void onSidrReq(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        sidrReq.wrap(buffer, slot + MadPort.GRH_LENGTH);
        final long tid = sidrReq.header().transactionId();
        final CmHandler listener = listeners.get(sidrReq.serviceId());
        if (null == listener)
        {
            sidrRep.wrap(outBuffer(), 0);
            sidrRep.init(tid).requestId(sidrReq.requestId()).status(SidrStatus.UNSUPPORTED)
                .serviceId(sidrReq.serviceId());
            sendReply(buffer, slot, wc, CmAttributes.SIDR_REP);
            return;
        }
        final long guidKey = -1L - (tid >>> 32); // SIDR has no CA GUID: key duplicates on the TID's high half
        final RemoteId remote = new RemoteId(guidKey, sidrReq.requestId());
        if (byRemoteId.containsKey(remote))
        {
            counters.increment(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.SIDR_REQ);
            return;
        }
        final CmConnection conn = create(null);
        conn.passive = true;
        conn.transactionId = tid;
        conn.sidrRequestId = sidrReq.requestId();
        conn.remoteCommId = sidrReq.requestId();
        conn.remoteCaGuid = guidKey;
        conn.serviceId = sidrReq.serviceId();
        conn.qpType = io.jrxe.rxe.verbs.QpType.UD;
        conn.ah = port.createAhFromWc(wc, buffer, slot);
        conn.state = CmState.SIDR_REQ_RCVD;
        byRemoteId.put(remote, conn);
        listener.onSidrReq(conn, sidrReq);
    }

    private void onSidrRep(final UnsafeBuffer buffer, final int mad)
    {
        sidrRep.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(sidrRep.requestId());
        if (null == conn || CmState.SIDR_REQ_SENT != conn.state)
        {
            counters.drop(null == conn ? CmCounters.Drop.UNKNOWN_COMM_ID : CmCounters.Drop.BAD_STATE);
            return;
        }
        cancelTimer(conn);
        conn.remoteQpn = sidrRep.qpn();
        conn.peerQkey = sidrRep.qkey();
        final CmHandler h = conn.handler;
        release(conn, CmState.IDLE);
        if (null != h)
        {
            h.onSidrRep(conn, sidrRep);
        }
    }

    private void onLap(final UnsafeBuffer buffer, final int mad)
    {
        lap.wrap(buffer, mad);
        final CmConnection conn = byLocalId.get(lap.remoteCommId());
        if (null == conn || CmState.ESTABLISHED != conn.state)
        {
            counters.drop(null == conn ? CmCounters.Drop.UNKNOWN_COMM_ID : CmCounters.Drop.BAD_STATE);
            return;
        }
        // IBA 12.8: a RoCE port has no alternate path to load; the APR says so and the connection stays
        apr.wrap(outBuffer(), 0);
        apr.init(lap.header().transactionId()).localCommId(conn.localCommId).remoteCommId(conn.remoteCommId)
            .apStatus(AprMessage.AP_STATUS_NOT_SUPPORTED);
        counters.increment(CmCounters.Group.CM_TX_MSGS, CmAttributes.APR);
        port.send(scratch, conn.ah, false);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Send, retransmit, timers
    // ---------------------------------------------------------------------------------------------------------

    private UnsafeBuffer mad(final CmConnection conn)
    {
        out.wrap(conn.lastMad);
        return out;
    }

    private UnsafeBuffer outBuffer()
    {
        out.wrap(scratch);
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

    private void retransmit(final CmConnection conn)
    {
        counters.increment(CmCounters.Group.CM_TX_MSGS, conn.lastAttributeId);
        port.send(conn.lastMad, conn.ah, false);
    }

    private void onRetryTimeout(final CmConnection conn)
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

    private void enterTimewait(final CmConnection conn)
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

    private void notifyEstablished(final CmConnection conn)
    {
        final CmHandler h = conn.handler;
        if (null != h)
        {
            h.onEstablished(conn);
        }
    }

    private void cancelTimer(final CmConnection conn)
    {
        if (null != conn.timer)
        {
            conn.timer.cancel();
            conn.timer = null;
        }
    }

    private void release(final CmConnection conn, final CmState state)
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

    private void rejectUnknown(
        final UnsafeBuffer buffer, final int slot, final WorkCompletion wc, final long tid, final int remoteCommId,
        final int messageRejected, final RejReason reason)
    {
        rej.wrap(outBuffer(), 0);
        rej.init(tid).localCommId(0).remoteCommId(remoteCommId).messageRejected(messageRejected)
            .reason(reason.code());
        sendReply(buffer, slot, wc, CmAttributes.REJ);
    }

    private void sendReply(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc, final int attributeId)
    {
        counters.increment(CmCounters.Group.CM_TX_MSGS, attributeId);
        port.reply(scratch, buffer, slot, wc);
    }

    private void replyStatus(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc, final int status)
    {
        buffer.getBytes(slot + MadPort.GRH_LENGTH, scratch, 0, MadHeader.MAD_SIZE);
        header.wrap(outBuffer(), 0);
        header.method(MadHeader.METHOD_GET_RESP).status(status);
        port.reply(scratch, buffer, slot, wc);
    }

    private void replyClassPortInfo(final UnsafeBuffer buffer, final int slot, final WorkCompletion wc)
    {
        buffer.getBytes(slot + MadPort.GRH_LENGTH, scratch, 0, MadHeader.MAD_SIZE);
        header.wrap(outBuffer(), 0);
        final long tid = header.transactionId();
        header.initCm(MadHeader.METHOD_GET_RESP, CmAttributes.CLASS_PORT_INFO, tid);
        // IBA 16.7.1 / 13.4.8.1: CM class version 2, no capability bits (no APM on RoCE), our response time
        classPortInfo.wrap(out, 0);
        classPortInfo.baseVersion(MadHeader.BASE_VERSION).classVersion(MadHeader.CM_CLASS_VERSION)
            .capabilityMask(0).respTimeValue(ctx.cmResponseTimeout);
        port.reply(scratch, buffer, slot, wc);
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
