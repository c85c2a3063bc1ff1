package io.jrxe.tests;

import io.jrxe.driver.NicStats;
import io.jrxe.driver.emu.EmulatedNicCounters;
import io.jrxe.driver.emu.WireCounters;
import io.jrxe.driver.emu.WirePort;
import io.jrxe.net.Checksum;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetCounter;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.jrxe.rxe.node.NodePair.IP_A;
import static io.jrxe.rxe.node.NodePair.IP_B;
import static io.jrxe.rxe.node.NodePair.MAC_A;
import static io.jrxe.rxe.node.NodePair.MAC_B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Node B of a deterministic {@link NodePair} under hostile frames, shared by the seeded million-frame run
 * ({@link FuzzTest}) and the coverage-guided one ({@link FrameFuzzTargetTest}). B has RC, RC, UC, UD and GSI QPs and
 * registered memory between guard bytes; frames go in on A's wire port (this thread drives A's device) and reach B
 * through its real receive path: wire port, device model, virtio driver, stack, engine. A frame is a well-formed
 * RoCEv2 request or response for one of B's QPs with up to three mutations (opcode, flags, P_Key, QPN, PSN,
 * extension headers, payload, lengths, any byte; cut short or extended; ICRC and IP checksum recomputed or not),
 * random bytes after a valid header, or plain garbage. What the frame is, is decided by a {@link Choices} source.
 */
final class FrameFuzzer implements AutoCloseable
{
    /** The decisions that shape a frame. */
    interface Choices
    {
        /** @return a value in [0, bound) */
        int nextInt(int bound);

        int nextInt();

        long nextLong();

        boolean nextBoolean();
    }

    /** Choices from a seeded generator: the same frames on every run. */
    static Choices seeded(final SplittableRandom random)
    {
        return new Choices()
        {
            @Override
            public int nextInt(final int bound)
            {
                return random.nextInt(bound);
            }

            @Override
            public int nextInt()
            {
                return random.nextInt();
            }

            @Override
            public long nextLong()
            {
                return random.nextLong();
            }

            @Override
            public boolean nextBoolean()
            {
                return random.nextBoolean();
            }
        };
    }

    private static final int RQ_PSN = 0x10;
    private static final int QKEY = 0x1111_2222;
    private static final int MTU = 1024;
    static final int MAX_FRAME = 14 + 1500;
    /** Receive buffers: 16 for each of B's five target QPs. */
    private static final int RECV_SLOTS = 5 * 16;
    /** Every reason B's engine drops a received RoCE datagram for. */
    private static final RxeCounter[] DROP_REASONS = {RxeCounter.ICRC_ERR, RxeCounter.BAD_OPCODE,
        RxeCounter.BAD_PKEY, RxeCounter.BAD_QPN, RxeCounter.QP_NOT_READY, RxeCounter.BAD_QKEY,
        RxeCounter.BAD_HEADER_LENGTH, RxeCounter.BAD_PAD, RxeCounter.TRUNCATED, RxeCounter.BAD_TVER,
        RxeCounter.BAD_QP_TYPE, RxeCounter.BAD_IP_HEADER, RxeCounter.CNP_RCVD};

    /** Where the current frame's choices come from (a seeded generator, or a coverage-guided fuzzer's input). */
    private Choices random;
    private final RoceFrame rf = new RoceFrame();
    private final UnsafeBuffer work = new UnsafeBuffer(new byte[MAX_FRAME + 128]);
    private final List<byte[]> templates = new ArrayList<>();
    private final List<QueuePair> targets = new ArrayList<>();
    private final List<QueuePair> peers = new ArrayList<>();
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private int[] knownQpns;
    private final long[] mutationsUsed = new long[13];

    private final NodePair nodes;
    private final Side a;
    private final Side b;
    private final GuardedRegion memory;
    private final GuardedRegion recvBuffers;
    private final WirePort port;
    private final long[] kinds = new long[3];

    /** Builds the pair, B's target QPs and the templates, and posts B's receives. */
    FrameFuzzer()
    {
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        // B's NIC stays promiscuous: frames with any destination MAC reach the stack, whose own L2 checks
        // (not_our_mac, bad_src_mac ...) are part of what is fuzzed; a filtering NIC would drop them in the device
        nodes = new NodePair(TestPairs.deterministic().promiscuous(true));
        try
        {
            nodes.resolve(TestPairs.RESOLVE_NS);
            a = new Side(nodes.a(), 64);
            b = new Side(nodes.b(), 1024);
            memory = b.region(4 * MTU, RcStream.ALL_ACCESS);
            recvBuffers = b.region(RECV_SLOTS * 2 * MTU, RcStream.ALL_ACCESS);
            setUpTargets(nodes, a, b);
            buildTemplates(memory);
            port = nodes.wire().port(0); // A's port, driven by this thread like A's device
            rearm();
        }
        catch (final RuntimeException | Error ex)
        {
            nodes.close();
            throw ex;
        }
    }

