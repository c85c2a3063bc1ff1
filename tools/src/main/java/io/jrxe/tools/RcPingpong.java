package io.jrxe.tools;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
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
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.oob.PeerQpSettings;
import io.jrxe.ulp.oob.PingpongDest;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The verbs side of {@code ibv_rc_pingpong} (rdma-core {@code libibverbs/examples/rc_pingpong.c}) on a jrxe node,
 * so that a jrxe process and the Linux tool can play it against each other:
 * <ul>
 *   <li>one buffer of {@code size} bytes, filled with 0x7b, used for every send and every receive; one CQ of
 *       {@code rxDepth + 1} entries; an RC QP with one send WR and {@code rxDepth} receive WRs, INIT with no
 *       remote access, {@code rxDepth} receives posted before the exchange;</li>
 *   <li>RTR/RTS as {@code pp_connect_ctx} ({@link PeerQpSettings#rcPingpong()});</li>
 *   <li>the client sends first; each side posts its next SEND only when both its previous SEND and a RECV have
 *       completed ({@code ctx->pending}); receives are topped up to {@code rxDepth} when one or fewer are left;
 *       wr_id 1 = RECV, 2 = SEND;</li>
 *   <li>{@code -c}: the client writes 0 into the first byte of every page before its first send (the tool's
 *       {@code i / page_size % sizeof(char)}, always 0), so every message carries that pattern over the 0x7b
 *       fill, and the server checks those bytes at the end. This class checks more, without changing what goes
 *       on the wire: every received message must be exactly that pattern, byte for byte.</li>
 * </ul>
 * The node is driven on the caller's thread ({@link RoceNode#progress()}) between CQ polls: one thread, no
 * hand-offs, which is what a two-vCPU machine shared with a kernel peer can afford.
 */
final class RcPingpong implements AutoCloseable
{
    static final int RECV_WRID = 1;
    static final int SEND_WRID = 2;
    /** sysconf(_SC_PAGESIZE) on x86-64: the tool's validation stride. */
    static final int PAGE_SIZE = 4096;
    /** rc_pingpong's {@code memset(ctx->buf, 0x7b, size)}. */
    static final byte FILL = 0x7b;
    /** What the client writes at each page start with {@code -c}. */
    static final byte PAGE_MARK = 0;

    /** What one run measured. */
    record Result(int iters, int size, long elapsedNs, List<Integer> invalidPages, long badMessages)
    {
        /** Bytes both ways, as the tool counts them: {@code size * iters * 2}. */
        long bytes()
        {
            return (long)size * iters * 2;
        }
    }

    private final RoceNode node;
    private final RxeDevice device;
    private final int size;
    private final int rxDepth;
    private final IdleStrategy idle;
    private final NanoClock clock;
    private final UnsafeBuffer buf;
    private final ProtectionDomain pd;
    private final MemoryRegion mr;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final SendWorkRequest sendWr = new SendWorkRequest(1);
    private final RecvWorkRequest recvWr = new RecvWorkRequest(1);
    private final WorkCompletion[] wcs = { new WorkCompletion(), new WorkCompletion() };
    private int routs;

    /**
     * Creates the verbs objects, moves the QP to INIT and posts {@code rxDepth} receives.
     *
     * @throws IllegalArgumentException if size or rxDepth is out of range
     */
    RcPingpong(final RoceNode node, final int size, final int rxDepth, final IdleStrategy idle, final NanoClock clock)
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("--size must be at least 1, got " + size);
        }
        if (rxDepth < 2)
        {
            throw new IllegalArgumentException("--rx-depth must be at least 2, got " + rxDepth);
        }
        this.node = node;
        this.device = node.device();
        this.size = size;
        this.rxDepth = rxDepth;
        this.idle = idle;
        this.clock = clock;
        buf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(align(size), PAGE_SIZE));
        buf.setMemory(0, size, FILL);
        pd = device.allocPd();
        mr = device.regMr(pd, buf, AccessFlags.LOCAL_WRITE);
        cq = device.createCq(rxDepth + 1, null);
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(1).maxRecvWr(rxDepth).maxSendSge(1).maxRecvSge(1);
        qp = device.createQp(pd, init);
        final QpAttr attr = new QpAttr();
        device.modifyQp(qp, attr, PeerQpSettings.rcPingpong().fillInit(attr, RxeDevice.PORT));

        sendWr.wrId(SEND_WRID).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED);
        sendWr.sgl().add(buf.addressOffset(), size, mr.lkey());
        recvWr.wrId(RECV_WRID);
        recvWr.sgl().add(buf.addressOffset(), size, mr.lkey());
        routs = postRecv(rxDepth);
        if (routs < rxDepth)
        {
            throw new IllegalStateException("Couldn't post receive (" + routs + "): " + qp.postError());
        }
    }

    private static int align(final int size)
    {
        return (size + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
    }

    /** This side's address for the exchange: LID 0 (RoCE), the QPN, the PSN and the GID at {@code gidIndex}. */
    PingpongDest localDest(final int gidIndex, final int psn)
    {
        final byte[] gid = new byte[16];
        device.queryGid(RxeDevice.PORT, gidIndex, gid);
        return new PingpongDest(0, qp.qpn(), psn, gid);
    }

    /**
     * {@code pp_connect_ctx}: RTR towards the peer, then RTS.
     *
     * @throws IllegalArgumentException if the peer sent no GID (it ran without {@code -g})
     */
    void connect(final PingpongDest remote, final Mtu mtu, final int gidIndex, final int sqPsn)
    {
        final PeerQpSettings settings = PeerQpSettings.rcPingpong();
        final QpAttr attr = new QpAttr();
        device.modifyQp(qp, attr,
            settings.fillRtr(attr, mtu, remote.qpn(), remote.psn(), remote.gid(), gidIndex));
        device.modifyQp(qp, attr, settings.fillRts(attr, sqPsn));
    }

    /**
     * The ping-pong loop of {@code main}, from the first send to the last completion.
     *
     * @param client    true on the side that connected (it sends first)
     * @param iters     exchanges
     * @param validate  check every received message against the {@code -c} pattern (and write it, as client)
     * @param deadlineNs bound on the whole loop (clock time), so that a vanished peer ends the run
     * @return what was measured
     * @throws IllegalStateException on a failed completion, a failed post or the deadline
     */
    Result run(final boolean client, final int iters, final boolean validate, final long deadlineNs)
    {
        int pending = RECV_WRID;
        if (client)
        {
            if (validate)
            {
                markPages(buf, size);
            }
            postSend();
            pending |= SEND_WRID;
        }
        final long start = clock.nanoTime();
        int rcnt = 0;
        int scnt = 0;
        long badMessages = 0;
        int loops = 0;
        while (rcnt < iters || scnt < iters)
        {
            final int n = cq.poll(wcs);
            if (0 == n)
            {
                idle.idle(node.progress());
                if (0 == (++loops & 1023) && clock.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("no progress: " + rcnt + " of " + iters + " receives and " +
                        scnt + " of " + iters + " sends completed before the deadline (is the peer alive?)");
                }
                continue;
            }
            idle.reset();
            for (int i = 0; i < n; i++)
            {
                final WorkCompletion wc = wcs[i];
                if (WcStatus.SUCCESS.code() != wc.status())
                {
                    throw new IllegalStateException("Failed status " + WcStatus.of(wc.status()) + " (" +
                        wc.status() + ") for wr_id " + wc.wrId());
                }
                final int wrId = (int)wc.wrId();
                if (SEND_WRID == wrId)
                {
                    ++scnt;
                }
                else if (RECV_WRID == wrId)
                {
                    if (--routs <= 1)
                    {
                        routs += postRecv(rxDepth - routs);
                        if (routs < rxDepth)
                        {
                            throw new IllegalStateException("Couldn't post receive (" + routs + "): " +
                                qp.postError());
                        }
                    }
                    ++rcnt;
                    if (validate && (wc.byteLen() != size || firstBadByte(buf, size) >= 0))
                    {
                        badMessages++;
                    }
                }
                else
                {
                    throw new IllegalStateException("Completion for unknown wr_id " + wc.wrId());
                }
                pending &= ~wrId;
                if (scnt < iters && 0 == pending)
                {
                    postSend();
                    pending = RECV_WRID | SEND_WRID;
                }
            }
        }
        final long elapsed = clock.nanoTime() - start;
        final List<Integer> invalidPages = new ArrayList<>();
        if (validate)
        {
            for (int i = 0; i < size; i += PAGE_SIZE)
            {
                if (PAGE_MARK != buf.getByte(i))
                {
                    invalidPages.add(i / PAGE_SIZE);
                }
            }
        }
        return new Result(iters, size, elapsed, invalidPages, badMessages);
    }

    private void postSend()
    {
        final int rc = qp.postSend(sendWr);
        if (0 != rc)
        {
            throw new IllegalStateException("Couldn't post send (" + rc + "): " + qp.postError());
        }
    }

    private int postRecv(final int n)
    {
        int i = 0;
        while (i < n && 0 == qp.postRecv(recvWr))
        {
            i++;
        }
        return i;
    }

    /** The client's {@code -c} preparation: 0 at the start of every page, over the 0x7b fill. */
    static void markPages(final UnsafeBuffer buffer, final int size)
    {
        for (int i = 0; i < size; i += PAGE_SIZE)
        {
            buffer.putByte(i, PAGE_MARK);
        }
    }

    /** @return the index of the first byte that is not the {@code -c} pattern, or -1 when all are right */
    static int firstBadByte(final UnsafeBuffer buffer, final int size)
    {
        for (int i = 0; i < size; i++)
        {
            final byte want = 0 == (i & (PAGE_SIZE - 1)) ? PAGE_MARK : FILL;
            if (want != buffer.getByte(i))
            {
                return i;
            }
        }
        return -1;
    }

    QueuePair qp()
    {
        return qp;
    }

    UnsafeBuffer buffer()
    {
        return buf;
    }

    @Override
    public void close()
    {
        device.destroyQp(qp);
        device.destroyCq(cq);
        device.deregMr(mr);
        device.deallocPd(pd);
    }
}
