package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.QpModifyListener;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * ib_attach_mcast / ib_detach_mcast: the kernel's errors (core/verbs.c, rxe_mcast.c), rxe's limits, and what the
 * engine is told.
 */
class MulticastVerbsTest
{
    /** 239.1.2.3, IPv4-mapped. */
    private static final long V4_GROUP = 0x0000_FFFF_EF01_0203L;
    private static final long V6_GROUP_HI = 0xFF12_0000_0000_0000L;

    private final VerbsFixture f = new VerbsFixture();
    private final List<String> told = new ArrayList<>();

    MulticastVerbsTest()
    {
        f.port.attach((qp, send) -> { }, new QpModifyListener()
        {
            @Override
            public void onModify(final QueuePair qp, final QpState from, final QpState to, final int mask,
                final QpAttr attr)
            {
            }

            @Override
            public void onAttachMcast(final QueuePair qp, final long gidHi, final long gidLo)
            {
                told.add("attach " + qp.qpn() + " " + Long.toHexString(gidLo));
            }

            @Override
            public void onDetachMcast(final QueuePair qp, final long gidHi, final long gidLo)
            {
                told.add("detach " + qp.qpn() + " " + Long.toHexString(gidLo));
            }
        }, null);
    }

    private static int errno(final Runnable call)
    {
        return assertThrows(VerbsException.class, call::run).errno();
    }

    @Test
    void aGidThatIsNotMulticastOrAQpThatIsNotUdIsEinval()
    {
        final QueuePair ud = f.createQp(QpType.UD, 4, 4);
        final QueuePair rc = f.createQp(QpType.RC, 4, 4);
        assertEquals(Errno.EINVAL, errno(() -> f.device.attachMcast(ud, 0, 0x0000_FFFF_0A00_0001L)), "10.0.0.1");
        assertEquals(Errno.EINVAL, errno(() -> f.device.attachMcast(ud, 0xFE80_0000_0000_0000L, 1)), "fe80::1");
        assertEquals(Errno.EINVAL, errno(() -> f.device.attachMcast(ud, 0, 0)), "::");
        assertEquals(Errno.EINVAL, errno(() -> f.device.attachMcast(rc, 0, V4_GROUP)), "an RC QP");
        assertEquals(List.of(), told);
        f.device.attachMcast(ud, 0, V4_GROUP);
        f.device.attachMcast(ud, V6_GROUP_HI, 5);
        assertEquals(List.of("attach " + ud.qpn() + " ffffef010203", "attach " + ud.qpn() + " 5"), told);
    }

    @Test
    void attachingTwiceIsANoOpAndDetachingWhatIsNotAttachedIsEinval()
    {
        final QueuePair qp = f.createQp(QpType.UD, 4, 4);
        final QueuePair other = f.createQp(QpType.UD, 4, 4);
        f.device.attachMcast(qp, 0, V4_GROUP);
        f.device.attachMcast(qp, 0, V4_GROUP);
        assertEquals(1, told.size(), "rxe_attach_mcast: already attached returns 0, nothing changes");
        assertEquals(Errno.EINVAL, errno(() -> f.device.detachMcast(other, 0, V4_GROUP)), "not attached");
        assertEquals(Errno.EINVAL, errno(() -> f.device.detachMcast(qp, 0, V4_GROUP + 1)), "unknown group");
        f.device.detachMcast(qp, 0, V4_GROUP);
        assertEquals(Errno.EINVAL, errno(() -> f.device.detachMcast(qp, 0, V4_GROUP)), "detached already");
        assertEquals(List.of("attach " + qp.qpn() + " ffffef010203", "detach " + qp.qpn() + " ffffef010203"), told);
    }

    @Test
    void aQpStillAttachedCannotBeDestroyed()
    {
        final QueuePair qp = f.createQp(QpType.UD, 4, 4);
        f.device.attachMcast(qp, 0, V4_GROUP);
        assertEquals(Errno.EBUSY, errno(() -> f.device.destroyQp(qp)));
        f.device.detachMcast(qp, 0, V4_GROUP);
        f.device.destroyQp(qp);
        assertEquals(Errno.EINVAL, errno(() -> f.device.attachMcast(qp, 0, V4_GROUP)), "a destroyed QP");
    }

    @Test
    void beyond56QpsInAGroupOr8192GroupsIsEnomem()
    {
        final QueuePair first = f.createQp(QpType.UD, 1, 1);
        f.device.attachMcast(first, 0, V4_GROUP);
        for (int i = 1; i < MulticastAttachments.MAX_QPS_PER_GROUP; i++)
        {
            f.device.attachMcast(f.createQp(QpType.UD, 1, 1), 0, V4_GROUP);
        }
        final QueuePair oneTooMany = f.createQp(QpType.UD, 1, 1);
        assertEquals(Errno.ENOMEM, errno(() -> f.device.attachMcast(oneTooMany, 0, V4_GROUP)));

        for (int g = 1; g < MulticastAttachments.MAX_GROUPS; g++)
        {
            f.device.attachMcast(first, V6_GROUP_HI, g);
        }
        assertEquals(Errno.ENOMEM, errno(() -> f.device.attachMcast(first, V6_GROUP_HI, 0x10000)), "group 8193");
        f.device.detachMcast(first, V6_GROUP_HI, 1);
        f.device.attachMcast(oneTooMany, V6_GROUP_HI, 0x10000);
        assertEquals(1 + MulticastAttachments.MAX_QPS_PER_GROUP - 1 + MulticastAttachments.MAX_GROUPS - 1 + 2,
            told.size(), "each attach and the detach told once");
    }

    @Test
    void theMulticastMacOfAnAhIsMappedFromItsGid()
    {
        assertEquals(0x0100_5E01_0203L, AddressHandles.multicastMac(0, V4_GROUP), "01:00:5e + low 23 bits");
        assertEquals(0x0100_5E01_0203L, AddressHandles.multicastMac(0, 0x0000_FFFF_E081_0203L),
            "224.129.2.3 shares 239.1.2.3's MAC: the 24th bit is dropped (RFC 1112 §6.4)");
        assertEquals(0x3333_1234_5678L, AddressHandles.multicastMac(V6_GROUP_HI, 0xABCD_0000_1234_5678L),
            "33:33 + low 32 bits");
        final AhAttr attr = new AhAttr().dgid(0, V4_GROUP).sgidIndex(1);
        final AddressHandle ah = f.device.createAh(f.pd, attr);
        assertEquals(0x0100_5E01_0203L, f.device.queryAh(ah, new AhAttr()).dmac());
    }
}
