package io.jrxe.ulp.rdmacm;

import io.jrxe.net.NetStack;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.CmCountersFile;
import io.jrxe.ulp.cm.CmService;
import org.agrona.concurrent.NanoClock;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The RDMA connection manager of one jrxe node: what librdmacm and the kernel's rdma_cm (cma.c) are together
 * for a C program. It runs the IB CM ({@link CmService}) on QP1 of the node's device, keeps the port spaces
 * (which id is bound to which port), resolves addresses through the node's own ARP and Neighbor Discovery, and
 * hands out {@link EventChannel}s and {@link CmId}s.
 * <pre>
 *   try (RdmaCm cm = RdmaCm.open(node);                 // starts the CM thread
 *        EventChannel ch = cm.createEventChannel())
 *   {
 *       CmId id = cm.createId(ch, null, PortSpace.TCP);
 *       id.resolveAddr(null, new InetSocketAddress("10.9.0.1", 7174), 2000);   // -> ADDR_RESOLVED
 *       ...
 *   }
 * </pre>
 * The node's addressing is RoCEv2: its IPv4 address, GID index {@link RoceNode#GID_INDEX_IPV4} (the
 * IPv4-mapped GID), and its IPv6 addresses, each its own GID (link-local ones for link-local peers). One RdmaCm
 * per node: it owns QP1.
 */
public final class RdmaCm implements AutoCloseable
{
    /** How long {@link #createEp} gives address and route resolution, each: librdmacm's 2000 ms. */
    public static final int EP_RESOLVE_TIMEOUT_MS = 2000;

    /** Settings. */
    public static final class Context
    {
        private NanoClock clock = System::nanoTime;
        private boolean callerDrives;
        private final CmService.Context cm = new CmService.Context();
        private int ephemeralLow = 32768;
        private int ephemeralHigh = 60999;

        /**
         * @param clock the clock of the CM's timers (a test's manual clock; default the system clock)
         * @return this
         */
        public Context clock(final NanoClock clock)
        {
            this.clock = clock;
            cm.clock(clock);
            return this;
        }

        /**
         * @param callerDrives true: no CM thread, the caller runs {@link RdmaCm#doWork()}
         * @return this
         */
        public Context callerDrives(final boolean callerDrives)
        {
            this.callerDrives = callerDrives;
            return this;
        }

        /**
         * The IB CM's timing, as exponents of 4.096 µs · 2^t (defaults: the kernel rdma_cm's values).
         *
         * @param cmResponseTimeout our CM response time, asked of the peer too (CMA_CM_RESPONSE_TIMEOUT, 20)
         * @param packetLifetime the path's packet lifetime (CMA_IBOE_PACKET_LIFETIME, 16)
         * @param maxCmRetries retransmissions of an unanswered MAD (CMA_MAX_CM_RETRIES, 15)
         * @return this
         */
        public Context cmTiming(final int cmResponseTimeout, final int packetLifetime, final int maxCmRetries)
        {
            if (cmResponseTimeout < 0 || cmResponseTimeout > 31 || packetLifetime < 0 || packetLifetime > 30 ||
                maxCmRetries < 0 || maxCmRetries > 15)
            {
                throw new IllegalArgumentException("CM timing: timeouts are 5-bit exponents and MaxCMRetries has 4 " +
                    "bits; got " + cmResponseTimeout + ", " + packetLifetime + ", " + maxCmRetries);
            }
            cm.cmResponseTimeout(cmResponseTimeout).packetLifetime(packetLifetime).maxCmRetries(maxCmRetries);
            return this;
        }

        /** @return the IB CM's settings */
        CmService.Context cm()
        {
            return cm;
        }
    }

    private final RoceNode node;
    private final Context ctx;
    private final CmService cm;
    private final CmCountersFile countersFile;
    private final NodeAddresses addresses;
    private final Map<Long, CmId> bound = new HashMap<>();
    private final Set<CmId> ids = new LinkedHashSet<>();
    private boolean closed;

