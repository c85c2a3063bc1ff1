package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCallHeader;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcReplyHeader;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;

/**
 * A hand-made RPC-over-RDMA peer for hostile tests: its own rdma_cm id, QP, PD and registered memory, speaking
 * whatever bytes the test writes. It is either a client of a port on node B ({@link #connect}) or a listener
 * ({@link #listen}) that accepts every connection (a reconnect replaces the previous one) and hands each received
 * message to a {@link Handler}. Stepped with the rest of an {@link RpcPair} in virtual time.
 * <pre>
 *   msgs:  [ RECVS receive slots of SLOT bytes ][ SENDS send slots ]       registered LOCAL_WRITE
 *   chunk: CHUNK_BYTES the peer may RDMA READ and WRITE (Read, Write, Reply chunks), whole, or only its first
 *          half when {@code halfChunk}: the second half is a guard area no registration covers
 * </pre>
 */
final class RawRdmaPeer implements AutoCloseable
{
    static final int RECVS = 16;
    static final int SENDS = 8;
    static final int SLOT = 8192;
    static final int CHUNK_BYTES = 64 * 1024;
    static final int CALL_CREDITS = 8;

    /** What a listener does with a received message. */
    interface Handler
    {
        void onMessage(RawRdmaPeer peer, UnsafeBuffer msg, int length);
    }

    private final RpcPair pair;
    private final RxeDevice device;
    final EventChannel events;
    final ProtectionDomain pd;
    final UnsafeBuffer msgs = new UnsafeBuffer(BufferUtil.allocateDirectAligned((RECVS + SENDS) * SLOT, 4096));
    final MemoryRegion msgMr;
    final UnsafeBuffer chunk = new UnsafeBuffer(BufferUtil.allocateDirectAligned(CHUNK_BYTES, 4096));
    final MemoryRegion chunkMr;
    private final CmId listener;
    private final byte[] acceptPrivateData;
    private final Handler handler;
    private final WorkCompletion[] wcs = {new WorkCompletion()};
    private final RecvWorkRequest recv = new RecvWorkRequest(1);
    private final SendWorkRequest send = new SendWorkRequest(1);
    private final List<CmId> retired = new ArrayList<>();
    final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
    final List<Integer> sendStatuses = new ArrayList<>();
    CmId conn;
    /** The peer's private data: of its REQ (listener) or REP (client). */
    byte[] peerPrivateData;
    int established;
    int disconnects;
    int recvErrors;
    private int sendSeq;
    private boolean closed;

    private RawRdmaPeer(
        final RpcPair pair, final RdmaCm cm, final int listenPort, final byte[] acceptPrivateData,
        final Handler handler, final boolean halfChunk)
    {
        this.pair = pair;
        this.device = cm.device();
        this.acceptPrivateData = acceptPrivateData;
        this.handler = handler;
        events = cm.createEventChannel();
        pd = device.allocPd();
        msgMr = device.regMr(pd, msgs, AccessFlags.LOCAL_WRITE);
        chunkMr = device.regMr(pd, chunk.addressOffset(), halfChunk ? CHUNK_BYTES / 2 : CHUNK_BYTES,
            AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE);
        if (listenPort > 0)
        {
            listener = cm.createId(events, "raw listener", PortSpace.TCP);
            listener.bindAddr(new InetSocketAddress(listenPort));
            listener.listen(4);
        }
        else
        {
            listener = null;
        }
    }

