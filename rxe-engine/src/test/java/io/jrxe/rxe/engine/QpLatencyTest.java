package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.QpLatencyReader;
import io.jrxe.rxe.stats.QpLatencySnapshot;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.jrxe.rxe.engine.EngineTestBase.ALL;
import static io.jrxe.rxe.engine.EngineTestBase.MS;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-QP latency histograms over two engines on the emulated wire, read back from the QP latency file through a
 * reader that maps it separately, as {@code jrxe stat} in another process does: exact values under a driven clock,
 * one completion sample per successful WQE, one round-trip sample per ACK that answers a message's last packet,
 * clamping, and slots that follow QP creation and destruction.
 */
class QpLatencyTest
{
    private static final long HIGHEST_NS = TimeUnit.SECONDS.toNanos(1);
    /** Wire time A to B and B to A; X + Y = 5120 and 2 (X + Y) = 10240 are exact in a 2-digit histogram. */
    private static final long X = 4096;
    private static final long Y = 1024;

    @TempDir
    Path dir;

    private EnginePair pair;
    private final List<WorkCompletion> sendWcs = new ArrayList<>();
    private final List<WorkCompletion> recvWcs = new ArrayList<>();

    private EnginePair pair(final int slots)
    {
        pair = new EnginePair(7, 4096, dir, (c) -> c.slots(slots).highestTrackableNs(HIGHEST_NS).publishIntervalNs(1));
        return pair;
    }

