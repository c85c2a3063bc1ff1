package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.SrqAttr;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.rxe.stats.RxeCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RcDataPathTest extends EngineTestBase
{
    RcDataPathTest()
    {
        super(1);
    }


    static void fill(final EnginePair.Region r, final int offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            r.buffer.putByte(offset + i, (byte)(seed * 31 + i * 7 + (i >> 8)));
        }
    }

    static void assertBytes(final EnginePair.Region r, final int offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            final byte expected = (byte)(seed * 31 + i * 7 + (i >> 8));
            if (expected != r.buffer.getByte(offset + i))
            {
                throw new AssertionError("byte " + i + " of " + length + ": expected " + expected + " got " +
                    r.buffer.getByte(offset + i));
            }
        }
    }

    static SendWorkRequest sendWr(final int opcode, final long wrId, final EnginePair.Region local, final int offset,
        final int length)
    {
        final SendWorkRequest wr = new SendWorkRequest(4).wrId(wrId).opcode(opcode).sendFlags(SendFlags.SIGNALED);
        wr.sgl().add(local.address() + offset, length, local.mr.lkey());
        return wr;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 3, 1023, 1024, 1025, 4096, 10_000, 65_536, 300_001})
    void shouldSendMessagesOfAnyLengthWithEveryByteIntact(final int length)
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, 100, 0xFF_FFF0, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(Math.max(1, length), ALL);
        final EnginePair.Region dst = pair.b.register(length + 64, ALL);
        fill(src, 0, length, length);
        pair.b.postRecv(qps[1], 77, dst, 0, length + 64);
        pair.a.postSend(qps[0], sendWr(WrOpcode.SEND, 5, src, 0, length));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1 && pair.b.pollRecv(recvWcs).size() == 1,
            1_000_000, 100_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status(), sendWcs.toString());
        assertEquals(5, sendWcs.get(0).wrId());
        assertEquals(WcOpcode.SEND, sendWcs.get(0).opcode());
        final WorkCompletion rwc = recvWcs.get(0);
        assertEquals(WcStatus.SUCCESS.code(), rwc.status());
        assertEquals(77, rwc.wrId());
        assertEquals(WcOpcode.RECV, rwc.opcode());
        assertEquals(length, rwc.byteLen());
        assertEquals(qps[0].qpn(), rwc.srcQp());
        assertBytes(dst, 0, length, length);
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR));
    }

    @Test
    void shouldCoalesceTheAcksOfAReceiveBatchIntoOne()
    {
        final int messages = 32;
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(messages * 8, ALL);
        final EnginePair.Region dst = pair.b.register(messages * 8, ALL);
        fill(src, 0, messages * 8, 9);
        SendWorkRequest first = null;
        for (int i = messages - 1; i >= 0; i--)
        {
            pair.b.postRecv(qps[1], i, dst, 8 * (messages - 1 - i), 8);
            first = sendWr(WrOpcode.SEND, i, src, 8 * i, 8).next(first);
        }
        pair.a.postSend(qps[0], first);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == messages &&
            pair.b.pollRecv(recvWcs).size() == messages, 1_000_000, 100_000);
        for (int i = 0; i < messages; i++)
        {
            assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(i).status(), sendWcs.toString());
            assertEquals(i, sendWcs.get(i).wrId(), "completions in order");
            assertEquals(8, recvWcs.get(i).byteLen());
        }
        assertBytes(dst, 0, messages * 8, 9);
        // the SENDs reach B in one receive batch: one cumulative ACK (IBA 9.7.5.1.1) instead of one per message
        assertEquals(1, pair.wire.b().sent(), "ACK packets sent by B");
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4095, 4096, 4097, 100_000})
    void shouldWriteAndReadBackAtMtu4096(final int length)
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_4096, 0xFF_FFFE, 7, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(length, ALL);
        final EnginePair.Region back = pair.a.register(length, ALL);
        final EnginePair.Region remote = pair.b.register(length + 128, ALL);
        fill(src, 0, length, 3);
        final SendWorkRequest write = sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, length)
            .remoteAddr(remote.address() + 64).rkey(remote.mr.rkey());
        final SendWorkRequest read = sendWr(WrOpcode.RDMA_READ, 2, back, 0, length)
            .remoteAddr(remote.address() + 64).rkey(remote.mr.rkey());
        write.next(read);
        pair.a.postSend(qps[0], write);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2, 1_000_000, 100_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertEquals(WcOpcode.RDMA_WRITE, sendWcs.get(0).opcode());
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(1).status(), sendWcs.toString());
        assertEquals(WcOpcode.RDMA_READ, sendWcs.get(1).opcode());
        assertEquals(length, sendWcs.get(1).byteLen());
        assertBytes(remote, 64, length, 3);
        assertBytes(back, 0, length, 3);
        assertEquals(0, remote.buffer.getLong(0)); // nothing outside [va, va + length)
        assertEquals(0, remote.buffer.getLong(64 + length));
        assertEquals(0, pair.b.pollRecv(recvWcs).size()); // a WRITE consumes no receive
    }

    @Test
    void shouldDeliverImmediateAndInlineAndWriteWithImmediate()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_256, 1, 2, new EnginePair.QpTuning());
        final EnginePair.Region remote = pair.b.register(4096, ALL);
        pair.b.postRecv(qps[1], 10, remote, 0, 100);
        pair.b.postRecv(qps[1], 11, remote, 100, 100);
        final SendWorkRequest inline = new SendWorkRequest(4).wrId(1).opcode(WrOpcode.SEND_WITH_IMM)
            .sendFlags(SendFlags.SIGNALED | SendFlags.INLINE | SendFlags.SOLICITED).immData(0x1234_5678);
        final EnginePair.Region src = pair.a.register(1024, ALL);
        fill(src, 0, 600, 9);
        inline.sgl().add(src.address(), 40, src.mr.lkey());
        final SendWorkRequest writeImm = sendWr(WrOpcode.RDMA_WRITE_WITH_IMM, 2, src, 0, 600)
            .remoteAddr(remote.address() + 1000).rkey(remote.mr.rkey()).immData(0xCAFE);
        inline.next(writeImm);
        pair.a.postSend(qps[0], inline);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2 && pair.b.pollRecv(recvWcs).size() == 2,
            1_000_000, 100_000);
        final WorkCompletion first = recvWcs.get(0);
        assertEquals(10, first.wrId());
        assertEquals(40, first.byteLen());
        assertEquals(0x1234_5678, first.immData());
        assertEquals(WcFlags.WITH_IMM, first.wcFlags() & WcFlags.WITH_IMM);
        assertBytes(remote, 0, 40, 9);
        final WorkCompletion second = recvWcs.get(1);
        assertEquals(11, second.wrId());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, second.opcode());
        assertEquals(600, second.byteLen());
        assertEquals(0xCAFE, second.immData());
        assertBytes(remote, 1000, 600, 9);
    }

    @Test
    void shouldReceiveSendsOfTwoQpsThroughOneSrq()
    {
        final SharedReceiveQueue srq = pair.b.device.createSrq(pair.b.pd, new SrqAttr().maxWr(16).maxSge(2));
        final QueuePair a1 = pair.a.createQp(QpType.RC, 16);
        final QueuePair a2 = pair.a.createQp(QpType.RC, 16);
        final QueuePair b1 = pair.b.createQp(QpType.RC, 16, srq);
        final QueuePair b2 = pair.b.createQp(QpType.RC, 16, srq);
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        pair.connectExisting(a1, b1, Mtu.MTU_1024, 1, 2, tuning);
        pair.connectExisting(a2, b2, Mtu.MTU_1024, 3, 4, tuning);
        final EnginePair.Region src = pair.a.register(8192, ALL);
        final EnginePair.Region dst = pair.b.register(8192, ALL);
        fill(src, 0, 8192, 13);
        for (int i = 0; i < 4; i++)
        {
            final RecvWorkRequest wr = new RecvWorkRequest(2).wrId(100 + i);
            wr.sgl().add(dst.address() + i * 2048L, 2048, dst.mr.lkey());
            assertEquals(0, srq.postSrqRecv(wr));
        }
        // multi-packet SENDs on two QPs: each QP keeps its own copy of the SRQ WQE it took
        pair.a.postSend(a1, sendWr(WrOpcode.SEND, 1, src, 0, 2000));
        pair.a.postSend(a2, sendWr(WrOpcode.SEND, 2, src, 2048, 1500));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2 && pair.b.pollRecv(recvWcs).size() == 2,
            1_000_000, 10_000);
        int seen = 0;
        for (final WorkCompletion wc : recvWcs)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status());
            final int slot = (int)wc.wrId() - 100;
            final int srcOffset = wc.qpNum() == b1.qpn() ? 0 : 2048;
            assertEquals(wc.qpNum() == b1.qpn() ? 2000 : 1500, wc.byteLen());
            for (int k = 0; k < wc.byteLen(); k++)
            {
                assertEquals(src.buffer.getByte(srcOffset + k), dst.buffer.getByte(slot * 2048 + k));
            }
            seen |= 1 << slot;
        }
        assertEquals(3, seen);
    }

    @Test
    void shouldWaitForTxBuffersAndCarryOnWhenThePoolIsEmpty()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, 9, 10, new EnginePair.QpTuning());
        final EnginePair.Region src = pair.a.register(50_000, ALL);
        final EnginePair.Region dst = pair.b.register(50_000, ALL);
        fill(src, 0, 50_000, 21);
        final io.jrxe.driver.mem.PacketPool pool = pair.wire.a().pool();
        final int[] taken = new int[pool.capacity()];
        final int n = pool.allocBatch(taken, 0, taken.length); // the NIC holds every buffer
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 50_000).remoteAddr(dst.address())
            .rkey(dst.mr.rkey()));
        for (int i = 0; i < 10; i++)
        {
            pair.progress();
        }
        assertEquals(0, pair.a.engine.counters().get(RxeCounter.SENT_PKTS));
        assertTrue(pair.a.engine.counters().get(RxeCounter.TX_NO_BUFFER) > 0);
        pool.freeBatch(taken, 0, n); // buffers come back without any doorbell or ACK
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, 1_000_000, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertBytes(dst, 0, 50_000, 21);
    }

    @Test
    void shouldAtomicWriteAndFlush()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, 30, 40, new EnginePair.QpTuning());
        final EnginePair.Region local = pair.a.register(64, ALL);
        final EnginePair.Region remote = pair.b.register(64, ALL | AccessFlags.FLUSH_GLOBAL);
        local.buffer.putLong(0, 0x0102_0304_0506_0708L, ByteOrder.nativeOrder());
        final SendWorkRequest atomicWrite = sendWr(WrOpcode.ATOMIC_WRITE, 1, local, 0, 8)
            .remoteAddr(remote.address() + 16).rkey(remote.mr.rkey());
        final SendWorkRequest flush = sendWr(WrOpcode.FLUSH, 2, local, 0, 8)
            .remoteAddr(remote.address()).rkey(remote.mr.rkey());
        atomicWrite.next(flush);
        pair.a.postSend(qps[0], atomicWrite);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2, 1_000_000, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status(), sendWcs.toString());
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(1).status(), sendWcs.toString());
        assertEquals(0x0102_0304_0506_0708L, remote.buffer.getLong(16, ByteOrder.nativeOrder()));
        assertEquals(0, remote.buffer.getLong(8));
        assertEquals(0, remote.buffer.getLong(24));
    }

    @Test
    void shouldRunOverIpv6()
    {
        final EnginePair.QpTuning tuning = new EnginePair.QpTuning();
        tuning.ipv6 = true;
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, 3, 4, tuning);
        final EnginePair.Region src = pair.a.register(5000, ALL);
        final EnginePair.Region dst = pair.b.register(5000, ALL);
        final EnginePair.Region back = pair.a.register(5000, ALL);
        fill(src, 0, 5000, 12);
        pair.b.postRecv(qps[1], 1, dst, 0, 5000);
        final SendWorkRequest send = sendWr(WrOpcode.SEND, 1, src, 0, 5000);
        send.next(sendWr(WrOpcode.RDMA_READ, 2, back, 0, 5000).remoteAddr(dst.address()).rkey(dst.mr.rkey()));
        pair.a.postSend(qps[0], send);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 2, 1_000_000, 10_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(1).status());
        assertBytes(back, 0, 5000, 12);
        assertEquals(0, pair.b.engine.counters().get(RxeCounter.ICRC_ERR));
    }

    @Test
    void shouldExecuteAtomicsOnHostMemory()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 64, Mtu.MTU_1024, 10, 20, new EnginePair.QpTuning());
        final EnginePair.Region remote = pair.b.register(64, ALL);
        final EnginePair.Region result = pair.a.register(64, ALL);
        remote.buffer.putLong(8, 100, ByteOrder.nativeOrder());
        final SendWorkRequest add = sendWr(WrOpcode.ATOMIC_FETCH_AND_ADD, 1, result, 0, 8)
            .remoteAddr(remote.address() + 8).rkey(remote.mr.rkey()).compareAdd(5);
        final SendWorkRequest casHit = sendWr(WrOpcode.ATOMIC_CMP_AND_SWP, 2, result, 8, 8)
            .remoteAddr(remote.address() + 8).rkey(remote.mr.rkey()).compareAdd(105).swap(7);
        final SendWorkRequest casMiss = sendWr(WrOpcode.ATOMIC_CMP_AND_SWP, 3, result, 16, 8)
            .remoteAddr(remote.address() + 8).rkey(remote.mr.rkey()).compareAdd(105).swap(9);
        add.next(casHit);
        casHit.next(casMiss);
        pair.a.postSend(qps[0], add);
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 3, 1_000_000, 100_000);
        for (final WorkCompletion wc : sendWcs)
        {
            assertEquals(WcStatus.SUCCESS.code(), wc.status(), wc.toString());
            assertEquals(8, wc.byteLen());
        }
        assertEquals(WcOpcode.FETCH_ADD, sendWcs.get(0).opcode());
        assertEquals(WcOpcode.COMP_SWAP, sendWcs.get(1).opcode());
        assertEquals(100, result.buffer.getLong(0, ByteOrder.nativeOrder()));
        assertEquals(105, result.buffer.getLong(8, ByteOrder.nativeOrder()));
        assertEquals(7, result.buffer.getLong(16, ByteOrder.nativeOrder()));
        assertEquals(7, remote.buffer.getLong(8, ByteOrder.nativeOrder()));
        assertEquals(0, remote.buffer.getLong(0));
        assertEquals(0, remote.buffer.getLong(16));
    }
}
