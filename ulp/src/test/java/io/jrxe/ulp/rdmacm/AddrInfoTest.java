package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RdmaCm#getAddrInfo} with librdmacm's rdma_getaddrinfo semantics (passive and active answers, port space and
 * QP type from the hints or from each other, the hints' source address kept, the refusals), and the passive side of
 * {@link RdmaCm#createEp}. (The active side blocks on its events and is exercised by the rdma_server/rdma_client
 * tests, whose CMs run on their own threads.)
 */
class AddrInfoTest
{
    @Test
    void shouldAnswerAPassiveRequestWithTheWildcardAndTheTcpSpace()
    {
        final AddrInfo res = RdmaCm.getAddrInfo(null, "7471", new AddrInfo().flags(AddrInfo.PASSIVE));
        assertEquals(AddrInfo.PASSIVE, res.flags());
        assertTrue(res.isPassive());
        assertEquals(new InetSocketAddress("0.0.0.0", 7471), res.srcAddr());
        assertNull(res.dstAddr());
        assertEquals(PortSpace.TCP, res.portSpace());
        assertEquals(QpType.RC, res.qpType());
    }

    @Test
    void shouldAnswerAnActiveRequestWithTheDestination()
    {
        final AddrInfo res = RdmaCm.getAddrInfo("10.9.0.1", "7471", null);
        assertEquals(0, res.flags());
        assertEquals(new InetSocketAddress("10.9.0.1", 7471), res.dstAddr());
        assertNull(res.srcAddr());
        assertEquals(PortSpace.TCP, res.portSpace());
        assertEquals(QpType.RC, res.qpType());

        // getaddrinfo(NULL, ...) without AI_PASSIVE: the loopback address
        assertEquals(new InetSocketAddress("127.0.0.1", 18515), RdmaCm.getAddrInfo(null, "18515", null).dstAddr());
    }

    @Test
    void shouldTakeSpaceAndTypeFromTheHintsOrFromEachOther()
    {
        final AddrInfo udp = RdmaCm.getAddrInfo("10.9.0.1", "7174", new AddrInfo().portSpace(PortSpace.UDP));
        assertEquals(QpType.UD, udp.qpType());
        final AddrInfo ud = RdmaCm.getAddrInfo("10.9.0.1", "7174", new AddrInfo().qpType(QpType.UD));
        assertEquals(PortSpace.UDP, ud.portSpace());
        final AddrInfo ib = RdmaCm.getAddrInfo("10.9.0.1", "1", new AddrInfo().portSpace(PortSpace.IB)
            .qpType(QpType.UD));
        assertEquals(PortSpace.IB, ib.portSpace());
        assertEquals(QpType.UD, ib.qpType());
    }

    @Test
    void shouldKeepTheHintsSourceForAnActiveAnswerAndCopyHintsAlone()
    {
        final InetSocketAddress src = new InetSocketAddress("10.9.0.2", 0);
        final AddrInfo res = RdmaCm.getAddrInfo("10.9.0.1", "7471", new AddrInfo().srcAddr(src));
        assertEquals(src, res.srcAddr());
        assertEquals(new InetSocketAddress("10.9.0.1", 7471), res.dstAddr());

        final InetSocketAddress dst = new InetSocketAddress("10.9.0.1", 9);
        final AddrInfo copied = RdmaCm.getAddrInfo(null, null, new AddrInfo().flags(AddrInfo.NOROUTE).dstAddr(dst));
        assertEquals(AddrInfo.NOROUTE, copied.flags());
        assertEquals(dst, copied.dstAddr());
    }

    @Test
    void shouldRefuseWhatGetaddrinfoRefuses()
    {
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
            () -> RdmaCm.getAddrInfo(null, null, null)).errno(), "nothing to resolve");
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
            () -> RdmaCm.getAddrInfo("10.9.0.1", "rdma", null)).errno(), "no services database");
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
            () -> RdmaCm.getAddrInfo("10.9.0.1", "65536", null)).errno(), "not a port");
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class,
            () -> RdmaCm.getAddrInfo("localhost", "1", new AddrInfo().flags(AddrInfo.NUMERICHOST))).errno(),
            "RAI_NUMERICHOST takes literals only");
        assertEquals(new InetSocketAddress("10.9.0.1", 1),
            RdmaCm.getAddrInfo("10.9.0.1", "1", new AddrInfo().flags(AddrInfo.NUMERICHOST)).dstAddr());
    }

    @Test
    void shouldCreateAPassiveEndpointThatListensAndDestroyItOnAFailure()
    {
        try (CmPair cm = new CmPair())
        {
            final AddrInfo res = RdmaCm.getAddrInfo(null, "7471", new AddrInfo().flags(AddrInfo.PASSIVE));
            final QpInitAttr init = new QpInitAttr();
            init.cap().maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1);
            final CmId listener = cm.b.createEp(res, null, init);
            assertEquals(CmPair.address(NodePair.IP_B, 7471), listener.localAddress(), "the wildcard binds the node");
            assertEquals(QpType.RC, init.qpType(), "the QP type is the answer's, as rdma_create_ep sets it");
            assertNull(listener.qp(), "a passive endpoint makes its QPs per request");
            listener.listen(0);

            final RdmaCmException taken = assertThrows(RdmaCmException.class, () -> cm.b.createEp(res, null, init));
            assertEquals(Errno.EADDRINUSE, taken.errno());
            assertEquals(1, cm.b.idCount(), "the failed endpoint's id is destroyed again");
            listener.destroy();
            assertEquals(0, cm.b.idCount());
        }
    }
}
