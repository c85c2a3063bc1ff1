package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rdma_modify_ah / rdma_query_ah and the static rate of an address vector. */
class AddressHandleTest
{
    private final VerbsFixture f = new VerbsFixture();

    static void assertErrno(final int errno, final Executable verb)
    {
        assertErrno(errno, verb, "");
    }

    static void assertErrno(final int errno, final Executable verb, final String why)
    {
        final VerbsException ex = assertThrows(VerbsException.class, verb, why);
        assertEquals(Errno.name(errno), Errno.name(ex.errno()), why + ": " + ex.getMessage());
    }

    private static AhAttr vector(final int n)
    {
        return new AhAttr().dgidIpv4(VerbsFixture.PEER_IP + n).sgidIndex(1).hopLimit(n).trafficClass(n)
            .flowLabel(n).sl(n & 15);
    }

    @Test
    void shouldModifyAndQueryTheVectorWithItsStaticRate()
    {
        final AddressHandle ah = f.device.createAh(f.pd, vector(1));
        assertEquals(IbRate.PORT_CURRENT, f.device.queryAh(ah, new AhAttr()).staticRate(), "the default");

        f.device.modifyAh(ah, vector(7).staticRate(IbRate.GBPS_25));
        final AhAttr q = f.device.queryAh(ah, new AhAttr());
        assertEquals(IbRate.GBPS_25, q.staticRate(), "jrxe keeps the rate (rxe reads back PORT_CURRENT)");
        assertEquals(GidTable.ipv4MappedLo(VerbsFixture.PEER_IP + 7), q.dgidLo());
        assertEquals(7, q.hopLimit());
        assertEquals(7, q.flowLabel());
        assertEquals(7, ah.query(new AhAttr()).trafficClass(), "AddressHandle.query reads the same vector");
        assertEquals(1, f.pd.useCount(), "modify creates no second AH");
    }

    @Test
    void shouldRefuseABadModifyAndKeepTheVector()
    {
        final AddressHandle ah = f.device.createAh(f.pd, vector(1));
        assertErrno(Errno.EINVAL, () -> f.device.modifyAh(ah, vector(2).sgidIndex(9)));
        assertErrno(Errno.EINVAL, () -> f.device.modifyAh(ah, vector(2).staticRate(null)));
        assertErrno(Errno.EINVAL, () -> f.device.modifyAh(ah, vector(2).dgid(0, 0)));
        assertErrno(Errno.EINVAL, () -> f.device.modifyAh(ah, vector(2).portNum(2)));
        assertErrno(Errno.EINVAL, () -> f.device.modifyAh(ah, null));
        assertErrno(Errno.EINVAL, () -> f.device.createAh(f.pd, vector(2).staticRate(null)));
        assertEquals(1, f.device.queryAh(ah, new AhAttr()).hopLimit(), "a refused modify changes nothing");

        final VerbsFixture other = new VerbsFixture();
        final AddressHandle foreign = other.device.createAh(other.pd, vector(3));
        assertErrno(Errno.EINVAL, () -> f.device.modifyAh(foreign, vector(2)));
        assertErrno(Errno.EINVAL, () -> f.device.queryAh(foreign, new AhAttr()));
        f.device.destroyAh(ah);
        assertErrno(Errno.EINVAL, () -> f.device.modifyAh(ah, vector(2)));
        assertErrno(Errno.EINVAL, () -> f.device.queryAh(ah, new AhAttr()));
        assertErrno(Errno.EINVAL, () -> f.device.destroyAh(ah));
        assertErrno(Errno.EINVAL, () -> f.device.queryAh(null, new AhAttr()));
    }

    @Test
    void shouldLetPostedWorkRequestsKeepTheVectorTheyCopied()
    {
        final QueuePair qp = f.createQp(QpType.UD, 8, 8);
        f.toRts(qp);
        final AddressHandle ah = f.device.createAh(f.pd, vector(1).staticRate(IbRate.GBPS_10));
        final SendWorkRequest wr = udSend(ah);
        assertEquals(0, qp.postSend(wr));
        f.device.modifyAh(ah, vector(2));
        assertEquals(0, qp.postSend(wr));
        final WqeRing<SendWqe> ring = qp.sendQueue().ring();
        assertEquals(1, ring.slot(0).av().hopLimit());
        assertEquals(IbRate.GBPS_10, ring.slot(0).av().staticRate(), "the rate travels with the WQE");
        assertEquals(2, ring.slot(1).av().hopLimit());
        assertEquals(IbRate.PORT_CURRENT, ring.slot(1).av().staticRate());
    }