    /**
     * A client connected to the RPC-over-RDMA server of {@code pair} on node B.
     *
     * @param privateData the REQ's private data (RFC 8797), or null for none
     * @param responderResources RDMA READs the server may have outstanding against us (its read depth)
     * @param halfChunk register only the first half of the chunk memory
     */
    static RawRdmaPeer connect(
        final RpcPair pair, final byte[] privateData, final int responderResources, final boolean halfChunk)
    {
        final RawRdmaPeer p = new RawRdmaPeer(pair, pair.cmA, 0, null, null, halfChunk);
        final CmId id = pair.cmA.createId(p.events, "raw client", PortSpace.TCP);
        p.conn = id;
        id.resolveAddr(null, RpcPair.address(NodePair.IP_B, RpcPair.PORT), 2000);
        p.await(CmEventType.ADDR_RESOLVED);
        id.resolveRoute(2000);
        p.await(CmEventType.ROUTE_RESOLVED);
        p.setUpQp(id);
        final ConnParam param = new ConnParam().responderResources(responderResources).initiatorDepth(0)
            .retryCount(7).rnrRetryCount(7);
        if (null != privateData)
        {
            param.privateData(privateData);
        }
        id.connect(param);
        final CmEvent up = p.await(CmEventType.ESTABLISHED);
        p.peerPrivateData = up.param().privateData().clone();
        p.established++;
        pair.also(p::doWork);
        return p;
    }

    /**
     * A listener on node B's {@code port}: every connection request accepted, with {@code privateData} in the REP.
     */
    static RawRdmaPeer listen(final RpcPair pair, final int port, final byte[] privateData, final Handler handler)
    {
        final RawRdmaPeer p = new RawRdmaPeer(pair, pair.cmB, port, privateData, handler, false);
        pair.also(p::doWork);
        return p;
    }

