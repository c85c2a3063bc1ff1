package io.jrxe.tests;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.proto.Aeth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.List;

import static io.jrxe.tests.QpPairFixture.PSN_AB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every retransmission, NAK and RNR path of the RC transport driven on purpose through the whole stack: the
 * {@link WireTap} drops exactly the frames a path needs lost, the virtual clock makes the timers fire, and each
 * test checks the frames on the wire, the completions and the rxe counters (IBA Vol 1 ch. 9.7, rxe_comp.c /
 * rxe_resp.c behaviour as summarised in roce-reference.md §1.5).
 */
class TransportPathsTest
{
    private static final long MS = 1_000_000L;
    /** Local ACK timeout exponent 10: 4.096 us * 2^10 = 4.19 ms. */
    private static final int TIMEOUT = 10;
    private static final long TIMEOUT_NS = 4096L << TIMEOUT;

    private static QpConnector connector()
    {
        return new QpConnector().pathMtu(Mtu.MTU_1024).timeout(TIMEOUT).retryCnt(7).rnrRetry(7).minRnrTimer(1)
            .rdAtomic(4, 4);
    }

    private static void fill(final GuardedRegion r, final int offset, final int len, final int seed)
    {
        for (int i = 0; i < len; i++)
        {
            r.inner.putByte(offset + i, (byte)(seed + i * 31 + (i >>> 8)));
        }
    }

    private static void assertSameBytes(
        final GuardedRegion x, final int xOffset, final GuardedRegion y, final int yOffset, final int len)
    {
        for (int i = 0; i < len; i++)
        {
            if (x.inner.getByte(xOffset + i) != y.inner.getByte(yOffset + i))
            {
                throw new AssertionError("byte " + i + " of " + len + " differs");
            }
        }
    }

    private static void assertStatus(final WcStatus expected, final WorkCompletion wc)
    {
        assertEquals(expected, WcStatus.of(wc.status()), wc::toString);
    }

    /** The first WQE (wr_id 1) completed with the error, every later one (wr_id 2, 3 ...) flushed, in order, once. */
    private static void assertFailedThenFlushed(final WcStatus error, final List<WorkCompletion> wcs)
    {
        assertStatus(error, wcs.get(0));
        for (int i = 0; i < wcs.size(); i++)
        {
            assertEquals(i + 1, wcs.get(i).wrId(), "completions in order, each once");
            if (i > 0)
            {
                assertStatus(WcStatus.WR_FLUSH_ERR, wcs.get(i));
            }
        }
    }

