package io.jrxe.ulp.rpcrdma;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.sunrpc.DuplicateReplyCache;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcDispatcher;

import org.agrona.concurrent.IdleStrategy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * An RPC-over-RDMA client on node A and server on node B, on the emulated wire, everything stepped on the test
 * thread in virtual time: a step runs both device models and engines, both CMs, the client and the server; a step
 * that did nothing advances the clock by 64 µs, so RC retransmission, CM and RPC timers fire deterministically.
 */
public final class RpcPair implements AutoCloseable
{
    static final int PORT = 20049;
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    final ManualClock clock = new ManualClock();
    final NodePair nodes;
    final RdmaCm cmA;
    final RdmaCm cmB;
    final TestProgram program = new TestProgram();
    final RpcDispatcher dispatcher;
    final RpcRdmaServer server;
    final RpcRdmaClient client;
    private final List<IntSupplier> extras = new ArrayList<>();

    RpcPair()
    {
        this(WireFaults.none(), new RpcRdmaClient.Context(), new RpcRdmaServerContext());
    }

    RpcPair(final WireFaults faults, final RpcRdmaClient.Context clientCtx, final RpcRdmaServerContext serverCtx)
    {
        this(faults, clientCtx, serverCtx, null);
    }

    /**
     * @param faults the wire's faults
     * @param clientCtx client settings (server address, clock, idle strategy and credential are set here)
     * @param serverCtx server settings (clock and port are set here)
     * @param dispatcher the server's programs, or null for {@link TestProgram} with a reply cache
     */
    public RpcPair(
        final WireFaults faults, final RpcRdmaClient.Context clientCtx, final RpcRdmaServerContext serverCtx,
        final RpcDispatcher dispatcher)
    {
        this.dispatcher = null != dispatcher ? dispatcher :
            new RpcDispatcher(new DuplicateReplyCache(1024, 4096)).register(program);
        nodes = new NodePair(new NodePairContext().clock(clock).faults(faults));
        final RdmaCm.Context cmCtx = new RdmaCm.Context().callerDrives(true).clock(clock).cmTiming(12, 8, 3);
        cmA = RdmaCm.open(nodes.a(), cmCtx);
        cmB = RdmaCm.open(nodes.b(), new RdmaCm.Context().callerDrives(true).clock(clock).cmTiming(12, 8, 3));
        server = RpcRdmaServer.start(cmB, this.dispatcher, serverCtx.clock(clock)
            .bind(new InetSocketAddress(PORT)));
        clientCtx.transport().server(address(NodePair.IP_B, PORT)).clock(clock)
            .reconnectDelay(10 * MS, 100 * MS);
        clientCtx.auth(RpcAuth.sys(1, "jrxe-test", 1000, 1000)).idle(new Stepper());
        client = RpcRdmaClient.create(cmA, clientCtx);
    }

    /** @return the client on node A */
    public RpcRdmaClient client()
    {
        return client;
    }

    /** @return the server on node B */
    public RpcRdmaServer server()
    {
        return server;
    }

    /**
     * What a synchronous call does while it waits: it steps the rest of the world (nodes, CMs, server) and, when
     * nothing moved, advances the virtual clock. So {@code execute} works in virtual time, no thread involved.
     */
    private final class Stepper implements IdleStrategy
    {
        @Override
        public void idle(final int workCount)
        {
            if (0 == nodes.step() + cmA.doWork() + cmB.doWork() + server.doWork() + extras() && 0 == workCount)
            {
                clock.advance(64_000);
            }
        }

        @Override
        public void idle()
        {
            idle(0);
        }

        @Override
        public void reset()
        {
        }
    }

    static InetSocketAddress address(final int ip, final int port)
    {
        try
        {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[]{
                (byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8), (byte)ip}), port);
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Have every step also run {@code worker} (a second server, a hand-driven peer), on the test thread.
     *
     * @param worker its duty cycle, returning work done
     */
    void also(final IntSupplier worker)
    {
        extras.add(worker);
    }

    private int extras()
    {
        int work = 0;
        for (int i = 0; i < extras.size(); i++)
        {
            work += extras.get(i).getAsInt();
        }
        return work;
    }

    int step()
    {
        return nodes.step() + cmA.doWork() + cmB.doWork() + client.progress() + server.doWork() + extras();
    }

    public void runUntil(final BooleanSupplier condition, final long timeoutNs, final String what)
    {
        final long start = clock.nanoTime();
        long steps = 0;
        while (!condition.getAsBoolean())
        {
            if (clock.nanoTime() - start > timeoutNs || ++steps > 50_000_000L)
            {
                throw new IllegalStateException("no " + what + " within " + timeoutNs / MS + " ms virtual; " +
                    client + " server " + server.counters().describe(false));
            }
            if (0 == step())
            {
                clock.advance(64_000);
            }
        }
    }

    public void runFor(final long ns)
    {
        final long end = clock.nanoTime() + ns;
        while (clock.nanoTime() < end)
        {
            if (0 == step())
            {
                clock.advance(64_000);
            }
        }
    }

    public void connect()
    {
        client.connect();
        runUntil(client.transport()::isConnected, 10 * SECOND, "connection");
    }

    /** Tear everything down, the client's drain driven in virtual time first. */
    @Override
    public void close()
    {
        // drive the teardown in virtual time first: the client's drain needs the engines stepped
        client.transport().close();
        runFor(50 * MS);
        client.close();
        server.close();
        cmA.close();
        cmB.close();
        nodes.close();
    }
}
