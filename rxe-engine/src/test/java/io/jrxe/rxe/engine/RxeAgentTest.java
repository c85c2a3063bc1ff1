package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.MemoryWire;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The agent wrapper: an {@link AgentInvoker} drives both engines while the test thread only posts and polls, the
 * way an application uses the engine in invoker mode.
 */
class RxeAgentTest
{
    @Test
    void shouldRunTheEngineThroughAnAgentInvoker()
    {
        final EnginePair pair = new EnginePair(21);
        final AgentInvoker a = new AgentInvoker(Throwable::printStackTrace, null, new RxeAgent(pair.a.engine));
        final AgentInvoker b = new AgentInvoker(Throwable::printStackTrace, null, new RxeAgent(pair.b.engine, "b"));
        a.start();
        b.start();
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
        final int all = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        final EnginePair.Region src = pair.a.register(3000, all);
        final EnginePair.Region dst = pair.b.register(3000, all);
        RcDataPathTest.fill(src, 0, 3000, 1);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 3000).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        final List<WorkCompletion> wcs = new ArrayList<>();
        for (int i = 0; i < 10_000 && wcs.isEmpty(); i++)
        {
            a.invoke();
            b.invoke();
            pair.a.pollSend(wcs);
        }
        assertEquals(1, wcs.size());
        assertEquals(WcStatus.SUCCESS.code(), wcs.get(0).status());
        RcDataPathTest.assertBytes(dst, 0, 3000, 1);
        assertEquals("rxe-engine", new RxeAgent(pair.a.engine).roleName());
        a.close();
        b.close();
        assertEquals(0, MemoryWireCheck.inFlight(pair.wire));

        // the agents drove the engines without owning them: closing the invokers left both engines serving
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 2, src, 0, 3000).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        wcs.clear();
        pair.runUntil(() -> !pair.a.pollSend(wcs).isEmpty(), 1_000, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), wcs.get(0).status());
        pair.close();
    }

    @Test
    void shouldServeApplicationThreadsFromADedicatedEngineThread() throws InterruptedException
    {
        final EnginePair pair = new EnginePair(22);
        // both engines on one engine thread (the in-memory wire is single threaded); this thread only posts/polls
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(), Throwable::printStackTrace, null,
            new CompositeAgent(new RxeAgent(pair.a.engine, "a"), new RxeAgent(pair.b.engine, "b")));
        final QueuePair qa = pair.a.createQp(QpType.RC, 64);
        final QueuePair qb = pair.b.createQp(QpType.RC, 64);
        AgentRunner.startOnThread(runner);
        try
        {
            pair.connectExisting(qa, qb, Mtu.MTU_1024, 5, 6, new EnginePair.QpTuning());
            final int all = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
            final EnginePair.Region src = pair.a.register(64 * 1000, all);
            final EnginePair.Region dst = pair.b.register(64 * 1000, all);
            RcDataPathTest.fill(src, 0, 64 * 1000, 2);
            final List<WorkCompletion> recv = new ArrayList<>();
            final List<WorkCompletion> sent = new ArrayList<>();
            for (int i = 0; i < 64; i++)
            {
                pair.b.postRecv(qb, i, dst, i * 1000, 1000);
            }
            for (int i = 0; i < 64; i++)
            {
                pair.a.postSend(qa, sendWr(WrOpcode.SEND, i, src, i * 1000, 1000));
            }
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while ((recv.size() < 64 || sent.size() < 64) && System.nanoTime() < deadline)
            {
                pair.a.pollSend(sent);
                pair.b.pollRecv(recv);
                Thread.onSpinWait();
            }
            assertEquals(64, sent.size());
            assertEquals(64, recv.size());
            for (int i = 0; i < 64; i++)
            {
                assertEquals(i, recv.get(i).wrId());
                assertEquals(WcStatus.SUCCESS.code(), sent.get(i).status());
            }
            RcDataPathTest.assertBytes(dst, 0, 64 * 1000, 2);
        }
        finally
        {
            runner.close();
        }
    }

    /** Small helper so the wire's state is visible here. */
    static final class MemoryWireCheck
    {
        static int inFlight(final MemoryWire wire)
        {
            return wire.a().inFlightToMe() + wire.b().inFlightToMe();
        }
    }
}
