package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.ulp.cm.CmConnection;
import io.jrxe.ulp.cm.CmHandler;
import io.jrxe.ulp.cm.CmService;
import io.jrxe.ulp.cm.CmState;
import io.jrxe.ulp.cm.mad.CmaHeader;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import io.jrxe.ulp.cm.mad.SidrStatus;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * The IB CM's callbacks for one {@link CmId}, on the CM thread: they turn the exchange's messages into the id's
 * {@link CmEvent}s, as cma.c's {@code cma_ib_handler} and {@code cma_ib_req_handler} do.
 * <pre>
 *   REQ / SIDR_REQ on a listening id -> a new id in CONNECT, CONNECT_REQUEST on the listener's channel (REJ /
 *                                       SIDR_REP REJECT when the id is not listening, its backlog is full, or its
 *                                       address does not take the request's: see takes())
 *   REP                              -> the QP to RTR and RTS, then the RTU (CONNECT_RESPONSE for an id without a QP)
 *   RTU                              -> ESTABLISHED
 *   REJ / timeout                    -> REJECTED / UNREACHABLE (DISCONNECTED when a DREQ went unanswered)
 *   DREQ / DREP                      -> DISCONNECTED; time-wait over -> TIMEWAIT_EXIT
 *   SIDR_REP                         -> ESTABLISHED with the peer's QPN, Q_Key and address vector, or UNREACHABLE
 * </pre>
 */
final class CmIdCallbacks implements CmHandler
{
    private final CmId id;
    private final CmService cm;
    private final RxeDevice device;

    CmIdCallbacks(final CmId id)
    {
        this.id = id;
        this.cm = id.cm;
        this.device = id.device;
    }

    @Override
    public void onReq(final CmConnection c, final ReqMessage req)
    {
        final byte[] pd = new byte[ReqMessage.PRIVATE_DATA_LENGTH];
        req.getPrivateData(pd, 0, pd.length);
        final CmId child = request(c, pd);
        if (null == child)
        {
            cm.sendRej(c, RejReason.CONSUMER_DEFINED, null, 0);
            return;
        }
        final ConnParam param = new ConnParam()
            .privateData(Arrays.copyOfRange(pd, CmaHeader.LENGTH, pd.length))
            .responderResources(c.peerInitiatorDepth()).initiatorDepth(c.peerResponderResources())
            .flowControl(c.flowControl()).retryCount(c.retryCount()).rnrRetryCount(c.rnrRetryCount())
            .srq(c.peerSrq()).qpNum(c.remoteQpn());
        deliverRequest(child, param);
    }

    @Override
    public void onSidrReq(final CmConnection c, final SidrReqMessage req)
    {
        final byte[] pd = new byte[SidrReqMessage.PRIVATE_DATA_LENGTH];
        req.getPrivateData(pd, 0, pd.length);
        final CmId child = request(c, pd);
        if (null == child)
        {
            cm.sendSidrRep(c, SidrStatus.REJECT, null, 0);
            return;
        }
        final ConnParam param = new ConnParam().retryCount(0).rnrRetryCount(0)
            .privateData(Arrays.copyOfRange(pd, CmaHeader.LENGTH, pd.length));
        deliverRequest(child, param);
    }

    @Override
    public void onRep(final CmConnection c, final RepMessage rep)
    {
        final byte[] pd = new byte[RepMessage.PRIVATE_DATA_LENGTH];
        rep.getPrivateData(pd, 0, pd.length);
        final ConnParam param = new ConnParam().privateData(pd)
            .responderResources(c.peerInitiatorDepth()).initiatorDepth(c.peerResponderResources())
            .flowControl(rep.endToEndFlowControl()).rnrRetryCount(c.rnrRetryCount()).retryCount(c.retryCount())
            .srq(c.peerSrq()).qpNum(c.remoteQpn());
        final QueuePair q;
        final int sgid;
        synchronized (id)
        {
            q = id.qp;
            sgid = id.sgidIndex;
            id.established = param;
        }
        if (null == q)
        {
            id.deliver(CmEventType.CONNECT_RESPONSE, 0, param, null, 0, null);
            return;
        }
        if (readyQp(c, q, sgid, param))
        {
            cm.sendRtu(c, null, 0);
        }
    }

    /** The active side's QP to RTR and RTS with the REP's values; false (REJ sent, CONNECT_ERROR) if it refused. */
    private boolean readyQp(final CmConnection c, final QueuePair q, final int sgid, final ConnParam param)
    {
        try
        {
            // cm.c: our READs are limited by the peer's responder resources, its READs by our initiator depth
            final int maxDest = Math.min(c.responderResources(), c.peerInitiatorDepth());
            final int maxRd = Math.min(c.initiatorDepth(), c.peerResponderResources());
            QpTransitions.init(device, q, QpTransitions.access(c.responderResources()));
            // cm.c's convention: our REQ's Starting PSN is what we expect, the REP's what the peer expects
            QpTransitions.rtr(device, q, c.remoteGidHi(), c.remoteGidLo(), sgid,
                c.hopLimit(), c.trafficClass(), c.remoteQpn(), c.startingPsn(), Mtu.ofCode(c.pathMtu()),
                maxDest);
            QpTransitions.rts(device, q, c.remoteStartingPsn(), c.localAckTimeout(), c.retryCount(),
                c.rnrRetryCount(), maxRd);
            return true;
        }
        catch (final VerbsException e)
        {
            cm.sendRej(c, RejReason.CONSUMER_DEFINED, null, 0); // cma.c cma_rep_recv failure
            id.deliver(CmEventType.CONNECT_ERROR, -e.errno(), param, null, 0, null);
            return false;
        }
    }

