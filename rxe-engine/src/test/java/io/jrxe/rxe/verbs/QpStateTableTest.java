package io.jrxe.rxe.verbs;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.jrxe.rxe.verbs.QpAttrMask.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QpStateTableTest
{
    /**
     * Valid transitions transcribed from the kernel's qp_state_table (rows = from, columns = to, in the order
     * RESET INIT RTR RTS SQD SQE ERR). Kept independent of the production table on purpose.
     */
    private static final String[] KERNEL_VALID =
    {
        "xx.....",
        "xxx...x",
        "x..x..x",
        "x..xx.x",
        "x..xx.x",
        "x..x..x",
        "x.....x",
    };

    static List<Arguments> allPairs()
    {
        final List<Arguments> args = new ArrayList<>();
        for (final QpType type : QpType.values())
        {
            for (final QpState from : QpState.values())
            {
                for (final QpState to : QpState.values())
                {
                    args.add(Arguments.of(type, from, to));
                }
            }
        }
        return args;
    }

    @ParameterizedTest(name = "{0} {1}->{2}")
    @MethodSource("allPairs")
    void shouldMatchKernelTableForEveryPairAndType(final QpType type, final QpState from, final QpState to)
    {
        final boolean expectedValid = 'x' == KERNEL_VALID[from.ordinal()].charAt(to.ordinal());
        assertEquals(expectedValid, QpStateTable.isValidTransition(from, to));

        final int req = QpStateTable.required(type, from, to);
        final int opt = QpStateTable.optional(type, from, to);
        if (!expectedValid)
        {
            final String reason = QpStateTable.check(type, from, to, STATE | req);
            assertNotNull(reason);
            assertTrue(reason.contains("not a valid QP state transition"), reason);
            return;
        }

        final int curStateBit = isCurStateAllowedFrom(from) ? 0 : (opt & CUR_STATE);
        assertNull(QpStateTable.check(type, from, to, STATE | req));
        assertNull(QpStateTable.check(type, from, to, STATE | req | (opt & ~curStateBit)));
        assertNull(QpStateTable.check(type, from, to, req), "STATE bit itself is optional");

        for (int bit = 0; bit < 21; bit++)
        {
            final int b = 1 << bit;
            if (0 != (req & b))
            {
                final String reason = QpStateTable.check(type, from, to, STATE | (req & ~b));
                assertNotNull(reason, "missing " + QpAttrMask.toString(b) + " must be refused");
                assertTrue(reason.endsWith("missing " + QpAttrMask.toString(b)), reason);
            }
            else if (0 == ((opt | STATE) & b) && CUR_STATE != b)
            {
                final String reason = QpStateTable.check(type, from, to, STATE | req | b);
                assertNotNull(reason, "extra " + QpAttrMask.toString(b) + " must be refused");
                assertTrue(reason.contains("does not allow " + QpAttrMask.toString(b)), reason);
            }
        }
    }

    private static boolean isCurStateAllowedFrom(final QpState from)
    {
        return QpState.RTR == from || QpState.RTS == from || QpState.SQD == from || QpState.SQE == from;
    }

    @Test
    void shouldRequireKernelAttributesOnTheConnectionPath()
    {
        assertEquals(PKEY_INDEX | PORT | ACCESS_FLAGS, QpStateTable.required(QpType.RC, QpState.RESET, QpState.INIT));
        assertEquals(PKEY_INDEX | PORT | ACCESS_FLAGS, QpStateTable.required(QpType.UC, QpState.RESET, QpState.INIT));
        assertEquals(PKEY_INDEX | PORT | QKEY, QpStateTable.required(QpType.UD, QpState.RESET, QpState.INIT));
        assertEquals(PKEY_INDEX | QKEY, QpStateTable.required(QpType.GSI, QpState.RESET, QpState.INIT));

        assertEquals(AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER,
            QpStateTable.required(QpType.RC, QpState.INIT, QpState.RTR));
        assertEquals(AV | PATH_MTU | DEST_QPN | RQ_PSN, QpStateTable.required(QpType.UC, QpState.INIT, QpState.RTR));
        assertEquals(0, QpStateTable.required(QpType.UD, QpState.INIT, QpState.RTR));
        assertEquals(PKEY_INDEX | QKEY, QpStateTable.optional(QpType.UD, QpState.INIT, QpState.RTR));

        assertEquals(TIMEOUT | RETRY_CNT | RNR_RETRY | SQ_PSN | MAX_QP_RD_ATOMIC,
            QpStateTable.required(QpType.RC, QpState.RTR, QpState.RTS));
        assertEquals(SQ_PSN, QpStateTable.required(QpType.UC, QpState.RTR, QpState.RTS));
        assertEquals(SQ_PSN, QpStateTable.required(QpType.UD, QpState.RTR, QpState.RTS));
        assertEquals(CUR_STATE | ALT_PATH | ACCESS_FLAGS | MIN_RNR_TIMER | PATH_MIG_STATE,
            QpStateTable.optional(QpType.RC, QpState.RTR, QpState.RTS));

        assertEquals(EN_SQD_ASYNC_NOTIFY, QpStateTable.optional(QpType.RC, QpState.RTS, QpState.SQD));
        assertEquals(PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | MAX_DEST_RD_ATOMIC |
            ALT_PATH | ACCESS_FLAGS | PKEY_INDEX | MIN_RNR_TIMER | PATH_MIG_STATE,
            QpStateTable.optional(QpType.RC, QpState.SQD, QpState.SQD));
        assertEquals(CUR_STATE | ACCESS_FLAGS, QpStateTable.optional(QpType.UC, QpState.SQE, QpState.RTS));
        assertEquals(0, QpStateTable.optional(QpType.RC, QpState.SQE, QpState.RTS));
    }

    @Test
    void shouldGiveXrcIniTheRequesterRowsOfRc()
    {
        // Kernel qp_state_table XRC_INI column: RC minus the receive-side MAX_DEST_RD_ATOMIC and MIN_RNR_TIMER.
        assertEquals(PKEY_INDEX | PORT | ACCESS_FLAGS,
            QpStateTable.required(QpType.XRC_INI, QpState.RESET, QpState.INIT));
        assertEquals(AV | PATH_MTU | DEST_QPN | RQ_PSN, QpStateTable.required(QpType.XRC_INI, QpState.INIT, QpState.RTR));
        assertEquals(TIMEOUT | RETRY_CNT | RNR_RETRY | SQ_PSN | MAX_QP_RD_ATOMIC,
            QpStateTable.required(QpType.XRC_INI, QpState.RTR, QpState.RTS));
        assertEquals(CUR_STATE | ALT_PATH | ACCESS_FLAGS | PATH_MIG_STATE,
            QpStateTable.optional(QpType.XRC_INI, QpState.RTR, QpState.RTS));
        assertTrue(QpStateTable.check(QpType.XRC_INI, QpState.INIT, QpState.RTR,
            STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN | MIN_RNR_TIMER).contains("does not allow MIN_RNR_TIMER"));
        assertTrue(QpStateTable.check(QpType.XRC_INI, QpState.SQD, QpState.SQD, STATE | MAX_DEST_RD_ATOMIC)
            .contains("does not allow MAX_DEST_RD_ATOMIC"));
        assertNull(QpStateTable.check(QpType.XRC_INI, QpState.SQD, QpState.SQD, STATE | RNR_RETRY | RETRY_CNT));
    }

    @Test
    void shouldGiveXrcTgtTheResponderRowsOfRc()
    {
        // Kernel qp_state_table XRC_TGT column: RC minus the send-side RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC.
        assertEquals(PKEY_INDEX | PORT | ACCESS_FLAGS,
            QpStateTable.required(QpType.XRC_TGT, QpState.RESET, QpState.INIT));
        assertEquals(AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER,
            QpStateTable.required(QpType.XRC_TGT, QpState.INIT, QpState.RTR));
        assertEquals(TIMEOUT | SQ_PSN, QpStateTable.required(QpType.XRC_TGT, QpState.RTR, QpState.RTS));
        assertTrue(QpStateTable.check(QpType.XRC_TGT, QpState.RTR, QpState.RTS,
            STATE | TIMEOUT | SQ_PSN | RNR_RETRY).contains("does not allow RNR_RETRY"));
        assertTrue(QpStateTable.check(QpType.XRC_TGT, QpState.RTR, QpState.RTS,
            STATE | TIMEOUT | SQ_PSN | MAX_QP_RD_ATOMIC).contains("does not allow MAX_QP_RD_ATOMIC"));
        assertNull(QpStateTable.check(QpType.XRC_TGT, QpState.RTS, QpState.RTS, STATE | MIN_RNR_TIMER));
        assertTrue(QpStateTable.check(QpType.XRC_TGT, QpState.SQD, QpState.SQD, STATE | RETRY_CNT)
            .contains("does not allow RETRY_CNT"));
        assertEquals(0, QpStateTable.optional(QpType.XRC_TGT, QpState.SQE, QpState.RTS));
        assertEquals(0, QpStateTable.optional(QpType.XRC_INI, QpState.SQE, QpState.RTS));
    }

    @Test
    void shouldNameTheMissingAttribute()
    {
        final String reason = QpStateTable.check(QpType.RC, QpState.RTR, QpState.RTS,
            STATE | TIMEOUT | RETRY_CNT | SQ_PSN | MAX_QP_RD_ATOMIC);
        assertEquals("RTR->RTS for RC requires TIMEOUT|RETRY_CNT|RNR_RETRY|MAX_QP_RD_ATOMIC|SQ_PSN; " +
            "missing RNR_RETRY", reason);
    }

    @Test
    void shouldRefuseCurStateOutsideRtrRtsSqdSqe()
    {
        assertNotNull(QpStateTable.check(QpType.UD, QpState.INIT, QpState.INIT, STATE | CUR_STATE));
        assertNull(QpStateTable.check(QpType.UD, QpState.RTS, QpState.RTS, STATE | CUR_STATE));
    }

    @Test
    void shouldNotAllowResetToError()
    {
        assertTrue(QpStateTable.check(QpType.RC, QpState.RESET, QpState.ERR, STATE)
            .startsWith("RESET->ERR is not a valid QP state transition; from RESET the QP may go to RESET, INIT"));
    }
}
