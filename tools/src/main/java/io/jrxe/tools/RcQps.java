package io.jrxe.tools;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CoherentBuffer;
import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code count} connected RC QP pairs between the two nodes of a {@link NodePair}, each QP with its own CQ (send
 * and receive), on one PD per node, connected the way perftest connects after its exchange (QpConnector).
 */
final class RcQps
{
    /** Access of the registered buffers: everything the workloads do to them. */
    static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ |
        AccessFlags.REMOTE_ATOMIC;

    /** Settings of the QPs, with perftest-like defaults. */
    static final class Settings
    {
        int count = 1;
        Mtu pathMtu = Mtu.MTU_1024;
        int sendWr = 128;
        int recvWr = 512;
        int maxInline;
        int rdAtomic = 16;
        /** Local ACK timeout exponent (4.096 µs × 2^timeout). */
        int timeout = 14;
        /** CQs report to a completion channel per node (perf --events). */
        boolean events;
    }

    final RoceNode a;
    final RoceNode b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final QueuePair[] qpA;
    final QueuePair[] qpB;
    final CompletionQueue[] cqA;
    final CompletionQueue[] cqB;
    /** The completion channels of nodes A and B, or null when the CQs are polled only. */
    final CompletionChannel channelA;
    final CompletionChannel channelB;

    RcQps(final NodePair pair, final Settings s)
    {
        a = pair.a();
        b = pair.b();
        pdA = a.device().allocPd();
        pdB = b.device().allocPd();
        qpA = new QueuePair[s.count];
        qpB = new QueuePair[s.count];
        cqA = new CompletionQueue[s.count];
        cqB = new CompletionQueue[s.count];
        final int cqe = s.sendWr + s.recvWr;
        channelA = s.events ? a.device().createCompChannel() : null;
        channelB = s.events ? b.device().createCompChannel() : null;
        for (int i = 0; i < s.count; i++)
        {
            // QP i on engine shard i mod shards: its CQ's completion vector chooses the shard (ShardMap)
            cqA[i] = a.device().createCq(new CqInitAttr().cqe(cqe).channel(channelA)
                .compVector(i % a.device().numCompVectors()));
            cqB[i] = b.device().createCq(new CqInitAttr().cqe(cqe).channel(channelB)
                .compVector(i % b.device().numCompVectors()));
            qpA[i] = a.device().createQp(pdA, init(cqA[i], s));
            qpB[i] = b.device().createQp(pdB, init(cqB[i], s));
        }
        final QpConnector connector = new QpConnector().pathMtu(s.pathMtu).timeout(s.timeout)
            .rdAtomic(s.rdAtomic, s.rdAtomic);
        for (int i = 0; i < s.count; i++)
        {
            final int psnA = 0x1000 * (i + 1);
            final int psnB = 0x800000 + 0x1000 * (i + 1);
            connector.connect(a.device(), qpA[i], 0, GidTable.ipv4MappedLo(NodePair.IP_B), qpB[i].qpn(), psnB, psnA);
            connector.connect(b.device(), qpB[i], 0, GidTable.ipv4MappedLo(NodePair.IP_A), qpA[i].qpn(), psnA, psnB);
        }
    }

    private static QpInitAttr init(final CompletionQueue cq, final Settings s)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(s.sendWr).maxRecvWr(s.recvWr).maxSendSge(1).maxRecvSge(1).maxInlineData(s.maxInline);
        return init;
    }

    /**
     * The path MTU of an {@code --mtu} option.
     *
     * @throws IllegalArgumentException unless it is one of the IB MTUs
     */
    static Mtu pathMtu(final int bytes)
    {
        final Mtu mtu = Mtu.floorOf(bytes);
        if (null == mtu || mtu.bytes() != bytes)
        {
            throw new IllegalArgumentException("--mtu must be one of 256, 512, 1024, 2048, 4096: " + bytes);
        }
        return mtu;
    }

    int count()
    {
        return qpA.length;
    }

    /** A page-aligned direct buffer registered on node A ({@code onA}) or B with {@link #ACCESS}. */
    MemoryRegion register(final boolean onA, final UnsafeBuffer buffer)
    {
        return onA ? a.device().regMr(pdA, buffer, ACCESS) : b.device().regMr(pdB, buffer, ACCESS);
    }

    /** Zeroed DMA memory of node A ({@code onA}) or B's NIC ({@code ib_dma_alloc_coherent}). */
    CoherentBuffer allocateDma(final boolean onA, final int length)
    {
        return (onA ? a : b).device().dma().allocCoherent(Math.max(64, length));
    }

    /** DMA memory registered on node A ({@code onA}) or B with {@link #ACCESS}: the NIC reads payloads from it. */
    MemoryRegion register(final boolean onA, final CoherentBuffer buffer)
    {
        return onA ? a.device().regMr(pdA, buffer, ACCESS) : b.device().regMr(pdB, buffer, ACCESS);
    }

    static UnsafeBuffer allocate(final int length)
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(64, length), 4096));
    }
}
