package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.RxeDevice;

/**
 * What a {@link CmId}'s calls start from when the application leaves it to librdmacm: the connection parameters of
 * {@code rdma_connect(NULL)} and {@code rdma_accept(NULL)}, the private-data limits, the port's active MTU, and the
 * copy of the QP attributes that {@link CmId#getRequest()} gives each new id.
 * <pre>
 *   connect(NULL): responder resources and initiator depth the device's maxima (at most 255), retry 7, RNR retry 7
 *   accept(NULL):  the request's values capped by the device, retry 7, RNR retry 7
 * </pre>
 */
final class CmIdDefaults
{
    private CmIdDefaults()
    {
    }

    static ConnParam acceptParam(final RxeDevice device, final ConnParam requestParam, final ConnParam established)
    {
        // librdmacm rdma_accept(NULL): the request's values, capped by the device
        final ConnParam req = null != requestParam ? requestParam : null == established ? new ConnParam() : established;
        return new ConnParam()
            .responderResources(Math.min(req.responderResources(), device.queryDevice().maxQpRdAtom()))
            .initiatorDepth(Math.min(req.initiatorDepth(), device.queryDevice().maxQpInitRdAtom()))
            .retryCount(7).rnrRetryCount(7);
    }

    static ConnParam connectParam(final RxeDevice device)
    {
        // librdmacm rdma_connect(NULL): the device's maxima (RDMA_MAX_RESP_RES / RDMA_MAX_INIT_DEPTH), retry 7, rnr 7
        return new ConnParam().responderResources(Math.min(255, device.queryDevice().maxQpRdAtom()))
            .initiatorDepth(Math.min(255, device.queryDevice().maxQpInitRdAtom())).retryCount(7).rnrRetryCount(7);
    }

    static void checkPrivateData(final ConnParam p, final int max, final String call)
    {
        if (p.privateDataLength() > max)
        {
            throw new RdmaCmException(Errno.EINVAL, call + ": private data is " + p.privateDataLength() +
                " bytes; at most " + max + " fit");
        }
    }

    static Mtu activeMtu(final RxeDevice device)
    {
        return device.queryPort(CmId.PORT_NUM, new PortAttr()).activeMtu();
    }

    static QpInitAttr copy(final QpInitAttr init)
    {
        final QpInitAttr c = new QpInitAttr().qpType(init.qpType()).sendCq(init.sendCq()).recvCq(init.recvCq())
            .srq(init.srq()).sqSigAll(init.sqSigAll());
        c.cap().maxSendWr(init.cap().maxSendWr()).maxRecvWr(init.cap().maxRecvWr())
            .maxSendSge(init.cap().maxSendSge()).maxRecvSge(init.cap().maxRecvSge())
            .maxInlineData(init.cap().maxInlineData());
        return c;
    }
}
