package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.MemoryWire;
import io.jrxe.rxe.net.RxePacketSink;
import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Deth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.NetworkType;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.assertBytes;
import static io.jrxe.rxe.engine.RcDataPathTest.fill;
import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * QP1 is owned by the verbs GSI QP, as in the kernel's MAD layer: each side creates one (INIT with the GSI Q_Key
 * and P_Key index 0, RTR, RTS), posts receives of 40 + 256 bytes (GRH area, then the MAD) and sends 256-byte MADs
 * as UD SENDs to QPN 1 through an address handle. Packets to QPN 1 that no ready GSI QP can take are counted
 * under their drop reason.
 * <pre>
 *  A's GSI QP --UD SEND_ONLY, BTH P_Key 0xFFFF, DETH Q_Key 0x80010000 SrcQP 1--> B's GSI QP (QPN 1)
 *  B's receive buffer: | GRH area (40) | MAD (256) |   byte_len 296, src_qp 1
 * </pre>
 */
class GsiQpTest extends EngineTestBase
{
    private static final int MAD = 256;
    private static final int GRH = 40;
    /** A UD Q_Key that is not QP1's: what a WR may carry (QP1 ignores it) and what B's GSI QP must refuse. */
    private static final int OTHER_QKEY = 0x1111_1111;
    private static final int RECV_OFFSET = 1024;

    private final EnginePair.Region memoryA = pair.a.register(4096, ALL);
    private final EnginePair.Region memoryB = pair.b.register(4096, ALL);
    private final List<WorkCompletion> recvA = new ArrayList<>();
    private final List<WorkCompletion> recvB = new ArrayList<>();

    GsiQpTest()
    {
        super(9);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldExchangeMadsBetweenGsiQpsWithTheGrhAreaFirst(final boolean ipv6)
    {
        final QueuePair gsiA = gsiQp(pair.a, QpState.RTS);
        final QueuePair gsiB = gsiQp(pair.b, QpState.RTS);
        final Tap tapA = new Tap(pair.a);
        final Tap tapB = new Tap(pair.b);
        pair.b.postRecv(gsiB, 7, memoryB, RECV_OFFSET, GRH + MAD);
        pair.a.postRecv(gsiA, 8, memoryA, RECV_OFFSET, GRH + MAD);

        fill(memoryA, 0, MAD, 1);
        pair.a.postSend(gsiA, mad(WrOpcode.SEND, memoryA, ah(pair.a, pair.b, ipv6), RoceV2.GSI_QPN));
        pair.runUntil(() -> 1 == pair.b.pollRecv(recvB).size(), MS, 1000);
        final WorkCompletion request = recvB.get(0);
        assertMad(request, 7, ipv6);
        assertEquals(0, request.wcFlags() & WcFlags.WITH_IMM);
        assertGrhArea(memoryB, ipv6, pair.a, pair.b);
        assertBytes(memoryB, RECV_OFFSET + GRH, MAD, 1);
        // the WR's Q_Key is ignored on QP1: the GSI Q_Key goes out, from source QP 1, under the default P_Key
        assertEquals(List.of(header(Opcode.UD_SEND_ONLY)), tapB.headers);

        // B answers the sender's QP (the WC's src_qp), with immediate data this time
        fill(memoryB, 0, MAD, 2);
        pair.b.postSend(gsiB, mad(WrOpcode.SEND_WITH_IMM, memoryB, ah(pair.b, pair.a, ipv6), request.srcQp())
            .immData(0x0102_0304));
        pair.runUntil(() -> 1 == pair.a.pollRecv(recvA).size(), MS, 1000);
        final WorkCompletion reply = recvA.get(0);
        assertMad(reply, 8, ipv6);
        assertEquals(WcFlags.WITH_IMM, reply.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(0x0102_0304, reply.immData());
        assertGrhArea(memoryA, ipv6, pair.b, pair.a);
        assertBytes(memoryA, RECV_OFFSET + GRH, MAD, 2);
        assertEquals(List.of(header(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE)), tapA.headers);

        final List<WorkCompletion> sendB = new ArrayList<>();
        pair.runUntil(() -> 1 == pair.a.pollSend(sendWcs).size() && 1 == pair.b.pollSend(sendB).size(), MS, 1000);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());
        assertEquals(WcStatus.SUCCESS.code(), sendB.get(0).status());
    }

    @Test
    void shouldCountMadsDroppedUntilAGsiQpIsReadyToReceive()
    {
        final QueuePair gsiA = gsiQp(pair.a, QpState.RTS);
        final AddressHandle toB = ah(pair.a, pair.b, false);
        fill(memoryA, 0, MAD, 3);

        sendMad(gsiA, toB);
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.BAD_QPN), "no GSI QP: QPN 1 is unknown");

