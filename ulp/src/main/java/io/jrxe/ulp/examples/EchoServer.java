package io.jrxe.ulp.examples;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Echo server: listens on a port, accepts one connection, sends every message back until an empty one, then
 * answers the client's disconnect. Events come from an {@link EventChannel}, completions from {@link RdmaVerbs#getRecvComp} and
 * {@link RdmaVerbs#getSendComp}, which sleep on the QP's completion channels.
 */
public final class EchoServer implements AutoCloseable
{
    /** Largest message. */
    public static final int MAX_MESSAGE = 4096;

    private final EventChannel channel;
    private final CmId listener;

    private EchoServer(final RdmaCm cm, final int port)
    {
        channel = cm.createEventChannel();
        listener = cm.createId(channel, null, PortSpace.TCP);
        listener.bindAddr(new InetSocketAddress(port));
        listener.listen(1);
    }

    /**
     * Listen; connection requests wait until {@link #serveOne()}.
     *
     * @param cm the node's connection manager
     * @param port the port to listen on
     * @return the server
     */
    public static EchoServer listen(final RdmaCm cm, final int port)
    {
        return new EchoServer(cm, port);
    }

    /**
     * Serve one client.
     *
     * @return messages echoed
     * @throws InterruptedException if interrupted
     */
    public int serveOne() throws InterruptedException
    {
        {
            final CmEvent request = next(channel, CmEventType.CONNECT_REQUEST);
            final CmId id = request.id();
            channel.ackEvent(request);
            final QpInitAttr init = new QpInitAttr();
            init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
            id.createQp(null, init);
            final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_MESSAGE, 64));
            final MemoryRegion mr = RdmaVerbs.regMsgs(id, buffer);
            RdmaVerbs.postRecv(id, 0, buffer.addressOffset(), MAX_MESSAGE, mr);
            id.accept(null); // the request's read depths, capped by the device (rdma_accept(id, NULL))
            channel.ackEvent(next(channel, CmEventType.ESTABLISHED));

            int echoed = 0;
            final WorkCompletion wc = new WorkCompletion();
            // a zero-length message is the client's goodbye
            while (1 == RdmaVerbs.getRecvComp(id, wc) && WcStatus.SUCCESS.code() == wc.status() && wc.byteLen() > 0)
            {
                final int length = wc.byteLen();
                RdmaVerbs.postSend(id, 1, buffer.addressOffset(), length, mr, SendFlags.SIGNALED);
                if (1 != RdmaVerbs.getSendComp(id, wc) || WcStatus.SUCCESS.code() != wc.status())
                {
                    break;
                }
                echoed++;
                RdmaVerbs.postRecv(id, 0, buffer.addressOffset(), MAX_MESSAGE, mr);
            }
            // the client disconnects after its goodbye: answer its DREQ
            channel.ackEvent(next(channel, CmEventType.DISCONNECTED));
            id.disconnect();
            RdmaVerbs.deregMr(id, mr);
            id.destroy();
            return echoed;
        }
    }

    /** Stop listening. */
    @Override
    public void close()
    {
        listener.destroy();
        channel.close();
    }

    static CmEvent next(final EventChannel channel, final CmEventType expected) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(30, TimeUnit.SECONDS);
        if (null == event || expected != event.type())
        {
            throw new IllegalStateException("expected " + expected.str() + ", got " + event);
        }
        return event;
    }
}