    NodePair nodes()
    {
        return nodes;
    }

    /** Frames built so far by kind: random bytes, random transport after a valid header, mutated templates. */
    long[] kinds()
    {
        return kinds;
    }

    /** Builds the next frame from {@code choices} and puts it on A's port. */
    void sendNext(final Choices choices)
    {
        random = choices;
        final int length = nextFrame(kinds);
        assertTrue(port.send(nodes.nowNs(), work, 0, length));
    }

    /** Runs the pair until B took every frame sent, then empties every CQ. */
    void deliver()
    {
        drain(nodes);
        pollAll(a, b);
    }

    /** Puts knocked-out QPs back to RTS and tops up the receive queues. */
    void rearm()
    {
        rearm(nodes, b, recvBuffers);
    }

    /** Nothing outside B's registered buffers changed. */
    void assertGuardsIntact()
    {
        memory.assertGuardsIntact("B's fuzzed MR");
        recvBuffers.assertGuardsIntact("B's receive buffers");
    }

    /** Every RoCE datagram B's stack handed up was received or dropped for exactly one counted reason. */
    void assertEveryDatagramAccounted()
    {
        long drops = 0;
        for (final RxeCounter c : DROP_REASONS)
        {
            drops += nodes.b().engine().counters().get(c);
        }
        assertEquals(nodes.b().stack().counter(NetCounter.UDP_DATAGRAMS_RCVD),
            nodes.b().engine().counters().get(RxeCounter.RCVD_PKTS) + drops,
            "every RoCE datagram B's stack handed up was received or dropped for one reason");
    }

    @Override
    public void close()
    {
        nodes.close();
    }

    // ------------------------------------------------------------------ set-up

    private void setUpTargets(final NodePair nodes, final Side a, final Side b)
    {
        final QpConnector connector = new QpConnector().pathMtu(Mtu.MTU_1024).rdAtomic(4, 4).timeout(8);
        for (final QpType type : new QpType[]{QpType.RC, QpType.RC, QpType.UC})
        {
            final QueuePair qb = b.qp(type, 16, 16);
            final QueuePair qa = a.qp(type, 16, 16);
            connector.connect(b.device, qb, 0, GidTable.ipv4MappedLo(IP_A), qa.qpn(), RQ_PSN, 0x20);
            connector.connect(a.device, qa, 0, GidTable.ipv4MappedLo(IP_B), qb.qpn(), 0x20, RQ_PSN);
            targets.add(qb);
            peers.add(qa);
        }
        // a UD QP and the GSI QP (QP1), which takes the GSI Q_Key whatever its attribute
        for (final QpType type : new QpType[]{QpType.UD, QpType.GSI})
        {
            final QueuePair qp = b.qp(type, 16, 16);
            final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(1).qkey(QKEY).sqPsn(0);
            for (final QpState[] step : new QpState[][]{
                {QpState.RESET, QpState.INIT}, {QpState.INIT, QpState.RTR}, {QpState.RTR, QpState.RTS}})
            {
                b.device.modifyQp(qp, attr.qpState(step[1]),
                    QpAttrMask.STATE | QpStateTable.required(type, step[0], step[1]));
            }
            targets.add(qp);
        }
        nodes.settle(1_000_000);
        knownQpns = new int[targets.size() + 1];
        for (int i = 0; i < targets.size(); i++)
        {
            knownQpns[i] = targets.get(i).qpn();
        }
        knownQpns[targets.size()] = peers.get(0).qpn(); // an A QPN: unknown at B
    }

