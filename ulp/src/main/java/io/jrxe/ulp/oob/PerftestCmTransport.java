package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.DeviceAttr;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaCmException;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * perftest's {@code -R}: the exchange over an rdma_cm connection ({@link PerftestCmChannel}) and the data QPs made and
 * connected through rdma_cm on the same port, as perftest 6.06's {@code create_rdma_cm_connection} does
 * ({@code perftest_communication.c}, {@code rdma_cm_*} functions; {@code perftest_resources.c}
 * {@code rdma_cm_allocate_nodes}, {@code destroy_ctx}):
 * <pre>
 *   client                                      server
 *                                               (bind port, listen, backlog = QPs)   see below
 *   hand-shake (zeroed key message)      &lt;---&gt;  hand-shake
 *   per QP: resolve address and route,          per CONNECT_REQUEST: QP on the tool's PD and CQs, accept,
 *   QP on the tool's PD and CQs, connect  ---&gt;  min_rnr_timer 12 (rdma_cm leaves 0), until every QP is there;
 *   (up to 10 tries, 100 ms apart)              then the listener goes
 *   hand-shake                           &lt;---&gt;  hand-shake
 *   conn_param, both sides: responder resources = initiator depth = out_reads for READ, 0 otherwise;
 *                           retry count 7 (-u is not used: rdma_cm sets the ACK timeout), RNR retry = retry count
 * </pre>
 * perftest's server listens only after the first hand-shake, and its client gives up on a REJ (its retry path
 * reuses the ids it has just destroyed); this server listens before that hand-shake, so a client's REQ always finds
 * the listener. Teardown ({@link #close()}), as {@code destroy_ctx}: each data connection is disconnected and its
 * DISCONNECTED and time-wait awaited (bounded) so the QPs can go before the tool's CQs and PD, then the exchange
 * connection goes.
 */
public final class PerftestCmTransport implements PerftestTransport
{
    /** {@code rdma_cm_client_connection}: attempts and the pause between them. */
    static final int CONNECT_ATTEMPTS = 10;
    static final long CONNECT_RETRY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** perftest's {@code MIN_RNR_TIMER}, set on the server's QPs after accept. */
    static final int MIN_RNR_TIMER = 12;
    private static final int MAX_CONN_RESOURCES = 255; // u8 in the REQ/REP

    private final RdmaCm cm;
    private final Side side;
    private final InetSocketAddress address;
    private final OobContext ctx;
    private final EventChannel dataEvents;
    private final List<CmId> dataIds = new ArrayList<>();
    private PerftestCmChannel control;
    private CmId listener;

    /**
     * @param cm      the node's connection manager (the caller opens and closes it).
     * @param side    this side's role.
     * @param address the server's RoCE address and the test's port for a client; for a server the port (it
     *                listens on the node's address).
     * @param ctx     timeouts.
     */
    public PerftestCmTransport(final RdmaCm cm, final Side side, final InetSocketAddress address,
        final OobContext ctx)
    {
        this.cm = cm;
        this.side = side;
        this.address = address;
        this.ctx = ctx;
        this.dataEvents = cm.createEventChannel();
    }

    @Override
    public PerftestChannel open() throws OobException
    {
        control = Side.SERVER == side ? PerftestCmChannel.accept(cm, address.getPort(), ctx) :
            PerftestCmChannel.connect(cm, address, ctx);
        return control;
    }

    @Override
    public List<QueuePair> createQps(final PerftestExchange exchange, final ProtectionDomain pd,
        final QpInitAttr init, final int count, final PerftestTest test, final int outReads) throws OobException
    {
        final ConnParam param = dataParam(test, outReads);
        final List<QueuePair> qps = new ArrayList<>(count);
        try
        {
            if (Side.SERVER == side)
            {
                listen(count);
                exchange.syncBeforeQps();
                for (int i = 0; i < count; i++)
                {
                    qps.add(acceptOne(pd, init, param));
                }
                PerftestCmEvents.destroy(listener, dataEvents);
                listener = null;
            }
            else
            {
                exchange.syncBeforeQps();
                for (int i = 0; i < count; i++)
                {
                    qps.add(connectOne(pd, init, param));
                }
            }
        }
        catch (final RdmaCmException ex)
        {
            throw new OobException("rdma_cm refused a step of the data connection: " + ex.getMessage(), ex);
        }
        exchange.syncBeforeQps();
        return qps;
    }

    @Override
    public boolean connectsQps()
    {
        return true;
    }

    @Override
    public String exchangeMethod()
    {
        return "rdma_cm";
    }

    @Override
    public void close()
    {
        try
        {
            disconnectData();
            if (null != listener)
            {
                PerftestCmEvents.destroy(listener, dataEvents);
                listener = null;
            }
        }
        finally
        {
            dataEvents.close();
            if (null != control)
            {
                control.close();
            }
        }
    }

    /** rdma_cm_route_handler / rdma_cm_connection_request_handler's conn_param. */
    private ConnParam dataParam(final PerftestTest test, final int outReads)
    {
        final ConnParam param = new ConnParam().retryCount(PerftestCmChannel.RETRY_COUNT)
            .rnrRetryCount(PerftestCmChannel.RETRY_COUNT);
        if (test.readsOrAtomics())
        {
            final DeviceAttr device = cm.device().queryDevice();
            final int reads = Math.min(MAX_CONN_RESOURCES, outReads);
            param.responderResources(Math.min(reads, device.maxQpRdAtom()))
                .initiatorDepth(Math.min(reads, device.maxQpInitRdAtom()));
        }
        return param;
    }

    private void listen(final int count) throws OobException
    {
        listener = cm.createId(dataEvents, null, PortSpace.TCP);
        try
        {
            listener.bindAddr(new InetSocketAddress(address.getPort()));
            listener.listen(count);
        }
        catch (final RdmaCmException ex)
        {
            throw new OobException("cannot listen for perftest's data connection on rdma_cm port " +
                address.getPort() + ": " + ex.getMessage(), ex);
        }
    }

    private QueuePair acceptOne(final ProtectionDomain pd, final QpInitAttr init, final ConnParam param)
        throws OobException
    {
        final String what = "perftest's rdma_cm data connection on port " + address.getPort();
        final CmEvent request = PerftestCmEvents.await(dataEvents, CmEventType.CONNECT_REQUEST, ctx.ioTimeoutNs(),
            what);
        final CmId id = request.id();
        dataIds.add(id);
        final QueuePair qp = id.createQp(pd, init);
        id.accept(param);
        // rdma_cm_connection_request_handler: rdma_cm's RTR leaves min_rnr_timer 0; perftest wants 12
        cm.device().modifyQp(qp, new QpAttr().minRnrTimer(MIN_RNR_TIMER), QpAttrMask.MIN_RNR_TIMER);
        PerftestCmEvents.await(dataEvents, CmEventType.ESTABLISHED, ctx.ioTimeoutNs(), what);
        return qp;
    }

    private QueuePair connectOne(final ProtectionDomain pd, final QpInitAttr init, final ConnParam param)
        throws OobException
    {
        final String what = "the rdma_cm data connection to " + address;
        for (int attempt = 1; ; attempt++)
        {
            final CmId id = cm.createId(dataEvents, null, PortSpace.TCP);
            try
            {
                PerftestCmEvents.resolve(id, dataEvents, address, what);
                final QueuePair qp = id.createQp(pd, init);
                id.connect(param);
                PerftestCmEvents.await(dataEvents, CmEventType.ESTABLISHED, ctx.ioTimeoutNs(), what);
                dataIds.add(id);
                return qp;
            }
            catch (final PerftestCmEvents.Failure refused)
            {
                PerftestCmEvents.destroy(id, dataEvents);
                if (attempt >= CONNECT_ATTEMPTS)
                {
                    throw new OobException(what + " failed " + CONNECT_ATTEMPTS + " times; the last time: " +
                        refused.getMessage(), refused);
                }
                LockSupport.parkNanos(CONNECT_RETRY_NS);
            }
            catch (final OobException | RuntimeException ex)
            {
                PerftestCmEvents.destroy(id, dataEvents);
                throw ex;
            }
        }
    }

    /**
     * destroy_ctx's rdma_cm_disconnect_nodes and rdma_disconnect: disconnect each data connection, then wait for its
     * DISCONNECTED (a DREP, or the peer's own DREQ) and its time-wait, so that destroying the id destroys the QP now.
     * Disconnecting again on DISCONNECTED answers a DREQ that crossed ours. Bounded: a peer that has gone only costs
     * the wait.
     */
    private void disconnectData()
    {
        final Set<CmId> connected = new HashSet<>(dataIds);
        final Set<CmId> inTimewait = new HashSet<>(dataIds);
        dataIds.forEach(PerftestCmTransport::disconnect);
        final long deadline = System.nanoTime() + ctx.ioTimeoutNs();
        while (!inTimewait.isEmpty())
        {
            final CmEvent event = PerftestCmEvents.next(dataEvents, deadline);
            if (null == event)
            {
                break;
            }
            if (CmEventType.DISCONNECTED == event.type() && connected.remove(event.id()))
            {
                disconnect(event.id()); // the DREP for a DREQ that crossed ours
            }
            else if (CmEventType.TIMEWAIT_EXIT == event.type())
            {
                inTimewait.remove(event.id());
            }
        }
        for (final CmId id : dataIds)
        {
            PerftestCmEvents.destroy(id, dataEvents);
        }
        dataIds.clear();
    }

    private static void disconnect(final CmId id)
    {
        try
        {
            id.disconnect();
        }
        catch (final RdmaCmException ex)
        {
            // not connected (any more): nothing to send
        }
    }
}