    private RdmaCm(final RoceNode node, final Context ctx)
    {
        this.node = node;
        this.ctx = ctx;
        // beside the node's hw_stats file, for jrxe stat; none when the node keeps no counters file
        this.countersFile = null == node.counters() ? null :
            CmCountersFile.create(CmCountersFile.pathFor(node.counters().path()), node.counters().deletesOnClose());
        if (null != countersFile)
        {
            ctx.cm.counters(countersFile.counters());
        }
        this.cm = new CmService(node.device(), ctx.cm.name("jrxe-cm-" + node.name()).clock(ctx.clock));
        this.addresses = new NodeAddresses(this);
        if (!ctx.callerDrives)
        {
            cm.start();
        }
    }

    /**
     * @param node the node (its engine must be running, or driven by the caller)
     * @return the connection manager, its thread started
     */
    public static RdmaCm open(final RoceNode node)
    {
        return new RdmaCm(node, new Context());
    }

    /**
     * @param node the node
     * @param ctx settings
     * @return the connection manager
     */
    public static RdmaCm open(final RoceNode node, final Context ctx)
    {
        return new RdmaCm(node, ctx);
    }

    /** @return a new event channel ({@code rdma_create_event_channel}) */
    public EventChannel createEventChannel()
    {
        return new EventChannel();
    }

    /**
     * {@code rdma_create_id} with the port space's usual QP type (TCP: RC, UDP: UD, IB: RC).
     *
     * @param channel where its events go; null for a synchronous id (calls block until their event)
     * @param context the caller's object
     * @param ps the port space
     * @return the id
     */
    public CmId createId(final EventChannel channel, final Object context, final PortSpace ps)
    {
        return createId(channel, context, ps, PortSpace.UDP == ps ? QpType.UD : QpType.RC);
    }

    /**
     * {@code rdma_create_id}.
     *
     * @param channel where its events go; null for a synchronous id
     * @param context the caller's object
     * @param ps the port space
     * @param qpType RC, UC or UD (UDP takes UD only, TCP RC or UC)
     * @return the id
     */
    public synchronized CmId createId(
        final EventChannel channel, final Object context, final PortSpace ps, final QpType qpType)
    {
        if (closed)
        {
            throw new RdmaCmException(Errno.ENODEV, "this RdmaCm is closed");
        }
        if ((PortSpace.UDP == ps) != (QpType.UD == qpType) && PortSpace.IB != ps || QpType.GSI == qpType)
        {
            throw new RdmaCmException(Errno.EINVAL, "port space " + ps + " does not take " + qpType +
                " QPs (TCP: RC or UC, UDP: UD, IB: any)");
        }
        final CmId id = new CmId(this, channel, context, ps, qpType);
        ids.add(id);
        return id;
    }

    /**
     * {@code rdma_getaddrinfo}: the address an id for {@code node} and {@code service} should use (see
     * {@link AddrInfo}). Names are looked up with the JVM's resolver; the service must be a port number.
     * <pre>
     *   server: getAddrInfo(null, "7471", new AddrInfo().flags(AddrInfo.PASSIVE))  -> src 0.0.0.0:7471, TCP, RC
     *   client: getAddrInfo("10.9.0.1", "7471", null)                            -> dst 10.9.0.1:7471, TCP, RC
     * </pre>
     *
     * @param node a host name or IPv4 address, or null (passive: the wildcard; active: 127.0.0.1)
     * @param service a port number, or null for 0
     * @param hints flags, port space, QP type, source address; or null
     * @return the answer
     * @throws RdmaCmException EINVAL for nothing to resolve or a service that is not a number, ENOENT for an
     *     unknown name, EADDRNOTAVAIL for a name without an IPv4 address
     */
    public static AddrInfo getAddrInfo(final String node, final String service, final AddrInfo hints)
    {
        return AddrInfo.resolve(node, service, hints);
    }

