package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;

/**
 * An RC QP pair between the nodes, outside RPC-over-RDMA, whose A side is in a PD of the test's choice (the
 * client transport's): from B it RDMA WRITEs to whatever rkey and address the test names, as a server that kept
 * an rkey would. The A side grants remote write, so only the registration decides whether the WRITE lands.
 * A failed WRITE leaves both QPs in ERR: use a new side channel for the next WRITE after a failure.
 */
final class SideChannel implements AutoCloseable
{
    private final RpcPair pair;
    private final RxeDevice devA;
    private final RxeDevice devB;
    private final CompletionQueue cqA;
    private final CompletionQueue cqB;
    private final QueuePair qpA;
    private final QueuePair qpB;
    private final ProtectionDomain pdB;
    private final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 4096));
    private final MemoryRegion srcMr;
    private final WorkCompletion[] wcs = {new WorkCompletion()};

    SideChannel(final RpcPair pair, final ProtectionDomain pdA)
    {
        this.pair = pair;
        devA = pair.nodes.a().device();
        devB = pair.nodes.b().device();
        cqA = devA.createCq(8, null);
        cqB = devB.createCq(8, null);
        pdB = devB.allocPd();
        srcMr = devB.regMr(pdB, src, AccessFlags.LOCAL_WRITE);
        qpA = devA.createQp(pdA, init(cqA));
        qpB = devB.createQp(pdB, init(cqB));
        final QpConnector connector = new QpConnector();
        connector.connect(devA, qpA, 0, GidTable.ipv4MappedLo(NodePair.IP_B), qpB.qpn(), 300, 400);
        connector.connect(devB, qpB, 0, GidTable.ipv4MappedLo(NodePair.IP_A), qpA.qpn(), 400, 300);
    }

    private static QpInitAttr init(final CompletionQueue cq)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
        return init;
    }

    /**
     * RDMA WRITE {@code length} bytes of {@code fill} from B to A's memory named by {@code rkey} and
     * {@code address}.
     *
     * @return the WRITE's completion status ({@link io.jrxe.rxe.verbs.WcStatus} code)
     */
    int write(final int rkey, final long address, final int length, final byte fill)
    {
        src.setMemory(0, length, fill);
        final SendWorkRequest wr = new SendWorkRequest(1).wrId(7).opcode(WrOpcode.RDMA_WRITE)
            .sendFlags(SendFlags.SIGNALED).remoteAddr(address).rkey(rkey);
        wr.sgl().add(src.addressOffset(), length, srcMr.lkey());
        if (0 != qpB.postSend(wr))
        {
            throw new AssertionError("post of the side channel's WRITE: " + qpB.postError());
        }
        pair.runUntil(() -> 1 == cqB.poll(wcs, 1), 10 * SECOND, "the side channel's WRITE completion");
        return wcs[0].status();
    }

    @Override
    public void close()
    {
        devA.destroyQp(qpA);
        devB.destroyQp(qpB);
        devA.destroyCq(cqA);
        devB.destroyCq(cqB);
        devB.deregMr(srcMr);
        devB.deallocPd(pdB);
    }
}
