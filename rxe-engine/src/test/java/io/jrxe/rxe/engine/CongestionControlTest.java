package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DCQCN between two engines on the in-memory wire: B's notification point answers CE-marked packets with CNPs, at
 * most one per QP per np min_time_between_cnps, and A's reaction point cuts the QP's rate on each; CNPs that are
 * malformed or for no QP are counted under their drop reason and change nothing.
 */
class CongestionControlTest extends EngineTestBase
{
    private static final int PSN_A = 100;
    private static final int PSN_B = 200;

    CongestionControlTest()
    {
        super(23);
    }

    /** A request from A to B's QP, a duplicate (PSN before the expected one), with IPv4 ECN = CE. */
    private static byte[] ceMarked(final int qpn)
    {
        final byte[] frame = ReplayAndFuzzTest.forge(qpn, Opcode.RC_SEND_ONLY, PSN_A - 1, (b, at) -> { }, 0, 16);
        frame[14 + 1] |= 3; // CE; the ICRC masks the TOS byte (IBA A17.4.1), so it still checks
        return frame;
    }

    private long counter(final EnginePair.Side side, final RxeCounter counter)
    {
        return side.engine.counters().get(counter);
    }

    @Test
    void twoCeMarksWithinTheIntervalMakeOneCnpThatCutsTheSendersRate()
    {
        final QueuePair[] qp = pair.connect(QpType.RC, 16, Mtu.MTU_1024, PSN_A, PSN_B, new EnginePair.QpTuning());
        final int line = new DcqcnParameters().lineRateMbps();
        assertEquals(line, pair.a.engine.dcqcnRateMbps(qp[0].qpn()), "unlimited before any CNP");

        pair.wire.b().deliver(ceMarked(qp[1].qpn()));
        pair.wire.b().deliver(ceMarked(qp[1].qpn()));
        pair.progress(); // same clock reading: both marks fall in one interval
        pair.runIdle(1_000, 3);
        assertEquals(2, counter(pair.b, RxeCounter.ECN_MARKED_PKTS));
        assertEquals(1, counter(pair.b, RxeCounter.CNP_SENT), "one CNP per QP per interval");
        assertEquals(1, counter(pair.a, RxeCounter.CNP_RCVD));
        assertEquals(1, counter(pair.a, RxeCounter.CNP_HANDLED));
        // initial alpha 1023/1024: Rc = line (1 - alpha / 2)
        assertEquals((int)((long)line * (2048 - 1023) / 2048), pair.a.engine.dcqcnRateMbps(qp[0].qpn()));

        // deliver() hands the frame to B's engine at once, at its last duty cycle's clock: run one after the wait
        final long sent = pair.clock.nanoTime();
        pair.clock.advance(new DcqcnParameters().npMinTimeBetweenCnpsNs());
        pair.progress();
        assertTrue(pair.b.engine.nowNs() - sent >= new DcqcnParameters().npMinTimeBetweenCnpsNs());
        pair.wire.b().deliver(ceMarked(qp[1].qpn()));
        pair.runIdle(1_000, 3);
        assertEquals(3, counter(pair.b, RxeCounter.ECN_MARKED_PKTS));
        assertEquals(2, counter(pair.b, RxeCounter.CNP_SENT), "a mark after the interval makes another CNP");
        assertEquals(2, counter(pair.a, RxeCounter.CNP_HANDLED));
        assertTrue(pair.a.engine.dcqcnRateMbps(qp[0].qpn()) < line / 2, "cut again");
        assertEquals(0, counter(pair.a, RxeCounter.BAD_QPN) + counter(pair.a, RxeCounter.BAD_HEADER_LENGTH));
    }

    @Test
    void aCnpForAnUnknownQpOrOfTheWrongLengthIsCountedAndDropped()
    {
        final QueuePair[] qp = pair.connect(QpType.RC, 16, Mtu.MTU_1024, PSN_A, PSN_B, new EnginePair.QpTuning());
        final byte[] unknown = ReplayAndFuzzTest.forge(0x7777, Opcode.CNP, 0, (b, at) -> { },
            Opcode.CNP_RESERVED_LENGTH, 0);
        final byte[] shortCnp = ReplayAndFuzzTest.forge(qp[1].qpn(), Opcode.CNP, 0, (b, at) -> { }, 8, 0);
        final byte[] good = ReplayAndFuzzTest.forge(qp[1].qpn(), Opcode.CNP, 0, (b, at) -> { },
            Opcode.CNP_RESERVED_LENGTH, 0);
        pair.wire.b().deliver(unknown);
        pair.wire.b().deliver(shortCnp);
        pair.runIdle(1_000, 3);
        assertEquals(1, counter(pair.b, RxeCounter.BAD_QPN), "unknown QP");
        assertEquals(1, counter(pair.b, RxeCounter.BAD_HEADER_LENGTH), "16 reserved bytes or nothing");
        assertEquals(0, counter(pair.b, RxeCounter.CNP_RCVD));
        assertEquals(0, counter(pair.b, RxeCounter.CNP_HANDLED));
        final int line = new DcqcnParameters().lineRateMbps();
        assertEquals(line, pair.b.engine.dcqcnRateMbps(qp[1].qpn()), "the rate is untouched");

        pair.wire.b().deliver(good); // the same QP takes a well-formed one
        pair.runIdle(1_000, 3);
        assertEquals(1, counter(pair.b, RxeCounter.CNP_RCVD));
        assertEquals(1, counter(pair.b, RxeCounter.CNP_HANDLED));
        assertTrue(pair.b.engine.dcqcnRateMbps(qp[1].qpn()) < line);
        assertEquals(-1, pair.b.engine.dcqcnRateMbps(0x7777), "no such QP");
    }
}