    /** Well-formed packets for each target: the fuzzer's starting points. */
    private void buildTemplates(final GuardedRegion memory)
    {
        final int rc0 = targets.get(0).qpn();
        final int rc1 = targets.get(1).qpn();
        final int uc = targets.get(2).qpn();
        final int ud = targets.get(3).qpn();
        final long va = memory.address(0);
        final int rkey = memory.rkey();
        for (final int rc : new int[]{rc0, rc1})
        {
            template(start(Opcode.RC_SEND_ONLY, rc).payload(100, (byte)1));
            template(start(Opcode.RC_SEND_FIRST, rc).payload(MTU, (byte)2));
            template(start(Opcode.RC_SEND_MIDDLE, rc).payload(MTU, (byte)3));
            template(start(Opcode.RC_SEND_LAST_WITH_IMMEDIATE, rc).imm(5).payload(33, (byte)4));
            template(start(Opcode.RC_RDMA_WRITE_ONLY, rc).reth(va + 64, rkey, 200).payload(200, (byte)5));
            template(start(Opcode.RC_RDMA_WRITE_FIRST, rc).reth(va, rkey, 3 * MTU).payload(MTU, (byte)6));
            template(start(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, rc).reth(va + 8, rkey, 16).imm(7)
                .payload(16, (byte)7));
            template(start(Opcode.RC_RDMA_READ_REQUEST, rc).reth(va, rkey, 2 * MTU + 5));
            template(start(Opcode.RC_COMPARE_SWAP, rc).atomic(va + 16, rkey, 9, 0));
            template(start(Opcode.RC_FETCH_ADD, rc).atomic(va + 24, rkey, 1, 0));
            template(start(Opcode.RC_ACKNOWLEDGE, rc).payload(0, (byte)0)); // AETH zero: ACK
            template(start(Opcode.RC_RDMA_READ_RESPONSE_ONLY, rc).payload(64, (byte)8));
            template(start(Opcode.RC_ATOMIC_ACKNOWLEDGE, rc));
        }
        template(start(Opcode.UC_SEND_ONLY, uc).payload(77, (byte)9));
        template(start(Opcode.UC_RDMA_WRITE_FIRST, uc).reth(va, rkey, 2 * MTU).payload(MTU, (byte)10));
        template(start(Opcode.UC_RDMA_WRITE_LAST, uc).payload(MTU, (byte)11));
        template(start(Opcode.UD_SEND_ONLY, ud).deth(QKEY, 0x99).payload(256, (byte)12));
        template(start(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, ud).deth(QKEY, 0x99).imm(3).payload(8, (byte)13));
        template(start(Opcode.UD_SEND_ONLY, RoceV2.GSI_QPN).deth(RoceV2.GSI_QKEY, 1).payload(256, (byte)14));
        template(start(Opcode.CNP, rc0)); // BTH + 16 reserved bytes
    }

    private RoceFrame start(final int opcode, final int qpn)
    {
        return rf.start(MAC_A, MAC_B, IP_A, IP_B, opcode, qpn, RQ_PSN, true);
    }

    private void template(final RoceFrame frame)
    {
        final int length = frame.finish();
        final byte[] copy = new byte[length];
        frame.frame.getBytes(0, copy);
        templates.add(copy);
    }

    // ------------------------------------------------------------------ frame generation

