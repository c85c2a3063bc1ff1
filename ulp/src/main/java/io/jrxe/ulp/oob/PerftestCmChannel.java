package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * perftest's exchange connection with {@code -R}: an RC connection made through rdma_cm on the test's port (18515),
 * over which every {@code ctx_xchg_data} and {@code ctx_hand_shake} is one SEND (perftest 6.06
 * {@code create_comm_struct}, {@code rdma_server_connect}, {@code rdma_client_connect}, {@code rdma_write_data},
 * {@code rdma_read_data} in {@code perftest_communication.c}):
 * <pre>
 *   client                                        server
 *   resolve address and route (2 s each)          bind 0.0.0.0:port, listen (backlog 1)
 *   QP: SQ 1, RQ 1, one SGE; one RECV posted
 *   connect: resp. resources 0, initiator   ---&gt;  CONNECT_REQUEST: the same QP, one RECV posted, accept with the
 *   depth 0, retry 7, RNR retry 7                 same values, then the listener is destroyed
 *   ESTABLISHED                             &lt;---&gt; ESTABLISHED
 *   message: one SIGNALED SEND of exactly its size into the peer's one RECV of 56 bytes
 *            (sizeof(struct pingpong_dest)), posted again right after it completes
 * </pre>
 * Only one message is ever in flight: the exchange alternates writes and reads, and each side re-posts its RECV
 * before it answers. perftest never disconnects this connection (its id goes when the process exits); this side
 * disconnects it in {@link #close()}. A client retries a refused connection (the server not listening yet) until
 * {@link OobContext#connectTimeoutNs()}; perftest itself gives up at once.
 */
public final class PerftestCmChannel implements PerftestChannel
{
    /** perftest's {@code DEF_RETRY_COUNT}, its retry count; the RNR retry count of these connections is 7 too. */
    static final int RETRY_COUNT = 7;
    private static final int RECV_OFFSET = 64;
    private static final long WR_ID = 5; // perftest's SYNC_SPEC_ID
    private static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final CmId id;
    private final EventChannel events;
    private final OobContext ctx;
    private final String peer;
    private final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 4096));
    private final MemoryRegion mr;
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private boolean peerGone;
    private boolean closed;

    private PerftestCmChannel(final CmId id, final EventChannel events, final OobContext ctx, final String peer)
        throws OobException
    {
        this.id = id;
        this.events = events;
        this.ctx = ctx;
        this.peer = peer;
        final QpInitAttr init = new QpInitAttr();
        init.cap().maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1);
        id.createQp(null, init); // its own PD and CQs with completion channels
        mr = RdmaVerbs.regMsgs(id, buffer);
        try
        {
            postRecv();
        }
        catch (final OobException ex)
        {
            RdmaVerbs.deregMr(id, mr); // the id's PD goes with it
            throw ex;
        }
    }

    /**
     * The server side: waits for one client on {@code port}, bounded by {@link OobContext#acceptTimeoutNs()}.
     *
     * @param cm   the node's connection manager.
     * @param port the test's port.
     * @param ctx  timeouts.
     * @return the connection, established.
     * @throws OobException if the port is taken, no client comes, or the connection fails.
     */
    public static PerftestCmChannel accept(final RdmaCm cm, final int port, final OobContext ctx) throws OobException
    {
        final EventChannel events = cm.createEventChannel();
        final CmId listener = cm.createId(events, null, PortSpace.TCP);
        try
        {
            listener.bindAddr(new InetSocketAddress(port));
            listener.listen(1);
            ctx.onListening().run();
            final CmEvent request = PerftestCmEvents.await(events, CmEventType.CONNECT_REQUEST,
                ctx.acceptTimeoutNs(), "a perftest client's rdma_cm connection to port " + port);
            final CmId child = request.id();
            final PerftestCmChannel channel = open(child, events, ctx, String.valueOf(child.remoteAddress()));
            try
            {
                child.accept(controlParam());
                PerftestCmEvents.await(events, CmEventType.ESTABLISHED, ctx.ioTimeoutNs(),
                    "the rdma_cm exchange connection from " + channel.peer);
                return channel;
            }
            catch (final OobException | RuntimeException ex)
            {
                channel.close();
                throw ex;
            }
        }
        catch (final RdmaCmException ex)
        {
            throw new OobException("cannot take perftest's rdma_cm connection on port " + port + ": " +
                ex.getMessage(), ex);
        }
        finally
        {
            // rdma_server_connect: the listener goes once the client is there, freeing the port for the data QPs
            PerftestCmEvents.destroy(listener, events);
        }
    }

    /**
     * The client side: connects to the server, retrying while it refuses (not listening yet) until
     * {@link OobContext#connectTimeoutNs()}.
     *
     * @param cm     the node's connection manager.
     * @param server the server's RoCE address and the test's port.
     * @param ctx    timeouts.
     * @return the connection, established.
     * @throws OobException when the deadline passes or the connection fails otherwise.
     */
    public static PerftestCmChannel connect(final RdmaCm cm, final InetSocketAddress server, final OobContext ctx)
        throws OobException
    {
        final long deadline = ctx.nanoClock().nanoTime() + ctx.connectTimeoutNs();
        while (true)
        {
            try
            {
                return tryConnect(cm, server, ctx);
            }
            catch (final PerftestCmEvents.Failure refused)
            {
                if (ctx.nanoClock().nanoTime() + ctx.connectRetryNs() >= deadline)
                {
                    throw new OobException("could not connect to " + server + " through rdma_cm within " +
                        TimeUnit.NANOSECONDS.toMillis(ctx.connectTimeoutNs()) + " ms: " + refused.getMessage(),
                        refused);
                }
                LockSupport.parkNanos(ctx.connectRetryNs());
            }
        }
    }

    private static PerftestCmChannel tryConnect(final RdmaCm cm, final InetSocketAddress server,
        final OobContext ctx) throws OobException
    {
        final EventChannel events = cm.createEventChannel();
        final CmId id = cm.createId(events, null, PortSpace.TCP);
        PerftestCmChannel channel = null;
        try
        {
            final String what = "the rdma_cm exchange connection to " + server;
            PerftestCmEvents.resolve(id, events, server, what);
            channel = open(id, events, ctx, String.valueOf(server)); // the RECV goes up before the connect
            id.connect(controlParam());
            PerftestCmEvents.await(events, CmEventType.ESTABLISHED, ctx.ioTimeoutNs(), what);
            return channel;
        }
        catch (final OobException | RuntimeException ex)
        {
            if (null != channel)
            {
                channel.close();
            }
            else
            {
                PerftestCmEvents.destroy(id, events);
                events.close();
            }
            if (ex instanceof RdmaCmException)
            {
                throw new OobException("cannot connect to " + server + " through rdma_cm: " + ex.getMessage(), ex);
            }
            throw ex;
        }
    }

    private static PerftestCmChannel open(final CmId id, final EventChannel events, final OobContext ctx,
        final String peer) throws OobException
    {
        try
        {
            return new PerftestCmChannel(id, events, ctx, peer);
        }
        catch (final OobException | RuntimeException ex)
        {
            PerftestCmEvents.destroy(id, events); // also the QP and its PD, if they were made
            throw ex;
        }
    }

    /** rdma_client_connect/rdma_server_connect with the exchange's parameters (verb SEND: no RDMA READ). */
    private static ConnParam controlParam()
    {
        return new ConnParam().responderResources(0).initiatorDepth(0).retryCount(RETRY_COUNT)
            .rnrRetryCount(RETRY_COUNT);
    }

    /** @return the peer's address, for messages. */
    public String peer()
    {
        return peer;
    }

    @Override
    public void write(final byte[] message, final String what) throws OobException
    {
        if (message.length > PerftestDest.BINARY_SIZE)
        {
            throw new IllegalArgumentException(what + " has " + message.length + " bytes; perftest's receive " +
                "holds " + PerftestDest.BINARY_SIZE);
        }
        buffer.putBytes(0, message);
        final int rc = RdmaVerbs.postSend(id, WR_ID, buffer.addressOffset(), message.length, mr,
            SendFlags.SIGNALED);
        if (0 != rc)
        {
            throw new OobException("posting " + what + " to " + peer + " failed (" + rc + ")");
        }
        check(await(id.sendCq(), id.sendCqChannel(), "the send completion of " + what, ctx.ioTimeoutNs()),
            "sending " + what);
    }

    @Override
    public void readFully(final byte[] dst, final String what, final long timeoutNs) throws OobException
    {
        final WorkCompletion done = await(id.recvCq(), id.recvCqChannel(), what, timeoutNs);
        check(done, "receiving " + what);
        final byte[] got = new byte[done.byteLen()];
        buffer.getBytes(RECV_OFFSET, got);
        if (got.length != dst.length)
        {
            throw WireText.malformed(got, what, "a SEND of " + got.length + " bytes, expected " + dst.length);
        }
        System.arraycopy(got, 0, dst, 0, dst.length);
        postRecv();
    }

    @Override
    public long ioTimeoutNs()
    {
        return ctx.ioTimeoutNs();
    }

    @Override
    public boolean binaryKeys()
    {
        return true;
    }

    @Override
    public boolean finishClose()
    {
        return false; // ctx_close_connection sends no "done" with rdma_cm
    }

    /** Disconnects (the QP goes to ERR, a DREQ goes out) and destroys the id with its QP, CQs and PD. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            id.disconnect();
        }
        catch (final RdmaCmException notConnected)
        {
            // never connected, or gone already: nothing to tell the peer
        }
        RdmaVerbs.deregMr(id, mr);
        PerftestCmEvents.destroy(id, events);
        events.close();
    }

    private void postRecv() throws OobException
    {
        final int rc = RdmaVerbs.postRecv(id, WR_ID, buffer.addressOffset() + RECV_OFFSET, PerftestDest.BINARY_SIZE,
            mr);
        if (0 != rc)
        {
            throw new OobException("posting the receive of the rdma_cm exchange connection failed (" + rc + ")");
        }
    }

    private void check(final WorkCompletion done, final String action) throws OobException
    {
        if (WcStatus.SUCCESS.code() != done.status())
        {
            throw new OobException(action + " over the rdma_cm exchange connection with " + peer + " failed: " +
                WcStatus.of(done.status()).message());
        }
    }

    /** Waits for one completion, bounded, and fails early if the peer disconnects meanwhile. */
    private WorkCompletion await(final CompletionQueue cq, final CompletionChannel channel, final String what,
        final long timeoutNs) throws OobException
    {
        final long deadline = ctx.nanoClock().nanoTime() + timeoutNs;
        while (true)
        {
            if (1 == cq.poll(wc, 1))
            {
                return wc[0];
            }
            watchPeer(what);
            final long remaining = deadline - ctx.nanoClock().nanoTime();
            if (remaining <= 0)
            {
                throw new OobException("timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) +
                    " ms waiting for " + what + " from " + peer + " over rdma_cm");
            }
            cq.reqNotify(false);
            if (1 == cq.poll(wc, 1))
            {
                return wc[0];
            }
            try
            {
                final CompletionQueue fired = channel.getEvent(Math.min(remaining, WAIT_SLICE_NS),
                    TimeUnit.NANOSECONDS);
                if (null != fired)
                {
                    fired.ackEvents(1);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new OobException("interrupted waiting for " + what, ex);
            }
        }
    }

    private void watchPeer(final String what) throws OobException
    {
        for (CmEvent event = events.pollEvent(); null != event; event = events.pollEvent())
        {
            events.ackEvent(event);
            peerGone |= CmEventType.DISCONNECTED == event.type();
        }
        if (peerGone)
        {
            throw new OobException(peer + " closed the rdma_cm exchange connection while this side waited for " +
                what);
        }
    }
}
