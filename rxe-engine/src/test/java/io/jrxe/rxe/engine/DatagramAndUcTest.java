package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.NetworkType;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.rxe.stats.RxeCounter;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

class DatagramAndUcTest extends EngineTestBase
{
    DatagramAndUcTest()
    {
        super(5);
    }

    private static final int QKEY = 0x1111_1111;

    private static QueuePair udQp(final EnginePair.Side side)
    {
        return side.datagramQp(QpType.UD, QKEY, QpState.RTS);
    }

    private SendWorkRequest udSend(final EnginePair.Region src, final int length, final int dstQpn, final int qkey)
    {
        final AddressHandle ah = pair.a.device.createAh(pair.a.pd, new AhAttr().dgidIpv4(EnginePair.IP_B)
            .sgidIndex(1).hopLimit(64));
        return sendWr(WrOpcode.SEND_WITH_IMM, 1, src, 0, length).ah(ah).remoteQpn(dstQpn).remoteQkey(qkey)
            .immData(42);
    }

    @Test
    void shouldDeliverUdWithGrhAreaSourceQpAndNetworkType()
    {
        final QueuePair qa = udQp(pair.a);
        final QueuePair qb = udQp(pair.b);
        pair.progress();
        final EnginePair.Region src = pair.a.register(4096, ALL);
        final EnginePair.Region dst = pair.b.register(4096, ALL);
        fill(src, 0, 1000, 6);
        pair.b.postRecv(qb, 9, dst, 0, 2000);
        pair.a.postSend(qa, udSend(src, 1000, qb.qpn(), QKEY));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1 && pair.b.pollRecv(recvWcs).size() == 1, MS,
            10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        final WorkCompletion wc = recvWcs.get(0);
        assertEquals(WcStatus.SUCCESS.code(), wc.status());
        assertEquals(40 + 1000, wc.byteLen());
        assertEquals(qa.qpn(), wc.srcQp());
        assertEquals(42, wc.immData());
        assertEquals(NetworkType.IPV4.code(), wc.networkHdrType());
        assertEquals(WcFlags.GRH, wc.wcFlags() & WcFlags.GRH);
        // the IPv4 header sits in the last 20 bytes of the GRH area: source address at 20 + 12
        assertEquals(EnginePair.IP_A, dst.buffer.getInt(20 + 12, ByteOrder.BIG_ENDIAN));
        for (int i = 0; i < 1000; i++)
        {
            assertEquals((byte)(6 * 31 + i * 7 + (i >> 8)), dst.buffer.getByte(40 + i));
        }
    }

    @Test
    void shouldDropUdWithWrongQkeyAndFailOversizedUdLocally()
    {
        final QueuePair qa = udQp(pair.a);
        final QueuePair qb = udQp(pair.b);
        pair.progress();
        final EnginePair.Region src = pair.a.register(8192, ALL);
        final EnginePair.Region dst = pair.b.register(8192, ALL);
        pair.b.postRecv(qb, 9, dst, 0, 8192);
        pair.a.postSend(qa, udSend(src, 100, qb.qpn(), 0x2222));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 10_000);
        pair.runIdle(MS, 10);
        assertEquals(0, pair.b.pollRecv(recvWcs).size());
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.BAD_QKEY));
        // larger than the 4096 path MTU of the port: LOC_LEN_ERR (our documented deviation from C10-93.1.1)
        pair.a.postSend(qa, udSend(src, 5000, qb.qpn(), QKEY));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2, MS, 10_000);
        assertEquals(WcStatus.LOC_LEN_ERR.code(), sendWcs.get(1).status());
        assertEquals(QpState.RTS, qa.state());
    }

    @Test
    void shouldDeliverUcWritesAndSendsAndDropABrokenMessage()
    {
        final QueuePair[] qps = pair.connect(QpType.UC, 16, Mtu.MTU_1024, 5, 6, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(8192, ALL);
        final EnginePair.Region dst = pair.b.register(16384, ALL);
        fill(src, 0, 8192, 2);
        pair.b.postRecv(qps[1], 1, dst, 0, 8192);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 1, src, 0, 5000));
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 2, src, 0, 3000).remoteAddr(dst.address() + 8192)
            .rkey(dst.mr.rkey()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2 && pair.b.pollRecv(recvWcs).size() == 1, MS,
            10_000);
        assertEquals(5000, recvWcs.get(0).byteLen());
        assertBytes(dst, 0, 5000, 2);
        assertBytes(dst, 8192, 3000, 2);
        // lose the 2nd packet of a 3-packet SEND: UC drops that message (no retransmission) and the next
        // message lands in the same receive WQE
        pair.b.postRecv(qps[1], 2, dst, 0, 8192);
        final long dropIndex = pair.wire.a().sent() + 1;
        pair.wire.a().dropSent((index) -> index == dropIndex);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 3, src, 0, 2500));
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 4, src, 100, 700));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 4, MS, 10_000);
        pair.runIdle(MS, 10);
        pair.b.pollRecv(recvWcs);
        assertEquals(2, recvWcs.size(), recvWcs.toString());
        assertEquals(2, recvWcs.get(1).wrId());
        assertEquals(700, recvWcs.get(1).byteLen());
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.OUT_OF_SEQ_REQUEST));
    }
}
