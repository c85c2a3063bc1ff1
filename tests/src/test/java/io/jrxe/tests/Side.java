package io.jrxe.tests;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;

/** One node's verbs objects for a test: a PD, a send CQ and a receive CQ, and helpers to make QPs and buffers. */
final class Side
{
    final RoceNode node;
    final RxeDevice device;
    final ProtectionDomain pd;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;

    Side(final RoceNode node, final int cqe)
    {
        this.node = node;
        this.device = node.device();
        this.pd = device.allocPd();
        this.sendCq = device.createCq(cqe, null);
        this.recvCq = device.createCq(cqe, null);
    }

    QueuePair qp(final QpType type, final int maxSendWr, final int maxRecvWr)
    {
        final QpInitAttr init = new QpInitAttr().qpType(type).sendCq(sendCq).recvCq(recvCq);
        init.cap().maxSendWr(maxSendWr).maxRecvWr(maxRecvWr).maxSendSge(1).maxRecvSge(1);
        return device.createQp(pd, init);
    }

    GuardedRegion region(final int length, final int access)
    {
        return new GuardedRegion(device, pd, length, access);
    }

    /**
     * Connects an RC/UC QP of each side to the other's (both RESET to RTS).
     *
     * @param psnXy first PSN of x's requests to y
     * @param psnYx first PSN of y's requests to x
     */
    static void connect(
        final QpConnector connector,
        final Side x, final QueuePair qx, final int ipX,
        final Side y, final QueuePair qy, final int ipY,
        final int psnXy, final int psnYx)
    {
        connector.connect(x.device, qx, 0, GidTable.ipv4MappedLo(ipY), qy.qpn(), psnYx, psnXy);
        connector.connect(y.device, qy, 0, GidTable.ipv4MappedLo(ipX), qx.qpn(), psnXy, psnYx);
    }
}
