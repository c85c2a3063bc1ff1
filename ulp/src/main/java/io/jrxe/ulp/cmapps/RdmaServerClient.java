package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.AddrInfo;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;

/**
 * rdma-core's {@code rdma_server} and {@code rdma_client} (librdmacm/examples, v44) on jrxe's rdma_cm: the
 * synchronous style of {@code rdma_verbs.h}, with ids from {@link RdmaCm#getAddrInfo} and {@link RdmaCm#createEp}
 * (no event channel: calls block until their event) on the TCP port space, port 7471, and an RC QP with one send
 * and one receive request, one SGE, 16 bytes of inline data and every send signalled. One 16-byte message each way:
 * <pre>
 *   rdma_client                                  rdma_server
 *   create_ep (resolve addr + route, QP)         create_ep (passive), listen(0), get_request (QP made)
 *   post_recv, connect(NULL)                     post_recv, accept(NULL)
 *   post_send 16 B (inline)          ----&gt;       get_recv_comp
 *   get_send_comp                    &lt;----       post_send 16 B (inline): the message back
 *   get_recv_comp                                get_send_comp
 *   disconnect                                   disconnect
 * </pre>
 * The C tools send their (zeroed) buffer as it is; this server sends back what it received, which is the same
 * against a C client, and this client sends {@link RdmaServerClientSettings#message()} (zeros by default).
 * Unlike the C tools, a failed completion is an error, and every blocking step is bounded by a {@link Watchdog}.
 * After {@code disconnect} both wait for DISCONNECTED (librdmacm's synchronous {@code rdma_disconnect} does; jrxe's
 * returns at once), so the DREQ/DREP exchange is over before the node closes.
 */
public final class RdmaServerClient
{
    /** rdma_server's and rdma_client's default port. */
    public static final int DEFAULT_PORT = 7471;
    /** The message size. */
    public static final int MESSAGE_SIZE = 16;
    private static final int RECV_OFFSET = 0;
    private static final int SEND_OFFSET = 64;