    @Test
    void shouldPublishChangedQpsOncePerIntervalAndOnePerDutyCycle()
    {
        final long interval = TimeUnit.SECONDS.toNanos(1);
        pair = new EnginePair(7, 4096, dir, (c) -> c.slots(8).publishIntervalNs(interval).publishBudget(1));
        final QueuePair[] one = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final QueuePair[] two = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 300, 400, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        for (final QueuePair qp : new QueuePair[]{one[0], two[0]})
        {
            pair.a.postSend(qp, sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 64).remoteAddr(dst.address())
                .rkey(dst.mr.rkey()));
        }
        for (int i = 0; i < 3; i++)
        {
            drain(pair.a.engine);
            drain(pair.b.engine);
        }
        assertEquals(2, pair.a.pollSend(sendWcs).size());
        try (QpLatencyReader reader = QpLatencyReader.map(pair.a.latencyFile.path()))
        {
            assertEquals(0, reader.find(one[0].qpn()).completion().getTotalCount(), "the interval has not passed");
            assertEquals(0, reader.find(two[0].qpn()).completion().getTotalCount());
            pair.clock.advance(interval);
            pair.a.engine.progress();
            final long published = reader.find(one[0].qpn()).completion().getTotalCount() +
                reader.find(two[0].qpn()).completion().getTotalCount();
            assertEquals(1, published, "one QP per duty cycle");
            pair.a.engine.progress();
            assertEquals(1, reader.find(one[0].qpn()).completion().getTotalCount());
            assertEquals(1, reader.find(two[0].qpn()).completion().getTotalCount());
            assertEquals(0, pair.a.engine.progress(), "nothing changed: nothing to publish");
        }
    }

    @AfterEach
    void close()
    {
        if (null != pair)
        {
            try
            {
                assertEquals(List.of(), pair.internalErrors, "the engines caught internal errors");
            }
            finally
            {
                pair.close();
            }
        }
    }

    @Test
    void shouldRecordPostToCompletionAndRequestToAckExactlyUnderADrivenClock()
    {
        pair(8);
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        pair.b.postRecv(qps[1], 9, dst, 2048, 64);
        // the fenced SEND waits in A's send queue until the READ completed: post to completion two round trips,
        // request to ACK one
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 1, src, 0, 64).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 2, src, 64, 64).sendFlags(SendFlags.SIGNALED | SendFlags.FENCE));
        for (int trip = 0; trip < 2; trip++)
        {
            drain(pair.a.engine); // requests out (the first time: both WQEs seen posted, stamped now)
            pair.clock.advance(X);
            drain(pair.b.engine); // the READ response or the ACK
            pair.clock.advance(Y);
        }
        drain(pair.a.engine);
        assertEquals(2, pair.a.pollSend(sendWcs).size());
        sendWcs.forEach((wc) -> assertEquals(WcStatus.SUCCESS.code(), wc.status()));

        try (QpLatencyReader reader = QpLatencyReader.map(pair.a.latencyFile.path()))
        {
            final QpLatencySnapshot qp = reader.find(qps[0].qpn());
            assertNotNull(qp, "A's QP has a slot");
            final Histogram wr = qp.completion();
            assertEquals(2, wr.getTotalCount());
            assertEquals(X + Y, wr.getMinValue());
            assertEquals(1, wr.getCountAtValue(X + Y));
            assertEquals(1, wr.getCountAtValue(2 * (X + Y)));
            final Histogram rtt = qp.roundTrip();
            assertEquals(2, rtt.getTotalCount(), "the READ's first response and the SEND's ACK");
            assertEquals(2, rtt.getCountAtValue(X + Y));
            assertEquals(0, qp.clampedCompletions() + qp.clampedRoundTrips());
            assertTrue(qp.publications() > 0);

            // B only responded: no WQE of its own, nothing recorded
            try (QpLatencyReader b = QpLatencyReader.map(pair.b.latencyFile.path()))
            {
                final QpLatencySnapshot responder = b.find(qps[1].qpn());
                assertNotNull(responder);
                assertEquals(0, responder.completion().getTotalCount() + responder.roundTrip().getTotalCount());
            }
        }
    }

    @Test
    void shouldCountEverySuccessfulWqeAndOneRoundTripPerAckOfALastPacket()
    {
        pair(8);
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(8192, ALL);
        final EnginePair.Region dst = pair.b.register(65536, ALL);
        final int sends = 12;
        final int writes = 20;
        for (int i = 0; i < sends; i++)
        {
            pair.b.postRecv(qps[1], i, dst, 4096 * i, 4096);
        }
        for (int i = 0; i < sends + writes; i++)
        {
            final boolean send = i < sends;
            final SendWorkRequest wr = sendWr(send ? WrOpcode.SEND : WrOpcode.RDMA_WRITE, i, src, 0, 100 + 150 * i);
            if (!send)
            {
                wr.remoteAddr(dst.address() + 49152).rkey(dst.mr.rkey());
            }
            if (1 == i % 3)
            {
                wr.sendFlags(0); // unsignaled: still measured at its retirement
            }
            pair.a.postSend(qps[0], wr);
        }
        final int signaled = sends + writes - (sends + writes + 1) / 3;
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == signaled && pair.b.pollRecv(recvWcs).size() == sends,
            MS, 100_000);
        sendWcs.forEach((wc) -> assertEquals(WcStatus.SUCCESS.code(), wc.status()));
        pair.runIdle(MS, 5);
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR), "no retransmissions");

        try (QpLatencyReader reader = QpLatencyReader.map(pair.a.latencyFile.path());
            CountersFileReader counters = CountersFileReader.map(pair.a.countersFile.path()))
        {
            final QpLatencySnapshot qp = reader.find(qps[0].qpn());
            assertEquals(sends + writes, qp.completion().getTotalCount(), "every WQE, signaled or not");
            // messages of at most 4 packets ask for an ACK only with their last packet, so every ACK received
            // answers one: as many round trips as ACKs (coalescing may make ACKs fewer than messages)
            final long acks = counters.qpValue(counters.findQp(qps[0].qpn()), RxeCounter.ACKS_RCVD.id());
            assertEquals(acks, qp.roundTrip().getTotalCount());
            assertTrue(acks >= 1 && acks <= sends + writes, "acks " + acks);
        }
    }

    @Test
    void shouldTakeNoRoundTripFromARequestSentTwice()
    {
        pair(8);
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        final long firstB = pair.wire.b().sent();
        pair.wire.b().dropSent((index) -> index == firstB); // the first WRITE's ACK is lost: A resends the WRITE
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 64).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 100_000);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 2, src, 0, 64).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2, MS, 100_000);
        sendWcs.forEach((wc) -> assertEquals(WcStatus.SUCCESS.code(), wc.status()));
        assertEquals(1, pair.a.engine.counters().get(RxeCounter.RETRANSMITTED_PKTS));
        pair.runIdle(MS, 3);

        try (QpLatencyReader reader = QpLatencyReader.map(pair.a.latencyFile.path()))
        {
            final QpLatencySnapshot qp = reader.find(qps[0].qpn());
            assertEquals(2, qp.completion().getTotalCount(), "both WRITEs completed");
            assertEquals(1, qp.roundTrip().getTotalCount(), "Karn's rule: the resent WRITE's ACK may answer either");
            assertTrue(qp.completion().getMaxValue() >= MS, "the first WRITE waited for the retransmit timeout");
        }
    }

    @Test
    void shouldClampAndCountLatenciesBeyondTheHighestTrackableValue()
    {
        pair(8);
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.timeout = 0; // no retransmit timer: the one request stays the one sent
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 100, 200, tuning);
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 64).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        drain(pair.a.engine);
        pair.clock.advance(2 * HIGHEST_NS);
        drain(pair.b.engine);
        drain(pair.a.engine);
        assertEquals(1, pair.a.pollSend(sendWcs).size());

        try (QpLatencyReader reader = QpLatencyReader.map(pair.a.latencyFile.path()))
        {
            final QpLatencySnapshot qp = reader.find(qps[0].qpn());
            assertEquals(1, qp.clampedCompletions());
            assertEquals(1, qp.clampedRoundTrips());
            assertTrue(qp.completion().valuesAreEquivalent(HIGHEST_NS, qp.completion().getMaxValue()));
            assertTrue(qp.roundTrip().valuesAreEquivalent(HIGHEST_NS, qp.roundTrip().getMaxValue()));
        }
    }

    @Test
    void shouldFreeADestroyedQpsSlotAndCountQpsThatFoundNone()
    {
        pair(2);
        final QueuePair first = pair.a.createQp(QpType.RC, 4);
        final QueuePair second = pair.a.createQp(QpType.UD, 4);
        final QueuePair third = pair.a.createQp(QpType.RC, 4);
        pair.a.engine.progress(); // no modify yet: the engine knows QPs from their first modify
        pair.a.raise(second, 0x11, io.jrxe.rxe.verbs.QpState.INIT);
        pair.a.raise(first, 0x11, io.jrxe.rxe.verbs.QpState.INIT);
        pair.a.raise(third, 0x11, io.jrxe.rxe.verbs.QpState.INIT);
        drain(pair.a.engine);
        try (QpLatencyReader reader = QpLatencyReader.map(pair.a.latencyFile.path()))
        {
            assertEquals(2, reader.readAll().size());
            assertEquals(1, reader.qpsWithoutSlot(), "two slots, three QPs");
            assertNotNull(reader.find(second.qpn()));
            assertEquals(io.jrxe.rxe.proto.Opcode.QP_UD, reader.find(second.qpn()).qpType());
            assertNotNull(reader.find(first.qpn()));
            assertNull(reader.find(third.qpn()));

            pair.a.device.destroyQp(second);
            drain(pair.a.engine);
            assertNull(reader.find(second.qpn()), "the destroyed QP's slot is free");
            assertEquals(1, reader.readAll().size());
            final QueuePair fourth = pair.a.createQp(QpType.RC, 4);
            pair.a.raise(fourth, 0x11, io.jrxe.rxe.verbs.QpState.INIT);
            drain(pair.a.engine);
            assertNotNull(reader.find(fourth.qpn()), "a new QP takes the freed slot");
            assertEquals(1, reader.qpsWithoutSlot());
        }
    }

    /** Runs one engine until it has nothing left to do at the current time. */
    private static void drain(final RxeEngine engine)
    {
        for (int i = 0; i < 100 && engine.progress() > 0; i++)
        {
            // the clock stands still: whatever this engine does now happens at one instant
        }
    }
}