    /** Builds the next frame in {@link #work}; returns its length. */
    private int nextFrame(final long[] kinds)
    {
        final int r = random.nextInt(100);
        if (r < 4)
        {
            kinds[0]++;
            final int length = 1 + random.nextInt(MAX_FRAME);
            randomBytes(0, length);
            return length;
        }
        if (r < 14)
        {
            kinds[1]++;
            final byte[] t = templates.get(random.nextInt(templates.size()));
            final int length = RoceFrame.BTH + 12 + random.nextInt(MTU + 64);
            work.putBytes(0, t, 0, RoceFrame.BTH);
            randomBytes(RoceFrame.BTH, length - RoceFrame.BTH);
            fixLengths(length);
            if (random.nextBoolean())
            {
                rf.regenerateIcrc(work, length);
            }
            fixIpChecksum();
            return length;
        }
        kinds[2]++;
        final byte[] t = templates.get(random.nextInt(templates.size()));
        work.putBytes(0, t);
        int length = t.length;
        // the IP packet may be shorter than the frame (minimum Ethernet frame padding)
        final int ipEnd = RoceFrame.IP + (work.getShort(RoceFrame.IP + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        int mutations = random.nextInt(10) < 1 ? 0 : 1 + random.nextInt(3);
        boolean lengthChanged = false;
        while (mutations-- > 0)
        {
            final int m = random.nextInt(mutationsUsed.length);
            mutationsUsed[m]++;
            length = mutate(m, length, ipEnd);
            lengthChanged |= length != t.length;
        }
        if (lengthChanged && random.nextInt(10) < 7)
        {
            fixLengths(length);
        }
        if (random.nextInt(10) < 6)
        {
            rf.regenerateIcrc(work, length);
        }
        if (random.nextInt(10) < 9)
        {
            fixIpChecksum();
        }
        return length;
    }

    private int mutate(final int kind, final int length, final int ipEnd)
    {
        final int bth = RoceFrame.BTH;
        switch (kind)
        {
            case 0: // opcode: any byte, or another valid one
                work.putByte(bth, (byte)(random.nextBoolean() ? random.nextInt(256) : validOpcode()));
                return length;
            case 1: // SE / MigReq / PadCnt / TVer
                work.putByte(bth + 1, (byte)random.nextInt(256));
                return length;
            case 2: // P_Key
                work.putShort(bth + 2, (short)(random.nextBoolean() ? random.nextInt(0x10000) : 0x7FFF));
                return length;
            case 3: // destination QP: random, another known one, or a neighbour
            {
                final int choice = random.nextInt(3);
                final int qpn = 0 == choice ? random.nextInt(1 << 24) :
                    1 == choice ? knownQpns[random.nextInt(knownQpns.length)] :
                    RoceFrame.destQp(work, 0) + random.nextInt(5) - 2;
                work.putInt(bth + 4, qpn & 0xFF_FFFF, ByteOrder.BIG_ENDIAN);
                return length;
            }
            case 4: // PSN: random or near the expected one; AckReq either way
            {
                final int psn = random.nextBoolean() ? random.nextInt(1 << 24) : RQ_PSN + random.nextInt(8) - 2;
                work.putInt(bth + 8, (random.nextBoolean() ? 0x8000_0000 : 0) | (psn & 0xFF_FFFF),
                    ByteOrder.BIG_ENDIAN);
                return length;
            }
            case 5: // FECN/BECN/reserved byte
                work.putByte(bth + 4, (byte)random.nextInt(256));
                return length;
            case 6: // an extension-header byte (RETH/AETH/AtomicETH/DETH/ImmDt)
                work.putByte(bth + 12 + random.nextInt(28), (byte)random.nextInt(256));
                return length;
            case 7: // a payload byte
                work.putByte(bth + 12 + random.nextInt(Math.max(1, length - bth - 12)), (byte)random.nextInt(256));
                return length;
            case 8: // cut short
                return Math.max(1, Math.min(length, ipEnd) - 1 - random.nextInt(64));
            case 9: // extended with garbage
            {
                final int extra = 1 + random.nextInt(64);
                final int newLength = Math.min(MAX_FRAME, length + extra);
                randomBytes(length, newLength - length);
                return newLength;
            }
            case 10: // IP total length or UDP length
                if (random.nextBoolean())
                {
                    work.putShort(RoceFrame.IP + 2, (short)random.nextInt(0x10000), ByteOrder.BIG_ENDIAN);
                }
                else
                {
                    work.putShort(RoceFrame.UDP + 4, (short)random.nextInt(0x10000), ByteOrder.BIG_ENDIAN);
                }
                return length;
            case 11: // the RETH / AtomicETH fields: VA, rkey, length
                work.putInt(bth + 12 + 4 * random.nextInt(4), random.nextInt(), ByteOrder.BIG_ENDIAN);
                return length;
            default: // any byte of the frame
                work.putByte(random.nextInt(length), (byte)random.nextInt(256));
                return length;
        }
    }

    private int validOpcode()
    {
        while (true)
        {
            final int op = random.nextInt(256);
            if (Opcode.isValid(op))
            {
                return op;
            }
        }
    }

    private void randomBytes(final int offset, final int length)
    {
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            work.putLong(offset + i, random.nextLong());
        }
        for (; i < length; i++)
        {
            work.putByte(offset + i, (byte)random.nextInt(256));
        }
    }

    private void fixLengths(final int length)
    {
        if (length >= RoceFrame.UDP + 8)
        {
            work.putShort(RoceFrame.IP + 2, (short)(length - RoceFrame.IP), ByteOrder.BIG_ENDIAN);
            work.putShort(RoceFrame.UDP + 4, (short)(length - RoceFrame.UDP), ByteOrder.BIG_ENDIAN);
        }
    }

    private void fixIpChecksum()
    {
        work.putShort(RoceFrame.IP + Ipv4.CHECKSUM_OFFSET, (short)0);
        work.putShort(RoceFrame.IP + Ipv4.CHECKSUM_OFFSET,
            (short)Checksum.finish(Checksum.sum(work, RoceFrame.IP, Ipv4.HEADER_LENGTH)), ByteOrder.BIG_ENDIAN);
    }

    // ------------------------------------------------------------------ driving

    private void drain(final NodePair nodes)
    {
        final WireCounters toB = nodes.wire().counters(0, 1);
        int idle = 0;
        while (idle < 2 || toB.get(WireCounters.FRAMES_OUT) != toB.get(WireCounters.FRAMES_QUEUED))
        {
            idle = 0 == nodes.step() ? idle + 1 : 0;
        }
    }

    private void pollAll(final Side a, final Side b)
    {
        while (a.sendCq.poll(wcs) + a.recvCq.poll(wcs) + b.sendCq.poll(wcs) + b.recvCq.poll(wcs) > 0)
        {
            // completions of fuzzed SENDs and of flushes: what matters is that the CQs never overflow
        }
    }

    /** Puts fuzzed QPs that were knocked to ERR back to RTS and tops up every receive queue. */
    private void rearm(final NodePair nodes, final Side b, final GuardedRegion recvBuffers)
    {
        final QpConnector connector = new QpConnector().pathMtu(Mtu.MTU_1024).rdAtomic(4, 4).timeout(8);
        boolean modified = false;
        for (int i = 0; i < targets.size(); i++)
        {
            final QueuePair qp = targets.get(i);
            if (QpState.RTS != qp.state() && !qp.type().isDatagram())
            {
                b.device.modifyQp(qp, new QpAttr().qpState(QpState.RESET), QpAttrMask.STATE);
                connector.connect(b.device, qp, 0, GidTable.ipv4MappedLo(IP_A), peers.get(i).qpn(), RQ_PSN, 0x20);
                modified = true;
            }
        }
        if (modified)
        {
            nodes.settle(100_000);
        }
        final RecvWorkRequest wr = new RecvWorkRequest(1);
        for (int i = 0; i < targets.size(); i++)
        {
            final QueuePair qp = targets.get(i);
            for (int k = 0; k < 16; k++)
            {
                wr.sgl().clear();
                wr.wrId(k).sgl().add(recvBuffers.address((i * 16 + k) % RECV_SLOTS * 2 * MTU), 2 * MTU,
                    recvBuffers.lkey());
                if (0 != qp.postRecv(wr))
                {
                    break; // full
                }
            }
        }
    }

    /** Frames A's own device sent on port 0 (ARP, B-bound responses of A's engine), besides the injected ones. */
    static long countOwnFrames(final NodePair nodes)
    {
        return nodes.network().nic(0).counters().get(EmulatedNicCounters.TX_FRAMES);
    }

    /** Each drop reason was reached, and the fuzz got into the transport (NAKs, duplicates, sequence errors). */
    void assertDropsByReason(final String report)
    {
        for (final RxeCounter c : DROP_REASONS)
        {
            assertTrue(nodes.b().engine().counters().get(c) > 0, "no drop counted as " + c.label() + "\n" + report);
        }
        assertEveryDatagramAccounted();
        for (final RxeCounter c : new RxeCounter[]{RxeCounter.RCVD_PKTS, RxeCounter.NAK_SENT,
            RxeCounter.OUT_OF_SEQ_REQUEST, RxeCounter.DUPLICATE_REQUEST, RxeCounter.OPCODE_SEQ_ERR})
        {
            assertTrue(nodes.b().engine().counters().get(c) > 0, "the fuzz reached the transport: no " + c.label() +
                "\n" + report);
        }
        for (final NetCounter c : new NetCounter[]{NetCounter.BAD_IP_CHECKSUM, NetCounter.BAD_ETHERTYPE,
            NetCounter.NOT_OUR_MAC, NetCounter.BAD_UDP_LENGTH})
        {
            assertTrue(nodes.b().stack().counter(c) > 0, "no stack drop counted as " + c.label() + "\n" + report);
        }
    }

    /** What went in and what B counted. */
    String report(final long frames, final long fuzzMs)
    {
        final StringBuilder sb = new StringBuilder("fuzz: ").append(frames).append(" frames (")
            .append(kinds[0]).append(" random, ").append(kinds[1]).append(" random transport, ").append(kinds[2])
            .append(" mutated templates) into node B in ").append(fuzzMs).append(" ms wall\n  engine B:");
        for (final RxeCounter c : RxeCounter.values())
        {
            final long v = nodes.b().engine().counters().get(c);
            if (0 != v)
            {
                sb.append(' ').append(c.label()).append('=').append(v);
            }
        }
        sb.append("\n  stack B: ");
        nodes.b().stack().appendCounters(sb, true);
        sb.append("\n  nic B: ").append(nodes.network().nic(1).counters());
        return sb.toString();
    }
}