    private final RdmaCm cm;
    private final RdmaServerClientSettings s;
    private final String tool;
    private final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 4096));
    private final WorkCompletion wc = new WorkCompletion();
    private CmId listenId;
    private CmId id;
    private MemoryRegion recvMr;
    private MemoryRegion sendMr;
    private int sendFlags;

    /**
     * @param cm the node's connection manager
     * @param settings the role and its options ({@link RdmaServerClientSettings#check()} is called here)
     */
    public RdmaServerClient(final RdmaCm cm, final RdmaServerClientSettings settings)
    {
        this.cm = cm;
        this.s = settings.check();
        this.tool = settings.server() ? "rdma_server" : "rdma_client";
    }

    /**
     * Run the server or the client once.
     *
     * @return what was received
     * @throws CmEventFailure when the connection ends on an error event (REJECTED, UNREACHABLE ...)
     * @throws IllegalStateException on a timeout or a failed work request
     * @throws RdmaCmException when a CM call is refused (the port is taken, the address does not resolve ...)
     */
    public RdmaServerClientResult run()
    {
        final Watchdog watchdog = new Watchdog(tool, s.timeoutNs());
        RuntimeException failure = null;
        try
        {
            return s.server() ? serve(watchdog) : connect(watchdog);
        }
        catch (final RdmaCmException e)
        {
            failure = null == e.eventType() ? watchdog.explain(e) :
                new CmEventFailure(tool, e.eventType(), e.eventStatus());
            throw failure;
        }
        catch (final RuntimeException e)
        {
            failure = watchdog.explain(e);
            throw failure;
        }
        finally
        {
            watchdog.close();
            release(failure);
        }
    }

    private RdmaServerClientResult serve(final Watchdog w)
    {
        final AddrInfo res = RdmaCm.getAddrInfo(null, Integer.toString(s.port()),
            new AddrInfo().flags(AddrInfo.PASSIVE).portSpace(PortSpace.TCP));
        listenId = cm.createEp(res, null, qpInit());
        listenId.listen(0);
        s.listening().run();
        w.stage("a connection request (rdma_get_request)");
        try
        {
            id = listenId.getRequest();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(tool + ": interrupted in rdma_get_request", e);
        }
        registerAndPostRecv();
        w.stage("ESTABLISHED (rdma_accept)");
        id.accept(null);
        w.stage("the client's message (rdma_get_recv_comp)");
        final int received = complete(RdmaVerbs.getRecvComp(id, wc), "rdma_get_recv_comp");
        buffer.putBytes(SEND_OFFSET, buffer, RECV_OFFSET, MESSAGE_SIZE); // the echo
        send(w);
        finish(w);
        return new RdmaServerClientResult(tool, received, bytes(RECV_OFFSET, received));
    }

    private RdmaServerClientResult connect(final Watchdog w)
    {
        final AddrInfo res = RdmaCm.getAddrInfo(s.serverName(), Integer.toString(s.port()),
            new AddrInfo().portSpace(PortSpace.TCP));
        w.stage("address and route resolution (rdma_create_ep)");
        final QpInitAttr init = qpInit();
        id = cm.createEp(res, null, init);
        registerAndPostRecv();
        buffer.putBytes(SEND_OFFSET, s.message());
        w.stage("ESTABLISHED (rdma_connect)");
        id.connect(null);
        send(w);
        w.stage("the server's answer (rdma_get_recv_comp)");
        final int received = complete(RdmaVerbs.getRecvComp(id, wc), "rdma_get_recv_comp");
        finish(w);
        return new RdmaServerClientResult(tool, received, bytes(RECV_OFFSET, received));
    }

    private static QpInitAttr qpInit()
    {
        final QpInitAttr init = new QpInitAttr().sqSigAll(true);
        init.cap().maxSendWr(1).maxRecvWr(1).maxSendSge(1).maxRecvSge(1).maxInlineData(MESSAGE_SIZE);
        return init;
    }

    /** The C tools' {@code ibv_query_qp(IBV_QP_CAP)} check, {@code rdma_reg_msgs} and {@code rdma_post_recv}. */
    private void registerAndPostRecv()
    {
        if (id.qp().cap().maxInlineData() >= MESSAGE_SIZE)
        {
            sendFlags = SendFlags.INLINE;
        }
        else
        {
            s.out().println(tool + ": device doesn't support IBV_SEND_INLINE, using sge sends");
        }
        recvMr = RdmaVerbs.regMsgs(id, buffer);
        if (0 == (sendFlags & SendFlags.INLINE))
        {
            sendMr = recvMr; // one registration covers both halves of the buffer
        }
        check(RdmaVerbs.postRecv(id, 0, buffer.addressOffset() + RECV_OFFSET, MESSAGE_SIZE, recvMr),
            "rdma_post_recv");
    }

    private void send(final Watchdog w)
    {
        check(RdmaVerbs.postSend(id, 0, buffer.addressOffset() + SEND_OFFSET, MESSAGE_SIZE, sendMr, sendFlags),
            "rdma_post_send");
        w.stage("the send completion (rdma_get_send_comp)");
        complete(RdmaVerbs.getSendComp(id, wc), "rdma_get_send_comp");
    }

    /** @return the completion's byte count */
    private int complete(final int ret, final String call)
    {
        if (ret < 0)
        {
            throw new IllegalStateException(tool + ": " + call + " failed: " + ret);
        }
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new IllegalStateException(tool + ": " + call + ": the request failed: " +
                WcStatus.of(wc.status()).message() + " (status " + wc.status() + ")");
        }
        return wc.byteLen();
    }

    private void check(final int status, final String call)
    {
        if (0 != status)
        {
            throw new IllegalStateException(tool + ": " + call + " failed: " + status + " (" + id.qp().postError() +
                ")");
        }
    }

    /** {@code rdma_disconnect}, then DISCONNECTED: the peer's DREP, or its DREQ if it disconnected first. */
    private void finish(final Watchdog w)
    {
        w.stage("DISCONNECTED (rdma_disconnect)");
        id.disconnect();
        try
        {
            while (true)
            {
                final CmEvent e = id.channel().getEvent(s.timeoutNs(), TimeUnit.NANOSECONDS);
                if (null == e)
                {
                    throw new IllegalStateException(tool + ": timed out after " +
                        TimeUnit.NANOSECONDS.toSeconds(s.timeoutNs()) + " s waiting for DISCONNECTED after " +
                        "rdma_disconnect");
                }
                id.channel().ackEvent(e);
                if (CmEventType.DISCONNECTED == e.type())
                {
                    return;
                }
            }
        }
        catch (final InterruptedException e)
        {
            throw CmTestSupport.interrupted(tool, "DISCONNECTED", e);
        }
    }

    private byte[] bytes(final int offset, final int length)
    {
        final byte[] b = new byte[Math.min(length, MESSAGE_SIZE)];
        buffer.getBytes(offset, b);
        return b;
    }

    /** {@code rdma_dereg_mr} and {@code rdma_destroy_ep}, each step even if one before failed. */
    private void release(final RuntimeException failure)
    {
        final Teardown t = new Teardown(failure);
        if (null != recvMr)
        {
            t.step(() -> RdmaVerbs.deregMr(id, recvMr));
        }
        if (null != id)
        {
            t.step(id::destroy);
        }
        if (null != listenId)
        {
            t.step(listenId::destroy);
        }
        t.finish();
    }
}
