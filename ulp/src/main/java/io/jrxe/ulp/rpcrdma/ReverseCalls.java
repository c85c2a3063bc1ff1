package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The server's reverse-direction calls (RFC 8167; Linux {@code svc_rdma_backchannel.c}): calls to a client's
 * callback service on the client's own connection, sent RDMA_MSG with no chunks and the backchannel's credits,
 * matched to their replies by xid. At most {@code bcCredits} per connection are outstanding.
 * <pre>
 *   buffer (a small regbuf):  [ transport header, 28 bytes | RPC call ... ]   reply copied to [0, length)
 * </pre>
 */
final class ReverseCalls
{
    private static final int SLOTS = 64;

    private final RpcRdmaServer server;
    private final RpcCall[] calls = new RpcCall[SLOTS];
    private final Regbuf[] bufs = new Regbuf[SLOTS];
    private final SvcRdmaConnection[] conns = new SvcRdmaConnection[SLOTS];
    private final boolean[] sending = new boolean[SLOTS];
    private final SendWorkRequest[] sends = new SendWorkRequest[SLOTS];
    private final XdrEncoder hdr = new XdrEncoder();
    private int nextXid = (int)System.nanoTime() | 1;

    ReverseCalls(final RpcRdmaServer server)
    {
        this.server = server;
        for (int i = 0; i < SLOTS; i++)
        {
            sends[i] = new SendWorkRequest(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED);
        }
    }

    private int slotOf(final RpcCall call)
    {
        for (int i = 0; i < SLOTS; i++)
        {
            if (calls[i] == call)
            {
                return i;
            }
        }
        return -1;
    }

    int prepare(
        final SvcRdmaConnection conn, final RpcCall call, final int program, final int version, final int procedure,
        final RpcAuth auth)
    {
        if (!conn.isEstablished())
        {
            return -Errno.ENOTCONN;
        }
        final int slot = slotOf(null);
        final Regbuf buf = slot < 0 ? null : server.takeSmall();
        if (null == buf)
        {
            return -Errno.ENOMEM;
        }
        calls[slot] = call;
        bufs[slot] = buf;
        conns[slot] = conn;
        call.attachSendBuffer(buf.buffer(), RpcRdma.MIN_HEADER, Math.min(buf.size(), conn.maxInlineSend) -
            RpcRdma.MIN_HEADER);
        call.begin(server, nextXid++, program, version, procedure, auth);
        return 0;
    }

    int send(final RpcCall call)
    {
        final int slot = slotOf(call);
        if (slot < 0 || RpcCall.PREPARED != call.state() || call.hasPayload())
        {
            return -Errno.EINVAL;
        }
        final SvcRdmaConnection conn = conns[slot];
        if (!conn.isEstablished())
        {
            return -Errno.ENOTCONN;
        }
        int outstanding = 0;
        for (int i = 0; i < SLOTS; i++)
        {
            if (conns[i] == conn && null != calls[i] && RpcCall.IN_FLIGHT == calls[i].state())
            {
                outstanding++;
            }
        }
        if (outstanding >= server.ctx().bcCredits())
        {
            return -Errno.ENOBUFS;
        }
        final Regbuf buf = bufs[slot];
        hdr.wrap(buf.buffer(), 0, RpcRdma.MIN_HEADER);
        RpcRdmaHeader.encodeNoChunks(hdr, call.xid(), server.ctx().bcCredits(), RpcRdma.RDMA_MSG);
        final SendWorkRequest send = sends[slot];
        send.wrId(RpcRdmaServer.wrId(RpcRdmaServer.WR_BC, conn.slot, slot)).next(null);
        send.sgl().clear().add(buf.address(), RpcRdma.MIN_HEADER + call.headLength(), buf.lkey());
        if (0 != conn.qp.postSend(send))
        {
            return -Errno.ENOTCONN;
        }
        conn.sqOutstanding++;
        sending[slot] = true;
        call.state(RpcCall.IN_FLIGHT);
        call.transmitted(System.nanoTime());
        server.countersInternal().increment(RpcRdmaCounter.SVC_BC_CALLS);
        return 0;
    }

    void onReply(final SvcRdmaConnection conn, final DirectBuffer msg, final int offset, final int length)
    {
        final int xid = msg.getInt(offset, ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < SLOTS; i++)
        {
            final RpcCall call = calls[i];
            if (null != call && conns[i] == conn && call.xid() == xid && RpcCall.IN_FLIGHT == call.state())
            {
                final Regbuf buf = bufs[i];
                if (length > buf.size())
                {
                    call.failed(Errno.EIO);
                }
                else
                {
                    buf.buffer().putBytes(0, msg, offset, length);
                    try
                    {
                        call.replyReceived(buf.buffer(), 0, length, -1);
                    }
                    catch (final XdrException ex)
                    {
                        call.failed(Errno.EIO);
                    }
                }
                if (null != call.listener())
                {
                    call.listener().onDone(call);
                }
                return;
            }
        }
    }

    void onSendCompleted(final int slot)
    {
        sending[slot] = false;
    }

    void release(final RpcCall call)
    {
        final int slot = slotOf(call);
        if (slot < 0)
        {
            return;
        }
        server.putSmall(bufs[slot]);
        calls[slot] = null;
        bufs[slot] = null;
        conns[slot] = null;
        sending[slot] = false;
        call.state(RpcCall.IDLE);
    }

    void connectionGone(final SvcRdmaConnection conn)
    {
        for (int i = 0; i < SLOTS; i++)
        {
            final RpcCall call = calls[i];
            if (null != call && conns[i] == conn && RpcCall.IN_FLIGHT == call.state())
            {
                call.failed(Errno.ENOTCONN);
                if (null != call.listener())
                {
                    call.listener().onDone(call);
                }
            }
        }
    }
}
