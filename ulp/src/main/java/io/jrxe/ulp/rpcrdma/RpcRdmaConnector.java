package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The client transport's connection through rdma_cm (Linux's {@code rpcrdma_xprt_connect} and
 * {@code rpcrdma_xprt_disconnect}): address and route resolution, the QP with its receives posted before the REQ
 * (the REQ says RNR retry 0), RFC 8797 private data both ways, the drain after a disconnect, and reconnection with
 * back-off. It changes the transport's state; everything runs on the transport's thread.
 * <pre>
 *   DISCONNECTED --connect, the back-off passed--&gt; CONNECTING: create id, resolve address
 *   ADDR_RESOLVED -&gt; resolve route; ROUTE_RESOLVED -&gt; QP, receives, REQ (initiator depth 0, responder resources
 *       = the device's max, retry 6, RNR retry 0, private data: magic, version 1, the I flag, inline sizes)
 *   ESTABLISHED (REP's private data) -&gt; CONNECTED;  an error event -&gt; DISCONNECTED, or DRAINING once a QP exists
 *   forced down -&gt; DRAINING: the QP in ERR, every posted WR's flush reaped (or the deadline passed)
 *   -&gt; DISCONNECTED: id destroyed, MRs recycled, the client told; the next try after the delay, doubling to max
 * </pre>
 */
final class RpcRdmaConnector
{
    private final RpcRdmaTransport t;
    private final RdmaCm cm;
    private final EventChannel events;
    private CmId id;
    private boolean wantConnect;
    private long nextConnectNs;
    private long reconnectDelayNs;
    private long drainDeadlineNs;
    private boolean everConnected;

    RpcRdmaConnector(final RpcRdmaTransport transport, final RdmaCm cm)
    {
        this.t = transport;
        this.cm = cm;
        this.events = cm.createEventChannel();
        this.reconnectDelayNs = transport.ctx.reconnectInitialNs();
    }

    /** Connect now, or when the back-off has passed. */
    void connect()
    {
        wantConnect = true;
        if (RpcRdmaTransport.DISCONNECTED == t.state && t.now() - nextConnectNs >= 0)
        {
            startConnect();
        }
    }

    /** Stay disconnected until asked again. */
    void stopWanting()
    {
        wantConnect = false;
    }

    /** @return work done: a CM event, a finished drain, a due reconnect */
    int work()
    {
        int work = 0;
        final CmEvent event = events.pollEvent();
        if (null != event)
        {
            work++;
            onCmEvent(event);
        }
        if (RpcRdmaTransport.DRAINING == t.state && (0 == t.postedRecvs && 0 == t.sqOutstanding ||
            t.now() - drainDeadlineNs >= 0))
        {
            finishDisconnect();
            work++;
        }
        if (RpcRdmaTransport.DISCONNECTED == t.state && wantConnect && t.now() - nextConnectNs >= 0)
        {
            startConnect();
            work++;
        }
        return work;
    }

    private void startConnect()
    {
        t.state = RpcRdmaTransport.CONNECTING;
        t.inlineSend = RpcRdma.V1_DEFAULT_INLINE;
        t.inlineRecv = RpcRdma.V1_DEFAULT_INLINE;
        t.credits = 1;
        try
        {
            id = cm.createId(events, t, PortSpace.TCP);
            id.resolveAddr(null, t.server(), t.ctx.resolveTimeoutMs());
        }
        catch (final RdmaCmException ex)
        {
            connectFailed();
        }
    }

    private void connectFailed()
    {
        destroyId();
        t.state = RpcRdmaTransport.DISCONNECTED;
        nextConnectNs = t.now() + reconnectDelayNs;
        backOff();
    }

    private void backOff()
    {
        reconnectDelayNs = Math.min(t.ctx.reconnectMaxNs(), Math.max(reconnectDelayNs * 2, 1_000_000L));
    }

    private void onRouteResolved()
    {
        final QpInitAttr init = new QpInitAttr().sendCq(t.sendCq).recvCq(t.recvCq);
        init.cap().maxSendWr(t.sqDepth).maxRecvWr(t.reps.length).maxSendSge(2).maxRecvSge(1);
        t.qp = id.createQp(t.pd, init);
        t.recvTarget = t.ctx.maxRequests() + t.ctx.bcMaxRequests();
        t.replenish();
        final UnsafeBuffer pdata = new UnsafeBuffer(new byte[ConnectPrivate.LENGTH]);
        ConnectPrivate.encode(pdata, 0, t.ctx.acceptSendWithInvalidate(), t.ctx.inlineSend(), t.ctx.inlineRecv());
        // as Linux's client: it offers RDMA READ to the server (responder resources) but never reads itself;
        // retry 6; RPC-over-RDMA does its own flow control, so no RNR retries (an RNR NAK would be a bug)
        final int ird = Math.min(255, t.device.queryDevice().maxQpRdAtom());
        id.connect(new ConnParam().initiatorDepth(0).responderResources(ird).retryCount(6).rnrRetryCount(0)
            .privateData(pdata.byteArray()));
    }

    private void onEstablished(final CmEvent event)
    {
        final ConnParam param = event.param();
        final byte[] pdata = null == param ? null : param.privateData();
        if (null != pdata && ConnectPrivate.present(new UnsafeBuffer(pdata), 0, pdata.length))
        {
            // RFC 8797 §5.1: each direction's threshold is the smaller of the sender's and the receiver's
            final UnsafeBuffer p = new UnsafeBuffer(pdata);
            t.inlineSend = Math.min(t.ctx.inlineSend(), ConnectPrivate.recvSize(p, 0));
            t.inlineRecv = Math.min(t.ctx.inlineRecv(), ConnectPrivate.sendSize(p, 0));
        }
        t.state = RpcRdmaTransport.CONNECTED;
        everConnected = true;
        reconnectDelayNs = t.ctx.reconnectInitialNs();
        t.counters.increment(RpcRdmaCounter.CONNECT_COUNT);
        if (null != t.listener())
        {
            t.listener().connected();
        }
    }

    /** Take the connection down (QP to ERR, DREQ), or give up a connect under way. */
    void forceDisconnect()
    {
        if (RpcRdmaTransport.CONNECTED == t.state || RpcRdmaTransport.CONNECTING == t.state && null != t.qp)
        {
            try
            {
                id.disconnect();
            }
            catch (final RdmaCmException ignored)
            {
                // not connected at the CM's level yet: destroying the id below ends it
            }
            startDrain();
        }
        else if (RpcRdmaTransport.CONNECTING == t.state)
        {
            connectFailed();
        }
    }

    private void startDrain()
    {
        // a QP that never got connected (REJECTED, UNREACHABLE) is not in ERR: put it there, so its posted
        // receives flush (IBA 10.3.1, Error state) and the drain ends without waiting for its deadline
        final QueuePair q = t.qp;
        if (null != q && !q.isDestroyed() && QpState.ERR != q.state() && QpState.RESET != q.state())
        {
            try
            {
                t.device.modifyQp(q, new QpAttr().qpState(QpState.ERR), QpAttrMask.STATE);
            }
            catch (final VerbsException ignored)
            {
                // destroyed meanwhile: nothing left to flush
            }
        }
        t.state = RpcRdmaTransport.DRAINING;
        drainDeadlineNs = t.now() + t.ctx.drainTimeoutNs();
    }

    /** Every flush reaped (or the deadline passed): the id goes, MRs are recycled, the client resends. */
    void finishDisconnect()
    {
        destroyId();
        t.replies.afterDisconnect();
        t.inFlight = 0;
        t.postedRecvs = 0;
        t.sqOutstanding = 0;
        t.state = RpcRdmaTransport.DISCONNECTED;
        t.counters.increment(RpcRdmaCounter.DISCONNECT_COUNT);
        nextConnectNs = t.now() + (everConnected ? reconnectDelayNs : 0);
        backOff();
        if (null != t.listener())
        {
            t.listener().disconnected();
        }
    }

    private void destroyId()
    {
        t.qp = null;
        if (null != id)
        {
            final CmId dead = id;
            id = null;
            try
            {
                dead.destroy();
            }
            catch (final RdmaCmException ignored)
            {
                // already gone with the device
            }
        }
    }

    /** Close the event channel (the transport is destroyed). */
    void close()
    {
        events.close();
    }

    private void onCmEvent(final CmEvent event)
    {

        final CmId about = event.id();
        events.ackEvent(event);
        if (about != id)
        {
            return; // a late event of a connection already torn down
        }
        switch (event.type())
        {
            case ADDR_RESOLVED:
                try
                {
                    id.resolveRoute(t.ctx.resolveTimeoutMs());
                }
                catch (final RdmaCmException ex)
                {
                    connectFailed();
                }
                break;
            case ROUTE_RESOLVED:
                try
                {
                    onRouteResolved();
                }
                catch (final RuntimeException ex)
                {
                    connectFailed();
                }
                break;
            case ESTABLISHED:
                onEstablished(event);
                break;
            case DISCONNECTED:
                if (RpcRdmaTransport.CONNECTED == t.state)
                {
                    forceDisconnect();
                }
                break;
            case DEVICE_REMOVAL:
                t.close();
                break;
            case ADDR_ERROR:
            case ROUTE_ERROR:
            case CONNECT_ERROR:
            case UNREACHABLE:
            case REJECTED:
                if (RpcRdmaTransport.CONNECTING == t.state)
                {
                    if (null != t.qp)
                    {
                        startDrain(); // receives were posted on the QP: reap their flushes first
                    }
                    else
                    {
                        connectFailed();
                    }
                }
                break;
            default:
                break;
        }
    }
}
