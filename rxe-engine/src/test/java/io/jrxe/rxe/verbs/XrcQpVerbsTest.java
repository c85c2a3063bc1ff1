package io.jrxe.rxe.verbs;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The XRC QP verbs: create (INI, TGT), post rules, ib_open_qp / ib_close_qp and the shared QP's events. */
class XrcQpVerbsTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final XrcDomain xrcd = f.device.allocXrcd();

    private static int errno(final Runnable call)
    {
        return assertThrows(VerbsException.class, call::run).errno();
    }

    private static QpOpenAttr open(final int qpn)
    {
        return new QpOpenAttr().qpNum(qpn);
    }

    private QueuePair target(final XrcDomain domain)
    {
        return f.device.createQp(null, new QpInitAttr().qpType(QpType.XRC_TGT).xrcd(domain));
    }

    private QueuePair initiator()
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.XRC_INI).sendCq(f.sendCq).recvCq(f.recvCq);
        init.cap().maxSendWr(8).maxSendSge(2).maxRecvWr(8).maxRecvSge(2).maxInlineData(32);
        return f.device.createQp(f.pd, init);
    }

    @Test
    void shouldCreateATargetWithNeitherQueueNorCqNorPd()
    {
        final QueuePair tgt = target(xrcd);
        assertNull(tgt.pd());
        assertSame(xrcd, tgt.xrcd());
        assertNull(tgt.sendCq());
        assertNull(tgt.recvCq());
        assertEquals(0, tgt.cap().maxSendWr());
        assertEquals(0, tgt.cap().maxRecvWr());
        assertEquals(1, xrcd.useCount(), "the target holds its domain");
        assertEquals(Errno.EBUSY, errno(() -> f.device.deallocXrcd(xrcd)));

        f.toRts(tgt);
        assertEquals(-Errno.EINVAL, tgt.postSend(new SendWorkRequest(1).opcode(WrOpcode.SEND)));
        assertTrue(tgt.postError().contains("XRC_INI"), tgt.postError());
        assertEquals(-Errno.EINVAL, tgt.postRecv(new RecvWorkRequest(1)));
        assertTrue(tgt.postError().contains("XRC SRQ"), tgt.postError());

        f.device.destroyQp(tgt);
        assertTrue(tgt.isDestroyed());
        assertEquals(0, xrcd.useCount());
        f.device.deallocXrcd(xrcd);
    }

    @Test
    void shouldRefuseTargetsWithoutAValidDomainOrWithAPd()
    {
        assertEquals(Errno.EINVAL, errno(() -> f.device.createQp(f.pd,
            new QpInitAttr().qpType(QpType.XRC_TGT).xrcd(xrcd))), "a PD instead of only the domain");
        assertEquals(Errno.EINVAL, errno(() -> target(null)), "no domain");
        final XrcDomain gone = f.device.allocXrcd();
        f.device.deallocXrcd(gone);
        assertEquals(Errno.EINVAL, errno(() -> target(gone)), "a deallocated domain");
        assertEquals(Errno.EINVAL, errno(() -> f.device.createQp(f.pd, new QpInitAttr().qpType(QpType.RC)
            .sendCq(f.sendCq).recvCq(f.recvCq).xrcd(xrcd))), "an RC QP with a domain");
        assertEquals(0, xrcd.useCount(), "refused creates take no reference");
        assertEquals(0, f.pd.useCount());
    }

    @Test
    void shouldGiveAnInitiatorASendQueueOnlyAndCheckItsWorkRequests()
    {
        final QueuePair ini = initiator();
        assertNull(ini.recvCq(), "the receive CQ of an XRC_INI QP is ignored, as ib_uverbs ignores it");
        assertEquals(0, ini.cap().maxRecvWr());
        assertTrue(ini.cap().maxSendWr() >= 8, ini.cap().toString());
        f.toRts(ini);
        assertEquals(-Errno.EINVAL, ini.postRecv(new RecvWorkRequest(1)));

        assertEquals(-Errno.EINVAL, ini.postSend(new SendWorkRequest(1).opcode(WrOpcode.SEND)
            .remoteSrqn(0x1_000000)), "an SRQ number wider than 24 bits");
        assertTrue(ini.postError().contains("24 bits"), ini.postError());
        assertEquals(-Errno.EINVAL, ini.postSend(new SendWorkRequest(1).opcode(WrOpcode.FLUSH)),
            "no XRC FLUSH opcode");
        assertEquals(-Errno.EINVAL, ini.postSend(new SendWorkRequest(1).opcode(WrOpcode.ATOMIC_WRITE)));
        assertEquals(0, ini.postSend(new SendWorkRequest(1).opcode(WrOpcode.SEND).remoteSrqn(0xFF_FFFF)));
        assertEquals(1, f.sendCq.useCount(), "only the send CQ is held");
        assertEquals(0, f.recvCq.useCount());
    }

    @Test
    void shouldOpenATargetByNumberInItsDomainOnly()
    {
        final QueuePair tgt = target(xrcd);
        final XrcDomain other = f.device.allocXrcd();
        final QueuePair rc = f.createQp(QpType.RC, 4, 4);
        assertEquals(Errno.EINVAL, errno(() -> f.device.openQp(other, open(tgt.qpn()))), "another domain");
        assertEquals(Errno.EINVAL, errno(() -> f.device.openQp(xrcd, open(rc.qpn()))), "not a target QP");
        assertEquals(Errno.EINVAL, errno(() -> f.device.openQp(xrcd, open(0xFFFF))), "no such QP");
        assertEquals(Errno.EINVAL, errno(() -> f.device.openQp(xrcd, open(tgt.qpn()).qpType(QpType.RC))),
            "ib_open_qp opens XRC_TGT QPs only");

        final XrcQpHandle handle = f.device.openQp(xrcd, open(tgt.qpn()));
        assertSame(tgt, handle.qp());
        assertEquals(tgt.qpn(), handle.qpn());
        f.device.closeQp(handle);
        assertTrue(handle.isClosed());
        assertFalse(tgt.isDestroyed(), "closing an opened handle leaves the creator's QP");
        assertEquals(Errno.EINVAL, errno(() -> f.device.closeQp(handle)), "closed twice");
        assertEquals(Errno.EINVAL, errno(() -> f.device.closeQp(null)));
        final XrcQpHandle opened = f.device.openQp(xrcd, open(tgt.qpn()));
        final RxeDevice otherDevice = new VerbsFixture().device;
        assertEquals(Errno.EINVAL, errno(() -> otherDevice.closeQp(opened)), "a handle of another device");
        assertFalse(opened.isClosed());
    }

    @Test
    void shouldDestroyASharedTargetWithItsLastReferenceAndTellEveryOpenHandleOfItsEvents()
    {
        final QueuePair tgt = target(xrcd);
        final List<String> heard = new ArrayList<>();
        final XrcQpHandle first = f.device.openQp(xrcd,
            open(tgt.qpn()).eventHandler((event, qpn) -> heard.add("1:" + event)));
        final XrcQpHandle second = f.device.openQp(xrcd,
            open(tgt.qpn()).eventHandler((event, qpn) -> heard.add("2:" + event)));

        f.port.raise(AsyncEvent.COMM_EST, tgt.qpn());
        assertEquals(List.of("1:COMM_EST", "2:COMM_EST"), heard);
        f.port.raise(AsyncEvent.CQ_ERR, tgt.qpn());
        assertEquals(2, heard.size(), "a CQ event with the same number is not the QP's");

        f.device.destroyQp(tgt); // the creator lets go
        assertFalse(tgt.isDestroyed());
        assertEquals(Errno.EINVAL, errno(() -> f.device.destroyQp(tgt)), "the creator's reference is gone");
        f.device.closeQp(first);
        heard.clear();
        f.port.raise(AsyncEvent.QP_FATAL, tgt.qpn());
        assertEquals(List.of("2:QP_FATAL"), heard, "a closed handle hears nothing more");
        final List<AsyncEventRecord> taken = new ArrayList<>();
        for (AsyncEventRecord event = f.device.pollAsyncEvent(); null != event; event = f.device.pollAsyncEvent())
        {
            taken.add(event);
        }
        assertEquals(Errno.EBUSY, errno(() -> f.device.closeQp(second)),
            "its events are taken but not acknowledged (ib_destroy_qp waits for them)");
        assertFalse(second.isClosed(), "a refused close leaves the handle open");
        taken.forEach(f.device::ackAsyncEvent);
        f.device.closeQp(second);
        assertTrue(tgt.isDestroyed(), "the last reference destroys the target");
        assertEquals(0, xrcd.useCount());
        assertNull(f.device.qp(tgt.qpn()));
    }
}
