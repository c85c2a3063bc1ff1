package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.verbs.DeviceAttr;
import io.jrxe.rxe.verbs.QpAttr;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * librdmacm's defaults for a null parameter: {@code rdma_connect(NULL)} offers the device's maximum responder
 * resources and initiator depth (what rdma_client sends), and {@code rdma_accept(NULL)} on an id from an event
 * channel answers with the request's values (what rping's server does), so the server can RDMA READ.
 */
class RdmaCmDefaultsTest
{
    private static final int PORT = 7174;
    private final CmPair cm = new CmPair();
    private final CmFlows flows = new CmFlows(cm);

    @AfterEach
    void close()
    {
        cm.close();
    }

    @Test
    void connectWithoutParametersOffersTheDevicesMaxima()
    {
        flows.listen(PORT);
        final CmId client = cm.a.createId(flows.chA, null, PortSpace.TCP);
        client.resolveAddr(null, CmPair.address(NodePair.IP_B, PORT), 2000);
        cm.await(flows.chA, CmEventType.ADDR_RESOLVED);
        client.resolveRoute(2000);
        cm.await(flows.chA, CmEventType.ROUTE_RESOLVED);
        client.createQp(null, RdmaCmConnectTest.qpInit());
        client.connect(null);

        final CmEvent request = cm.await(flows.chB, CmEventType.CONNECT_REQUEST);
        final DeviceAttr a = cm.a.device().queryDevice();
        // seen from the passive side: the peer's initiator depth is what we may serve, and the other way round
        assertEquals(a.maxQpInitRdAtom(), request.param().responderResources());
        assertEquals(a.maxQpRdAtom(), request.param().initiatorDepth());
        assertEquals(7, request.param().retryCount());
        assertEquals(7, request.param().rnrRetryCount());
        request.id().reject(null);
        cm.await(flows.chA, CmEventType.REJECTED);
    }

    @Test
    void acceptWithoutParametersOnAnAsyncIdAnswersTheRequestsValues()
    {
        flows.listen(PORT);
        final CmId client = flows.connect(PORT); // rping's: responder resources 1, initiator depth 1
        final CmId server = flows.accept();      // accept(null)
        cm.await(flows.chA, CmEventType.ESTABLISHED);
        cm.await(flows.chB, CmEventType.ESTABLISHED);

        final QpAttr serverQp = cm.b.device().queryQp(server.qp(), new QpAttr());
        assertEquals(1, serverQp.maxRdAtomic(), "the server may issue one RDMA READ at a time");
        assertEquals(1, serverQp.maxDestRdAtomic(), "and serve one");
        final QpAttr clientQp = cm.a.device().queryQp(client.qp(), new QpAttr());
        assertEquals(1, clientQp.maxDestRdAtomic(), "the client serves the server's READs");
        flows.teardown(client, server);
    }
}
