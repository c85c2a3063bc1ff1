package io.jrxe.rxe.verbs;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class XrcDomainTest
{
    private final VerbsFixture f = new VerbsFixture();

    private static int errno(final Runnable call)
    {
        return assertThrows(VerbsException.class, call::run).errno();
    }

    private SharedReceiveQueue xrcSrq(final XrcDomain xrcd)
    {
        return f.device.createXrcSrq(f.pd, xrcd, f.recvCq, new SrqAttr().maxWr(8).maxSge(2));
    }

    @Test
    void shouldRefuseDeallocOfAnXrcdInUseWithEbusyAndAllowItOnceTheSrqIsGone()
    {
        final XrcDomain xrcd = f.device.allocXrcd();
        final SharedReceiveQueue srq = xrcSrq(xrcd);
        assertEquals(1, xrcd.useCount());

        assertEquals(Errno.EBUSY, errno(() -> f.device.deallocXrcd(xrcd)));
        assertTrue(xrcd.isValid(), "a refused dealloc leaves the XRCD usable");

        f.device.destroySrq(srq);
        assertEquals(0, xrcd.useCount());
        f.device.deallocXrcd(xrcd);
        assertFalse(xrcd.isValid());
        assertEquals(Errno.EINVAL, errno(() -> f.device.deallocXrcd(xrcd)), "double dealloc");
        assertEquals(Errno.EINVAL, errno(() -> xrcSrq(xrcd)), "SRQ in a deallocated XRCD");
    }

    @Test
    void shouldCreateAnXrcSrqHoldingItsXrcdAndCq()
    {
        final XrcDomain a = f.device.allocXrcd();
        final XrcDomain b = f.device.allocXrcd();
        assertNotEquals(a.handle(), b.handle());
        final SharedReceiveQueue srqA = xrcSrq(a);
        final SharedReceiveQueue srqB = xrcSrq(b);

        assertTrue(srqA.isXrc());
        assertSame(a, srqA.xrcd());
        assertSame(b, srqB.xrcd());
        assertSame(f.recvCq, srqA.cq());
        assertNotEquals(srqA.srqn(), srqB.srqn(), "XRC SRQ numbers are what initiators name: unique");
        assertEquals(0, srqA.postSrqRecv(new RecvWorkRequest(2).wrId(7)), "an XRC SRQ takes receives");

        assertEquals(Errno.EBUSY, errno(() -> f.device.destroyCq(f.recvCq)), "the XRC SRQ holds its CQ");
        f.device.destroySrq(srqA);
        f.device.destroySrq(srqB);
        f.device.destroyCq(f.recvCq);
    }

    @Test
    void shouldRefuseAnXrcSrqWithoutXrcdOrCq()
    {
        final XrcDomain xrcd = f.device.allocXrcd();
        final SrqAttr attr = new SrqAttr().maxWr(8).maxSge(2);
        assertEquals(Errno.EINVAL, errno(() -> f.device.createXrcSrq(f.pd, null, f.recvCq, attr)));
        assertEquals(Errno.EINVAL, errno(() -> f.device.createXrcSrq(f.pd, xrcd, null, attr)));
        assertEquals(0, xrcd.useCount(), "a refused create takes no reference");
        assertEquals(0, f.pd.useCount());

        final RxeDevice other = new VerbsFixture().device;
        assertEquals(Errno.EINVAL, errno(() -> f.device.createXrcSrq(f.pd, other.allocXrcd(), f.recvCq, attr)),
            "an XRCD of another device");
    }

    @Test
    void shouldKeepABasicSrqFreeOfXrcState()
    {
        final SharedReceiveQueue srq = f.device.createSrq(f.pd, new SrqAttr().maxWr(8).maxSge(2));
        assertFalse(srq.isXrc());
        assertNull(srq.xrcd());
        assertNull(srq.cq());
    }
}
