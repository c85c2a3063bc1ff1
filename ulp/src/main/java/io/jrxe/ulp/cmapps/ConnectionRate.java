package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * How many RC connections per second rdma_cm sets up between two jrxe nodes in one JVM: A opens {@code n}
 * connections to a listener on B, at most {@code window} at a time, each through the whole librdmacm sequence
 * (create id, resolve address and route, create QP, connect; B: create QP, accept; RTU), and then tears them all
 * down. One thread drives everything through {@code step} (the nodes, the devices and both CMs), so the figure
 * is the cost of the software path, free of thread hand-offs.
 * <pre>
 *   A: create_id -> resolve_addr -> ADDR_RESOLVED -> resolve_route -> ROUTE_RESOLVED -> create_qp -> connect
 *   B:                                        CONNECT_REQUEST -> create_qp -> accept (REP)
 *   A: REP -> RTR/RTS -> RTU -> ESTABLISHED            B: RTU -> ESTABLISHED
 * </pre>
 */
public final class ConnectionRate
{
    /** What a run measured. */
    public record Result(int connections, long setupNs, long teardownNs)
    {
        /** @return connections set up per second */
        public double perSecond()
        {
            return connections * 1e9 / Math.max(1, setupNs);
        }
    }

    private final RdmaCm a;
    private final RdmaCm b;
    private final InetSocketAddress server;
    private final IntSupplier step;

    /**
     * @param a the client node's CM
     * @param b the server node's CM
     * @param server B's address and the port to use
     * @param step one duty cycle of everything (returns work done)
     */
    public ConnectionRate(final RdmaCm a, final RdmaCm b, final InetSocketAddress server, final IntSupplier step)
    {
        this.a = a;
        this.b = b;
        this.server = server;
        this.step = step;
    }

    /**
     * @param connections how many
     * @param window how many may be under way at once
     * @return the times
     */
    public Result run(final int connections, final int window)
    {
        final EventChannel chA = a.createEventChannel();
        final EventChannel chB = b.createEventChannel();
        final ProtectionDomain pdA = a.device().allocPd();
        final ProtectionDomain pdB = b.device().allocPd();
        final CompletionQueue cqA = a.device().createCq(new CqInitAttr().cqe(4 * connections + 16));
        final CompletionQueue cqB = b.device().createCq(new CqInitAttr().cqe(4 * connections + 16));
        final CmId listener = b.createId(chB, null, PortSpace.TCP);
        listener.bindAddr(server);
        listener.listen(connections);
        final List<CmId> clients = new ArrayList<>();
        final List<CmId> servers = new ArrayList<>();
        int started = 0;
        int up = 0;
        int upB = 0;
        final long t0 = System.nanoTime();
        while (up < connections || upB < connections)
        {
            while (started < connections && started - up < window)
            {
                final CmId id = a.createId(chA, null, PortSpace.TCP);
                id.resolveAddr(null, server, 2000);
                clients.add(id);
                started++;
            }
            step.getAsInt();
            CmEvent e;
            while (null != (e = chA.pollEvent()))
            {
                final CmId id = e.id();
                final CmEventType type = e.type();
                chA.ackEvent(e);
                switch (type)
                {
                    case ADDR_RESOLVED -> id.resolveRoute(2000);
                    case ROUTE_RESOLVED ->
                    {
                        id.createQp(pdA, qpInit(cqA));
                        id.connect(new ConnParam().responderResources(1).initiatorDepth(1));
                    }
                    case ESTABLISHED -> up++;
                    default -> throw new IllegalStateException("client: " + type + " status " + e.status());
                }
            }
            while (null != (e = chB.pollEvent()))
            {
                final CmId id = e.id();
                final CmEventType type = e.type();
                chB.ackEvent(e);
                switch (type)
                {
                    case CONNECT_REQUEST ->
                    {
                        id.createQp(pdB, qpInit(cqB));
                        id.accept(null);
                        servers.add(id);
                    }
                    case ESTABLISHED -> upB++;
                    default -> throw new IllegalStateException("server: " + type + " status " + e.status());
                }
            }
        }
        final long setup = System.nanoTime() - t0;
        final long t1 = System.nanoTime();
        for (final CmId id : clients)
        {
            id.disconnect();
        }
        int down = 0;
        int downB = 0;
        while (down < connections || downB < connections)
        {
            step.getAsInt();
            CmEvent e;
            while (null != (e = chA.pollEvent()))
            {
                if (CmEventType.DISCONNECTED == e.type())
                {
                    down++;
                }
                chA.ackEvent(e);
            }
            while (null != (e = chB.pollEvent()))
            {
                if (CmEventType.DISCONNECTED == e.type())
                {
                    downB++;
                    e.id().disconnect();
                }
                chB.ackEvent(e);
            }
        }
        final long teardown = System.nanoTime() - t1;
        for (final CmId id : clients)
        {
            id.destroy();
        }
        for (final CmId id : servers)
        {
            id.destroy();
        }
        listener.destroy();
        // the QPs leave in time-wait; the shared CQs and PDs wait for them
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while ((a.idCount() > 0 || b.idCount() > 0) && System.nanoTime() < deadline)
        {
            step.getAsInt();
        }
        a.device().destroyCq(cqA);
        b.device().destroyCq(cqB);
        a.device().deallocPd(pdA);
        b.device().deallocPd(pdB);
        return new Result(connections, setup, teardown);
    }

    private static QpInitAttr qpInit(final CompletionQueue cq)
    {
        final QpInitAttr init = new QpInitAttr().sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
        return init;
    }
}
