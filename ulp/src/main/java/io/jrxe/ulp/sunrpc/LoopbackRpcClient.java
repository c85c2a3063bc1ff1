package io.jrxe.ulp.sunrpc;

import io.jrxe.rxe.verbs.Errno;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * An {@link RpcClient} that hands each call straight to an {@link RpcDispatcher} in the same thread: no transport,
 * for testing programs and their clients byte for byte (the call and reply go through the same encoders and
 * decoders as on a wire, a payload is copied inline as a TCP or inline RDMA transport would). Each call owns a
 * send buffer and a reply buffer from a fixed pool.
 */
public final class LoopbackRpcClient implements RpcClient
{
    private final RpcDispatcher dispatcher;
    private final RpcAuth auth;
    private final InetSocketAddress peer;
    private final RpcServerCall serverCall = new RpcServerCall();
    private final UnsafeBuffer[] sendBuffers;
    private final UnsafeBuffer[] replyBuffers;
    private final boolean[] inUse;
    private final int bufferSize;
    private int nextXid = 0x4A52_0000;
    private boolean closed;

    /**
     * @param dispatcher the server side
     * @param auth credential of every call
     * @param calls calls that may be prepared at once
     * @param bufferSize bytes of a call and of a reply (payloads included)
     */
    public LoopbackRpcClient(final RpcDispatcher dispatcher, final RpcAuth auth, final int calls, final int bufferSize)
    {
        this.dispatcher = dispatcher;
        this.auth = auth;
        this.peer = new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 1023);
        this.bufferSize = bufferSize;
        sendBuffers = new UnsafeBuffer[calls];
        replyBuffers = new UnsafeBuffer[calls];
        inUse = new boolean[calls];
        for (int i = 0; i < calls; i++)
        {
            sendBuffers[i] = new UnsafeBuffer(BufferUtil.allocateDirectAligned(bufferSize, 64));
            replyBuffers[i] = new UnsafeBuffer(BufferUtil.allocateDirectAligned(bufferSize, 64));
        }
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        if (closed)
        {
            return -Errno.EIO;
        }
        for (int i = 0; i < inUse.length; i++)
        {
            if (!inUse[i])
            {
                inUse[i] = true;
                call.attachSendBuffer(sendBuffers[i], 0, bufferSize);
                call.transportData(i);
                call.begin(this, nextXid++, program, version, procedure, auth);
                return 0;
            }
        }
        return -Errno.ENOMEM;
    }

    @Override
    public int execute(final RpcCall call)
    {
        submit(call);
        return call.status();
    }

    @Override
    public int submit(final RpcCall call)
    {
        if (RpcCall.PREPARED != call.state())
        {
            throw new IllegalStateException("not prepared: " + call);
        }
        final int slot = (Integer)call.transportData();
        final UnsafeBuffer send = sendBuffers[slot];
        final int length = call.assembleInline();
        if (length < 0)
        {
            call.failed(Errno.EIO);
            return -Errno.EIO;
        }
        call.state(RpcCall.IN_FLIGHT);
        call.transmitted(System.nanoTime());
        serverCall.origin(peer, this);
        final UnsafeBuffer reply = replyBuffers[slot];
        final int replyLength = dispatcher.dispatch(serverCall, send, 0, length, reply, 0, bufferSize);
        if (replyLength < 0)
        {
            call.failed(Errno.EIO);
        }
        else
        {
            call.replyReceived(reply, 0, replyLength, -1);
        }
        if (null != call.listener())
        {
            call.listener().onDone(call);
        }
        return 0;
    }

    @Override
    public int progress()
    {
        return 0;
    }

    @Override
    public void release(final RpcCall call)
    {
        final Object slot = call.transportData();
        if (slot instanceof Integer)
        {
            inUse[(Integer)slot] = false;
        }
        call.transportData(null);
        call.state(RpcCall.IDLE);
    }

    @Override
    public RpcAuth auth()
    {
        return auth;
    }

    @Override
    public void close()
    {
        closed = true;
    }
}
