package io.jrxe.rxe.node;

import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireQueueCounters;
import io.jrxe.driver.emu.WireQueueSettings;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.engine.DcqcnParameters;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.IbRate;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.LangUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Incast on the emulated wire, in virtual time: {@link #SENDERS} nodes RDMA WRITE into one receiver whose wire
 * port sits behind a switch egress queue ({@link WireQueueSettings}: 10 Gb/s, RED marking, tail drop). Each
 * sender's QP has a static rate of 10 Gb/s, its NIC's link, so together they offer four times what the bottleneck
 * drains. Everything is stepped on the caller's thread with a {@link ManualClock} that moves {@link #IDLE_STEP_NS}
 * whenever a step of every device and node did no work: a run is the same every time.
 * <pre>
 *   sender 0..3 (10.9.0.1..4, 10 Gb/s each) --+
 *                                             +--> [egress queue 10 Gb/s, mark CE > Kmin, drop > cap] --> receiver
 *                                                                                                         10.9.0.5
 * </pre>
 */
final class Incast implements AutoCloseable
{
    static final int SENDERS = 4;
    static final int RECEIVER = SENDERS;
    static final long IDLE_STEP_NS = 1_000;
    static final int LINE_RATE_MBPS = 10_000;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    /** What a run measured. */
    static final class Figures
    {
        boolean dcqcn;
        long completionNs;
        int succeeded;
        int failed;
        long queueMaxDepthBytes;
        long marked;
        long dropped;
        long retransmitted;
        long timeouts;
        long cnpSent;
        long cnpHandled;
        long ecnMarkedPkts;
        int minRateMbps = Integer.MAX_VALUE;
        boolean delivered;

        @Override
        public String toString()
        {
            return "dcqcn=" + (dcqcn ? "on" : "off") + " completion_us=" + completionNs / 1000 +
                " writes_ok=" + succeeded + " writes_failed=" + failed + " queue_max_depth_bytes=" +
                queueMaxDepthBytes + " marked=" + marked + " dropped=" + dropped + " retransmitted_pkts=" +
                retransmitted + " local_ack_timeout_err=" + timeouts + " ecn_marked_pkts=" + ecnMarkedPkts +
                " cnp_sent=" + cnpSent + " cnp_handled=" + cnpHandled + " min_rate_mbps=" +
                (Integer.MAX_VALUE == minRateMbps ? LINE_RATE_MBPS : minRateMbps) + " delivered=" + delivered;
        }
    }

    private final ManualClock clock = new ManualClock();
    private final EmulatedNetwork network;
    private final EmulatedNode[] nodes = new EmulatedNode[SENDERS + 1];
    private final Agent[] devices = new Agent[SENDERS + 1];
    private final boolean dcqcn;

    Incast(final boolean dcqcn, final WireQueueSettings bottleneck)
    {
        this.dcqcn = dcqcn;
        final EmulatedNetwork.Context net = new EmulatedNetwork.Context().nicCount(SENDERS + 1);
        net.wire().clock(clock).egressQueue(RECEIVER, bottleneck);
        network = new EmulatedNetwork(net);
        try
        {
            for (int i = 0; i <= SENDERS; i++)
            {
                final RoceNode.Context node = new RoceNode.Context().deviceName("jrxe-incast" + i)
                    .net(new NetStackContext().ipv4Address(ip(i)).ipv4PrefixLength(24))
                    .countersFile(false).nanoClock(clock).maxQps(16)
                    .dcqcn(new DcqcnParameters().enabled(dcqcn).lineRateMbps(LINE_RATE_MBPS));
                nodes[i] = new EmulatedNode(new EmulatedNode.Context().network(network).nicIndex(i)
                    .driver(new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new)).node(node));
                devices[i] = network.nic(i).agent();
            }
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    static int ip(final int index)
    {
        return Ipv4.parse("10.9.0." + (index + 1));
    }

    RoceNode node(final int index)
    {
        return nodes[index].node();
    }

    long nowNs()
    {
        return clock.nanoTime();
    }

    /** One duty cycle of every device and node; the clock moves when none did any work. */
    int step()
    {
        int work = 0;
        try
        {
            for (final Agent device : devices)
            {
                work += device.doWork();
            }
        }
        catch (final Exception ex)
        {
            LangUtil.rethrowUnchecked(ex);
        }
        for (final EmulatedNode node : nodes)
        {
            work += node.node().progress();
        }
        if (0 == work)
        {
            clock.advance(IDLE_STEP_NS);
        }
        return work;
    }

    /**
     * Resolves ARP between the senders and the receiver, then runs {@code writes} WRITEs of {@code size} bytes from
     * every sender at once and steps until all have completed (or {@code timeoutNs} of virtual time passed).
     */
    Figures run(final int writes, final int size, final long timeoutNs)
    {
        final RoceNode receiver = node(RECEIVER);
        for (int i = 0; i < SENDERS; i++)
        {
            node(i).stack().resolve4(ip(RECEIVER));
            receiver.stack().resolve4(ip(i));
        }
        final long arpDeadline = nowNs() + 1_000_000_000L;
        while (!resolved() && nowNs() < arpDeadline)
        {
            step();
        }
        if (!resolved())
        {
            throw new IllegalStateException("ARP between the incast nodes did not resolve");
        }
        final Flow[] flows = new Flow[SENDERS];
        for (int i = 0; i < SENDERS; i++)
        {
            flows[i] = new Flow(node(i), receiver, i, writes, size);
        }
        final Figures f = new Figures();
        f.dcqcn = dcqcn;
        final long start = nowNs();
        for (final Flow flow : flows)
        {
            flow.post();
        }
        boolean done = false;
        while (!done && nowNs() - start < timeoutNs)
        {
            step();
            done = true;
            for (final Flow flow : flows)
            {
                done &= flow.poll();
                final int rate = node(flow.index).engine().dcqcnRateMbps(flow.qp.qpn());
                f.minRateMbps = Math.min(f.minRateMbps, rate);
            }
        }
        f.completionNs = nowNs() - start;
        f.delivered = true;
        for (final Flow flow : flows)
        {
            f.succeeded += flow.succeeded;
            f.failed += flow.failed;
            f.delivered &= flow.delivered();
            final var c = node(flow.index).engine().counters();
            f.retransmitted += c.get(RxeCounter.RETRANSMITTED_PKTS);
            f.timeouts += c.get(RxeCounter.LOCAL_ACK_TIMEOUT_ERR);
            f.cnpHandled += c.get(RxeCounter.CNP_HANDLED);
        }
        final var rc = receiver.engine().counters();
        f.cnpSent = rc.get(RxeCounter.CNP_SENT);
        f.ecnMarkedPkts = rc.get(RxeCounter.ECN_MARKED_PKTS);
        final WireQueueCounters q = network.wire().queueCounters(RECEIVER);
        f.queueMaxDepthBytes = q.get(WireQueueCounters.MAX_DEPTH_BYTES);
        f.marked = q.get(WireQueueCounters.MARKED);
        f.dropped = q.get(WireQueueCounters.DROPPED);
        return f;
    }

    private boolean resolved()
    {
        for (int i = 0; i < SENDERS; i++)
        {
            if (!node(i).stack().isResolved4(ip(RECEIVER)) || !node(RECEIVER).stack().isResolved4(ip(i)))
            {
                return false;
            }
        }
        return true;
    }

    /** Engine-internal errors of every node (bugs: should stay 0). */
    long internalErrors()
    {
        long sum = 0;
        for (final EmulatedNode node : nodes)
        {
            sum += node.node().engine().counters().internalErrors();
        }
        return sum;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(nodes);
        CloseHelper.close(network);
    }

    /** One sender's RC QP to its own QP on the receiver, with a window of signalled WRITEs. */
    private static final class Flow
    {
        final int index;
        final QueuePair qp;
        private final int writes;
        private final int size;
        private final UnsafeBuffer source;
        private final UnsafeBuffer target;
        private final CompletionQueue cq;
        private final MemoryRegion mr;
        private final MemoryRegion remote;
        private final WorkCompletion[] polled = new WorkCompletion[16];
        int succeeded;
        int failed;

        Flow(final RoceNode sender, final RoceNode receiver, final int index, final int writes, final int size)
        {
            this.index = index;
            this.writes = writes;
            this.size = size;
            source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(writes * size, 4096));
            target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(writes * size, 4096));
            for (int i = 0; i < writes * size; i++)
            {
                source.putByte(i, (byte)(i * 31 + index));
            }
            final ProtectionDomain pd = sender.device().allocPd();
            final ProtectionDomain remotePd = receiver.device().allocPd();
            cq = sender.device().createCq(2 * writes, null);
            final CompletionQueue remoteCq = receiver.device().createCq(2, null);
            qp = sender.device().createQp(pd, init(cq, writes));
            final QueuePair peer = receiver.device().createQp(remotePd, init(remoteCq, 1));
            mr = sender.device().regMr(pd, source, ACCESS);
            remote = receiver.device().regMr(remotePd, target, ACCESS);
            // the static rate is the sender's 10 Gb/s link: without it an emulated NIC sends at any speed
            final QpConnector connector = new QpConnector().staticRate(IbRate.GBPS_10);
            connector.connect(sender.device(), qp, 0, GidTable.ipv4MappedLo(ip(RECEIVER)), peer.qpn(), 200, 100);
            connector.connect(receiver.device(), peer, 0, GidTable.ipv4MappedLo(ip(index)), qp.qpn(), 100, 200);
            for (int i = 0; i < polled.length; i++)
            {
                polled[i] = new WorkCompletion();
            }
        }

        private static QpInitAttr init(final CompletionQueue cq, final int depth)
        {
            final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
            init.cap().maxSendWr(depth).maxRecvWr(1).maxSendSge(1).maxRecvSge(1);
            return init;
        }

        void post()
        {
            final SendWorkRequest wr = new SendWorkRequest(1);
            for (int i = 0; i < writes; i++)
            {
                wr.wrId(i).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED).sgl().clear()
                    .add(source.addressOffset() + (long)i * size, size, mr.lkey());
                wr.remoteAddr(target.addressOffset() + (long)i * size).rkey(remote.rkey());
                assertEquals(0, qp.postSend(wr), "post " + i);
            }
        }

        boolean poll()
        {
            final int n = cq.poll(polled);
            for (int i = 0; i < n; i++)
            {
                if (WcStatus.SUCCESS.code() == polled[i].status())
                {
                    succeeded++;
                }
                else
                {
                    failed++;
                }
            }
            return succeeded + failed == writes;
        }

        boolean delivered()
        {
            for (int i = 0; i < writes * size; i++)
            {
                if (source.getByte(i) != target.getByte(i))
                {
                    return false;
                }
            }
            return true;
        }
    }
}
