package io.jrxe.rxe.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeThreadsTest
{
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