    /**
     * {@code rdma_create_ep}: a synchronous id (no event channel; calls block until their event) for an
     * {@link AddrInfo}. Passive: the id is bound to the source address, and {@code pd}/{@code init} are kept for the
     * QP each {@link CmId#getRequest()} makes; call {@link CmId#listen} next. Active: the address and the route are
     * resolved (2 s each, as librdmacm) and, with {@code init}, the QP is made (its capabilities come back in
     * {@code init.cap()}); call {@link CmId#connect} next. {@link CmId#destroy()} is {@code rdma_destroy_ep}.
     *
     * @param res from {@link #getAddrInfo}
     * @param pd the PD, or null for the id's own
     * @param init the QP's attributes (its type is set to {@code res}'s), or null for no QP
     * @return the id
     * @throws RdmaCmException as the calls it makes; the id is destroyed again
     */
    public CmId createEp(final AddrInfo res, final ProtectionDomain pd, final QpInitAttr init)
    {
        final CmId id = createId(null, null, res.portSpace(), res.qpType());
        try
        {
            if (res.isPassive())
            {
                id.bindAddr(null == res.srcAddr() ? new InetSocketAddress(0) : res.srcAddr());
                if (null != init)
                {
                    id.requestQpAttributes(pd, init.qpType(res.qpType()));
                }
                return id;
            }
            id.resolveAddr(res.srcAddr(), res.dstAddr(), EP_RESOLVE_TIMEOUT_MS);
            id.resolveRoute(EP_RESOLVE_TIMEOUT_MS);
            if (null != init)
            {
                id.createQp(pd, init.qpType(res.qpType()));
            }
            return id;
        }
        catch (final RuntimeException e)
        {
            // an interrupted call (EINTR) leaves the flag set; destroy must still wait for the CM thread
            final boolean interrupted = Thread.interrupted();
            try
            {
                id.destroy();
            }
            catch (final RuntimeException d)
            {
                e.addSuppressed(d);
            }
            finally
            {
                if (interrupted)
                {
                    Thread.currentThread().interrupt();
                }
            }
            throw e;
        }
    }

    /** @return the node */
    public RoceNode node()
    {
        return node;
    }

    /** @return the verbs device */
    public RxeDevice device()
    {
        return node.device();
    }

    /** @return the IB CM's counters */
    public CmCounters counters()
    {
        return cm.counters();
    }

    /** @return the IB CM */
    CmService cm()
    {
        return cm;
    }

    /**
     * One duty cycle of the CM, for a caller that drives it ({@link Context#callerDrives}).
     *
     * @return work done
     */
    public int doWork()
    {
        return cm.doWork();
    }

    /** @return true when no CM thread runs (the caller drives {@link #doWork()}) */
    boolean callerDrives()
    {
        return ctx.callerDrives;
    }

    /** @return the node's addresses and their GID indexes */
    NodeAddresses addresses()
    {
        return addresses;
    }

    NetStack stack()
    {
        return node.stack();
    }

    /**
     * Bind an id to a port ({@code cma_get_port}): 0 picks a free ephemeral port.
     *
     * @return the port
     */
    synchronized int bind(final CmId id, final PortSpace ps, final int port, final boolean reuse)
    {
        if (0 != port)
        {
            final long key = ps.serviceId(port);
            final CmId holder = bound.get(key);
            if (null != holder && holder != id && !(reuse && holder.reuseAddr() && !holder.isListening()))
            {
                throw new RdmaCmException(Errno.EADDRINUSE, ps + " port " + port + " is bound to another id");
            }
            bound.put(key, id);
            return port;
        }
        final int span = ctx.ephemeralHigh - ctx.ephemeralLow + 1;
        int candidate = ctx.ephemeralLow + ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++)
        {
            final long key = ps.serviceId(candidate);
            if (!bound.containsKey(key))
            {
                bound.put(key, id);
                return candidate;
            }
            candidate = candidate == ctx.ephemeralHigh ? ctx.ephemeralLow : candidate + 1;
        }
        throw new RdmaCmException(Errno.EADDRINUSE, "no free ephemeral port in " + ps);
    }

    synchronized void unbind(final CmId id, final PortSpace ps, final int port)
    {
        bound.remove(ps.serviceId(port), id);
    }

    synchronized void forget(final CmId id)
    {
        ids.remove(id);
    }

    /** @return ids not yet destroyed */
    public synchronized int idCount()
    {
        return ids.size();
    }

    /**
     * Every id gets DEVICE_REMOVAL, then the CM stops and QP1 is closed. Close the ids' QPs (destroy the ids)
     * before closing the node.
     */
    @Override
    public void close()
    {
        final CmId[] live;
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            live = ids.toArray(new CmId[0]);
        }
        for (final CmId id : live)
        {
            id.deviceRemoved();
        }
        cm.close();
        if (null != countersFile)
        {
            countersFile.close();
        }
    }
}
