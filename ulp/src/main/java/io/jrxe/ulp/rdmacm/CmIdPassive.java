package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.ulp.cm.CmConnection;
import io.jrxe.ulp.cm.CmService;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.SidrStatus;

import java.net.InetSocketAddress;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The passive side of a {@link CmId}: {@code rdma_listen} (the port's service ID on the IB CM),
 * {@code rdma_get_request} (a synchronous listener's next CONNECT_REQUEST, with the QP it was asked to make) and the
 * answer to a request, {@code rdma_accept} or {@code rdma_reject}.
 * <pre>
 *   accept RC/UC: the QP to INIT (remote access), RTR and RTS with the request's values, then the REP;
 *                 ESTABLISHED follows the RTU
 *   accept UD:    a SIDR_REP SUCCESS with the QP's number and the id's Q_Key
 *   reject:       a REJ (reason 28, consumer defined) or a SIDR_REP REJECT, with the private data
 * </pre>
 */
final class CmIdPassive
{
    private final CmId id;
    private final CmService cm;
    private final RxeDevice device;

    CmIdPassive(final CmId id)
    {
        this.id = id;
        this.cm = id.cm;
        this.device = id.device;
    }

    void listen(final int backlog)
    {
        synchronized (id)
        {
            if (CmId.State.IDLE == id.state)
            {
                id.bindAddr(new InetSocketAddress(0));
            }
            if (CmId.State.ADDR_BOUND != id.state)
            {
                throw new RdmaCmException(Errno.EINVAL, "listen needs a bound id; this one is " + id.state);
            }
            id.backlog = backlog <= 0 ? 1024 : backlog;
            id.state = CmId.State.LISTEN;
        }
        final long serviceId = id.portSpace().serviceId(id.localPort);
        final int[] result = new int[1];
        id.runOnCm(() -> result[0] = cm.listen(serviceId, id.handler) ? 0 : -Errno.EADDRINUSE);
        if (0 != result[0])
        {
            synchronized (id)
            {
                id.state = CmId.State.ADDR_BOUND;
            }
            throw new RdmaCmException(Errno.EADDRINUSE, "service 0x" + Long.toHexString(serviceId) + " has a listener");
        }
    }

    CmId getRequest() throws InterruptedException
    {
        if (!id.sync)
        {
            throw new RdmaCmException(Errno.EINVAL, "get_request is for synchronous ids (created without a channel)");
        }
        synchronized (id)
        {
            if (CmId.State.LISTEN != id.state)
            {
                throw new RdmaCmException(Errno.EINVAL, "get_request needs a listening id");
            }
        }
        while (true)
        {
            final CmEvent event = id.channel.getEvent();
            id.channel.ackEvent(event);
            if (CmEventType.CONNECT_REQUEST == event.type())
            {
                final CmId child = event.id();
                child.established = event.param();
                final QpInitAttr init;
                final ProtectionDomain requestPd;
                synchronized (id)
                {
                    init = id.listenQpInit;
                    requestPd = id.listenPd;
                }
                if (null != init)
                {
                    child.createQp(requestPd, CmIdDefaults.copy(init));
                }
                return child;
            }
        }
    }

    void accept(final ConnParam param)
    {
        final ConnParam p;
        synchronized (id)
        {
            if (!id.requestOpen || null == id.conn)
            {
                throw new RdmaCmException(Errno.EINVAL, "accept needs an id from a CONNECT_REQUEST not yet answered");
            }
            p = null == param ? CmIdDefaults.acceptParam(device, id.requestParam, id.established) : param;
            CmIdDefaults.checkPrivateData(p, QpType.UD == id.qpType() ? ConnParam.MAX_SIDR_REP_PRIVATE_DATA :
                ConnParam.MAX_REP_PRIVATE_DATA, "accept");
            if (null == id.qp && 0 == p.qpNum())
            {
                throw new RdmaCmException(Errno.EINVAL, "accept needs a QP (create_qp) or a qp_num in the parameters");
            }
            id.requestOpen = false;
        }
        id.releaseRequestSlot();
        if (QpType.UD == id.qpType())
        {
            acceptDatagram(p);
            return;
        }
        acceptConnected(p);
    }

    private void acceptDatagram(final ConnParam p)
    {
        final int qpn = null == id.qp ? p.qpNum() : id.qp.qpn();
        final byte[] data = p.privateData();
        id.runOnCm(() ->
        {
            id.conn.qp(QpType.UD, qpn, 0, 0, 0).qkey(id.qkey);
            cm.sendSidrRep(id.conn, SidrStatus.SUCCESS, data, data.length);
        });
    }

    private void acceptConnected(final ConnParam p)
    {
        final CmConnection c = id.conn;
        final int psn = ThreadLocalRandom.current().nextInt() & 0xFF_FFFF;
        final int rr = p.responderResources();
        final int initiatorDepth = p.initiatorDepth();
        if (rr > device.queryDevice().maxQpRdAtom() || initiatorDepth > device.queryDevice().maxQpInitRdAtom())
        {
            throw new RdmaCmException(Errno.EINVAL, "responder resources " + rr + " / initiator depth " +
                initiatorDepth + " exceed the device's " + device.queryDevice().maxQpRdAtom() + " / " +
                device.queryDevice().maxQpInitRdAtom());
        }
        final Mtu mtu = Mtu.ofCode(Math.min(c.pathMtu(), CmIdDefaults.activeMtu(device).code()));
        if (null != id.qp)
        {
            readyQp(c, psn, mtu, rr, initiatorDepth);
        }
        final int qpn = null == id.qp ? p.qpNum() : id.qp.qpn();
        final byte[] data = p.privateData();
        id.runOnCm(() ->
        {
            c.qp(id.qpType(), qpn, psn, rr, initiatorDepth).transport(mtu.code(), c.retryCount(), p.rnrRetryCount(),
                c.localAckTimeout(), p.flowControl(), p.srq() || (null != id.qp && null != id.qp.srq()));
            cm.sendRep(c, data, data.length);
        });
        CmIdWaits.awaitSync(id, CmEventType.ESTABLISHED);
    }

    /** The passive side's QP to RTR and RTS with the request's values; if it refuses, a REJ and the verbs errno. */
    private void readyQp(final CmConnection c, final int psn, final Mtu mtu, final int rr, final int initiatorDepth)
    {
        try
        {
            QpTransitions.init(device, id.qp, QpTransitions.access(rr));
            QpTransitions.rtr(device, id.qp, c.remoteGidHi(), c.remoteGidLo(), id.sgidIndex,
                c.hopLimit(), c.trafficClass(), c.remoteQpn(), psn, mtu, rr);
            // cm.c's convention: a Starting PSN is what its sender expects to receive (REP: psn, above);
            // we send from the REQ's
            final int timeout = id.ackTimeout >= 0 ? id.ackTimeout : c.localAckTimeout();
            QpTransitions.rts(device, id.qp, c.remoteStartingPsn(), timeout, c.retryCount(), c.rnrRetryCount(),
                initiatorDepth);
        }
        catch (final VerbsException e)
        {
            id.runOnCm(() -> cm.sendRej(c, RejReason.CONSUMER_DEFINED, null, 0));
            throw new RdmaCmException(e.errno(), "accept: the QP refused the request's values: " + e.getMessage());
        }
    }

    void reject(final byte[] privateData)
    {
        final byte[] data = null == privateData ? new byte[0] : privateData.clone();
        final boolean ud = QpType.UD == id.qpType();
        synchronized (id)
        {
            if (!id.requestOpen || null == id.conn)
            {
                throw new RdmaCmException(Errno.EINVAL, "reject needs an id from a CONNECT_REQUEST not yet answered");
            }
            final int max = ud ? ConnParam.MAX_SIDR_REP_PRIVATE_DATA : ConnParam.MAX_REJ_PRIVATE_DATA;
            if (data.length > max)
            {
                throw new RdmaCmException(Errno.EINVAL, "reject private data is " + data.length + " bytes; at most " +
                    max + " fit");
            }
            id.requestOpen = false;
        }
        id.releaseRequestSlot();
        final CmConnection c = id.conn;
        id.runOnCm(() ->
        {
            if (ud)
            {
                cm.sendSidrRep(c, SidrStatus.REJECT, data, data.length);
            }
            else if (c.state().isConnecting())
            {
                cm.sendRej(c, RejReason.CONSUMER_DEFINED, data, data.length);
            }
        });
    }
}
