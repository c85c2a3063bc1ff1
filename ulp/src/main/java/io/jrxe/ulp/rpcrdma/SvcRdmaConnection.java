package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.ulp.rdmacm.CmId;

import java.net.InetSocketAddress;

/**
 * One client connection of {@link RpcRdmaServer} (Linux {@code struct svcxprt_rdma}): its CM id and QP, what the
 * client's RFC 8797 private data said, its receive buffers (one per credit granted, plus the backchannel's) and
 * how many of its calls are being served.
 * <pre>
 *   ACCEPTED --ESTABLISHED--&gt; ESTABLISHED --DISCONNECTED / error--&gt; DRAINING --all flushed--&gt; CLOSED
 *   recv[i]: Regbuf of the server's inline size; POSTED, or HELD while its call is served
 * </pre>
 * Only the server's thread touches it.
 */
public final class SvcRdmaConnection
{
    static final int ACCEPTED = 0;
    static final int ESTABLISHED = 1;
    static final int DRAINING = 2;
    static final int CLOSED = 3;

    final int slot;
    final CmId id;
    final QueuePair qp;
    final InetSocketAddress peer;
    /** The client's thresholds, bounded by ours: what we may send inline, what it may send us. */
    final int maxInlineSend;
    final int maxInlineRecv;
    final boolean clientAcceptsInvalidate;
    final int readDepth;
    final Regbuf[] recv;
    final RecvWorkRequest[] recvWr;
    final boolean[] posted;
    int state = ACCEPTED;
    int postedCount;
    int sqOutstanding;
    /**
     * Calls received whose replies the client may not have yet (RFC 8166 §3.3.1), checked against the credits
     * granted: from the receive until the reply's SEND completes (or the call ends without a reply).
     */
    int outstanding;
    long drainDeadlineNs;

    SvcRdmaConnection(
        final int slot, final CmId id, final QueuePair qp, final InetSocketAddress peer, final int maxInlineSend,
        final int maxInlineRecv, final boolean clientAcceptsInvalidate, final int readDepth, final Regbuf[] recv)
    {
        this.slot = slot;
        this.id = id;
        this.qp = qp;
        this.peer = peer;
        this.maxInlineSend = maxInlineSend;
        this.maxInlineRecv = maxInlineRecv;
        this.clientAcceptsInvalidate = clientAcceptsInvalidate;
        this.readDepth = readDepth;
        this.recv = recv;
        this.recvWr = new RecvWorkRequest[recv.length];
        this.posted = new boolean[recv.length];
        for (int i = 0; i < recv.length; i++)
        {
            recvWr[i] = new RecvWorkRequest(1).wrId(RpcRdmaServer.wrId(RpcRdmaServer.WR_RECV, slot, i));
            recvWr[i].sgl().add(recv[i].address(), recv[i].size(), recv[i].lkey());
        }
    }

    /**
     * Post receive buffer i.
     *
     * @return 0 or the post's negative errno
     */
    int post(final int i)
    {
        if (DRAINING <= state || posted[i])
        {
            return 0;
        }
        final int rc = qp.postRecv(recvWr[i]);
        if (0 == rc)
        {
            posted[i] = true;
            postedCount++;
        }
        return rc;
    }

    /** @return the client's address */
    public InetSocketAddress peer()
    {
        return peer;
    }

    /** @return the inline threshold for what we send */
    public int maxInlineSend()
    {
        return maxInlineSend;
    }

    /** @return the inline threshold for what the client sends */
    public int maxInlineRecv()
    {
        return maxInlineRecv;
    }

    /** @return true once established and not yet closing */
    public boolean isEstablished()
    {
        return ESTABLISHED == state;
    }

    @Override
    public String toString()
    {
        return "SvcRdmaConnection[" + peer + " qpn=" + qp.qpn() + " state=" + state + " inline=" + maxInlineSend +
            "/" + maxInlineRecv + "]";
    }
}
