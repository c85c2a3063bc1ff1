package io.jrxe.rxe.node;

import io.jrxe.driver.emu.WireQueueSettings;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Four senders RDMA WRITE into one receiver through a 10 Gb/s switch queue that marks CE above 20 KB and drops
 * above 256 KiB ({@link Incast}, virtual time). With DCQCN on, the receiver's CNPs slow the senders down before the
 * queue fills: nothing is dropped and nothing retransmitted. With it off, the four windows overrun the queue: frames
 * are dropped and retransmitted. The figures of both runs are printed (docs/congestion.md).
 */
class IncastTest
{
    private static final int WRITES = 16;
    private static final int SIZE = 64 * 1024;
    private static final long TIMEOUT_NS = 2_000_000_000L;

    static WireQueueSettings bottleneck()
    {
        return new WireQueueSettings().rateMbps(10_000).capacityBytes(256 * 1024).marking(20 * 1024, 80 * 1024, 0.1);
    }

    @Test
    void withDcqcnTheQueueStaysBoundedAndNothingIsDropped()
    {
        try (Incast incast = new Incast(true, bottleneck()))
        {
            final Incast.Figures f = incast.run(WRITES, SIZE, TIMEOUT_NS);
            System.out.println("incast " + f);
            assertEquals(Incast.SENDERS * WRITES, f.succeeded, "every WRITE completed: " + f);
            assertTrue(f.delivered, "every byte arrived");
            assertTrue(f.marked > 0, "the queue marked CE: " + f);
            assertTrue(f.cnpSent > 0 && f.cnpHandled > 0, "CNPs sent and acted on: " + f);
            assertTrue(f.minRateMbps < Incast.LINE_RATE_MBPS, "the senders were slowed down: " + f);
            assertEquals(0, f.dropped, "nothing dropped: " + f);
            assertEquals(0, f.retransmitted, "nothing retransmitted: " + f);
            assertTrue(f.queueMaxDepthBytes < 256 * 1024, "the queue never filled: " + f);
            assertEquals(0, incast.internalErrors());
        }
    }

    @Test
    void withoutDcqcnTheQueueOverflowsAndPacketsAreRetransmitted()
    {
        try (Incast incast = new Incast(false, bottleneck()))
        {
            final Incast.Figures f = incast.run(WRITES, SIZE, TIMEOUT_NS);
            System.out.println("incast " + f);
            assertEquals(0, f.marked, "Not-ECT packets are never marked: " + f);
            assertEquals(0, f.cnpSent, "no CNP without DCQCN: " + f);
            assertTrue(f.dropped > 0, "the queue overflowed: " + f);
            assertTrue(f.retransmitted > 0 || f.failed > 0, "the losses cost retransmissions: " + f);
            assertEquals(0, incast.internalErrors());
        }
    }
}
