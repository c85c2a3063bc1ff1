package io.jrxe.rxe.node;

import io.jrxe.driver.wake.ParkingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RunToCompletion}: a started node's engine moves onto the caller's thread for a stretch of work, with the
 * caller parking between packets, and back onto a thread of the node's own afterwards.
 */
class RunToCompletionTest
{
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @Test
    void theCallerDrivesWhileEngagedAndTheNodesThreadAfterwards()
    {
        try (NodePair pair = new NodePair(new NodePairContext().startDevices(true)))
        {
            final RoceNode a = pair.a();
            a.start();
            pair.b().start();
            final PairTraffic traffic = new PairTraffic(pair, () -> 0); // set-up on the nodes' threads
            final RunToCompletion driving = new RunToCompletion(a, NodeThreads.Idle.PARK.create());
            assertFalse(a.engine().isEngineThread());
            final Thread first = onlyThread(a);

            driving.engage();
            assertTrue(driving.engaged());
            assertTrue(a.engine().isEngineThread(), "the caller is the engine's driver");
            assertFalse(first.isAlive(), "the node's thread stopped");
            assertEquals(List.of(), a.threads());
            // A moves only in the caller's idle(): its posts, the wire's packets, its completions; the caller
            // parks in between, woken by A's NIC and doorbells
            assertTimeoutPreemptively(LIMIT, () -> new PairTraffic(pair, () ->
            {
                driving.idle();
                return 0;
            }).pingPong(20));
            assertThrows(IllegalStateException.class, driving::engage);

            driving.release();
            assertFalse(driving.engaged());
            assertFalse(a.engine().isEngineThread());
            final Thread second = onlyThread(a);
            assertNotSame(first, second, "a thread of the node's own again");
            // nobody drives from here: the restarted thread carries both set-up and traffic
            assertTimeoutPreemptively(LIMIT, () -> traffic.pingPong(20));
            assertThrows(IllegalStateException.class, driving::release);
            assertEquals(0, pair.internalErrors());
        }
    }

    @Test
    void aStoppedNodesParkingThreadStartsAgainOnANewLine()
    {
        try (NodePair pair = new NodePair(new NodePairContext().startDevices(true)))
        {
            final RoceNode a = pair.a();
            assertThrows(IllegalStateException.class, a::stop, "not started");
            a.start();
            pair.b().start();
            final Thread first = onlyThread(a);
            a.stop();
            assertFalse(first.isAlive());
            assertEquals(List.of(), a.threads());
            a.start();
            assertNotSame(first, onlyThread(a));
            // the restarted thread carries the traffic (its strategy's line is a new one: the third test)
            assertTimeoutPreemptively(LIMIT, () -> new PairTraffic(pair, () -> 0).pingPong(10));
            assertThrows(IllegalStateException.class, a::start, "already started");
        }
    }

    @Test
    void aParkingStrategyKeepsItsCountsOnANewLine()
    {
        final ParkingIdleStrategy first = (ParkingIdleStrategy)NodeThreads.Idle.PARK.create(2, 1);
        first.wakeup().close();
        final ParkingIdleStrategy second = first.withNewLine();
        assertEquals(first.wakeup().name(), second.wakeup().name());
        for (int i = 0; i < 3; i++)
        {
            second.idle(0);
            assertFalse(second.wakeup().armed(), "spins 2, yields 1");
        }
        second.idle(0);
        assertTrue(second.wakeup().armed(), "the new line arms; the closed one cannot");
    }

    /** The node's one thread, checked alive and named after the node. */
    private static Thread onlyThread(final RoceNode node)
    {
        final List<Thread> threads = node.threads();
        assertEquals(1, threads.size(), threads::toString);
        final Thread thread = threads.get(0);
        assertTrue(thread.isAlive());
        assertEquals("jrxe-" + node.name(), thread.getName());
        return thread;
    }
}