    /** @return RFC 8797 private data offering {@code inline} bytes both ways */
    static byte[] rfc8797(final int inline, final boolean sendWithInvalidate)
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[ConnectPrivate.LENGTH]);
        ConnectPrivate.encode(b, 0, sendWithInvalidate, inline, inline);
        return b.byteArray();
    }

    private CmEvent await(final CmEventType type)
    {
        pair.runUntil(() -> events.pending() > 0, 10 * SECOND, type.str());
        final CmEvent event = events.pollEvent();
        events.ackEvent(event);
        if (type != event.type())
        {
            throw new AssertionError("expected " + type + ", got " + event);
        }
        return event;
    }

    private void setUpQp(final CmId id)
    {
        final QpInitAttr init = new QpInitAttr();
        init.cap().maxSendWr(32).maxRecvWr(RECVS).maxSendSge(1).maxRecvSge(1);
        final QueuePair qp = id.createQp(pd, init);
        for (int i = 0; i < RECVS; i++)
        {
            postRecv(qp, i);
        }
    }

    private void postRecv(final QueuePair qp, final int slot)
    {
        recv.wrId(slot).next(null).sgl().clear().add(msgs.addressOffset() + (long)slot * SLOT, SLOT, msgMr.lkey());
        qp.postRecv(recv);
    }

    /** @return the chunk memory's address as the peer must name it (the MR's iova) */
    long chunkAddress(final int offset)
    {
        return chunk.addressOffset() + offset;
    }

    /** @return the current QP, or null */
    QueuePair qp()
    {
        return null == conn ? null : conn.qp();
    }

    int doWork()
    {
        if (closed)
        {
            return 0;
        }
        int work = 0;
        final CmEvent event = events.pollEvent();
        if (null != event)
        {
            work++;
            onEvent(event);
        }
        final QueuePair qp = qp();
        if (null != qp)
        {
            while (1 == qp.sendCq().poll(wcs, 1))
            {
                work++;
                sendStatuses.add(wcs[0].status());
            }
            while (null != conn && conn.qp() == qp && 1 == qp.recvCq().poll(wcs, 1))
            {
                work++;
                final WorkCompletion wc = wcs[0];
                final int slot = (int)wc.wrId();
                if (WcStatus.SUCCESS.code() != wc.status())
                {
                    recvErrors++;
                    continue;
                }
                final byte[] bytes = new byte[wc.byteLen()];
                msgs.getBytes(slot * SLOT, bytes);
                postRecv(qp, slot);
                if (null != handler)
                {
                    handler.onMessage(this, new UnsafeBuffer(bytes), bytes.length);
                }
                else
                {
                    inbox.add(bytes);
                }
            }
        }
        return work;
    }

    private void onEvent(final CmEvent event)
    {
        final CmId id = event.id();
        final CmEventType type = event.type();
        final byte[] pdata = null == event.param() ? null : event.param().privateData();
        events.ackEvent(event);
        switch (type)
        {
            case CONNECT_REQUEST:
                if (null != conn)
                {
                    retired.add(conn);
                }
                peerPrivateData = null == pdata ? null : pdata.clone();
                setUpQp(id);
                final ConnParam param = new ConnParam().responderResources(1).initiatorDepth(1)
                    .retryCount(7).rnrRetryCount(7);
                if (null != acceptPrivateData)
                {
                    param.privateData(acceptPrivateData);
                }
                id.accept(param);
                conn = id;
                break;
            case ESTABLISHED:
                established++;
                break;
            case DISCONNECTED:
                disconnects++;
                try
                {
                    id.disconnect();
                }
                catch (final RdmaCmException ignored)
                {
                    // answered already
                }
                break;
            default:
                break;
        }
    }

    /**
     * SEND bytes (copied to a send slot first).
     *
     * @return the post's result
     */
    int send(final UnsafeBuffer src, final int length)
    {
        final int slot = RECVS + sendSeq++ % SENDS;
        msgs.putBytes(slot * SLOT, src, 0, length);
        send.wrId(1000 + sendSeq).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED).next(null).sgl().clear()
            .add(msgs.addressOffset() + (long)slot * SLOT, length, msgMr.lkey());
        return qp().postSend(send);
    }

    int send(final Msg msg)
    {
        return send(msg.buf, msg.length());
    }

    /** Run until a message arrived and take it. */
    byte[] awaitMessage(final String what)
    {
        pair.runUntil(() -> !inbox.isEmpty(), 10 * SECOND, what);
        return inbox.poll();
    }

    static int word(final byte[] msg, final int index)
    {
        return new UnsafeBuffer(msg).getInt(4 * index, ByteOrder.BIG_ENDIAN);
    }

    static int word(final UnsafeBuffer msg, final int index)
    {
        return msg.getInt(4 * index, ByteOrder.BIG_ENDIAN);
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final CmId id : retired)
        {
            destroy(id);
        }
        destroy(conn);
        destroy(listener);
        device.deregMr(msgMr);
        device.deregMr(chunkMr);
        events.close();
    }

    private static void destroy(final CmId id)
    {
        if (null == id)
        {
            return;
        }
        try
        {
            id.disconnect();
        }
        catch (final RdmaCmException ignored)
        {
            // not connected
        }
        try
        {
            id.destroy();
        }
        catch (final RdmaCmException ignored)
        {
            // gone
        }
    }

    /** An XDR message being written: transport header words, then an RPC message. */
    static final class Msg
    {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[SLOT]);
        final XdrEncoder x = new XdrEncoder().wrap(buf, 0, SLOT);

        Msg words(final int... words)
        {
            for (final int w : words)
            {
                x.putInt(w);
            }
            return this;
        }

        Msg hyper(final long value)
        {
            x.putHyper(value);
            return this;
        }

        /** An RPC call header (AUTH_NONE) of TestProgram. */
        Msg call(final int xid, final int procedure)
        {
            RpcCallHeader.encode(x, xid, TestProgram.PROGRAM, 1, procedure, RpcAuth.none());
            return this;
        }

        /** An accepted, successful RPC reply header. */
        Msg reply(final int xid)
        {
            RpcReplyHeader.encodeAccepted(x, xid, RpcMessage.SUCCESS);
            return this;
        }

        int length()
        {
            return x.length();
        }
    }

    /** @return a transport header's fixed part and three empty lists: xid, 1, credits, proc, 0, 0, 0 */
    static Msg noChunks(final int xid, final int credits, final int proc)
    {
        return new Msg().words(xid, RpcRdma.VERSION, credits, proc, 0, 0, 0);
    }
}