    @Test
    void lostPacketGivesOnePsnSequenceNakAndAGoBackNRetry()
    {
        try (QpPairFixture f = new QpPairFixture(connector().timeout(14))) // 67 ms: the NAK, not the timer, must act
        {
            f.tap.dropNext(1, t -> t.fromA() && Opcode.SEND_FIRST == t.opcode());
            fill(f.ma, 0, 4000, 1);
            f.postRecv(f.qb, 7, f.mb, 0, 8192);
            final long start = f.nodes.nowNs();
            f.postSend(f.qa, f.wr(WrOpcode.SEND, 1, f.ma, 0, 4000));
            f.runUntil(() -> 1 == f.aSend.size() && 1 == f.bRecv.size(), 100 * MS, "the SEND's completions");

            assertStatus(WcStatus.SUCCESS, f.aSend.get(0));
            assertStatus(WcStatus.SUCCESS, f.bRecv.get(0));
            assertEquals(4000, f.bRecv.get(0).byteLen());
            assertSameBytes(f.ma, 0, f.mb, 0, 4000);
            assertTrue(f.nodes.nowNs() - start < (4096L << 14), "recovered by the NAK before the ACK timeout");

            // FIRST lost; MIDDLE, MIDDLE, LAST out of sequence; one NAK at the expected PSN; all four again
            final List<Integer> psns = f.tap.frames(WireTap.Frame::fromA).stream().map(WireTap.Frame::psn).toList();
            assertEquals(List.of(PSN_AB, Psn.add(PSN_AB, 1), Psn.add(PSN_AB, 2), Psn.add(PSN_AB, 3),
                PSN_AB, Psn.add(PSN_AB, 1), Psn.add(PSN_AB, 2), Psn.add(PSN_AB, 3)), psns);
            final List<WireTap.Frame> naks = f.tap.frames(t -> !t.fromA() && Aeth.NAK_PSN_SEQ_ERROR == t.syndrome());
            assertEquals(1, naks.size(), "NAK once per gap");
            assertEquals(PSN_AB, naks.get(0).psn(), "the NAK carries the expected PSN");
            assertEquals(3, f.b(RxeCounter.OUT_OF_SEQ_REQUEST));
            assertEquals(1, f.b(RxeCounter.SEQ_NAK_SENT));
            assertEquals(1, f.a(RxeCounter.RCVD_SEQ_ERR));
            assertEquals(1, f.a(RxeCounter.COMPLETER_RETRY_ERR));
            assertEquals(0, f.a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR));
            assertEquals(4, f.a(RxeCounter.RETRANSMITTED_PKTS));
            assertEquals(0, f.b(RxeCounter.DUPLICATE_REQUEST));
            assertEquals(1, f.b(RxeCounter.ACKS_SENT), "one ACK, for the LAST of the retry");
            assertEquals(1, f.a(RxeCounter.ACKS_RCVD));
        }
    }

    @Test
    void noReceivePostedGivesRnrNaksUntilOneIsPosted()
    {
        try (QpPairFixture f = new QpPairFixture(connector().minRnrTimer(12))) // 640 us
        {
            fill(f.ma, 0, 100, 2);
            f.postSend(f.qa, f.wr(WrOpcode.SEND, 1, f.ma, 0, 100));
            f.runUntil(() -> f.a(RxeCounter.RCVD_RNR_ERR) >= 3, 100 * MS, "three RNR NAKs");

            assertEquals(List.of(), f.aSend, "nothing completes while the responder has no receive");
            assertEquals(f.a(RxeCounter.RCVD_RNR_ERR), f.b(RxeCounter.SEND_RNR_ERR));
            final List<WireTap.Frame> rnrs = f.tap.frames(t -> !t.fromA() && Opcode.ACKNOWLEDGE == t.opcode());
            assertEquals(3, rnrs.size());
            for (int i = 0; i < rnrs.size(); i++)
            {
                assertEquals(Aeth.rnrNakSyndrome(12), rnrs.get(i).syndrome(), "RNR NAK with our min_rnr_timer");
                assertEquals(PSN_AB, rnrs.get(i).psn());
                if (i > 0)
                {
                    assertTrue(rnrs.get(i).timeNs() - rnrs.get(i - 1).timeNs() >= 640_000,
                        "the requester waits the RNR timer before it retries");
                }
            }

            f.postRecv(f.qb, 9, f.mb, 0, 4096);
            f.runUntil(() -> 1 == f.aSend.size() && 1 == f.bRecv.size(), 100 * MS, "the SEND after the receive");
            assertStatus(WcStatus.SUCCESS, f.aSend.get(0));
            assertStatus(WcStatus.SUCCESS, f.bRecv.get(0));
            assertSameBytes(f.ma, 0, f.mb, 0, 100);
            assertEquals(0, f.a(RxeCounter.RETRY_RNR_EXCEEDED_ERR));
            f.settle(20 * MS);
            assertEquals(1, f.bRecv.size(), "delivered once");
        }
    }

    @Test
    void rnrRetryExhaustionFailsTheWqeAndFlushesTheRest()
    {
        try (QpPairFixture f = new QpPairFixture(connector().rnrRetry(2)))
        {
            fill(f.ma, 0, 3000, 3);
            f.postSend(f.qa, f.wr(WrOpcode.SEND, 1, f.ma, 0, 100));
            f.postSend(f.qa, f.wr(WrOpcode.RDMA_WRITE, 2, f.ma, 0, 3000).remoteAddr(f.mb.address(0))
                .rkey(f.mb.rkey()));
            f.postSend(f.qa, f.wr(WrOpcode.RDMA_READ, 3, f.ma, 4096, 2000).remoteAddr(f.mb.address(8192))
                .rkey(f.mb.rkey()));
            f.postSend(f.qa, f.wr(WrOpcode.SEND, 4, f.ma, 0, 10));
            f.runUntil(() -> 4 == f.aSend.size(), 100 * MS, "the failed and flushed completions");

            assertFailedThenFlushed(WcStatus.RNR_RETRY_EXC_ERR, f.aSend);
            assertEquals(3, f.a(RxeCounter.RCVD_RNR_ERR), "the first try and two retries were RNR NAKed");
            assertEquals(3, f.b(RxeCounter.SEND_RNR_ERR));
            assertEquals(1, f.a(RxeCounter.RETRY_RNR_EXCEEDED_ERR));
            assertEquals(QpState.ERR, f.qa.state());
            assertEquals(QpState.RTS, f.qb.state(), "an RNR does not hurt the responder");
            for (int i = 0; i < 3000; i++)
            {
                assertEquals(0, f.mb.inner.getByte(i), "the WRITE behind the RNR NAKed SEND was not executed");
            }
            assertResponsiveAfterError(f);
        }
    }

    @Test
    void lostAckIsRecoveredByTheRetransmitTimerAndTheDuplicateIsReAcknowledged()
    {
        try (QpPairFixture f = new QpPairFixture(connector()))
        {
            f.tap.dropNext(1, t -> !t.fromA() && Opcode.ACKNOWLEDGE == t.opcode());
            fill(f.ma, 0, 100, 4);
            f.postRecv(f.qb, 5, f.mb, 0, 4096);
            final long start = f.nodes.nowNs();
            f.postSend(f.qa, f.wr(WrOpcode.SEND, 1, f.ma, 0, 100));
            f.runUntil(() -> 1 == f.aSend.size(), 100 * MS, "the SEND's completion");

            assertStatus(WcStatus.SUCCESS, f.aSend.get(0));
            assertTrue(f.nodes.nowNs() - start >= TIMEOUT_NS, "completed only after the retransmit timeout");
            assertEquals(1, f.a(RxeCounter.COMPLETER_RETRY_ERR));
            assertEquals(1, f.a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR));
            assertEquals(1, f.a(RxeCounter.RETRANSMITTED_PKTS));
            assertEquals(1, f.b(RxeCounter.DUPLICATE_REQUEST));
            assertEquals(2, f.b(RxeCounter.ACKS_SENT));
            assertEquals(1, f.a(RxeCounter.ACKS_RCVD));
            final List<WireTap.Frame> sends = f.tap.frames(t -> t.fromA() && Opcode.SEND_ONLY == t.opcode());
            assertEquals(2, sends.size(), "sent, then resent once");
            assertEquals(sends.get(0).psn(), sends.get(1).psn());
            final List<WireTap.Frame> acks = f.tap.frames(t -> !t.fromA() && Opcode.ACKNOWLEDGE == t.opcode());
            assertEquals(2, acks.size(), "the duplicate is acknowledged again");
            assertTrue(acks.get(0).dropped() && !acks.get(1).dropped());
            assertEquals(PSN_AB, acks.get(1).psn());

            f.settle(20 * MS);
            assertEquals(1, f.bRecv.size(), "the duplicate SEND is not delivered twice");
            assertSameBytes(f.ma, 0, f.mb, 0, 100);
        }
    }

    @Test
    void lostReadResponseResumesTheReadAtTheMissingPacket()
    {
        try (QpPairFixture f = new QpPairFixture(connector()))
        {
            f.tap.dropNext(1, t -> !t.fromA() && Opcode.RDMA_READ_RESPONSE_MIDDLE == t.opcode());
            fill(f.mb, 0, 4000, 5);
            f.postSend(f.qa, f.wr(WrOpcode.RDMA_READ, 1, f.ma, 0, 4000).remoteAddr(f.mb.address(0))
                .rkey(f.mb.rkey()));
            f.runUntil(() -> 1 == f.aSend.size(), 100 * MS, "the READ's completion");

            assertStatus(WcStatus.SUCCESS, f.aSend.get(0));
            assertEquals(WcOpcode.RDMA_READ, f.aSend.get(0).opcode());
            assertSameBytes(f.ma, 0, f.mb, 0, 4000);
            assertEquals(1, f.a(RxeCounter.COMPLETER_RETRY_ERR));
            final List<WireTap.Frame> requests =
                f.tap.frames(t -> t.fromA() && Opcode.RDMA_READ_REQUEST == t.opcode());
            assertEquals(2, requests.size());
            assertEquals(Psn.add(PSN_AB, 1), requests.get(1).psn(), "re-requested from the first missing packet");
            assertEquals(1, f.b(RxeCounter.DUPLICATE_REQUEST), "answered from the responder's READ resources");
            assertEquals(1, f.b(RxeCounter.DUPLICATE_RESP_REPLAYED));
            assertEquals(2, f.a(RxeCounter.READ_REQ_SENT));
            assertEquals(1, f.a(RxeCounter.RETRANSMITTED_PKTS));
            assertEquals(1, f.b(RxeCounter.READ_REQ_RCVD), "executed once");
            assertEquals(4 + 3, f.b(RxeCounter.READ_RESP_SENT), "four responses, then three from the missing one");
            assertEquals(3 + 3, f.a(RxeCounter.READ_RESP_RCVD));
            assertEquals(0, f.a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR), "recovered without waiting for the timer");
            f.ma.assertGuardsIntact("READ target");
        }
    }

    @Test
    void ackBeyondAReadWhoseResponseWasLostIsAnImpliedNak()
    {
        try (QpPairFixture f = new QpPairFixture(connector().timeout(14))) // the implied NAK must act, not the timer
        {
            f.tap.dropNext(1, t -> !t.fromA() && Opcode.RDMA_READ_RESPONSE_ONLY == t.opcode());
            fill(f.mb, 0, 500, 6);
            fill(f.ma, 8192, 300, 7);
            f.postRecv(f.qb, 1, f.mb, 16384, 4096);
            final long start = f.nodes.nowNs();
            f.postSend(f.qa, f.wr(WrOpcode.RDMA_READ, 1, f.ma, 0, 500).remoteAddr(f.mb.address(0))
                .rkey(f.mb.rkey()));
            f.postSend(f.qa, f.wr(WrOpcode.SEND, 2, f.ma, 8192, 300));
            f.runUntil(() -> 2 == f.aSend.size(), 100 * MS, "the READ and SEND completions");

            assertStatus(WcStatus.SUCCESS, f.aSend.get(0));
            assertStatus(WcStatus.SUCCESS, f.aSend.get(1));
            assertEquals(List.of(1L, 2L), f.aSend.stream().map(WorkCompletion::wrId).toList(), "in order");
            assertSameBytes(f.mb, 0, f.ma, 0, 500);
            assertSameBytes(f.ma, 8192, f.mb, 16384, 300);
            assertTrue(f.nodes.nowNs() - start < (4096L << 14), "recovered before the ACK timeout");
            // the SEND's ACK (PSN after the READ's) told A that the READ response was lost
            assertEquals(1, f.a(RxeCounter.IMPLIED_NAK_SEQ_ERR));
            assertEquals(1, f.a(RxeCounter.COMPLETER_RETRY_ERR));
            assertEquals(0, f.a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR));
            assertEquals(1, f.b(RxeCounter.READ_REQ_RCVD), "READ executed once, then replayed");
            assertEquals(1, f.b(RxeCounter.DUPLICATE_RESP_REPLAYED));
            f.settle(20 * MS);
            assertEquals(1, f.bRecv.size(), "the SEND delivered once although it was resent after the READ");
        }
    }

    @Test
    void lostAtomicAckIsAnsweredFromTheResponderCacheWithoutExecutingTwice()
    {
        try (QpPairFixture f = new QpPairFixture(connector()))
        {
            f.tap.dropNext(1, t -> !t.fromA() && Opcode.ATOMIC_ACKNOWLEDGE == t.opcode());
            f.mb.inner.putLong(64, 100, ByteOrder.nativeOrder());
            f.postSend(f.qa, f.wr(WrOpcode.ATOMIC_FETCH_AND_ADD, 1, f.ma, 0, 8).remoteAddr(f.mb.address(64))
                .rkey(f.mb.rkey()).compareAdd(5));
            f.runUntil(() -> 1 == f.aSend.size(), 100 * MS, "the FETCH_ADD's completion");

            assertStatus(WcStatus.SUCCESS, f.aSend.get(0));
            assertEquals(100, f.ma.inner.getLong(0, ByteOrder.nativeOrder()), "the original value");
            assertEquals(105, f.mb.inner.getLong(64, ByteOrder.nativeOrder()), "added once");
            assertEquals(1, f.a(RxeCounter.COMPLETER_RETRY_ERR));
            assertEquals(1, f.b(RxeCounter.DUPLICATE_REQUEST));
            assertEquals(1, f.b(RxeCounter.DUPLICATE_RESP_REPLAYED));
            assertEquals(1, f.b(RxeCounter.ATOMIC_REQ_RCVD), "executed once");
            assertEquals(2, f.a(RxeCounter.ATOMIC_REQ_SENT));
            assertEquals(1, f.a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR));
            assertEquals(2, f.tap.count(t -> !t.fromA() && Opcode.ATOMIC_ACKNOWLEDGE == t.opcode()));
        }
    }

    @Test
    void peerGoneExhaustsTheRetriesFailsTheQpAndFlushesEveryOutstandingWqe()
    {
        try (QpPairFixture f = new QpPairFixture(connector().retryCnt(3)))
        {
            f.tap.dropAll(WireTap.Frame::fromA);
            f.mb.inner.putLong(0, 42, ByteOrder.nativeOrder());
            final long start = f.nodes.nowNs();
            f.postSend(f.qa, f.wr(WrOpcode.SEND, 1, f.ma, 0, 3000));
            f.postSend(f.qa, f.wr(WrOpcode.RDMA_WRITE, 2, f.ma, 0, 100).remoteAddr(f.mb.address(4096))
                .rkey(f.mb.rkey()));
            f.postSend(f.qa, f.wr(WrOpcode.RDMA_READ, 3, f.ma, 8192, 2000).remoteAddr(f.mb.address(8192))
                .rkey(f.mb.rkey()));
            f.postSend(f.qa, f.wr(WrOpcode.ATOMIC_FETCH_AND_ADD, 4, f.ma, 16384, 8).remoteAddr(f.mb.address(0))
                .rkey(f.mb.rkey()).compareAdd(1));
            f.postSend(f.qa, f.wr(WrOpcode.SEND_WITH_IMM, 5, f.ma, 0, 10).immData(77));
            f.runUntil(() -> 5 == f.aSend.size(), 1_000 * MS, "the failed and flushed completions");

            assertFailedThenFlushed(WcStatus.RETRY_EXC_ERR, f.aSend);
            assertEquals(3, f.a(RxeCounter.COMPLETER_RETRY_ERR), "retry_cnt 3: three retries");
            assertEquals(4, f.a(RxeCounter.LOCAL_ACK_TIMEOUT_ERR), "the fourth expiry finds no retry left");
            assertEquals(1, f.a(RxeCounter.RETRY_EXCEEDED_ERR));
            // 7 packets (3 + 1 + 1 + 1 + 1) sent, then sent again on each of the 3 retries
            assertEquals(4 * 7, f.tap.count(WireTap.Frame::fromA));
            assertEquals(3 * 7, f.a(RxeCounter.RETRANSMITTED_PKTS));
            assertEquals(QpState.ERR, f.qa.state());
            // the first try and three retries, each a timeout apart (IBA: the timer restarts per retry)
            final List<WireTap.Frame> firsts = f.tap.frames(t -> t.fromA() && PSN_AB == t.psn());
            assertEquals(4, firsts.size());
            assertTrue(f.nodes.nowNs() - start >= 4 * TIMEOUT_NS, "four timeouts of virtual time");
            assertEquals(42, f.mb.inner.getLong(0, ByteOrder.nativeOrder()), "nothing reached the peer");
            assertResponsiveAfterError(f);
        }
    }

    /**
     * After a QP failed: a WR posted to it completes at once with WR_FLUSH_ERR, and a new QP pair on the same nodes
     * (wire healed) carries traffic: the engine did not hang.
     */
    private static void assertResponsiveAfterError(final QpPairFixture f)
    {
        final int before = f.aSend.size();
        f.postSend(f.qa, f.wr(WrOpcode.SEND, 99, f.ma, 0, 10));
        f.runUntil(() -> before + 1 == f.aSend.size(), 10 * MS, "the flush of a WR posted in ERR");
        assertStatus(WcStatus.WR_FLUSH_ERR, f.aSend.get(before));
        assertEquals(99, f.aSend.get(before).wrId());

        f.tap.dropAll(null);
        f.connect(connector());
        final int sends = f.aSend.size();
        final int recvs = f.bRecv.size();
        fill(f.ma, 0, 2500, 9);
        fill(f.mb, 32768, 1500, 10);
        f.postRecv(f.qb, 100, f.mb, 16384, 4096);
        f.postSend(f.qa, f.wr(WrOpcode.SEND, 100, f.ma, 0, 2500));
        final SendWorkRequest read = f.wr(WrOpcode.RDMA_READ, 101, f.ma, 40960, 1500)
            .remoteAddr(f.mb.address(32768)).rkey(f.mb.rkey());
        f.postSend(f.qa, read);
        f.runUntil(() -> sends + 2 == f.aSend.size() && recvs + 1 == f.bRecv.size(), 100 * MS,
            "traffic on a new QP pair");
        assertStatus(WcStatus.SUCCESS, f.aSend.get(sends));
        assertStatus(WcStatus.SUCCESS, f.aSend.get(sends + 1));
        assertStatus(WcStatus.SUCCESS, f.bRecv.get(recvs));
        assertSameBytes(f.ma, 0, f.mb, 16384, 2500);
        assertSameBytes(f.mb, 32768, f.ma, 40960, 1500);
    }
}
