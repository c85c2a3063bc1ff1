package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.rxe.stats.RxeCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long mixed RC traffic in both directions over a wire that loses, duplicates, reorders and corrupts packets:
 * every work request completes exactly once, successfully and in order, every byte arrives intact, and every
 * atomic executes exactly once.
 */
class FaultInjectionTest
{
    private static final int ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ |
        AccessFlags.REMOTE_ATOMIC;
    private static final int OPS = 1200;
    private static final int SLOT = 6000;
    private static final long MS = 1_000_000;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldCompleteEveryOperationExactlyOnceWithIntactData(final long seed)
    {
        run(seed, 0.03, 0.03, 0.05, 0.01, 0xFF_FF00);
    }

    @Test
    void shouldSurviveHeavyLoss()
    {
        run(99, 0.15, 0.0, 0.0, 0.0, 0);
    }

    private static void run(
        final long seed, final double loss, final double dup, final double reorder, final double corrupt,
        final int startPsn)
    {
        final EnginePair pair = new EnginePair(seed, 8192);
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.timeout = 8; // ~1 ms
        tuning.retryCnt = 7;
        tuning.minRnrTimer = 1;
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, startPsn, (startPsn + 5) & 0xFF_FFFF, tuning);
        pair.wire.faults().loss = loss;
        pair.wire.faults().duplicate = dup;
        pair.wire.faults().reorder = reorder;
        pair.wire.faults().corrupt = corrupt;

        final EnginePair.Region aSrc = pair.a.register(OPS * SLOT, ALL);
        final EnginePair.Region aRecv = pair.a.register(OPS * SLOT, ALL);
        final EnginePair.Region bMem = pair.b.register(OPS * SLOT, ALL);
        final EnginePair.Region bRecv = pair.b.register(OPS * SLOT, ALL);
        final EnginePair.Region bSrc = pair.b.register(OPS * SLOT, ALL);
        final EnginePair.Region counter = pair.b.register(64, ALL);
        final EnginePair.Region readBack = pair.a.register(OPS * SLOT, ALL);
        RcDataPathTest.fill(bMem, 0, OPS * SLOT, 77);

        final Random random = new Random(seed);
        final int[] kind = new int[OPS];
        final int[] length = new int[OPS];
        final int[] offset = new int[OPS];
        for (int i = 0; i < OPS; i++)
        {
            kind[i] = random.nextInt(4); // 0 SEND, 1 WRITE, 2 READ, 3 FETCH_ADD
            length[i] = 3 == kind[i] ? 8 : random.nextInt(SLOT - 64);
            offset[i] = random.nextInt(64);
            RcDataPathTest.fill(aSrc, i * SLOT, length[i] + 64, i);
            RcDataPathTest.fill(bSrc, i * SLOT, length[i] + 64, i + 100_000);
        }

        final List<WorkCompletion> aSend = new ArrayList<>();
        final List<WorkCompletion> bSend = new ArrayList<>();
        final List<WorkCompletion> aRecvWcs = new ArrayList<>();
        final List<WorkCompletion> bRecvWcs = new ArrayList<>();
        int aPosted = 0;
        int bPosted = 0;
        int aRecvPosted = 0;
        int bRecvPosted = 0;
        int bSends = 0;
        for (int i = 0; i < OPS; i++)
        {
            bSends += 0 == kind[i] ? 1 : 0;
        }
        final int bSendTotal = OPS / 4;

