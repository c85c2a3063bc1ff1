package io.jrxe.ulp.examples;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Echo client: a synchronous id (no event channel: each call waits for its event, as librdmacm's
 * {@code rdma_create_ep} ids do) connects, sends each message, waits for its echo, says goodbye with an empty
 * message and disconnects.
 */
public final class EchoClient
{
    private EchoClient()
    {
    }

    /**
     * @param cm the node's connection manager
     * @param server the server's address and port
     * @param messages what to send
     * @return the echoes, in order
     */
    public static List<String> echo(final RdmaCm cm, final InetSocketAddress server, final List<String> messages)
    {
        final CmId id = cm.createId(null, null, PortSpace.TCP);
        id.resolveAddr(null, server, 2000); // ARP through the node's own stack
        id.resolveRoute(2000);
        final QpInitAttr init = new QpInitAttr();
        init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
        id.createQp(null, init);
        final UnsafeBuffer out = new UnsafeBuffer(BufferUtil.allocateDirectAligned(EchoServer.MAX_MESSAGE, 64));
        final UnsafeBuffer in = new UnsafeBuffer(BufferUtil.allocateDirectAligned(EchoServer.MAX_MESSAGE, 64));
        final MemoryRegion outMr = RdmaVerbs.regMsgs(id, out);
        final MemoryRegion inMr = RdmaVerbs.regMsgs(id, in);
        id.connect(new ConnParam().responderResources(1).initiatorDepth(1)); // returns when ESTABLISHED

        final List<String> echoes = new ArrayList<>();
        final WorkCompletion wc = new WorkCompletion();
        for (final String message : messages)
        {
            final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
            out.putBytes(0, bytes);
            RdmaVerbs.postRecv(id, 0, in.addressOffset(), EchoServer.MAX_MESSAGE, inMr);
            RdmaVerbs.postSend(id, 1, out.addressOffset(), bytes.length, outMr, SendFlags.SIGNALED);
            if (1 != RdmaVerbs.getSendComp(id, wc) || WcStatus.SUCCESS.code() != wc.status() ||
                1 != RdmaVerbs.getRecvComp(id, wc) || WcStatus.SUCCESS.code() != wc.status())
            {
                throw new IllegalStateException("echo of '" + message + "' failed: " + wc);
            }
            echoes.add(in.getStringWithoutLengthUtf8(0, wc.byteLen()));
        }
        RdmaVerbs.postSend(id, 2, out.addressOffset(), 0, outMr, SendFlags.SIGNALED); // goodbye: an empty message
        RdmaVerbs.getSendComp(id, wc);
        id.disconnect();
        RdmaVerbs.deregMr(id, outMr);
        RdmaVerbs.deregMr(id, inMr);
        id.destroy();
        return echoes;
    }
}
