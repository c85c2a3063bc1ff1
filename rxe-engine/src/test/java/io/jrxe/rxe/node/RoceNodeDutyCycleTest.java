package io.jrxe.rxe.node;

import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.EmulatedNicCounters;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A node's duty cycle is its engine's: one read of the node's clock, shared with the stack, and the packets the
 * engine queued are handed to the NIC before the cycle ends.
 */
class RoceNodeDutyCycleTest
{
    @Test
    void shouldReadTheClockOncePerDutyCycleForEngineAndStack()
    {
        final CountingClock clock = new CountingClock();
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            EmulatedNode node = new EmulatedNode(new EmulatedNode.Context().network(network).node(
                new RoceNode.Context().countersFile(false).nanoClock(clock)
                    .net(new NetStackContext().ipv4Address(NodePair.IP_A).ipv4PrefixLength(24)))))
        {
            final long before = clock.reads;
            for (int i = 1; i <= 10; i++)
            {
                clock.now += 1_000;
                node.node().progress();
                assertEquals(before + i, clock.reads, "one read per duty cycle: the stack polled the shared one");
            }
        }
    }

    @Test
    void shouldHandTheFramesItQueuedToTheNicWithinTheSameDutyCycle()
    {
        try (NodePair pair = new NodePair(new NodePairContext().clock(new ManualClock())))
        {
            pair.resolve(10_000_000_000L);
            final QueuePair qa = qp(pair.a());
            final QueuePair qb = qp(pair.b());
            final QpConnector connector = new QpConnector();
            connector.connect(pair.a().device(), qa, 0, GidTable.ipv4MappedLo(NodePair.IP_B), qb.qpn(), 1, 2);
            connector.connect(pair.b().device(), qb, 0, GidTable.ipv4MappedLo(NodePair.IP_A), qa.qpn(), 2, 1);
            pair.settle(1_000_000);

            final SendWorkRequest write = new SendWorkRequest(1).opcode(WrOpcode.RDMA_WRITE_WITH_IMM)
                .sendFlags(SendFlags.SIGNALED);
            assertEquals(0, qa.postSend(write)); // zero-length: one packet, no memory
            final EmulatedNicCounters device = pair.network().nic(0).counters();
            final long txBefore = device.get(EmulatedNicCounters.TX_FRAMES);
            pair.a().progress();
            pair.deviceAgent(0).doWork();
            assertEquals(txBefore + 1, device.get(EmulatedNicCounters.TX_FRAMES),
                "the request reached the device after one duty cycle of the node");
        }
        catch (final Exception ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static QueuePair qp(final RoceNode node)
    {
        final CompletionQueue cq = node.device().createCq(4, null);
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(2).maxRecvWr(2).maxSendSge(1).maxRecvSge(1);
        return node.device().createQp(node.device().allocPd(), init);
    }

    /** A clock that counts its reads. */
    private static final class CountingClock implements NanoClock
    {
        long now = 5_000_000_000L;
        long reads;

        @Override
        public long nanoTime()
        {
            reads++;
            return now;
        }
    }
}