        for (int cycle = 0; cycle < 2_000_000; cycle++)
        {
            pair.a.pollSend(aSend);
            pair.b.pollSend(bSend);
            pair.a.pollRecv(aRecvWcs);
            pair.b.pollRecv(bRecvWcs);
            if (aSend.size() == OPS && bSend.size() == bSendTotal && bRecvWcs.size() == bSends &&
                aRecvWcs.size() == bSendTotal)
            {
                break;
            }
            while (aPosted < OPS && aPosted - aSend.size() < 48)
            {
                final int i = aPosted++;
                final SendWorkRequest wr;
                switch (kind[i])
                {
                    case 0:
                        wr = sendWr(WrOpcode.SEND, i, aSrc, i * SLOT + offset[i], length[i]);
                        break;
                    case 1:
                        wr = sendWr(WrOpcode.RDMA_WRITE, i, aSrc, i * SLOT + offset[i], length[i])
                            .remoteAddr(bMem.address() + (long)i * SLOT + offset[i]).rkey(bMem.mr.rkey());
                        break;
                    case 2:
                        wr = sendWr(WrOpcode.RDMA_READ, i, readBack, i * SLOT, length[i])
                            .remoteAddr(bMem.address() + (long)i * SLOT + offset[i]).rkey(bMem.mr.rkey());
                        break;
                    default:
                        wr = sendWr(WrOpcode.ATOMIC_FETCH_AND_ADD, i, readBack, i * SLOT, 8)
                            .remoteAddr(counter.address()).rkey(counter.mr.rkey()).compareAdd(1);
                        break;
                }
                pair.a.postSend(qps[0], wr);
            }
            while (bRecvPosted < bSends && bRecvPosted - bRecvWcs.size() < 48)
            {
                pair.b.postRecv(qps[1], bRecvPosted, bRecv, bRecvPosted * SLOT, SLOT);
                bRecvPosted++;
            }
            while (aRecvPosted < bSendTotal && aRecvPosted - aRecvWcs.size() < 48)
            {
                pair.a.postRecv(qps[0], aRecvPosted, aRecv, aRecvPosted * SLOT, SLOT);
                aRecvPosted++;
            }
            while (bPosted < bSendTotal && bPosted - bSend.size() < 16 && bPosted < aRecvPosted)
            {
                final int j = bPosted++;
                pair.b.postSend(qps[1], sendWr(WrOpcode.SEND, j, bSrc, j * SLOT, length[j]));
            }
            if (0 == pair.progress())
            {
                pair.clock.advance(MS / 4);
            }
        }
        try
        {
            assertEquals(List.of(), pair.internalErrors);
            assertEquals(OPS, aSend.size(), "A completions");
            assertEquals(bSendTotal, bSend.size(), "B completions");
            long expectedOriginal = 0;
            int sendIndex = 0;
            for (int i = 0; i < OPS; i++)
            {
                final WorkCompletion wc = aSend.get(i);
                assertEquals(i, wc.wrId(), "completions in order, each exactly once");
                assertEquals(WcStatus.SUCCESS.code(), wc.status(), wc.toString());
                switch (kind[i])
                {
                    case 0:
                    {
                        final WorkCompletion r = bRecvWcs.get(sendIndex);
                        assertEquals(sendIndex, r.wrId());
                        assertEquals(length[i], r.byteLen());
                        assertSame(aSrc, i * SLOT + offset[i], bRecv, sendIndex * SLOT, length[i]);
                        sendIndex++;
                        break;
                    }
                    case 1:
                        assertSame(aSrc, i * SLOT + offset[i], bMem, i * SLOT + offset[i], length[i]);
                        break;
                    case 2:
                        assertEquals(WcOpcode.RDMA_READ, wc.opcode());
                        break;
                    default:
                        // fetch-and-add executed exactly once each, in PSN order
                        assertEquals(expectedOriginal++, readBack.buffer.getLong(i * SLOT, ByteOrder.nativeOrder()));
                        break;
                }
            }
            assertEquals(expectedOriginal, counter.buffer.getLong(0, ByteOrder.nativeOrder()));
            for (int j = 0; j < bSendTotal; j++)
            {
                assertEquals(WcStatus.SUCCESS.code(), bSend.get(j).status());
                assertEquals(j, bSend.get(j).wrId());
                assertEquals(j, aRecvWcs.get(j).wrId());
                assertEquals(length[j], aRecvWcs.get(j).byteLen());
                assertSame(bSrc, j * SLOT, aRecv, j * SLOT, length[j]);
            }
            // READs: verified after all WRITEs, since a READ may target a slot another op wrote before it
            for (int i = 0; i < OPS; i++)
            {
                if (2 == kind[i])
                {
                    assertSame(bMem, i * SLOT + offset[i], readBack, i * SLOT, length[i]);
                }
            }
            if (loss > 0)
            {
                assertTrue(pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR) > 0,
                    "the run did exercise retransmission");
            }
        }
        finally
        {
            pair.close();
        }
    }

    private static void assertSame(
        final EnginePair.Region expected, final int expectedOffset, final EnginePair.Region actual,
        final int actualOffset, final int length)
    {
        for (int k = 0; k < length; k++)
        {
            if (expected.buffer.getByte(expectedOffset + k) != actual.buffer.getByte(actualOffset + k))
            {
                throw new AssertionError("data mismatch at byte " + k + " of " + length);
            }
        }
    }
}
