package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.cm.CmConnection;
import io.jrxe.ulp.cm.CmService;
import io.jrxe.ulp.cm.CmState;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The active side of a {@link CmId}: {@code rdma_connect} (a new IB CM connection on the resolved path, its REQ or
 * SIDR_REQ carrying rdma_cm's header and the application's private data) and {@code rdma_establish} (the RTU of an
 * id without a QP, after CONNECT_RESPONSE).
 * <pre>
 *   RC/UC: REQ (our QPN, a random Starting PSN, read depths, MTU, retry counts, ACK timeout) -> REP -> RTU
 *   UD:    SIDR_REQ -> SIDR_REP (the peer's QPN and Q_Key)
 * </pre>
 */
final class CmIdActive
{
    private final CmId id;
    private final CmService cm;
    private final RxeDevice device;

    CmIdActive(final CmId id)
    {
        this.id = id;
        this.cm = id.cm;
        this.device = id.device;
    }

    void connect(final ConnParam param)
    {
        final ConnParam p = null == param ? CmIdDefaults.connectParam(device) : param;
        final byte[] data;
        synchronized (id)
        {
            if (CmId.State.ROUTE_RESOLVED != id.state)
            {
                throw new RdmaCmException(Errno.EINVAL, "connect needs a resolved route; the id is " + id.state);
            }
            checkConnect(p);
            data = CmaHeaders.cmaHeader(p.privateData(), id.localPort, id.localAddr, id.remoteAddr);
            id.state = CmId.State.CONNECT;
            id.disconnectReported = false;
        }
        send(p, data);
        CmIdWaits.awaitSync(id, null == id.qp && QpType.UD != id.qpType() ? CmEventType.CONNECT_RESPONSE :
            CmEventType.ESTABLISHED);
    }

    private void checkConnect(final ConnParam p)
    {
        final boolean ud = QpType.UD == id.qpType();
        CmIdDefaults.checkPrivateData(p, ud ? ConnParam.MAX_SIDR_REQ_PRIVATE_DATA : ConnParam.MAX_REQ_PRIVATE_DATA,
            "connect");
        if (!ud && null == id.qp && 0 == p.qpNum())
        {
            throw new RdmaCmException(Errno.EINVAL, "connect needs a QP (create_qp) or a qp_num in the parameters");
        }
        if (p.responderResources() > device.queryDevice().maxQpRdAtom() ||
            p.initiatorDepth() > device.queryDevice().maxQpInitRdAtom() ||
            p.retryCount() < 0 || p.retryCount() > 7 || p.rnrRetryCount() < 0 || p.rnrRetryCount() > 7)
        {
            throw new RdmaCmException(Errno.EINVAL, "connect parameters out of range: " + p);
        }
    }

    /** The REQ or SIDR_REQ of a new connection on the id's path: its GIDs are the addresses. */
    private void send(final ConnParam p, final byte[] data)
    {
        final int sgid;
        final IpAddress local;
        final IpAddress remote;
        synchronized (id)
        {
            sgid = id.sgidIndex;
            local = id.localAddr;
            remote = id.remoteAddr;
        }
        final int qpn = null == id.qp ? p.qpNum() : id.qp.qpn();
        final int psn = ThreadLocalRandom.current().nextInt() & 0xFF_FFFF;
        final int timeout = id.ackTimeout >= 0 ? id.ackTimeout : cm.context().packetLifetime() + 1;
        final int mtu = CmIdDefaults.activeMtu(device).code();
        final long serviceId = id.portSpace().serviceId(id.remotePort);
        id.runOnCm(() ->
        {
            final CmConnection c = cm.create(id.handler);
            id.conn = c;
            c.serviceId(serviceId).path(local.hi(), local.lo(), remote.hi(), remote.lo(), id.tos, 64);
            if (QpType.UD == id.qpType())
            {
                c.qkey(id.qkey);
                cm.sendSidrReq(c, data, data.length, sgid);
            }
            else
            {
                c.qp(id.qpType(), qpn, psn, p.responderResources(), p.initiatorDepth())
                    .transport(mtu, p.retryCount(), p.rnrRetryCount(), timeout, p.flowControl(),
                        p.srq() || (null != id.qp && null != id.qp.srq()));
                cm.sendReq(c, data, data.length, sgid);
            }
        });
    }

    void establish()
    {
        final CmConnection c;
        synchronized (id)
        {
            c = id.conn;
            if (null == c || CmId.State.CONNECT != id.state)
            {
                throw new RdmaCmException(Errno.EINVAL, "establish follows CONNECT_RESPONSE");
            }
        }
        id.runOnCm(() ->
        {
            if (CmState.REP_RCVD == c.state())
            {
                cm.sendRtu(c, null, 0);
            }
        });
    }
}
