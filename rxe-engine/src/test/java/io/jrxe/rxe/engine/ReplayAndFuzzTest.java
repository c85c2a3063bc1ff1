package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Icrc;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Reth;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Duplicate READ / atomic replay from the responder resources, and hostile input: forged requests and random or
 * mutated packets fed to receive() are counted and dropped, never thrown.
 */
class ReplayAndFuzzTest extends EngineTestBase
{
    ReplayAndFuzzTest()
    {
        super(3);
    }


    @Test
    void shouldReplayAnAtomicWhoseAckWasLostWithoutExecutingItTwice()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 50, 60, new EnginePair.QpTuning());
        final EnginePair.Region local = pair.a.register(64, ALL);
        final EnginePair.Region remote = pair.b.register(64, ALL);
        remote.buffer.putLong(0, 1000, ByteOrder.nativeOrder());
        final long firstB = pair.wire.b().sent();
        pair.wire.b().dropSent((index) -> index < firstB + 2); // lose B's first two atomic ACKs
        pair.a.postSend(qps[0], sendWr(WrOpcode.ATOMIC_FETCH_AND_ADD, 1, local, 0, 8)
            .remoteAddr(remote.address()).rkey(remote.mr.rkey()).compareAdd(1));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 100_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertEquals(1000, local.buffer.getLong(0, ByteOrder.nativeOrder()));
        assertEquals(1001, remote.buffer.getLong(0, ByteOrder.nativeOrder()), "executed exactly once");
        assertEquals(2, pair.b.engine.counters().get(RxeCounter.DUPLICATE_REQUEST));
        assertEquals(2, pair.a.engine.counters().get(RxeCounter.COMPLETER_RETRY_ERR));
        final EngineCounters a = pair.a.engine.counters();
        final EngineCounters b = pair.b.engine.counters();
        assertEquals(3, a.get(RxeCounter.ATOMIC_REQ_SENT));
        assertEquals(2, a.get(RxeCounter.RETRANSMITTED_PKTS));
        assertEquals(2, a.get(RxeCounter.LOCAL_ACK_TIMEOUT_ERR));
        assertEquals(1, a.get(RxeCounter.ACKS_RCVD));
        assertEquals(1, b.get(RxeCounter.ATOMIC_REQ_RCVD), "executed once");
        assertEquals(2, b.get(RxeCounter.DUPLICATE_RESP_REPLAYED));
        assertEquals(3, b.get(RxeCounter.ACKS_SENT), "atomic ACKs count as ACKs, the lost ones too");
    }

    @Test
    void shouldReplayAReadFromTheFirstMissingResponse()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 0xFF_FFFD, 60, new EnginePair.QpTuning());
        final EnginePair.Region local = pair.a.register(10_000, ALL);
        final EnginePair.Region remote = pair.b.register(10_000, ALL);
        fill(remote, 0, 10_000, 5);
        final long firstB = pair.wire.b().sent();
        pair.wire.b().dropSent((index) -> index == firstB + 4 || index == firstB + 7); // 2 of 10 responses
        pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_READ, 1, local, 0, 10_000)
            .remoteAddr(remote.address()).rkey(remote.mr.rkey()));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() == 1, MS, 100_000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertBytes(local, 0, 10_000, 5);
        assertTrue(pair.b.engine.counters().get(RxeCounter.DUPLICATE_REQUEST) >= 1);
        final EngineCounters a = pair.a.engine.counters();
        final EngineCounters b = pair.b.engine.counters();
        assertEquals(1, b.get(RxeCounter.READ_REQ_RCVD), "a retried READ is a duplicate, not a new request");
        assertEquals(b.get(RxeCounter.DUPLICATE_REQUEST), b.get(RxeCounter.DUPLICATE_RESP_REPLAYED));
        assertTrue(a.get(RxeCounter.RETRANSMITTED_PKTS) >= 1);
        assertEquals(1 + a.get(RxeCounter.RETRANSMITTED_PKTS), a.get(RxeCounter.READ_REQ_SENT));
        assertEquals(a.get(RxeCounter.SENT_PKTS), a.get(RxeCounter.READ_REQ_SENT), "A sent only READ requests");
        assertEquals(b.get(RxeCounter.SENT_PKTS), b.get(RxeCounter.READ_RESP_SENT), "B sent only READ responses");
        assertTrue(a.get(RxeCounter.READ_RESP_RCVD) >= 10, "every response PSN arrived at least once");
        assertTrue(a.get(RxeCounter.READ_RESP_RCVD) <= b.get(RxeCounter.READ_RESP_SENT) - 2, "two were lost");
    }

    @Test
    void shouldNakAForgedMisalignedAtomicAndNeverThrowOnGarbage()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 50, 60, new EnginePair.QpTuning());
        final EnginePair.Region remote = pair.b.register(64, ALL);
        remote.buffer.putLong(8, 5, ByteOrder.nativeOrder());
        // a FETCH_ADD at VA + 4 (misaligned), forged as if from A's QP at B's expected PSN 50
        final byte[] frame = forge(qps[1].qpn(), Opcode.FETCH_ADD, 50, (buf, at) ->
        {
            buf.putLong(at, remote.address() + 4, ByteOrder.BIG_ENDIAN);
            buf.putInt(at + 8, remote.mr.rkey(), ByteOrder.BIG_ENDIAN);
            buf.putLong(at + 12, 1, ByteOrder.BIG_ENDIAN);
        }, 28, 0);
        pair.wire.b().deliver(frame);
        pair.runIdle(MS, 5);
        assertEquals(5, remote.buffer.getLong(8, ByteOrder.nativeOrder()));
        assertEquals(0, remote.buffer.getLong(0));
        assertEquals(QpState.ERR, qps[1].state()); // NAK invalid request, responder QP to error
    }

    @Test
    void shouldDropRandomAndMutatedPacketsWithoutThrowing()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 50, 60, new EnginePair.QpTuning());
        final EnginePair.Region remote = pair.b.register(4096, ALL);
        final Random random = new Random(12345);
        final byte[] valid = forge(qps[1].qpn(), Opcode.RDMA_WRITE_ONLY, 50, (buf, at) ->
        {
            buf.putLong(at, remote.address(), ByteOrder.BIG_ENDIAN);
            buf.putInt(at + 8, remote.mr.rkey(), ByteOrder.BIG_ENDIAN);
            buf.putInt(at + 12, 100, ByteOrder.BIG_ENDIAN);
        }, Reth.LENGTH, 100);
        for (int i = 0; i < 20_000; i++)
        {
            final byte[] frame;
            if (0 == (i & 3))
            {
                frame = new byte[14 + 20 + 8 + random.nextInt(200)];
                random.nextBytes(frame);
                frame[14] = (byte)(0 == (i & 4) ? 0x45 : 0x60);
                frame[14 + 20 + 4] = 0;
                frame[14 + 20 + 5] = (byte)(frame.length - 34);
            }
            else
            {
                frame = valid.clone();
                final int flips = 1 + random.nextInt(4);
                for (int f = 0; f < flips; f++)
                {
                    frame[14 + 20 + 8 + random.nextInt(frame.length - 42)] = (byte)random.nextInt(256);
                }
                if (0 == (i & 7))
                {
                    fixIcrc(frame); // get past the ICRC so the header checks see the garbage
                }
            }
            pair.wire.b().deliver(frame);
        }
        pair.runIdle(MS, 5);
        assertEquals(0, pair.b.engine.counters().internalErrors());
        assertTrue(pair.b.engine.counters().get(RxeCounter.ICRC_ERR) > 1000);
    }

    @Test
    void shouldCountEachMalformedPacketOnceUnderItsReason()
    {
        final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 50, 60, new EnginePair.QpTuning());
        final EnginePair.Region remote = pair.b.register(4096, ALL);
        final HeaderWriter rethTo = (buf, at) ->
        {
            buf.putLong(at, remote.address(), ByteOrder.BIG_ENDIAN);
            buf.putInt(at + 8, remote.mr.rkey(), ByteOrder.BIG_ENDIAN);
            buf.putInt(at + 12, 8, ByteOrder.BIG_ENDIAN);
        };
        final int qpn = qps[1].qpn();

        final byte[] badIcrc = forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 8);
        badIcrc[badIcrc.length - 1] ^= 1;
        expectDrop(badIcrc, RxeCounter.ICRC_ERR);

        final byte[] tver = forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 8);
        tver[42 + 1] |= 1;
        expectDrop(fixed(tver), RxeCounter.BAD_TVER);

        expectDrop(forge(qpn, 0x15, 50, (buf, at) -> { }, 0, 0), RxeCounter.BAD_OPCODE);
        // an XRC SEND ONLY with its XRCETH (SRQN 1) to an RC QP: the opcode's transport is not the QP's
        expectDrop(forge(qpn, Opcode.QP_XRC << 5 | Opcode.SEND_ONLY, 50, (buf, at) -> buf.putInt(at, 1), 4, 8),
            RxeCounter.BAD_QP_TYPE);
        // an RD opcode (RD SEND ONLY, 0x44): jrxe has no RD, as rxe
        expectDrop(forge(qpn, Opcode.QP_RD << 5 | Opcode.SEND_ONLY, 50, (buf, at) -> { }, 0, 0),
            RxeCounter.BAD_OPCODE);

        final byte[] pkey = forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 8);
        pkey[42 + 2] = 0x12;
        expectDrop(fixed(pkey), RxeCounter.BAD_PKEY);

        // an ACK has no payload: 4 bytes after its AETH are a header length error
        expectDrop(forge(qpn, Opcode.ACKNOWLEDGE, 60, (buf, at) -> { }, 4, 4), RxeCounter.BAD_HEADER_LENGTH);
        // a WRITE_ONLY shorter than BTH + RETH
        expectDrop(forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, (buf, at) -> { }, 8, 0), RxeCounter.BAD_HEADER_LENGTH);

        // PadCnt 3 on a packet with no payload; then a payload that is not padded to 4 bytes
        final byte[] pad = forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 0);
        pad[42 + 1] = (byte)(3 << 4);
        expectDrop(fixed(pad), RxeCounter.BAD_PAD);
        final byte[] unaligned = forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 8);
        final byte[] cut = Arrays.copyOf(unaligned, unaligned.length - 1);
        setLengths(cut);
        expectDrop(fixed(cut), RxeCounter.BAD_PAD);

        expectDrop(forge(qpn, Opcode.UD_SEND_ONLY, 50, (buf, at) -> { }, 8, 0), RxeCounter.BAD_QP_TYPE);
        expectDrop(forge(qpn + 100, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 8), RxeCounter.BAD_QPN);

        // the IP header claims 4 bytes more than the UDP datagram holds
        final byte[] ip = forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 8);
        final UnsafeBuffer ipBuf = new UnsafeBuffer(ip);
        ipBuf.putShort(16, (short)((ipBuf.getShort(16, ByteOrder.BIG_ENDIAN) & 0xFFFF) - 4), ByteOrder.BIG_ENDIAN);
        expectDrop(ip, RxeCounter.BAD_IP_HEADER);

        // and the same request well formed is accepted and counted as received
        final long received = pair.b.engine.counters().get(RxeCounter.RCVD_PKTS);
        remote.buffer.setMemory(0, 8, (byte)7);
        pair.wire.b().deliver(forge(qpn, Opcode.RDMA_WRITE_ONLY, 50, rethTo, Reth.LENGTH, 8));
        pair.runIdle(MS, 5);
        assertEquals(received + 1, pair.b.engine.counters().get(RxeCounter.RCVD_PKTS));
        assertEquals(0, remote.buffer.getLong(0), "the forged WRITE wrote its zero payload");
        assertEquals(QpState.RTS, qps[1].state());
    }

    private void expectDrop(final byte[] frame, final RxeCounter reason)
    {
        final long[] before = new long[RxeCounter.count()];
        for (int id = 0; id < before.length; id++)
        {
            before[id] = pair.b.engine.counters().get(RxeCounter.byId(id));
        }
        pair.wire.b().deliver(frame);
        for (int id = 0; id < before.length; id++)
        {
            final RxeCounter c = RxeCounter.byId(id);
            final long delta = pair.b.engine.counters().get(c) - before[id];
            if (c == reason)
            {
                assertEquals(1, delta, reason + " counted once");
            }
            else
            {
                assertEquals(0, delta, "dropped as " + reason + " yet counted as " + c);
            }
        }
    }

    /** Recomputes the ICRC after an edit of a covered field. */
    private static byte[] fixed(final byte[] frame)
    {
        fixIcrc(frame);
        return frame;
    }

    /** Sets the IP total length and UDP length from the frame's size. */
    private static void setLengths(final byte[] frame)
    {
        final UnsafeBuffer buf = new UnsafeBuffer(frame);
        buf.putShort(16, (short)(frame.length - 14), ByteOrder.BIG_ENDIAN);
        buf.putShort(38, (short)(frame.length - 34), ByteOrder.BIG_ENDIAN);
    }

    interface HeaderWriter
    {
        void write(UnsafeBuffer buffer, int at);
    }

    /** Builds Eth + IPv4 + UDP + BTH + extension header + payload + valid ICRC, from A to B. */
    static byte[] forge(
        final int destQpn, final int opcode, final int psn, final HeaderWriter ext, final int extLength,
        final int payload)
    {
        final int pad = RoceV2.padCount(payload);
        final int udpPayload = Bth.LENGTH + extLength + payload + pad + Icrc.LENGTH;
        final byte[] frame = new byte[14 + 20 + 8 + udpPayload];
        final UnsafeBuffer buf = new UnsafeBuffer(frame);
        buf.putShort(12, (short)0x0800, ByteOrder.BIG_ENDIAN);
        buf.putByte(14, (byte)0x45);
        buf.putShort(16, (short)(20 + 8 + udpPayload), ByteOrder.BIG_ENDIAN);
        buf.putByte(22, (byte)64);
        buf.putByte(23, (byte)17);
        buf.putInt(26, EnginePair.IP_A, ByteOrder.BIG_ENDIAN);
        buf.putInt(30, EnginePair.IP_B, ByteOrder.BIG_ENDIAN);
        buf.putShort(34, (short)0xC123, ByteOrder.BIG_ENDIAN);
        buf.putShort(36, (short)RoceV2.UDP_PORT, ByteOrder.BIG_ENDIAN);
        buf.putShort(38, (short)(8 + udpPayload), ByteOrder.BIG_ENDIAN);
        new Bth().wrap(buf, 42).init(opcode, false, pad, 0xFFFF, destQpn, true, psn);
        ext.write(buf, 42 + Bth.LENGTH);
        fixIcrc(frame);
        return frame;
    }

    static void fixIcrc(final byte[] frame)
    {
        new Icrc().generate(new UnsafeBuffer(frame), 14, frame.length - 14);
    }
}
