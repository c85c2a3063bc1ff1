package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DCQCN switched off ({@code DcqcnParameters.enabled(false)}): a CE mark is counted and answered with no CNP, and a
 * CNP is counted as received and ignored, the QP's rate untouched. Settings out of range are refused at set-up.
 */
class DcqcnOffTest extends EngineTestBase
{
    DcqcnOffTest()
    {
        super(29, new DcqcnParameters().enabled(false));
    }

    @Test
    void ceMarksMakeNoCnpAndCnpsAreIgnored()
    {
        final QueuePair[] qp = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 100, 200, new EnginePair.QpTuning());
        final byte[] marked = ReplayAndFuzzTest.forge(qp[1].qpn(), Opcode.RC_SEND_ONLY, 99, (b, at) -> { }, 0, 16);
        marked[14 + 1] |= 3;
        final byte[] cnp = ReplayAndFuzzTest.forge(qp[1].qpn(), Opcode.CNP, 0, (b, at) -> { },
            Opcode.CNP_RESERVED_LENGTH, 0);
        pair.wire.b().deliver(marked);
        pair.wire.b().deliver(cnp);
        pair.runIdle(1_000, 3);
        final EngineCounters b = pair.b.engine.counters();
        assertEquals(1, b.get(RxeCounter.ECN_MARKED_PKTS));
        assertEquals(0, b.get(RxeCounter.CNP_SENT), "no notification point");
        assertEquals(1, b.get(RxeCounter.CNP_RCVD));
        assertEquals(1, b.get(RxeCounter.CNP_IGNORED));
        assertEquals(0, b.get(RxeCounter.CNP_HANDLED));
        assertEquals(new DcqcnParameters().lineRateMbps(), pair.b.engine.dcqcnRateMbps(qp[1].qpn()));
    }

    @Test
    void settingsOutOfRangeAreRefusedAtSetUp()
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> new DcqcnParameters().lineRateMbps(10).minRateMbps(20).validate());
        assertTrue(ex.getMessage().contains("minRateMbps"), ex.getMessage());
        assertThrows(IllegalStateException.class, () -> new DcqcnParameters().threshold(0).validate());
        assertThrows(IllegalStateException.class, () -> new DcqcnParameters().alphaGain(2000).validate());
    }
}
