package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.IbRate;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Static rate pacing on the engine pair's virtual clock: every frame A puts on the wire is logged with the time it
 * left, and over every run of consecutive frames the bytes stay within rate * (elapsed time + the burst credit) plus
 * one frame.
 */
class PacingTest extends EngineTestBase
{
    private static final long STEP_NS = 1_000;
    private static final int QKEY = 0x1111_1111;

    /** (departure time ns, frame bytes) of every frame A sends. */
    private final List<long[]> frames = new ArrayList<>();

    PacingTest()
    {
        super(17);
        pair.wire.a().frameObserver(frame -> frames.add(new long[]{ pair.clock.nanoTime(), frame.length }));
    }

    /** Over frames i..j: bytes * 8000 &lt;= Mb/s * (t_j - t_i + burst) + the largest frame * 8000. */
    private static void assertPaced(final List<long[]> log, final int mbps)
    {
        long largest = 0;
        for (final long[] f : log)
        {
            largest = Math.max(largest, f[1]);
        }
        for (int i = 0; i < log.size(); i++)
        {
            long bytes = 0;
            for (int j = i; j < log.size(); j++)
            {
                bytes += log.get(j)[1];
                final long elapsed = log.get(j)[0] - log.get(i)[0];
                if (bytes * 8000 > mbps * (elapsed + Pacer.BURST_NS) + largest * 8000)
                {
                    throw new AssertionError("frames " + i + ".." + j + ": " + bytes + " bytes in " + elapsed +
                        " ns exceed " + mbps + " Mb/s plus the burst credit and one frame of " + largest);
                }
            }
        }
    }

    private static long bytes(final List<long[]> log)
    {
        return log.stream().mapToLong(f -> f[1]).sum();
    }

    private static long elapsed(final List<long[]> log)
    {
        return log.get(log.size() - 1)[0] - log.get(0)[0];
    }

    /** Writes {@code count} messages of {@code length} bytes from A to B and waits for their completions. */
    private void writeAll(final QueuePair qa, final int count, final int length)
    {
        final EnginePair.Region src = pair.a.register(count * length, ALL);
        final EnginePair.Region dst = pair.b.register(count * length, ALL);
        fill(src, 0, count * length, 4);
        SendWorkRequest first = null;
        for (int i = count - 1; i >= 0; i--)
        {
            first = sendWr(WrOpcode.RDMA_WRITE, i, src, i * length, length).remoteAddr(dst.address() + i * length)
                .rkey(dst.mr.rkey()).next(first);
        }
        pair.a.postSend(qa, first);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == count, STEP_NS, 1_000_000);
        for (final WorkCompletion wc : sendWcs)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status(), sendWcs.toString());
        }
        assertBytes(dst, 0, count * length, 4);
    }

    @Test
    void shouldHoldAnRcQpToItsPathsStaticRate()
    {
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.staticRate = IbRate.GBPS_2_5;
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_4096, 1, 2, tuning);
        writeAll(qps[0], 4, 65_536);
        assertEquals(64, frames.size());
        assertPaced(frames, 2500);
        final long idealNs = bytes(frames) * 8000 / 2500;
        assertTrue(elapsed(frames) * 10 <= idealNs * 12, "paced close to the rate, not slower: " +
            elapsed(frames) + " ns for " + bytes(frames) + " bytes (ideal " + idealNs + ")");
    }

    @Test
    void shouldNotSlowAnUnpacedQp()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_4096, 1, 2, new EnginePair.QpTuning());
        final long start = pair.clock.nanoTime();
        writeAll(qps[0], 4, 65_536);
        assertEquals(64, frames.size());
        assertEquals(start, pair.clock.nanoTime(), "no virtual time passed: nothing waited");
    }

    @Test
    void shouldPaceRcRetransmissionsToo()
    {
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.staticRate = IbRate.GBPS_5;
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_4096, 1, 2, tuning);
        pair.wire.a().dropSent(index -> 5 == index || 40 == index);
        writeAll(qps[0], 4, 65_536);
        assertTrue(pair.a.engine.counters().get(RxeCounter.RETRANSMITTED_PKTS) > 0, "go-back-N resent packets");
        assertTrue(frames.size() > 64);
        assertPaced(frames, 5000);
    }

    @Test
    void shouldPaceUdSendsByTheirAddressHandlesRate()
    {
        final QueuePair qa = AhFromWcEngineTest.udQp(pair.a);
        final QueuePair qb = AhFromWcEngineTest.udQp(pair.b);
        pair.progress();
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(32 * 4096, ALL);
        final AhAttr toB = new AhAttr().dgidIpv4(EnginePair.IP_B).sgidIndex(1).staticRate(IbRate.GBPS_10);
        final AddressHandle ah = pair.a.device.createAh(pair.a.pd, toB);
        for (int i = 0; i < 32; i++)
        {
            pair.b.postRecv(qb, i, dst, i * 4096, 4096);
        }
        sendUd(qa, qb, ah, src, 24);
        assertEquals(24, frames.size());
        assertPaced(frames, 10_000);
        assertTrue((elapsed(frames) + Pacer.BURST_NS) * 10_000 >= (bytes(frames) - frames.get(0)[1]) * 8000,
            "UD sends waited (beyond the burst credit)");

        // the same AH without a rate: the next sends leave at once
        pair.a.device.modifyAh(ah, toB.staticRate(IbRate.PORT_CURRENT));
        frames.clear();
        final long start = pair.clock.nanoTime();
        sendUd(qa, qb, ah, src, 8);
        assertEquals(8, frames.size());
        assertEquals(start, pair.clock.nanoTime(), "unpaced");
    }

    private void sendUd(
        final QueuePair qa, final QueuePair qb, final AddressHandle ah, final EnginePair.Region src, final int count)
    {
        final int before = sendWcs.size();
        for (int i = 0; i < count; i++)
        {
            pair.a.postSend(qa, sendWr(WrOpcode.SEND, i, src, 0, 4000).ah(ah).remoteQpn(qb.qpn()).remoteQkey(QKEY));
        }
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == before + count &&
            pair.b.pollRecv(recvWcs).size() == sendWcs.size(), STEP_NS, 1_000_000);
        for (final WorkCompletion wc : recvWcs)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status());
        }
    }
}
