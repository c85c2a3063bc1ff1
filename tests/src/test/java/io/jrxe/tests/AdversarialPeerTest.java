package io.jrxe.tests;

import io.jrxe.driver.emu.FrameHandler;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.proto.Aeth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.MemoryWindow;
import io.jrxe.rxe.verbs.MrType;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.node.NodePair.IP_B;
import static io.jrxe.rxe.node.NodePair.IP_RAW;
import static io.jrxe.rxe.node.NodePair.MAC_B;
import static io.jrxe.rxe.node.NodePair.MAC_RAW;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hostile peer on the wire: the test crafts RoCEv2 frames itself (the engine's header flyweights and ICRC) and
 * sends them from a raw wire port to node B through B's real receive path, against B's RC and UD QPs connected to
 * that peer. Forged rkeys, out-of-range or wrapping VA/length, MRs without the right, MRs of another PD, QPs
 * without the remote right, misaligned atomics and a wrong UD Q_Key must each get the IBA answer (NAK remote
 * access error 0x62 / invalid request 0x61 and the responder QP to ERR, or a silent drop for UD, IBA ch. 9.7.5.2
 * and ch. 10 Q_Key rules) without one byte outside a grant read or written, and be counted. Well-formed requests
 * from the same peer succeed, so the refusals are not an artefact of bad frames. The same holds for keys that
 * local operations hand out and take back: a fast-registration key after LOCAL_INV, a type 2 window through another
 * QP, past its end or after invalidation, and a SEND with Invalidate naming a key of another PD.
 */
class AdversarialPeerTest
{
    private static final int PSN = 0x100;
    private static final int LEN = 4096;
    private static final int QKEY = 0x1234_5678;
    private static final long MS = 1_000_000L;
    private static final int WRITE_RIGHTS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
    private static final int ALL = RcStream.ALL_ACCESS;

    private final NodePair nodes = new NodePair(TestPairs.deterministic().rawPort(true));
    private final Side b = new Side(nodes.b(), 64);
    private final Side other = new Side(nodes.b(), 64); // another PD on the same device
    private final GuardedRegion all = b.region(LEN, ALL);
    private final GuardedRegion readOnly = b.region(LEN, AccessFlags.REMOTE_READ);
    private final GuardedRegion writeOnly = b.region(LEN, WRITE_RIGHTS);
    private final GuardedRegion otherPd = other.region(LEN, ALL);
    /** Registered with MW_BIND: windows and fast registrations are laid over it. */
    private final GuardedRegion bindable = b.region(LEN, ALL | AccessFlags.MW_BIND);
    private final RoceFrame rf = new RoceFrame();
    private final List<Response> responses = new ArrayList<>();
    private final FrameHandler capture = this::onFrame;
    private int nextRawQpn = 0x500;

    /** What came back to the raw port from B. */
    private record Response(int opcode, int destQp, int psn, int syndrome, byte[] payload)
    {
    }

    AdversarialPeerTest()
    {
        nodes.b().stack().staticNeighbor4(IP_RAW, MAC_RAW);
        for (final GuardedRegion r : new GuardedRegion[]{all, readOnly, writeOnly, otherPd, bindable})
        {
            for (int i = 0; i < LEN; i++)
            {
                r.inner.putByte(i, (byte)(i * 7 + 3));
            }
        }
    }

    @AfterEach
    void close()
    {
        for (final GuardedRegion r : new GuardedRegion[]{all, readOnly, writeOnly, otherPd, bindable})
        {
            r.assertGuardsIntact("B's registered buffers");
        }
        nodes.close();
    }

    @Test
    void wellFormedRequestsFromThePeerSucceed()
    {
        final Victim v = victim(ALL);
        final List<Response> ack = exchange(v, write(v, all.address(100), all.rkey(), 64, 64));
        assertEquals(1, ack.size());
        assertEquals(Opcode.ACKNOWLEDGE, ack.get(0).opcode());
        assertTrue(Aeth.isAck(ack.get(0).syndrome()), "ACK");
        for (int i = 0; i < LEN; i++)
        {
            assertEquals(i >= 100 && i < 164 ? (byte)0xEE : (byte)(i * 7 + 3), all.inner.getByte(i), "byte " + i);
        }

        final List<Response> read = exchange(v, read(v, PSN + 1, readOnly.address(10), readOnly.rkey(), 200));
        assertEquals(1, read.size());
        assertEquals(Opcode.RDMA_READ_RESPONSE_ONLY, read.get(0).opcode());
        for (int i = 0; i < 200; i++)
        {
            assertEquals((byte)((10 + i) * 7 + 3), read.get(0).payload()[i], "read byte " + i);
        }

        all.inner.putLong(8, 40, ByteOrder.nativeOrder());
        final List<Response> atomic = exchange(v, atomic(v, PSN + 2, Opcode.FETCH_ADD, all.address(8), all.rkey(),
            2, 0));
        assertEquals(Opcode.ATOMIC_ACKNOWLEDGE, atomic.get(0).opcode());
        assertEquals(42, all.inner.getLong(8, ByteOrder.nativeOrder()));
        assertEquals(QpState.RTS, v.qp.state());
        assertEquals(0, b(RxeCounter.NAK_SENT));
    }

    @Test
    void forgedRkeyIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        expectNak(v, write(v, all.address(0), all.rkey() ^ 0x0100, 64, 64), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void writePastTheEndOfTheRegionIsARemoteAccessErrorAndWritesNothing()
    {
        final Victim v = victim(ALL);
        // 8 bytes inside the MR, 56 outside: none may be written
        expectNak(v, write(v, all.address(LEN - 8), all.rkey(), 64, 64), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void writeBeforeTheStartOfTheRegionIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        expectNak(v, write(v, all.address(0) - 16, all.rkey(), 32, 32), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void lengthThatWrapsTheAddressSpaceIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        expectNak(v, read(v, PSN, 0xFFFF_FFFF_FFFF_FF00L, all.rkey(), 0x1000), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void readPastTheEndIsARemoteAccessErrorAndLeaksNothing()
    {
        final Victim v = victim(ALL);
        final List<Response> got = expectNak(v, read(v, PSN, all.address(LEN - 100), all.rkey(), 1000),
            Aeth.NAK_REMOTE_ACCESS_ERROR);
        assertEquals(1, got.size(), "a NAK and no READ response data");
        assertEquals(0, b(RxeCounter.READ_RESP_SENT));
    }

    @Test
    void writeToARegionWithoutRemoteWriteIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        expectNak(v, write(v, readOnly.address(0), readOnly.rkey(), 16, 16), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void readFromARegionWithoutRemoteReadIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        expectNak(v, read(v, PSN, writeOnly.address(0), writeOnly.rkey(), 16), Aeth.NAK_REMOTE_ACCESS_ERROR);
        assertEquals(0, b(RxeCounter.READ_RESP_SENT));
    }

    @Test
    void atomicOnARegionWithoutRemoteAtomicIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        expectNak(v, atomic(v, PSN, Opcode.COMPARE_SWAP, writeOnly.address(0), writeOnly.rkey(), 1, 0),
            Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void regionOfAnotherProtectionDomainIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        expectNak(v, write(v, otherPd.address(0), otherPd.rkey(), 64, 64), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void writeToAQpWithoutRemoteWriteIsAnInvalidRequest()
    {
        final Victim v = victim(AccessFlags.REMOTE_READ);
        expectNak(v, write(v, all.address(0), all.rkey(), 64, 64), Aeth.NAK_INVALID_REQUEST);
    }

    @Test
    void misalignedAtomicIsAnInvalidRequest()
    {
        final Victim v = victim(ALL);
        expectNak(v, atomic(v, PSN, Opcode.FETCH_ADD, all.address(4), all.rkey(), 1, 0), Aeth.NAK_INVALID_REQUEST);
    }

    @Test
    void payloadLongerThanTheRethLengthIsAnInvalidRequest()
    {
        final Victim v = victim(ALL);
        expectNak(v, write(v, all.address(0), all.rkey(), 16, 64), Aeth.NAK_INVALID_REQUEST);
    }

    @Test
    void udDatagramWithAWrongQkeyIsDroppedSilently()
    {
        final QueuePair ud = udQp();
        final GuardedRegion recvBuf = b.region(LEN, WRITE_RIGHTS);
        final RecvWorkRequest recv = new RecvWorkRequest(1).wrId(1);
        recv.sgl().add(recvBuf.address(0), LEN, recvBuf.lkey());
        assertEquals(0, ud.postRecv(recv));
        final long badQkey = b(RxeCounter.BAD_QKEY);

        nodes.rawSend(rf.frame, 0, datagram(ud.qpn(), QKEY ^ 1, 100));
        nodes.settle(MS);
        final WorkCompletion[] wcs = {new WorkCompletion()};
        assertEquals(0, b.recvCq.poll(wcs), "no receive completion for a wrong Q_Key");
        assertEquals(badQkey + 1, b(RxeCounter.BAD_QKEY));
        for (int i = 0; i < LEN; i++)
        {
            assertEquals(0, recvBuf.inner.getByte(i), "receive buffer untouched");
        }
        nodes.rawPoll(capture);
        assertEquals(List.of(), responses, "UD never answers");

        // the same datagram with the right Q_Key is delivered into the receive posted before
        nodes.rawSend(rf.frame, 0, datagram(ud.qpn(), QKEY, 100));
        nodes.settle(MS);
        assertEquals(1, b.recvCq.poll(wcs));
        assertEquals(WcStatus.SUCCESS, WcStatus.of(wcs[0].status()));
        assertEquals(40 + 100, wcs[0].byteLen());
        assertEquals(0x77, wcs[0].srcQp());
        assertEquals((byte)0xEE, recvBuf.inner.getByte(40));
        recvBuf.assertGuardsIntact("UD receive buffer");
    }

    @Test
    void fastRegistrationKeyWorksUntilInvalidatedThenIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        final MemoryRegion frwr = b.device.allocMr(b.pd, MrType.MEM_REG, 2);
        assertEquals(1, b.device.mapMrSg(frwr, new long[]{bindable.address(0)}, new int[]{LEN}, 1, 0, LEN));
        b.device.updateFastRegKey(frwr, RxeDevice.incRkey(frwr.rkey()));
        assertEquals(WcStatus.SUCCESS, local(v, new SendWorkRequest(1).opcode(WrOpcode.REG_MR)
            .reg(frwr, frwr.rkey(), WRITE_RIGHTS)));
        final List<Response> ack = exchange(v, write(v, bindable.address(8), frwr.rkey(), 16, 16));
        assertTrue(Aeth.isAck(ack.get(0).syndrome()), "the fresh key writes");
        assertEquals((byte)0xEE, bindable.inner.getByte(8));

        assertEquals(WcStatus.SUCCESS, local(v, new SendWorkRequest(1).opcode(WrOpcode.LOCAL_INV)
            .invalidateRkey(frwr.rkey())));
        expectNakAt(v, PSN + 1, write(v, PSN + 1, bindable.address(100), frwr.rkey(), 16, 16),
            Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void type2WindowBoundThroughAnotherQpIsARemoteAccessError()
    {
        final Victim owner = victim(ALL);
        final Victim v = victim(ALL);
        final MemoryWindow mw = bindWindow(owner, 1024, 512);
        expectNak(v, write(v, bindable.address(1024), mw.rkey(), 16, 16), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void accessPastTheEndOfAWindowIsARemoteAccessErrorEvenInsideTheRegion()
    {
        final Victim v = victim(ALL);
        final MemoryWindow mw = bindWindow(v, 1024, 512);
        // 16 bytes inside the window, 16 past it (still inside the MR): nothing may be written
        expectNak(v, write(v, bindable.address(1024 + 512 - 16), mw.rkey(), 32, 32), Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void invalidatedWindowIsARemoteAccessError()
    {
        final Victim v = victim(ALL);
        final MemoryWindow mw = bindWindow(v, 0, 256);
        final List<Response> ack = exchange(v, write(v, bindable.address(0), mw.rkey(), 16, 16));
        assertTrue(Aeth.isAck(ack.get(0).syndrome()), "the bound window writes");
        assertEquals(WcStatus.SUCCESS, local(v, new SendWorkRequest(1).opcode(WrOpcode.LOCAL_INV)
            .invalidateRkey(mw.rkey())));
        expectNakAt(v, PSN + 1, write(v, PSN + 1, bindable.address(64), mw.rkey(), 16, 16),
            Aeth.NAK_REMOTE_ACCESS_ERROR);
    }

    @Test
    void sendWithInvalidateOfAnotherPdsKeyIsAnInvalidRequest()
    {
        final Victim v = victim(ALL);
        final GuardedRegion inbox = b.region(256, WRITE_RIGHTS);
        final RecvWorkRequest recv = new RecvWorkRequest(1).wrId(3);
        recv.sgl().add(inbox.address(0), 256, inbox.lkey());
        assertEquals(0, v.qp.postRecv(recv));
        final MemoryRegion foreign = other.device.allocMr(other.pd, MrType.MEM_REG, 1);
        expectNak(v, rf.start(MAC_RAW, MAC_B, IP_RAW, IP_B, Opcode.SEND_ONLY_WITH_INVALIDATE, v.qp.qpn(), PSN, true)
            .ieth(foreign.rkey()).payload(16, (byte)0xEE).finish(), Aeth.NAK_INVALID_REQUEST);
        final WorkCompletion[] wcs = {new WorkCompletion()};
        assertEquals(1, b.recvCq.poll(wcs));
        assertEquals(WcStatus.REM_INV_REQ_ERR, WcStatus.of(wcs[0].status()));
    }

    // ------------------------------------------------------------------ helpers

    /** An RC QP on B connected to a fresh QPN of the raw peer. */
    private record Victim(QueuePair qp, int rawQpn)
    {
    }

    private Victim victim(final int qpAccess)
    {
        final QueuePair qp = b.qp(QpType.RC, 16, 16);
        final int rawQpn = nextRawQpn++;
        new QpConnector().pathMtu(Mtu.MTU_1024).access(qpAccess).rdAtomic(4, 4)
            .connect(b.device, qp, 0, GidTable.ipv4MappedLo(IP_RAW), rawQpn, PSN, 0x200);
        nodes.settle(100_000);
        return new Victim(qp, rawQpn);
    }

    private QueuePair udQp()
    {
        final QueuePair qp = b.qp(QpType.UD, 16, 16);
        final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(1).qkey(QKEY).sqPsn(0);
        b.device.modifyQp(qp, attr.qpState(QpState.INIT),
            QpAttrMask.STATE | QpStateTable.required(QpType.UD, QpState.RESET, QpState.INIT));
        b.device.modifyQp(qp, attr.qpState(QpState.RTR),
            QpAttrMask.STATE | QpStateTable.required(QpType.UD, QpState.INIT, QpState.RTR));
        b.device.modifyQp(qp, attr.qpState(QpState.RTS),
            QpAttrMask.STATE | QpStateTable.required(QpType.UD, QpState.RTR, QpState.RTS));
        nodes.settle(100_000);
        return qp;
    }

    private int write(final Victim v, final long va, final int rkey, final int dmaLength, final int payload)
    {
        return write(v, PSN, va, rkey, dmaLength, payload);
    }

    private int write(
        final Victim v, final int psn, final long va, final int rkey, final int dmaLength, final int payload)
    {
        return rf.start(MAC_RAW, MAC_B, IP_RAW, IP_B, Opcode.RDMA_WRITE_ONLY, v.qp.qpn(), psn, true)
            .reth(va, rkey, dmaLength).payload(payload, (byte)0xEE).finish();
    }

    /** B executes a local operation (REG_MR, LOCAL_INV, BIND_MW) on the victim's send queue; its status. */
    private WcStatus local(final Victim v, final SendWorkRequest wr)
    {
        assertEquals(0, v.qp.postSend(wr.sendFlags(SendFlags.SIGNALED)), v.qp.postError());
        final WorkCompletion[] wcs = {new WorkCompletion()};
        nodes.runUntil(() -> b.sendCq.count() > 0, 10 * MS, "the local operation's completion");
        assertEquals(1, b.sendCq.poll(wcs));
        return WcStatus.of(wcs[0].status());
    }

    /** A type 2 window over bytes [offset, offset + length) of the MW_BIND region, bound through the victim's QP. */
    private MemoryWindow bindWindow(final Victim v, final int offset, final int length)
    {
        final MemoryWindow mw = b.device.allocMw(b.pd, MemoryWindow.TYPE_2);
        assertEquals(WcStatus.SUCCESS, local(v, new SendWorkRequest(1).opcode(WrOpcode.BIND_MW)
            .bind(mw, bindable.mr, bindable.address(offset), length, AccessFlags.REMOTE_WRITE,
                RxeDevice.incRkey(mw.rkey()))));
        return mw;
    }

    private int read(final Victim v, final int psn, final long va, final int rkey, final int length)
    {
        return rf.start(MAC_RAW, MAC_B, IP_RAW, IP_B, Opcode.RDMA_READ_REQUEST, v.qp.qpn(), psn, true)
            .reth(va, rkey, length).finish();
    }

    private int atomic(
        final Victim v, final int psn, final int opcode, final long va, final int rkey, final long swapAdd,
        final long compare)
    {
        return rf.start(MAC_RAW, MAC_B, IP_RAW, IP_B, opcode, v.qp.qpn(), psn, true)
            .atomic(va, rkey, swapAdd, compare).finish();
    }

    private int datagram(final int qpn, final int qkey, final int payload)
    {
        return rf.start(MAC_RAW, MAC_B, IP_RAW, IP_B, Opcode.UD_SEND_ONLY, qpn, 0, false)
            .deth(qkey, 0x77).payload(payload, (byte)0xEE).finish();
    }

    /** Sends the frame built last and returns what B answered to that victim. */
    private List<Response> exchange(final Victim v, final int frameLength)
    {
        final int before = responsesFor(v).size();
        nodes.rawSend(rf.frame, 0, frameLength);
        nodes.runUntil(() ->
        {
            nodes.rawPoll(capture);
            return responsesFor(v).size() > before;
        }, 10 * MS, "B's answer");
        nodes.settle(MS); // anything else it would send
        nodes.rawPoll(capture);
        final List<Response> got = responsesFor(v);
        return got.subList(before, got.size());
    }

    /**
     * Sends the frame built last; B must answer with exactly one NAK of the syndrome at the request's PSN, move the
     * QP to ERR, count it, and leave every registered byte and guard as it was.
     */
    private List<Response> expectNak(final Victim v, final int frameLength, final int syndrome)
    {
        return expectNakAt(v, PSN, frameLength, syndrome);
    }

    private List<Response> expectNakAt(final Victim v, final int psn, final int frameLength, final int syndrome)
    {
        final byte[][] before = snapshot();
        final long naks = b(RxeCounter.NAK_SENT);
        final long violations = b(RxeCounter.RKEY_VIOLATION);
        final long received = b(RxeCounter.RCVD_PKTS);
        final List<Response> got = exchange(v, frameLength);
        assertEquals(Opcode.ACKNOWLEDGE, got.get(0).opcode(), "answered with an ACK packet");
        assertEquals("0x" + Integer.toHexString(syndrome), "0x" + Integer.toHexString(got.get(0).syndrome()),
            "NAK syndrome");
        assertEquals(psn, got.get(0).psn(), "NAK at the request's PSN");
        assertEquals(1, got.size(), "one NAK, nothing else");
        assertEquals(QpState.ERR, v.qp.state(), "the responder QP goes to ERR");
        assertEquals(received + 1, b(RxeCounter.RCVD_PKTS));
        assertEquals(naks + 1, b(RxeCounter.NAK_SENT));
        assertEquals(violations + (Aeth.NAK_REMOTE_ACCESS_ERROR == syndrome ? 1 : 0), b(RxeCounter.RKEY_VIOLATION));
        final byte[][] after = snapshot();
        for (int i = 0; i < before.length; i++)
        {
            assertArrayEquals(before[i], after[i], "registered memory (and its guards) unchanged, region " + i);
        }
        return got;
    }

    private byte[][] snapshot()
    {
        final GuardedRegion[] regions = {all, readOnly, writeOnly, otherPd, bindable};
        final byte[][] copies = new byte[regions.length][];
        for (int i = 0; i < regions.length; i++)
        {
            copies[i] = new byte[regions[i].whole.capacity()];
            regions[i].whole.getBytes(0, copies[i]);
        }
        return copies;
    }

    private List<Response> responsesFor(final Victim v)
    {
        final List<Response> out = new ArrayList<>();
        for (final Response r : responses)
        {
            if (r.destQp() == v.rawQpn())
            {
                out.add(r);
            }
        }
        return out;
    }

    private void onFrame(final DirectBuffer frame, final int offset, final int length)
    {
        // the hub also shows the raw port what A sends; keep what B sends to the peer
        if (RoceFrame.isRoce(frame, offset, length) &&
            IP_RAW == frame.getInt(offset + RoceFrame.IP + 16, ByteOrder.BIG_ENDIAN))
        {
            final int opcode = RoceFrame.opcode(frame, offset);
            final int headers = Opcode.isValid(opcode) ? Opcode.headerLength(opcode) : 12;
            final int pad = (frame.getByte(offset + RoceFrame.BTH + 1) >> 4) & 3;
            final int udpLength = frame.getShort(offset + RoceFrame.UDP + 4, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            final int payloadLength = Math.max(0, udpLength - 8 - headers - pad - 4);
            final byte[] payload = new byte[payloadLength];
            frame.getBytes(offset + RoceFrame.BTH + headers, payload);
            responses.add(new Response(opcode, RoceFrame.destQp(frame, offset), RoceFrame.psn(frame, offset),
                RoceFrame.syndrome(frame, offset), payload));
        }
    }

    private long b(final RxeCounter counter)
    {
        return nodes.b().engine().counters().get(counter);
    }
}
