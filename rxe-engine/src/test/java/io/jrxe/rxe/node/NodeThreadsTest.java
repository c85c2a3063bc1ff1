package io.jrxe.rxe.node;

import io.jrxe.driver.wake.ParkingIdleStrategy;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeThreadsTest
{
    /** A park no clock ends: only a signal wakes the thread. */
    private static final long FOREVER_NS = 3_600_000_000_000L;

    @ParameterizedTest
    @EnumSource(NodeThreads.Layout.class)
    void everyLayoutCompletesAPingPong(final NodeThreads.Layout layout)
    {
        try (NodePair pair = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)))
        {
            pair.resolve(10_000_000_000L);
            final PairTraffic traffic;
            final List<String> names;
            try (NodeThreads threads = NodeThreads.start(layout, NodeThreads.Idle.YIELD::create, pair))
            {
                traffic = new PairTraffic(pair, threads::drive);
                traffic.pingPong(20);
                traffic.writeThenRead(5);
                names = threads.threads().stream().map(Thread::getName).toList();
                assertEquals(NodeThreads.Layout.SINGLE == layout, threads.callerDrives());
            }
            assertEquals(expectedThreads(layout), names);
            // the threads are gone and the engines still belong to the nodes: the caller can drive them now
            new PairTraffic(pair, pair::step).pingPong(2);
        }
    }

    /**
     * Every layout with threads that park as soon as they are idle (no spin, no yield) and never wake on their own:
     * each step of a ping-pong, a WRITE and a READ has to come from a signal. The application's doorbell wakes its
     * engine, the driver's notification its device, a frame on the wire the receiving device, and the device's
     * interrupt the engine. One wake-up missing anywhere hangs the traffic and fails the test.
     */
    @ParameterizedTest
    @EnumSource(value = NodeThreads.Layout.class, names = "SINGLE", mode = EnumSource.Mode.EXCLUDE)
    void everyLayoutCompletesTrafficWithThreadsWokenOnlyBySignals(final NodeThreads.Layout layout)
    {
        try (NodePair pair = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)))
        {
            pair.resolve(10_000_000_000L);
            final List<Wakeup> lines = new ArrayList<>();
            final Supplier<IdleStrategy> parkOnly = () ->
            {
                final Wakeup line = new Wakeup("t" + lines.size());
                lines.add(line);
                return new ParkingIdleStrategy(line, 0, 0, FOREVER_NS);
            };
            try (NodeThreads threads = NodeThreads.start(layout, parkOnly, pair))
            {
                assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
                {
                    final PairTraffic traffic = new PairTraffic(pair, threads::drive);
                    traffic.pingPong(200);
                    traffic.writeThenRead(20);
                });
            }
            long parks = 0;
            long unparks = 0;
            for (final Wakeup line : lines)
            {
                parks += line.parks();
                unparks += line.unparks();
            }
            assertTrue(parks > 0 && unparks > 0, "threads parked and signals woke them: " + lines);
        }
    }

    @Test
    void theDefaultLayoutAndIdleFollowTheCores()
    {
        assertEquals(NodeThreads.Layout.SINGLE, NodeThreads.Layout.forCores(1));
        assertEquals(NodeThreads.Layout.COMBINED, NodeThreads.Layout.forCores(2));
        assertEquals(NodeThreads.Layout.NODE, NodeThreads.Layout.forCores(16));
        assertEquals(NodeThreads.Idle.SPIN, NodeThreads.Idle.forCores(NodeThreads.Layout.COMBINED.busyThreads(), 2));
        assertEquals(NodeThreads.Idle.PARK, NodeThreads.Idle.forCores(NodeThreads.Layout.NODE.busyThreads(), 2));
        assertEquals(NodeThreads.Idle.SPIN, NodeThreads.Idle.forCores(NodeThreads.Layout.NODE.busyThreads(), 3));
        // an application that sleeps while a bandwidth window is in flight leaves both cores to the node threads
        assertEquals(NodeThreads.Layout.NODE, NodeThreads.Layout.forCores(2, false));
        assertEquals(NodeThreads.Idle.SPIN, NodeThreads.Idle.forCores(NodeThreads.Layout.NODE.busyThreads(false), 2));
    }

    @Test
    void aParkingStrategySpinsAndYieldsTheCyclesItIsGivenBeforeItArms()
    {
        // spins 0, yields 0: the first idle cycle arms the wake-up line (the re-check cycle), the second parks
        final ParkingIdleStrategy eager = (ParkingIdleStrategy)NodeThreads.Idle.PARK.create(0, 0);
        eager.idle(0);
        assertTrue(eager.wakeup().armed(), "armed on the first idle cycle");
        eager.reset();
        assertFalse(eager.wakeup().armed(), "work disarms");

        // spins 3, yields 2: five idle cycles before it arms
        final ParkingIdleStrategy patient = (ParkingIdleStrategy)NodeThreads.Idle.PARK.create(3, 2);
        for (int i = 0; i < 5; i++)
        {
            patient.idle(0);
            assertFalse(patient.wakeup().armed(), "cycle " + i + " spins or yields");
        }
        patient.idle(0);
        assertTrue(patient.wakeup().armed());

        // the defaults are ParkingIdleStrategy's; the other strategies ignore the parking counts
        final ParkingIdleStrategy byDefault = (ParkingIdleStrategy)NodeThreads.Idle.PARK.create();
        for (int i = 0; i < ParkingIdleStrategy.DEFAULT_SPINS + ParkingIdleStrategy.DEFAULT_YIELDS; i++)
        {
            byDefault.idle(0);
        }
        assertFalse(byDefault.wakeup().armed());
        byDefault.idle(0);
        assertTrue(byDefault.wakeup().armed());
        assertEquals("spin", NodeThreads.Idle.SPIN.create(0, 0).alias());
        assertThrows(IllegalArgumentException.class, () -> NodeThreads.Idle.PARK.create(-1, 0));
    }

    private static List<String> expectedThreads(final NodeThreads.Layout layout)
    {
        switch (layout)
        {
            case NODE:
                return List.of("jrxe-a", "jrxe-b");
            case SPLIT:
                return List.of("engine-a", "engine-b", "device-a", "device-b");
            case SHARED:
                return List.of("engines", "devices");
            case COMBINED:
                return List.of("jrxe");
            default:
                return List.of();
        }
    }

    @Test
    void withDevicesOnTheirOwnThreadsALayoutPlacesOnlyTheEngines()
    {
        try (NodePair pair = new NodePair(new NodePairContext().startDevices(true));
            NodeThreads threads = NodeThreads.start(NodeThreads.Layout.SHARED, NodeThreads.Idle.BACKOFF::create,
                pair))
        {
            // unresolved: the engines hold their first packets until ARP, on their own thread, resolves the peer
            assertEquals(List.of("engines"), threads.threads().stream().map(Thread::getName).toList());
            new PairTraffic(pair, threads::drive).pingPong(5);
        }
    }

    @Test
    void oneNodeRunsOnItsOwnThreadNamedAfterIt()
    {
        try (NodePair pair = new NodePair(new NodePairContext().startDevices(true)))
        {
            try (NodeThreads a = NodeThreads.start(NodeThreads.Layout.NODE, NodeThreads.Idle.SPIN::create, pair.a());
                NodeThreads single = NodeThreads.start(NodeThreads.Layout.SINGLE, NodeThreads.Idle.SPIN::create,
                    pair.b()))
            {
                assertEquals(List.of("jrxe-jrxe-a"), a.threads().stream().map(Thread::getName).toList());
                assertFalse(a.callerDrives());
                assertTrue(single.threads().isEmpty());
                assertEquals(0, a.drive(), "a thread drives node A, not the caller");
                new PairTraffic(pair, single::drive).pingPong(5);
            }
        }
    }
}