    @Test
    void shouldNeverLetAPostSeeHalfOfAModify() throws InterruptedException
    {
        final QueuePair qp = f.createQp(QpType.UD, 64, 8);
        f.toRts(qp);
        final AddressHandle ah = f.device.createAh(f.pd, vector(1));
        final AtomicBoolean stop = new AtomicBoolean();
        final AhAttr a = vector(1);
        final AhAttr b = vector(200).dgid(0x2001_0db8_0000_0000L, 200).sgidIndex(2);
        f.port.setGid(2, 0x2001_0db8_0000_0000L, 1);
        final Thread modifier = new Thread(() ->
        {
            for (int i = 0; !stop.get(); i++)
            {
                f.device.modifyAh(ah, 0 == (i & 1) ? b : a);
            }
        });
        modifier.start();
        final SendWorkRequest wr = udSend(ah);
        final WqeRing<SendWqe> ring = qp.sendQueue().ring();
        int seenA = 0;
        int seenB = 0;
        try
        {
            for (int i = 0; i < 2_000_000 && (i < 1_000_000 || 0 == seenA || 0 == seenB); i++)
            {
                assertEquals(0, qp.postSend(wr));
                final long position = ring.producerPosition() - 1;
                final AhAttr av = ring.slot(position).av();
                final boolean isA = 1 == av.hopLimit() && 1 == av.trafficClass() && 1 == av.flowLabel() &&
                    1 == av.sgidIndex() && av.isIpv4();
                final boolean isB = 200 == av.hopLimit() && 200 == av.trafficClass() && 200 == av.flowLabel() &&
                    2 == av.sgidIndex() && !av.isIpv4();
                assertTrue(isA || isB, "a WQE holds a mixed vector: hop " + av.hopLimit() + " class " +
                    av.trafficClass() + " flow " + av.flowLabel() + " sgid " + av.sgidIndex() + " ipv4 " + av.isIpv4());
                seenA += isA ? 1 : 0;
                seenB += isB ? 1 : 0;
                ring.advanceConsumer(position + 1);
            }
        }
        finally
        {
            stop.set(true);
            modifier.join();
        }
        assertTrue(seenA > 0 && seenB > 0, "both vectors were posted: " + seenA + " / " + seenB);
    }

    @Test
    void shouldCarryTheStaticRateInAQpPath()
    {
        final QueuePair qp = f.createQp(QpType.RC, 8, 8);
        final QpAttr attr = VerbsFixture.fullAttr(QpState.INIT);
        f.device.modifyQp(qp, attr, VerbsFixture.requiredInitMask(QpType.RC));
        final QpAttr rtr = VerbsFixture.fullAttr(QpState.RTR);
        rtr.ahAttr().staticRate(IbRate.GBPS_2_5);
        f.device.modifyQp(qp, rtr, QpAttrMask.STATE | QpStateTable.required(QpType.RC, QpState.INIT, QpState.RTR));
        assertEquals(IbRate.GBPS_2_5, f.device.queryQp(qp, new QpAttr()).ahAttr().staticRate());
        rtr.ahAttr().staticRate(null);
        assertErrno(Errno.EINVAL, () -> f.device.modifyQp(qp, rtr.qpState(QpState.RTS), QpAttrMask.STATE |
            QpAttrMask.AV | QpStateTable.required(QpType.RC, QpState.RTR, QpState.RTS)));
        assertFalse(QpState.RTS == qp.state());
    }

    private SendWorkRequest udSend(final AddressHandle ah)
    {
        final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final MemoryRegion mr = f.device.regMr(f.pd, memory, AccessFlags.LOCAL_WRITE);
        final SendWorkRequest wr = new SendWorkRequest(1).opcode(WrOpcode.SEND).ah(ah).remoteQpn(0x20)
            .remoteQkey(0x1111);
        wr.sgl().add(mr.iova(), 16, mr.lkey());
        return wr;
    }
}