        final QueuePair gsiB = gsiQp(pair.b, QpState.INIT);
        pair.b.postRecv(gsiB, 1, memoryB, RECV_OFFSET, GRH + MAD);
        sendMad(gsiA, toB);
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.QP_NOT_READY), "in INIT QP1 does not receive");
        assertEquals(0, pair.b.pollRecv(recvB).size());

        pair.b.raise(gsiB, RoceV2.GSI_QKEY, QpState.RTR); // receiving needs RTR, not RTS
        sendMad(gsiA, toB);
        pair.b.pollRecv(recvB);
        assertEquals(1, recvB.size());
        assertMad(recvB.get(0), 1, false);
        assertBytes(memoryB, RECV_OFFSET + GRH, MAD, 3);
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.RCVD_PKTS), "the dropped MADs were not received");
    }

    @Test
    void shouldTakeOnlyTheGsiQkeyWhateverTheQpsAttributeAndOnlyUdOpcodes()
    {
        final QueuePair gsiA = gsiQp(pair.a, QpState.RTS);
        // B's GSI QP holds another Q_Key attribute: QP1 still takes 0x80010000 only (rxe check_keys)
        final QueuePair gsiB = pair.b.datagramQp(QpType.GSI, OTHER_QKEY, QpState.RTS);
        final QueuePair udA = pair.a.datagramQp(QpType.UD, OTHER_QKEY, QpState.RTS);
        pair.b.postRecv(gsiB, 1, memoryB, RECV_OFFSET, GRH + MAD);
        final AddressHandle toB = ah(pair.a, pair.b, false);
        fill(memoryA, 0, MAD, 4);

        sendMad(udA, toB); // an ordinary UD QP sends the WR's Q_Key, which is not QP1's
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.BAD_QKEY));

        expectDropAtB(forgeUd(OTHER_QKEY, 0xFFFF), RxeCounter.BAD_QKEY);
        expectDropAtB(forgeUd(RoceV2.GSI_QKEY, 0x1234), RxeCounter.BAD_PKEY);
        final ReplayAndFuzzTest.HeaderWriter none = (buffer, at) -> { };
        expectDropAtB(ReplayAndFuzzTest.forge(RoceV2.GSI_QPN, Opcode.RC_SEND_ONLY, 0, none, 0, MAD),
            RxeCounter.BAD_QP_TYPE);
        expectDropAtB(ReplayAndFuzzTest.forge(RoceV2.GSI_QPN, Opcode.UC_SEND_ONLY, 0, none, 0, MAD),
            RxeCounter.BAD_QP_TYPE);
        assertEquals(0, pair.b.pollRecv(recvB).size());

        sendMad(gsiA, toB);
        // a limited-member P_Key matches the port's full-member 0xFFFF, as for any QP (rxe pkey_match)
        pair.b.postRecv(gsiB, 2, memoryB, 0, GRH + MAD);
        pair.wire.b().deliver(forgeUd(RoceV2.GSI_QKEY, 0x7FFF));
        pair.runIdle(MS, 5);
        pair.b.pollRecv(recvB);
        assertEquals(2, recvB.size());
        assertMad(recvB.get(0), 1, false);
        assertBytes(memoryB, RECV_OFFSET + GRH, MAD, 4);
        assertEquals(2, recvB.get(1).wrId());
        assertEquals(0x99, recvB.get(1).srcQp());
    }

    @Test
    void shouldDropAMadWithNoReceivePostedAndSendNoRnrNak()
    {
        final QueuePair gsiA = gsiQp(pair.a, QpState.RTS);
        final QueuePair gsiB = gsiQp(pair.b, QpState.RTS);
        final AddressHandle toB = ah(pair.a, pair.b, false);
        fill(memoryA, 0, MAD, 5);
        sendMad(gsiA, toB);
        final EngineCounters b = pair.b.engine.counters();
        assertEquals(1, b.dropNoRecv());
        assertEquals(0, b.get(RxeCounter.SEND_RNR_ERR));
        assertEquals(0, b.get(RxeCounter.SENT_PKTS), "UD has no RNR NAK: B sent nothing");
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(0).status());

        pair.b.postRecv(gsiB, 1, memoryB, RECV_OFFSET, GRH + MAD);
        fill(memoryA, 0, MAD, 6);
        sendMad(gsiA, toB);
        pair.b.pollRecv(recvB);
        assertEquals(1, recvB.size(), "the dropped MAD was not kept for a later receive");
        assertBytes(memoryB, RECV_OFFSET + GRH, MAD, 6);
    }

    @Test
    void shouldServeAGsiQpDestroyedAndCreatedAgain()
    {
        final QueuePair gsiA = gsiQp(pair.a, QpState.RTS);
        final QueuePair first = gsiQp(pair.b, QpState.RTS);
        pair.b.postRecv(first, 1, memoryB, RECV_OFFSET, GRH + MAD);
        pair.b.postRecv(first, 2, memoryB, RECV_OFFSET, GRH + MAD);
        final AddressHandle toB = ah(pair.a, pair.b, false);
        fill(memoryA, 0, MAD, 7);
        sendMad(gsiA, toB);
        assertEquals(1, pair.b.pollRecv(recvB).size());

        pair.b.device.destroyQp(first);
        sendMad(gsiA, toB);
        assertEquals(1, pair.b.engine.counters().get(RxeCounter.BAD_QPN), "no GSI QP after the destroy");

        final QueuePair second = gsiQp(pair.b, QpState.RTS);
        assertEquals(RoceV2.GSI_QPN, second.qpn());
        pair.b.postRecv(second, 3, memoryB, 0, GRH + MAD);
        fill(memoryA, 0, MAD, 8);
        sendMad(gsiA, toB);
        pair.b.pollRecv(recvB);
        final List<Long> delivered = new ArrayList<>();
        for (final WorkCompletion wc : recvB)
        {
            if (WcStatus.SUCCESS.code() == wc.status())
            {
                delivered.add(wc.wrId());
            }
        }
        assertEquals(List.of(1L, 3L), delivered, "the new QP's receive took the MAD, not the old QP's: " + recvB);
        assertMad(recvB.get(recvB.size() - 1), 3, false);
        assertBytes(memoryB, GRH, MAD, 8);
    }

    // ------------------------------------------------------------------ helpers

    /** A GSI QP brought up as the MAD layer does: INIT with the GSI Q_Key and P_Key index 0, then RTR, RTS. */
    private static QueuePair gsiQp(final EnginePair.Side side, final QpState upTo)
    {
        final QueuePair qp = side.datagramQp(QpType.GSI, RoceV2.GSI_QKEY, upTo);
        assertEquals(RoceV2.GSI_QPN, qp.qpn());
        return qp;
    }

    private static AddressHandle ah(final EnginePair.Side from, final EnginePair.Side to, final boolean ipv6)
    {
        final AhAttr attr = new AhAttr().hopLimit(64);
        if (ipv6)
        {
            attr.dgid(MemoryWire.Endpoint.IPV6_GID_HI, to.ip & 0xffff_ffffL).sgidIndex(2);
        }
        else
        {
            attr.dgidIpv4(to.ip).sgidIndex(1);
        }
        return from.device.createAh(from.pd, attr);
    }

    /** A 256-byte MAD from the start of {@code memory}; its WR Q_Key is not QP1's (a GSI QP ignores it). */
    private static SendWorkRequest mad(
        final int opcode, final EnginePair.Region memory, final AddressHandle ah, final int destQpn)
    {
        return sendWr(opcode, 1, memory, 0, MAD).ah(ah).remoteQpn(destQpn).remoteQkey(OTHER_QKEY);
    }

    /** A sends a MAD to QPN 1 and the engines run until its send completes and the wire is quiet. */
    private void sendMad(final QueuePair from, final AddressHandle ah)
    {
        final int completed = sendWcs.size();
        pair.a.postSend(from, mad(WrOpcode.SEND, memoryA, ah, RoceV2.GSI_QPN));
        pair.runUntil(() -> pair.a.pollSend(sendWcs).size() > completed, MS, 1000);
        pair.runIdle(MS, 5);
        assertEquals(WcStatus.SUCCESS.code(), sendWcs.get(completed).status(), "UD sends complete when sent");
    }

    private static void assertMad(final WorkCompletion wc, final long wrId, final boolean ipv6)
    {
        assertEquals(WcStatus.SUCCESS.code(), wc.status(), wc.toString());
        assertEquals(wrId, wc.wrId());
        assertEquals(WcOpcode.RECV, wc.opcode());
        assertEquals(GRH + MAD, wc.byteLen(), "byte_len counts the GRH area");
        assertEquals(RoceV2.GSI_QPN, wc.qpNum());
        assertEquals(RoceV2.GSI_QPN, wc.srcQp(), "source QP from the DETH");
        assertEquals(0, wc.pkeyIndex());
        assertEquals(WcFlags.GRH | WcFlags.WITH_NETWORK_HDR_TYPE,
            wc.wcFlags() & (WcFlags.GRH | WcFlags.WITH_NETWORK_HDR_TYPE));
        assertEquals((ipv6 ? NetworkType.IPV6 : NetworkType.IPV4).code(), wc.networkHdrType());
    }

    /**
     * The GRH area as rxe fills it: an IPv6 header whole, or 20 zero bytes then the IPv4 header.
     * <pre>
     *  IPv6: | ver 6 ... | next hdr 17 @6 | sgid @8 (16) | dgid @24 (16) |
     *  IPv4: | 0 (20) | 0x45 @20 ... | saddr @32 | daddr @36 |
     * </pre>
     */
    private static void assertGrhArea(
        final EnginePair.Region memory, final boolean ipv6, final EnginePair.Side src, final EnginePair.Side dst)
    {
        final UnsafeBuffer b = memory.buffer;
        final int at = RECV_OFFSET;
        if (ipv6)
        {
            assertEquals(6, (b.getByte(at) >> 4) & 0xF);
            assertEquals(17, b.getByte(at + 6));
            assertEquals(MemoryWire.Endpoint.IPV6_GID_HI, b.getLong(at + 8, ByteOrder.BIG_ENDIAN));
            assertEquals(src.ip & 0xffff_ffffL, b.getLong(at + 16, ByteOrder.BIG_ENDIAN));
            assertEquals(dst.ip & 0xffff_ffffL, b.getLong(at + 32, ByteOrder.BIG_ENDIAN));
        }
        else
        {
            for (int i = 0; i < 20; i++)
            {
                assertEquals(0, b.getByte(at + i), "byte " + i + " of the IPv4 GRH area");
            }
            assertEquals(0x45, b.getByte(at + 20));
            assertEquals(src.ip, b.getInt(at + 32, ByteOrder.BIG_ENDIAN));
            assertEquals(dst.ip, b.getInt(at + 36, ByteOrder.BIG_ENDIAN));
        }
    }

    /** What the {@link Tap} records for a MAD from QP1 to QP1. */
    private static String header(final int opcode)
    {
        return Tap.describe(opcode, RoceV2.DEFAULT_PKEY, RoceV2.GSI_QPN, RoceV2.GSI_QKEY, RoceV2.GSI_QPN);
    }

    /** A UD SEND_ONLY of a MAD to QPN 1 from A's source QP 0x99, with the given Q_Key and BTH P_Key. */
    private static byte[] forgeUd(final int qkey, final int pkey)
    {
        final byte[] frame = ReplayAndFuzzTest.forge(RoceV2.GSI_QPN, Opcode.UD_SEND_ONLY, 0,
            (buffer, at) -> new Deth().wrap(buffer, at).qkey(qkey).srcQp(0x99), Deth.LENGTH, MAD);
        new Bth().wrap(new UnsafeBuffer(frame), 42).pkey(pkey); // BTH after Ethernet 14, IPv4 20, UDP 8
        ReplayAndFuzzTest.fixIcrc(frame);
        return frame;
    }

    /** Records the BTH/DETH of every UD packet reaching a side (then hands it to the side's engine). */
    private static final class Tap implements RxePacketSink
    {
        final List<String> headers = new ArrayList<>();
        private final RxeEngine engine;
        private final Bth bth = new Bth();
        private final Deth deth = new Deth();

        Tap(final EnginePair.Side side)
        {
            engine = side.engine;
            side.endpoint.sink(this);
        }

        @Override
        public void receive(final UnsafeBuffer buffer, final int ipOffset, final int udpOffset,
            final int payloadOffset, final int payloadLength, final int ipVersion)
        {
            final int opcode = bth.wrap(buffer, payloadOffset).opcode();
            deth.wrap(buffer, payloadOffset + Opcode.dethOffset(opcode));
            headers.add(describe(opcode, bth.pkey(), bth.destQp(), deth.qkey(), deth.srcQp()));
            engine.receive(buffer, ipOffset, udpOffset, payloadOffset, payloadLength, ipVersion);
        }

        static String describe(final int opcode, final int pkey, final int destQp, final int qkey, final int srcQp)
        {
            return String.format("opcode=%x pkey=%x dqpn=%d qkey=%x sqpn=%d", opcode, pkey, destQp, qkey, srcQp);
        }
    }
}
