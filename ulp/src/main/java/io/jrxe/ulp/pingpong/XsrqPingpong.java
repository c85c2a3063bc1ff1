package io.jrxe.ulp.pingpong;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.SrqAttr;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.rxe.verbs.XrcDomain;
import io.jrxe.ulp.oob.PeerQpSettings;
import io.jrxe.ulp.oob.XsrqDest;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The verbs side of {@code ibv_xsrq_pingpong} (rdma-core {@code libibverbs/examples/xsrq_pingpong.c}, 44.0) on a
 * jrxe node, so that two jrxe processes (or jrxe and the Linux tool on a device with XRC) can play it:
 * <ul>
 *   <li>one buffer of {@code size} bytes (zeroed) for every send and receive, registered LOCAL_WRITE; an XRC domain;
 *       a receive CQ and a send CQ of {@code clients} entries; one XRC SRQ ({@code clients} WRs, 1 SGE) completing
 *       on the receive CQ; per client an XRC target QP (INIT with remote read and write) and an XRC initiator QP
 *       ({@code clients * tests} send WRs, INIT with no access); {@code clients} receives posted at once;</li>
 *   <li>connect ({@code connect_qps}): target RTR to the peer's initiator (min RNR timer 12, no RDMA READ
 *       resources) and RTS (timeout 14); initiator RTR to the peer's target and RTS (timeout 14, retry 7, RNR
 *       retry 7); both start at this side's PSN and expect the peer's; hop limit 5;</li>
 *   <li>the server sends to every client first; after each receive a side posts a receive again and, while the
 *       client the completion's target QP belongs to has had fewer than {@code tests} messages, sends it the next
 *       one, naming that client's SRQ, on the initiator QP {@code (client + count) % clients} (round robin, as the
 *       tool); only each client's last send is signaled;</li>
 *   <li>the run ends after {@code clients * tests} receives and {@code clients} send completions.</li>
 * </ul>
 * The node is driven on the caller's thread between CQ polls ({@link RoceNode#progress()}).
 * <p>
 * The tool's clients may be several processes on one host that share the XRC domain through a file (ibv_open_xrcd
 * with an fd), so the server's round robin reaches one client's SRQ through another client's target QP. A jrxe
 * device belongs to one process, so a jrxe client is always a single client ({@code clients} = 1 there), and a
 * jrxe server with several clients needs them on one node sharing one domain.
 */
public final class XsrqPingpong implements AutoCloseable
{
    /** xsrq_pingpong's {@code min_rnr_timer} (TGT RTR). */
    static final int MIN_RNR_TIMER = 12;
    /** xsrq_pingpong's {@code timeout} (both RTS). */
    static final int TIMEOUT = 14;
    /** xsrq_pingpong's {@code retry_cnt} and {@code rnr_retry} (INI RTS). */
    static final int RETRY = 7;
    /** xsrq_pingpong's {@code grh.hop_limit}. */
    static final int HOP_LIMIT = 5;

    /** What one run did. */
    public record Result(int receives, int sends, long elapsedNs)
    {
    }

    private final RoceNode node;
    private final RxeDevice device;
    private final int size;
    private final int clients;
    private final int tests;
    private final IdleStrategy idle;
    private final NanoClock clock;
    private final UnsafeBuffer buf;
    private final ProtectionDomain pd;
    private final MemoryRegion mr;
    private final XrcDomain xrcd;
    private final CompletionQueue recvCq;
    private final CompletionQueue sendCq;
    private final SharedReceiveQueue srq;
    private final QueuePair[] recvQps;
    private final QueuePair[] sendQps;
    private final XsrqDest[] remotes;
    private final int[] ppCount;
    private final SendWorkRequest sendWr = new SendWorkRequest(1);
    private final RecvWorkRequest recvWr = new RecvWorkRequest(1);
    private final WorkCompletion[] wcs = { new WorkCompletion(), new WorkCompletion() };
    private int sends;

