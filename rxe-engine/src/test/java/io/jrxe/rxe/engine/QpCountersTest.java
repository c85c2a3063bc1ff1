package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Icrc;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.stats.RxeStat;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * hw_counters per device and per QP: two engines write real counters files; each QP's slot shows its own traffic
 * and drops, the device set is the sum of the QP slots plus what was dropped before a QP was known, destroying a
 * QP frees its slot, and {@code jrxe stat --qp} prints the QPs.
 */
class QpCountersTest extends EngineTestBase
{
    private static final int SMALL = 100;
    private static final int LARGE = 2000; // two packets at MTU 1024
    /** UDP payload of a SEND_ONLY of {@link #SMALL} bytes: BTH + payload + ICRC. */
    private static final int SMALL_PACKET_BYTES = Bth.LENGTH + SMALL + Icrc.LENGTH;
    /** SEND_FIRST (1024) + SEND_LAST (976), each with BTH and ICRC. */
    private static final int LARGE_MESSAGE_BYTES = 2 * (Bth.LENGTH + Icrc.LENGTH) + LARGE;

    /** Static so that it exists when the constructor builds the pair; each test's engines replace the files. */
    @TempDir
    static Path dir;

    QpCountersTest()
    {
        super(11, dir);
    }

    @Test
    void shouldCountEachQpInItsOwnSlotAndTheDeviceAsTheirSumPlusEarlyDrops()
    {
        final QueuePair[] one = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final QueuePair[] two = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 300, 400, new EnginePair.QpTuning());
        final QueuePair idle = initOnly(pair.b);
        sendMessages(one, 3, SMALL);
        sendMessages(two, 5, LARGE);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 8 && pair.b.pollRecv(recvWcs).size() == 8, MS,
            100_000);
        sendWcs.forEach((wc) -> assertEquals(WcStatus.SUCCESS.code(), wc.status()));
        pair.runIdle(MS, 5);

        // drops on B: two before any QP is known, one after (a request to a QP that is only in INIT)
        final byte[] unknownQpn = ReplayAndFuzzTest.forge(0x7777, Opcode.RC_SEND_ONLY, 0, (b, at) -> { }, 0, 16);
        final byte[] badIcrc = unknownQpn.clone();
        badIcrc[badIcrc.length - 1] ^= 1;
        final byte[] notReady = ReplayAndFuzzTest.forge(idle.qpn(), Opcode.RC_SEND_ONLY, 0, (b, at) -> { }, 0, 16);
        notReady[14 + 1] |= 3; // IPv4 ECN = CE (the ICRC does not cover the TOS byte)
        pair.wire.b().deliver(unknownQpn);
        pair.wire.b().deliver(badIcrc);
        pair.wire.b().deliver(notReady);
        pair.runIdle(MS, 5);
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR), "no retransmits");

        final CountersFileReader a = new CountersFileReader(pair.a.countersFile.buffer());
        final CountersFileReader b = new CountersFileReader(pair.b.countersFile.buffer());
        final int a1 = a.findQp(one[0].qpn());
        final int a2 = a.findQp(two[0].qpn());
        final int b1 = b.findQp(one[1].qpn());
        final int b2 = b.findQp(two[1].qpn());
        final int bIdle = b.findQp(idle.qpn());
        assertTrue(a1 >= 0 && a2 >= 0 && b1 >= 0 && b2 >= 0 && bIdle >= 0, "every QP has a slot");
        assertNotEquals(a1, a2);
        assertEquals(2, slotsInUse(a));
        assertEquals(3, slotsInUse(b));

        // requester side: each QP's own requests
        assertEquals(3, value(a, a1, RxeCounter.SENT_PKTS));
        assertEquals(3L * SMALL_PACKET_BYTES, value(a, a1, RxeCounter.SENT_BYTES));
        assertEquals(3, value(a, a1, RxeCounter.RDMA_SENDS));
        assertEquals(10, value(a, a2, RxeCounter.SENT_PKTS));
        assertEquals(5L * LARGE_MESSAGE_BYTES, value(a, a2, RxeCounter.SENT_BYTES));
        assertEquals(5, value(a, a2, RxeCounter.RDMA_SENDS));
        // responder side: the same packets arrive at the peer QP
        assertEquals(3, value(b, b1, RxeCounter.RCVD_PKTS));
        assertEquals(3L * SMALL_PACKET_BYTES, value(b, b1, RxeCounter.RCVD_BYTES));
        assertEquals(3, value(b, b1, RxeCounter.RDMA_RECVS));
        assertEquals(10, value(b, b2, RxeCounter.RCVD_PKTS));
        assertEquals(5, value(b, b2, RxeCounter.RDMA_RECVS));
        // ACKs: what each responder QP sent, its requester peer received
        assertTrue(value(b, b1, RxeCounter.SENT_PKTS) > 0);
        assertEquals(value(b, b1, RxeCounter.SENT_PKTS), value(a, a1, RxeCounter.RCVD_PKTS));
        assertEquals(value(b, b2, RxeCounter.SENT_PKTS), value(a, a2, RxeCounter.RCVD_PKTS));
        assertEquals(value(b, b2, RxeCounter.SENT_BYTES), value(a, a2, RxeCounter.RCVD_BYTES));
        // a drop after the QP is known is the QP's; rcvd_pkts counts accepted packets only (rxe_rcv_pkt), while the
        // ECN CE mark is seen on the IP header whether or not the packet is then accepted
        assertEquals(1, value(b, bIdle, RxeCounter.QP_NOT_READY));
        assertEquals(0, value(b, bIdle, RxeCounter.RCVD_PKTS));
        assertEquals(0, value(b, bIdle, RxeCounter.RCVD_BYTES));
        assertEquals(1, value(b, bIdle, RxeCounter.ECN_MARKED_PKTS));
        assertEquals(0, value(b, b1, RxeCounter.QP_NOT_READY));

        assertDeviceIsSumOfQpsPlus(a, new EnumMap<>(RxeCounter.class));
        final Map<RxeCounter, Long> early = new EnumMap<>(RxeCounter.class);
        early.put(RxeCounter.BAD_QPN, 1L); // dropped before any QP was known, so not in rcvd_pkts either
        early.put(RxeCounter.ICRC_ERR, 1L);
        assertDeviceIsSumOfQpsPlus(b, early);
        assertFileMatchesEngine(a, pair.a.engine.counters());
        assertFileMatchesEngine(b, pair.b.engine.counters());
    }

    @Test
    void shouldFreeTheSlotOnlyWhenTheEngineAppliesTheDestroyAndKeepTheDeviceTotals()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 7, 8, new EnginePair.QpTuning());
        sendMessages(qps, 2, SMALL);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2, MS, 100_000);
        pair.runIdle(MS, 5);
        final CountersFileReader a = new CountersFileReader(pair.a.countersFile.buffer());
        final int slot = a.findQp(qps[0].qpn());
        assertEquals(2, value(a, slot, RxeCounter.SENT_PKTS));
        final long[] before = new long[a.counterCount()];
        a.deviceValues(before);

        pair.a.device.destroyQp(qps[0]);
        assertTrue(a.isQpInUse(slot), "the engine thread may still update the slot until it applies the destroy");
        pair.progress();
        assertEquals(-1, a.findQp(qps[0].qpn()));
        assertEquals(0, slotsInUse(a));
        final long[] after = new long[a.counterCount()];
        a.deviceValues(after);
        assertEquals(Arrays.toString(before), Arrays.toString(after), "device totals survive the QP");

        // the next QP starts from zero, in the freed slot or another
        final QueuePair[] next = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 9, 10, new EnginePair.QpTuning());
        final int nextSlot = a.findQp(next[0].qpn());
        assertTrue(nextSlot >= 0);
        for (final RxeCounter counter : RxeCounter.values())
        {
            assertEquals(0, value(a, nextSlot, counter), counter.label());
        }
        sendMessages(next, 1, SMALL);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 3, MS, 100_000);
        assertEquals(1, value(a, nextSlot, RxeCounter.SENT_PKTS));
        assertEquals(before[RxeCounter.SENT_PKTS.id()] + 1, a.deviceValue(RxeCounter.SENT_PKTS));
    }

    @Test
    void shouldPrintEachQpWithStatQp() throws Exception
    {
        final QueuePair[] one = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
        final QueuePair[] two = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 3, 4, new EnginePair.QpTuning());
        sendMessages(one, 1, SMALL);
        sendMessages(two, 4, SMALL);
        pair.runUntil(() -> pair.b.pollRecv(recvWcs).size() == 5, MS, 100_000);
        pair.runIdle(MS, 5);

        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        final int status = RxeStat.run(new String[]{"--qp", "--dir", dir.toString(), "B"},
            new PrintStream(bytes, true, StandardCharsets.UTF_8), new PrintStream(errors, true, StandardCharsets.UTF_8));
        assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));
        final List<String> lines = Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n"));
        assertTrue(lines.get(0).startsWith("B pid "), lines.toString());
        assertTrue(lines.contains("rcvd_pkts 5"), lines.toString());
        final int first = lines.indexOf("qp " + one[1].qpn() + " rc");
        final int second = lines.indexOf("qp " + two[1].qpn() + " rc");
        assertTrue(first > 0 && second > 0, lines.toString());
        assertEquals("  rcvd_pkts 1", qpLine(lines, first, "  rcvd_pkts "));
        assertEquals("  rcvd_pkts 4", qpLine(lines, second, "  rcvd_pkts "));
        assertEquals("  rdma_recvs 4", qpLine(lines, second, "  rdma_recvs "));
    }

    /** Posts {@code count} receives on B and as many SENDs of {@code length} bytes on A, over QP pair {@code qps}. */
    private void sendMessages(final QueuePair[] qps, final int count, final int length)
    {
        final EnginePair.Region src = pair.a.register(length, ALL);
        final EnginePair.Region dst = pair.b.register(length * count, ALL);
        for (int i = 0; i < count; i++)
        {
            pair.b.postRecv(qps[1], i, dst, i * length, length);
        }
        for (int i = 0; i < count; i++)
        {
            pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, i, src, 0, length));
        }
    }

    private static QueuePair initOnly(final EnginePair.Side side)
    {
        final QueuePair qp = side.createQp(QpType.RC, 4);
        side.device.modifyQp(qp, new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(ALL),
            QpAttrMask.STATE | QpStateTable.required(QpType.RC, QpState.RESET, QpState.INIT));
        return qp;
    }

    private static long value(final CountersFileReader reader, final int slot, final RxeCounter counter)
    {
        return reader.qpValue(slot, counter.id());
    }

    private static int slotsInUse(final CountersFileReader reader)
    {
        int n = 0;
        for (int slot = 0; slot < reader.qpSlots(); slot++)
        {
            n += reader.isQpInUse(slot) ? 1 : 0;
        }
        return n;
    }

    private static void assertDeviceIsSumOfQpsPlus(final CountersFileReader reader, final Map<RxeCounter, Long> early)
    {
        for (final RxeCounter counter : RxeCounter.values())
        {
            long sum = early.getOrDefault(counter, 0L);
            for (int slot = 0; slot < reader.qpSlots(); slot++)
            {
                sum += reader.isQpInUse(slot) ? reader.qpValue(slot, counter.id()) : 0;
            }
            assertEquals(sum, reader.deviceValue(counter), reader.deviceName() + " " + counter.label());
        }
    }

    private static void assertFileMatchesEngine(final CountersFileReader reader, final EngineCounters engine)
    {
        for (final RxeCounter counter : RxeCounter.values())
        {
            assertEquals(engine.get(counter), reader.deviceValue(counter), reader.deviceName() + " " + counter.label());
        }
    }

    /** The line starting with {@code prefix} in the block of the QP whose header is at {@code header}. */
    private static String qpLine(final List<String> lines, final int header, final String prefix)
    {
        for (int i = header + 1; i < lines.size() && lines.get(i).startsWith("  "); i++)
        {
            if (lines.get(i).startsWith(prefix))
            {
                return lines.get(i);
            }
        }
        return "(no " + prefix.trim() + " under " + lines.get(header) + ")";
    }
}
