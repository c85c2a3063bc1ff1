package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.NodePair;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The steps of an rdma_cm connection between the nodes of a {@link CmPair}, A the client and B the server, for
 * tests that break one step.
 */
final class CmFlows
{
    final CmPair cm;
    final EventChannel chA;
    final EventChannel chB;
    CmId listener;

    CmFlows(final CmPair cm)
    {
        this.cm = cm;
        this.chA = cm.a.createEventChannel();
        this.chB = cm.b.createEventChannel();
    }

    CmId listen(final int port)
    {
        return listen(CmPair.address(NodePair.IP_B, port));
    }

    /** A listener on B bound to {@code address}. */
    CmId listen(final InetSocketAddress address)
    {
        listener = cm.b.createId(chB, "listener", PortSpace.TCP);
        listener.bindAddr(address);
        listener.listen(0);
        return listener;
    }

    /** Resolve, create the QP and send the REQ. */
    CmId connect(final int port)
    {
        return connect(CmPair.address(NodePair.IP_B, port));
    }

    /** Resolve {@code server} from A (the source address chosen for it), create the QP and send the REQ. */
    CmId connect(final InetSocketAddress server)
    {
        final CmId client = cm.a.createId(chA, "client", PortSpace.TCP);
        client.resolveAddr(null, server, 2000);
        cm.await(chA, CmEventType.ADDR_RESOLVED);
        client.resolveRoute(2000);
        cm.await(chA, CmEventType.ROUTE_RESOLVED);
        client.createQp(null, RdmaCmConnectTest.qpInit());
        client.connect(new ConnParam().responderResources(1).initiatorDepth(1));
        return client;
    }

    /** Take the CONNECT_REQUEST on B and accept it. */
    CmId accept()
    {
        final CmEvent request = cm.await(chB, CmEventType.CONNECT_REQUEST);
        final CmId server = request.id();
        server.createQp(null, RdmaCmConnectTest.qpInit());
        server.accept(null);
        return server;
    }

    /** A whole connection, both sides ESTABLISHED. */
    CmId[] establish(final int port)
    {
        return establish(CmPair.address(NodePair.IP_B, port));
    }

    /** A whole connection to {@code to}, both sides ESTABLISHED. */
    CmId[] establish(final InetSocketAddress to)
    {
        final CmId client = connect(to);
        final CmId server = accept();
        cm.await(chA, CmEventType.ESTABLISHED);
        cm.await(chB, CmEventType.ESTABLISHED);
        return new CmId[]{client, server};
    }

    /** A disconnects, B answers, both see DISCONNECTED and TIMEWAIT_EXIT, both ids are destroyed. */
    void teardown(final CmId client, final CmId server)
    {
        client.disconnect();
        cm.await(chB, CmEventType.DISCONNECTED);
        server.disconnect();
        cm.await(chA, CmEventType.DISCONNECTED);
        cm.await(chA, CmEventType.TIMEWAIT_EXIT);
        cm.await(chB, CmEventType.TIMEWAIT_EXIT);
        client.destroy();
        server.destroy();
    }

    void assertNoIdsLeft(final int expectedB)
    {
        assertEquals(0, cm.a.idCount(), "ids left on A");
        assertEquals(expectedB, cm.b.idCount(), "ids left on B");
    }
}
