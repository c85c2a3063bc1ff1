package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.xdr.Xdr;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * An {@link RpcClient} for wire-format tests: fixed xids, records what a call would put on the wire inline (head,
 * payload, pad, tail) and answers with the reply bytes the test gives it.
 */
final class CapturingRpcClient implements RpcClient
{
    private final UnsafeBuffer send = new UnsafeBuffer(new byte[8192]);
    private final UnsafeBuffer payloadView = new UnsafeBuffer(0, 0);
    private UnsafeBuffer reply = new UnsafeBuffer(new byte[0]);
    int nextXid = 0x0102_0304;
    byte[] sent;
    RpcCall lastCall;

    void reply(final byte[] bytes)
    {
        reply = new UnsafeBuffer(bytes);
    }

    @Override
    public int prepare(final RpcCall call, final int program, final int version, final int procedure)
    {
        call.attachSendBuffer(send, 0, send.capacity());
        call.begin(this, nextXid++, program, version, procedure, RpcAuth.none());
        return 0;
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
        final byte[] head = Arrays.copyOf(send.byteArray(), call.headLength());
        final int pad = call.hasPayload() ? Xdr.pad(call.payloadLength()) : 0;
        final byte[] all = Arrays.copyOf(head, call.inlineLength());
        if (call.hasPayload())
        {
            payloadView.wrap(call.payloadAddress(), call.payloadLength());
            payloadView.getBytes(0, all, head.length, call.payloadLength());
            send.getBytes(call.headLength(), all, head.length + call.payloadLength() + pad, call.tailLength());
        }
        sent = all;
        lastCall = call;
        call.state(RpcCall.IN_FLIGHT);
        call.replyReceived(reply, 0, reply.capacity(), -1);
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
        call.state(RpcCall.IDLE);
    }

    @Override
    public RpcAuth auth()
    {
        return RpcAuth.none();
    }

    @Override
    public void close()
    {
    }
}