    @Override
    public void onEstablished(final CmConnection c)
    {
        final ConnParam param;
        synchronized (id)
        {
            param = null == id.established ? new ConnParam().qpNum(c.remoteQpn()) : id.established;
        }
        id.deliver(CmEventType.ESTABLISHED, 0, param, null, 0, null);
    }

    @Override
    public void onRej(final CmConnection c, final RejMessage rej)
    {
        final byte[] pd = new byte[RejMessage.PRIVATE_DATA_LENGTH];
        rej.getPrivateData(pd, 0, pd.length);
        synchronized (id)
        {
            QpTransitions.error(device, id.qp);
        }
        id.deliver(CmEventType.REJECTED, rej.reason(), new ConnParam().privateData(pd), null, 0, null);
    }

    @Override
    public void onTimeout(final CmConnection c, final CmState failed)
    {
        if (CmState.DREQ_SENT == failed)
        {
            id.disconnected(-Errno.ETIMEDOUT);
        }
        else
        {
            id.deliver(CmEventType.UNREACHABLE, -Errno.ETIMEDOUT, null, null, 0, null);
        }
    }

    @Override
    public void onDreq(final CmConnection c, final DreqMessage dreq)
    {
        id.disconnected(0);
    }

    @Override
    public void onDrep(final CmConnection c)
    {
        id.disconnected(0);
    }

    @Override
    public void onTimewaitExit(final CmConnection c)
    {
        id.deliver(CmEventType.TIMEWAIT_EXIT, 0, null, null, 0, null);
    }

    @Override
    public void onSidrRep(final CmConnection c, final SidrRepMessage rep)
    {
        final byte[] pd = new byte[SidrRepMessage.PRIVATE_DATA_LENGTH];
        rep.getPrivateData(pd, 0, pd.length);
        final ConnParam param = new ConnParam().retryCount(0).rnrRetryCount(0).privateData(pd).qpNum(rep.qpn());
        if (SidrStatus.SUCCESS != rep.status())
        {
            id.deliver(CmEventType.UNREACHABLE, rep.status(), param, null, 0, null);
        }
        else if (rep.qkey() != id.qkey)
        {
            id.deliver(CmEventType.UNREACHABLE, -Errno.EINVAL, param, null, 0, null); // cma.c: Q_Key mismatch
        }
        else
        {
            final AhAttr ah = new AhAttr().dgid(c.remoteGidHi(), c.remoteGidLo())
                .sgidIndex(id.sgidIndex).hopLimit(64).trafficClass(id.tos).portNum(CmId.PORT_NUM);
            id.deliver(CmEventType.ESTABLISHED, 0, param, null, rep.qkey(), ah);
        }
    }

    private CmId request(final CmConnection c, final byte[] privateData)
    {
        final CmaHeader hdr = new CmaHeader();
        hdr.wrap(new UnsafeBuffer(privateData), 0);
        if (!hdr.isValid())
        {
            return null; // cma.c cma_check_req_qp_type / cma_save_ip_info: not an rdma_cm IPv4 or IPv6 request
        }
        final IpAddress local = CmaHeaders.destination(hdr);
        final int sgid = local.isIpv4() ? RoceNode.GID_INDEX_IPV4 : id.rdmaCm.addresses().gidIndex(local);
        synchronized (id)
        {
            if (CmId.State.LISTEN != id.state || id.pendingRequests >= id.backlog || !takes(local, sgid))
            {
                return null;
            }
            id.pendingRequests++;
        }
        final CmId child = id.rdmaCm.createId(id.sync ? null : id.channel, id.context(), id.portSpace(), id.qpType());
        synchronized (child)
        {
            child.conn = c;
            child.listener = id;
            child.requestOpen = true;
            child.localAddr = local;
            child.localPort = id.localPort;
            child.remoteAddr = CmaHeaders.source(hdr);
            child.sgidIndex = sgid;
            child.remotePort = hdr.port();
            child.state = CmId.State.CONNECT;
            child.ackTimeout = id.ackTimeout;
            child.tos = c.trafficClass();
        }
        c.handler(child.handler).context(child);
        return child;
    }

    /**
     * Whether the listener takes a request to {@code local} (cma.c {@code cma_match_private_data}): bound to
     * 0.0.0.0 or an IPv4 address, IPv4 requests; to ::, IPv4 and IPv6 ones; to an IPv6 address, IPv6 requests to
     * that address. An IPv6 destination must be one of the node's addresses ({@code sgid} its GID index). The
     * caller holds the listener's lock.
     */
    private boolean takes(final IpAddress local, final int sgid)
    {
        final IpAddress bound = id.localAddr;
        if (local.isIpv4())
        {
            return bound.isIpv4() || bound.isAny();
        }
        return sgid >= 0 && !bound.isIpv4() && (bound.isAny() || bound.equals(local));
    }

    private void deliverRequest(final CmId child, final ConnParam param)
    {
        final CmEvent event;
        synchronized (child)
        {
            child.established = null;
            child.requestParam = param;
            event = new CmEvent(CmEventType.CONNECT_REQUEST, 0, child, id, param, 0, null);
        }
        id.channel().deliver(event);
    }
}
