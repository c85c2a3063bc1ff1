package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.QpnAllocator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QpModifyTest
{
    private final VerbsFixture f = new VerbsFixture();

    /** States a QP can be driven into through modify alone (SQE is entered only by the transport). */
    private static final QpState[] REACHABLE =
    {
        QpState.RESET, QpState.INIT, QpState.RTR, QpState.RTS, QpState.SQD, QpState.ERR
    };

    static List<Arguments> reachablePairs()
    {
        final List<Arguments> args = new ArrayList<>();
        for (final QpType type : new QpType[]{ QpType.RC, QpType.UC, QpType.UD })
        {
            for (final QpState from : REACHABLE)
            {
                for (final QpState to : QpState.values())
                {
                    args.add(Arguments.of(type, from, to));
                }
            }
        }
        return args;
    }

    private void driveTo(final QueuePair qp, final QpState target)
    {
        final QpType t = qp.type();
        final QpState[] path = { QpState.INIT, QpState.RTR, QpState.RTS };
        QpState cur = QpState.RESET;
        if (QpState.ERR == target)
        {
            f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT),
                QpAttrMask.STATE | QpStateTable.required(t, cur, QpState.INIT));
            f.device.modifyQp(qp, new QpAttr().qpState(QpState.ERR), QpAttrMask.STATE);
            return;
        }
        for (final QpState next : path)
        {
            if (cur == target)
            {
                return;
            }
            f.device.modifyQp(qp, VerbsFixture.fullAttr(next), QpAttrMask.STATE | QpStateTable.required(t, cur, next));
            cur = next;
        }
        if (QpState.SQD == target)
        {
            f.device.modifyQp(qp, new QpAttr().qpState(QpState.SQD), QpAttrMask.STATE);
            f.port.sqDrained(qp);
        }
        assertEquals(target, qp.state());
    }

    @ParameterizedTest(name = "{0} {1}->{2}")
    @MethodSource("reachablePairs")
    void shouldApplyExactlyTheTableTransitions(final QpType type, final QpState from, final QpState to)
    {
        final QueuePair qp = f.createQp(type, 8, 8);
        driveTo(qp, from);
        final int mask = QpAttrMask.STATE | QpStateTable.required(type, from, to);
        if (QpStateTable.isValidTransition(from, to))
        {
            f.device.modifyQp(qp, VerbsFixture.fullAttr(to), mask);
            assertEquals(to, qp.state());
            assertEquals(to, f.device.queryQp(qp, new QpAttr()).qpState());
        }
        else
        {
            final VerbsException ex = assertThrows(VerbsException.class,
                () -> f.device.modifyQp(qp, VerbsFixture.fullAttr(to), mask));
            assertEquals(Errno.EINVAL, ex.errno());
            assertTrue(ex.getMessage().contains("not a valid QP state transition"), ex.getMessage());
            assertEquals(from, qp.state(), "a refused modify leaves the state unchanged");
        }
    }

    @ParameterizedTest
    @EnumSource(value = QpType.class, names = { "RC", "UC", "UD" })
    void shouldStoreAndReportAttributesOnTheWayToRts(final QpType type)
    {
        final QueuePair qp = f.createQp(type, 8, 8);
        f.toRts(qp);
        final QpAttr q = f.device.queryQp(qp, new QpAttr());
        assertEquals(QpState.RTS, q.qpState());
        assertEquals(0x200, q.sqPsn());
        if (QpType.UD != type)
        {
            assertEquals(0x100, q.rqPsn());
            assertEquals(0x12, q.destQpNum());
            assertEquals(Mtu.MTU_1024, q.pathMtu());
            assertEquals(VerbsFixture.PEER_IP, (int)q.ahAttr().dgidLo());
        }
        else
        {
            assertEquals(0x11111111, q.qkey());
        }
        if (QpType.RC == type)
        {
            assertEquals(14, q.timeout());
            assertEquals(7, q.retryCnt());
            assertEquals(12, q.minRnrTimer());
        }
    }

    @Test
    void shouldRoundReadAtomicDepthsUpToPowersOfTwoLikeRxe()
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT),
            VerbsFixture.requiredInitMask(QpType.RC));
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.RTR).maxDestRdAtomic(3),
            QpAttrMask.STATE | QpStateTable.required(QpType.RC, QpState.INIT, QpState.RTR));
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.RTS).maxRdAtomic(5),
            QpAttrMask.STATE | QpStateTable.required(QpType.RC, QpState.RTR, QpState.RTS));
        final QpAttr q = f.device.queryQp(qp, new QpAttr());
        assertEquals(4, q.maxDestRdAtomic());
        assertEquals(8, q.maxRdAtomic());
    }

    private void assertRtrRefused(final Consumer<QpAttr> change, final int extraMask, final String expected)
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT), VerbsFixture.requiredInitMask(QpType.RC));
        final QpAttr attr = VerbsFixture.fullAttr(QpState.RTR);
        change.accept(attr);
        final int mask = QpAttrMask.STATE | QpStateTable.required(QpType.RC, QpState.INIT, QpState.RTR) | extraMask;
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.device.modifyQp(qp, attr, mask));
        assertEquals(Errno.EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
        assertEquals(QpState.INIT, qp.state());
    }

    private void assertRtsRefused(final Consumer<QpAttr> change, final String expected)
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT), VerbsFixture.requiredInitMask(QpType.RC));
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.RTR),
            QpAttrMask.STATE | QpStateTable.required(QpType.RC, QpState.INIT, QpState.RTR));
        final QpAttr attr = VerbsFixture.fullAttr(QpState.RTS);
        change.accept(attr);
        final int mask = QpAttrMask.STATE | QpStateTable.required(QpType.RC, QpState.RTR, QpState.RTS);
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.device.modifyQp(qp, attr, mask));
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
        assertEquals(QpState.RTR, qp.state());
    }

    @Test
    void shouldRefuseOutOfRangeValues()
    {
        assertRtsRefused(a -> a.timeout(32), "timeout 32 outside [0, 31]");
        assertRtsRefused(a -> a.retryCnt(8), "retry_cnt 8 outside [0, 7]");
        assertRtsRefused(a -> a.rnrRetry(8), "rnr_retry 8 outside [0, 7]");
        assertRtsRefused(a -> a.maxRdAtomic(129), "max_rd_atomic 129 outside [0, 128]");
        assertRtsRefused(a -> a.sqPsn(1 << 24), "sq_psn 0x1000000 wider than 24 bits");
        assertRtrRefused(a -> a.minRnrTimer(32), 0, "min_rnr_timer 32 outside [0, 31]");
        assertRtrRefused(a -> a.maxDestRdAtomic(129), 0, "max_dest_rd_atomic 129 outside [0, 128]");
        assertRtrRefused(a -> a.destQpNum(1 << 24), 0, "dest_qp_num 0x1000000 wider than 24 bits");
        assertRtrRefused(a -> a.rqPsn(-1), 0, "rq_psn 0xffffffff wider than 24 bits");
        assertRtrRefused(a -> a.pathMtu(null), 0, "path MTU null");
        assertRtrRefused(a -> a.ahAttr().sgidIndex(7), 0, "source GID index 7 has no GID");
        assertRtrRefused(a -> a.ahAttr().dgid(0xfe80_0000_0000_0000L, 1), 0, "different IP versions");
        assertRtrRefused(a -> a.ahAttr().flowLabel(1 << 20), 0, "wider than 20 bits");
        assertRtrRefused(a -> a.pkeyIndex(1), QpAttrMask.PKEY_INDEX, "pkey index 1 outside the P_Key table [0, 1)");
        assertRtrRefused(a -> a.qpAccessFlags(AccessFlags.MW_BIND), QpAttrMask.ACCESS_FLAGS, "not QP rights");
    }

    @Test
    void shouldRefuseControlledQkeyExceptOnGsi()
    {
        final QueuePair ud = f.createQp(QpType.UD, 8, 8);
        final QpAttr attr = VerbsFixture.fullAttr(QpState.INIT).qkey(0x80010000);
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> f.device.modifyQp(ud, attr, VerbsFixture.requiredInitMask(QpType.UD)));
        assertTrue(ex.getMessage().contains("controlled Q_Keys"), ex.getMessage());

        final QueuePair gsi = f.createQp(QpType.GSI, 8, 8);
        assertEquals(QpnAllocator.GSI_QPN, gsi.qpn());
        f.device.modifyQp(gsi, attr, VerbsFixture.requiredInitMask(QpType.GSI));
        assertEquals(0x80010000, f.device.queryQp(gsi, new QpAttr()).qkey());
    }

    @Test
    void shouldRefuseLeavingSqdWhileDraining()
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        f.toRts(qp);
        f.device.modifyQp(qp, new QpAttr().qpState(QpState.SQD).enSqdAsyncNotify(true),
            QpAttrMask.STATE | QpAttrMask.EN_SQD_ASYNC_NOTIFY);
        assertTrue(qp.isSqDraining());
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> f.device.modifyQp(qp, new QpAttr().qpState(QpState.RTS), QpAttrMask.STATE));
        assertEquals(Errno.EBUSY, ex.errno());

        final List<AsyncEvent> events = new ArrayList<>();
        f.device.asyncEventHandler((event, element) -> events.add(event));
        f.port.sqDrained(qp);
        assertEquals(List.of(AsyncEvent.SQ_DRAINED), events);
        f.device.modifyQp(qp, new QpAttr().qpState(QpState.RTS), QpAttrMask.STATE);
        assertEquals(QpState.RTS, qp.state());
    }

    @Test
    void shouldNotifyModifyListener()
    {
        final QueuePair qp = f.createQp(QpType.UD, 8, 8);
        final List<String> seen = new ArrayList<>();
        f.port.attach((q, send) ->
        {
        }, (q, from, to, mask, attr) ->
        {
            assertSame(qp, q);
            seen.add(from + ">" + to + ":" + attr.qkey());
        }, null);
        f.device.modifyQp(qp, VerbsFixture.fullAttr(QpState.INIT), VerbsFixture.requiredInitMask(QpType.UD));
        assertEquals(List.of("RESET>INIT:" + 0x11111111), seen);
    }

    @Test
    void shouldValidateCapsAgainstDeviceLimits()
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(f.sendCq).recvCq(f.recvCq);
        init.cap().maxSendWr(8).maxRecvWr(8).maxSendSge(33);
        VerbsException ex = assertThrows(VerbsException.class, () -> f.device.createQp(f.pd, init));
        assertTrue(ex.getMessage().contains("cap.maxSendSge = 33 must be in [0, maxSendSge = 32]"), ex.getMessage());

        init.cap().maxSendSge(1).maxInlineData(513);
        ex = assertThrows(VerbsException.class, () -> f.device.createQp(f.pd, init));
        assertTrue(ex.getMessage().contains("maxInlineData = 513"), ex.getMessage());

        init.cap().maxInlineData(0).maxRecvWr((1 << 20) + 1);
        ex = assertThrows(VerbsException.class, () -> f.device.createQp(f.pd, init));
        assertTrue(ex.getMessage().contains("cap.maxRecvWr"), ex.getMessage());

        init.cap().maxRecvWr(5).maxSendWr(5).maxSendSge(1).maxInlineData(100);
        final QueuePair qp = f.device.createQp(f.pd, init);
        assertEquals(7, init.cap().maxSendWr(), "rounded up to 2^k - 1 like rxe");
        assertEquals(7, init.cap().maxRecvWr());
        assertEquals(100, init.cap().maxInlineData(), "the WQE holds max(sge * 16, inline) = 100 bytes");
        assertEquals(6, init.cap().maxSendSge(), "which fit 100 / 16 = 6 SGEs");
        assertEquals(RxeContext.MIN_QP_INDEX, qp.qpn());
    }

    @Test
    void shouldAllowOnlyOneGsiQpAtATime()
    {
        final QueuePair gsi = f.createQp(QpType.GSI, 4, 4);
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.createQp(QpType.GSI, 4, 4));
        assertEquals(Errno.EINVAL, ex.errno(), "rxe_qp_chk_init refuses a second GSI QP with EINVAL");
        f.device.destroyQp(gsi);
        assertEquals(QpnAllocator.GSI_QPN, f.createQp(QpType.GSI, 4, 4).qpn(), "QPN 1 is free again");
    }
}