    /**
     * Creates the verbs objects, moves the QPs to INIT and posts {@code clients} receives to the SRQ.
     *
     * @param node the node.
     * @param size message size in bytes (the tool's {@code -s}).
     * @param clients clients (the server's {@code -c}; 1 on a client).
     * @param tests messages each way per client (the tool's {@code -n}).
     * @param idle what the polling thread does when idle.
     * @param clock the clock of the run's timing and deadline.
     * @throws IllegalArgumentException if a count is out of range
     */
    public XsrqPingpong(final RoceNode node, final int size, final int clients, final int tests,
        final IdleStrategy idle, final NanoClock clock)
    {
        if (size < 1 || clients < 1 || tests < 1)
        {
            throw new IllegalArgumentException("size, clients and tests must be at least 1: size=" + size +
                " clients=" + clients + " tests=" + tests);
        }
        this.node = node;
        this.device = node.device();
        this.size = size;
        this.clients = clients;
        this.tests = tests;
        this.idle = idle;
        this.clock = clock;
        buf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(size, 64));
        pd = device.allocPd();
        mr = device.regMr(pd, buf, AccessFlags.LOCAL_WRITE);
        xrcd = device.allocXrcd();
        recvCq = device.createCq(clients, null);
        sendCq = device.createCq(clients, null);
        srq = device.createXrcSrq(pd, xrcd, recvCq, new SrqAttr().maxWr(clients).maxSge(1));
        recvQps = new QueuePair[clients];
        sendQps = new QueuePair[clients];
        remotes = new XsrqDest[clients];
        ppCount = new int[clients];
        for (int i = 0; i < clients; i++)
        {
            createQps(i);
        }
        recvWr.wrId(0);
        recvWr.sgl().add(buf.addressOffset(), size, mr.lkey());
        sendWr.opcode(WrOpcode.SEND);
        sendWr.sgl().add(buf.addressOffset(), size, mr.lkey());
        postRecv(clients);
    }

    private void createQps(final int i)
    {
        final QpAttr attr = new QpAttr();
        recvQps[i] = device.createQp(null, new QpInitAttr().qpType(QpType.XRC_TGT).xrcd(xrcd));
        device.modifyQp(recvQps[i], attr, connector(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ, null, 0)
            .fillInit(attr, QpType.XRC_TGT));
        final QpInitAttr init = new QpInitAttr().qpType(QpType.XRC_INI).sendCq(sendCq);
        init.cap().maxSendWr(clients * tests).maxSendSge(1);
        sendQps[i] = device.createQp(pd, init);
        device.modifyQp(sendQps[i], attr, connector(0, null, 0).fillInit(attr, QpType.XRC_INI));
    }

    private static QpConnector connector(final int access, final Mtu mtu, final int gidIndex)
    {
        final QpConnector c = new QpConnector().access(access).rdAtomic(0, 0).minRnrTimer(MIN_RNR_TIMER)
            .hopLimit(HOP_LIMIT).timeout(TIMEOUT).retryCnt(RETRY).rnrRetry(RETRY).sgidIndex(gidIndex);
        return null == mtu ? c : c.pathMtu(mtu);
    }

    /**
     * This side's address for client {@code index}: LID 0 (RoCE), its target and initiator QPs, the PSN, the SRQ
     * and the GID at {@code gidIndex}.
     */
    public XsrqDest localDest(final int index, final int gidIndex, final int psn)
    {
        final byte[] gid = new byte[Gid.LENGTH];
        device.queryGid(RxeDevice.PORT, gidIndex, gid);
        return new XsrqDest(0, recvQps[index].qpn(), sendQps[index].qpn(), psn & Psn.MASK, srq.srqn(), gid);
    }

    /**
     * {@code connect_qps(index)}: the target QP to the peer's initiator, the initiator to the peer's target.
     *
     * @throws IllegalArgumentException if the peer sent no GID (it ran without {@code -g})
     */
    public void connect(final int index, final XsrqDest remote, final Mtu mtu, final int gidIndex, final int psn)
    {
        final byte[] gid = remote.gid();
        PeerQpSettings.requirePeerGid(gid, "ibv_xsrq_pingpong", "-g");
        final long hi = GidTable.bytesToLong(gid, 0);
        final long lo = GidTable.bytesToLong(gid, 8);
        final QpConnector connector = connector(0, mtu, gidIndex);
        final QpAttr attr = new QpAttr();
        device.modifyQp(recvQps[index], attr,
            connector.fillRtr(attr, QpType.XRC_TGT, hi, lo, remote.sendQpn(), remote.psn()));
        device.modifyQp(recvQps[index], attr, connector.fillRts(attr, QpType.XRC_TGT, psn & Psn.MASK));
        device.modifyQp(sendQps[index], attr,
            connector.fillRtr(attr, QpType.XRC_INI, hi, lo, remote.recvQpn(), remote.psn()));
        device.modifyQp(sendQps[index], attr, connector.fillRts(attr, QpType.XRC_INI, psn & Psn.MASK));
        remotes[index] = remote;
    }

    /**
     * The tool's main loop, from the server's first sends to the last send completion.
     *
     * @param server true on the side that accepted the clients (it sends first)
     * @param deadlineNs bound on the whole loop (clock time), so that a vanished peer ends the run
     * @return what was done
     * @throws IllegalStateException on a failed completion, a failed post or the deadline
     */
    public Result run(final boolean server, final long deadlineNs)
    {
        for (int i = 0; i < clients; i++)
        {
            if (null == remotes[i])
            {
                throw new IllegalStateException("client " + i + " is not connected");
            }
        }
        final long start = clock.nanoTime();
        if (server)
        {
            for (int i = 0; i < clients; i++)
            {
                postSend(i);
            }
        }
        final int total = clients * tests;
        int received = 0;
        while (received < total)
        {
            final int n = recvCq.poll(wcs);
            if (0 == n)
            {
                awaitProgress(deadlineNs, received + " of " + total + " receives");
                continue;
            }
            idle.reset();
            for (int i = 0; i < n; i++)
            {
                final WorkCompletion wc = wcs[i];
                check(wc, "receive");
                postRecv(1);
                final int client = findClient(wc.qpNum());
                if (ppCount[client] < tests)
                {
                    postSend(client);
                }
                received++;
            }
        }
        for (int done = 0; done < clients; )
        {
            final int n = sendCq.poll(wcs);
            if (0 == n)
            {
                awaitProgress(deadlineNs, done + " of " + clients + " signaled sends");
                continue;
            }
            for (int i = 0; i < n; i++)
            {
                check(wcs[i], "send");
            }
            done += n;
        }
        return new Result(received, sends, clock.nanoTime() - start);
    }

    private void awaitProgress(final long deadlineNs, final String what)
    {
        idle.idle(node.progress());
        if (clock.nanoTime() - deadlineNs > 0)
        {
            throw new IllegalStateException("no progress: " + what + " completed before the deadline " +
                "(is the peer alive?)");
        }
    }

    private static void check(final WorkCompletion wc, final String what)
    {
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new IllegalStateException("Work completion error " + wc.status() + " (" + WcStatus.of(wc.status()) +
                ") on a " + what);
        }
    }

    /** {@code find_qp}: the client whose target QP received (the only one when there is one client). */
    private int findClient(final int qpn)
    {
        if (1 == clients)
        {
            return 0;
        }
        for (int i = 0; i < clients; i++)
        {
            if (recvQps[i].qpn() == qpn)
            {
                return i;
            }
        }
        throw new IllegalStateException("a receive on QP 0x" + Integer.toHexString(qpn) + ", no client's");
    }

    /** {@code pp_post_send}: to client {@code index}'s SRQ, over the initiator QP the round robin picks. */
    private void postSend(final int index)
    {
        final int qpi = (index + ppCount[index]) % clients;
        sendWr.wrId(index).remoteSrqn(remotes[index].srqn())
            .sendFlags(++ppCount[index] >= tests ? SendFlags.SIGNALED : 0);
        final int rc = sendQps[qpi].postSend(sendWr);
        if (0 != rc)
        {
            throw new IllegalStateException("Couldn't post send (" + rc + "): " + sendQps[qpi].postError());
        }
        sends++;
    }

    private void postRecv(final int n)
    {
        for (int i = 0; i < n; i++)
        {
            if (0 != srq.postSrqRecv(recvWr))
            {
                throw new IllegalStateException("Failed to post receive to SRQ: " + srq.postError());
            }
        }
    }

    /** @return the XRC SRQ (its number is what the peer's sends name) */
    public SharedReceiveQueue srq()
    {
        return srq;
    }

    /** @return the target QP of client {@code index} */
    public QueuePair recvQp(final int index)
    {
        return recvQps[index];
    }

    /** @return the initiator QP of client {@code index} */
    public QueuePair sendQp(final int index)
    {
        return sendQps[index];
    }

    /** {@code pp_close_ctx}: the QPs, the SRQ, the domain, the CQs, the MR, the PD. */
    @Override
    public void close()
    {
        for (int i = 0; i < clients; i++)
        {
            device.destroyQp(sendQps[i]);
            device.destroyQp(recvQps[i]);
        }
        device.destroySrq(srq);
        device.deallocXrcd(xrcd);
        device.destroyCq(sendCq);
        device.destroyCq(recvCq);
        device.deregMr(mr);
        device.deallocPd(pd);
    }
}
