package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.DevicePorts;

/**
 * Builds a small device and brings QPs through the standard transitions for tests.
 */
final class VerbsFixture
{
    static final int LOCAL_IP = 0x0a000001;
    static final int PEER_IP = 0x0a000002;

    final RxeDevice device;
    final DevicePort port;
    final ProtectionDomain pd;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;

    VerbsFixture()
    {
        this(new RxeContext().maxQp(64).maxMr(1024).maxMw(1024).maxCq(64).maxPd(64).maxAh(64).maxSrq(16)
            .keySeed(42));
    }

    VerbsFixture(final RxeContext ctx)
    {
        device = new RxeDevice(ctx);
        port = DevicePorts.claim(device);
        port.setGid(1, 0, GidTable.ipv4MappedLo(LOCAL_IP));
        pd = device.allocPd();
        sendCq = device.createCq(64, null);
        recvCq = device.createCq(64, null);
    }

    QueuePair createQp(final QpType type, final int maxSendWr, final int maxRecvWr)
    {
        final QpInitAttr init = new QpInitAttr().qpType(type).sendCq(sendCq).recvCq(recvCq);
        init.cap().maxSendWr(maxSendWr).maxRecvWr(maxRecvWr).maxSendSge(4).maxRecvSge(4).maxInlineData(64);
        return device.createQp(pd, init);
    }

    static int requiredInitMask(final QpType type)
    {
        return QpAttrMask.STATE | QpStateTable.required(type, QpState.RESET, QpState.INIT);
    }

    /** Attributes valid for every field any transition may require. */
    static QpAttr fullAttr(final QpState target)
    {
        final QpAttr attr = new QpAttr()
            .qpState(target)
            .pkeyIndex(0)
            .portNum(1)
            .qkey(0x11111111)
            .qpAccessFlags(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ)
            .pathMtu(Mtu.MTU_1024)
            .destQpNum(0x12)
            .rqPsn(0x100)
            .sqPsn(0x200)
            .maxDestRdAtomic(4)
            .maxRdAtomic(4)
            .minRnrTimer(12)
            .timeout(14)
            .retryCnt(7)
            .rnrRetry(7);
        attr.ahAttr().dgidIpv4(PEER_IP).sgidIndex(1).hopLimit(64);
        return attr;
    }

    void toRts(final QueuePair qp)
    {
        final QpType t = qp.type();
        device.modifyQp(qp, fullAttr(QpState.INIT), QpAttrMask.STATE | QpStateTable.required(t, QpState.RESET,
            QpState.INIT));
        device.modifyQp(qp, fullAttr(QpState.RTR), QpAttrMask.STATE | QpStateTable.required(t, QpState.INIT,
            QpState.RTR));
        device.modifyQp(qp, fullAttr(QpState.RTS), QpAttrMask.STATE | QpStateTable.required(t, QpState.RTR,
            QpState.RTS));
    }
}
