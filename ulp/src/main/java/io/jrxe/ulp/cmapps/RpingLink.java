package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * One rping connection's verbs side, as rping.c sets it up: a PD, one CQ of {@code 2 * SQ depth} entries on one
 * completion channel for both queues, an RC QP (SQ 16, RQ 2, one SGE) made through the id, and the buffers: a
 * 16-byte receive buffer, the send buffer, the RDMA buffer ({@code -S} bytes: the server's READ target and WRITE
 * source, the client's sink) and, on the client, the start buffer the server READs.
 * <p>
 * {@link #next} is rping's CQ thread and CM thread folded into the caller's thread: Java cannot wait on the event
 * channel and the completion channel at once, so it sleeps on the completion channel (where the data path's
 * wake-ups come from) in slices of {@link #CM_POLL_SLICE_NS} and looks at the event channel between them; a
 * DISCONNECTED is seen within a slice. Receives are reposted as soon as they complete, before the caller answers,
 * so the peer's next message always finds one.
 */
final class RpingLink
{
    /** What {@link #next} reports. SEND completions are consumed silently, as rping's CQ handler does. */
    enum Signal
    {
        /** A 16-byte {@link RpingRdmaInfo} arrived (and the receive was reposted). */
        RECV,
        /** The RDMA READ completed. */
        READ_DONE,
        /** The RDMA WRITE completed. */
        WRITE_DONE,
        /** The connection ended. */
        DISCONNECTED
    }

    static final int SQ_DEPTH = 16;
    static final int RQ_DEPTH = 2;
    /** How often a thread waiting for completions looks at the CM's event channel. */
    static final long CM_POLL_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int SEND_SLOTS = 2;

    private final String role;
    private final CmId id;
    private final EventChannel events;
    private final PrintStream err;
    private final RxeDevice device;
    private final WorkCompletion[] wcs = {new WorkCompletion()};
    private ProtectionDomain pd;
    private CompletionChannel compChannel;
    private CompletionQueue cq;
    private final UnsafeBuffer recvBuf = buffer(RpingRdmaInfo.LENGTH);
    private final UnsafeBuffer sendBuf = buffer(SEND_SLOTS * RpingRdmaInfo.LENGTH);
    private final UnsafeBuffer rdmaBuf;
    private final UnsafeBuffer startBuf;
    private MemoryRegion recvMr;
    private MemoryRegion sendMr;
    private MemoryRegion rdmaMr;
    private MemoryRegion startMr;
    private boolean established;
    private boolean disconnected;
    private long remoteAddr;
    private int remoteRkey;
    private int remoteLen;

    private RpingLink(final String role, final CmId id, final EventChannel events, final PrintStream err,
        final int size, final boolean client)
    {
        this.role = role;
        this.id = id;
        this.events = events;
        this.err = err;
        this.device = id.verbs();
        this.rdmaBuf = buffer(size);
        this.startBuf = client ? buffer(size) : null;
    }

    /**
     * {@code rping_setup_qp} and {@code rping_setup_buffers}, then the first receive.
     *
     * @param role "server" or "client", for rping's messages
     * @param id the connection's id (the client's, or the server's child)
     * @param events the id's event channel
     * @param err where rping's error lines go
     * @param size {@code -S}
     * @param client true: also the start buffer
     * @return the link; {@link #release()} it
     */
    static RpingLink open(final String role, final CmId id, final EventChannel events, final PrintStream err,
        final int size, final boolean client)
    {
        final RpingLink link = new RpingLink(role, id, events, err, size, client);
        try
        {
            link.setUp();
            return link;
        }
        catch (final RuntimeException e)
        {
            new Teardown(e).step(link::release).finish();
            throw e;
        }
    }

    private void setUp()
    {
        pd = device.allocPd();
        compChannel = device.createCompChannel();
        cq = device.createCq(new CqInitAttr().cqe(SQ_DEPTH * 2).channel(compChannel));
        final QpInitAttr init = new QpInitAttr().sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(SQ_DEPTH).maxRecvWr(RQ_DEPTH).maxSendSge(1).maxRecvSge(1);
        id.createQp(pd, init);
        final int remote = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
        recvMr = device.regMr(pd, recvBuf, AccessFlags.LOCAL_WRITE);
        sendMr = device.regMr(pd, sendBuf, 0);
        rdmaMr = device.regMr(pd, rdmaBuf, remote);
        if (null != startBuf)
        {
            startMr = device.regMr(pd, startBuf, remote);
        }
        postRecv();
    }

    /** @return the RDMA buffer: the server's READ target and WRITE source, the client's sink */
    UnsafeBuffer rdmaBuf()
    {
        return rdmaBuf;
    }

    /** @return the client's start buffer (null on the server) */
    UnsafeBuffer startBuf()
    {
        return startBuf;
    }

    /** @return the address in the last descriptor received */
    long remoteAddr()
    {
        return remoteAddr;
    }

    /** @return the rkey in the last descriptor received */
    int remoteRkey()
    {
        return remoteRkey;
    }

    /** @return the size in the last descriptor received */
    int remoteLen()
    {
        return remoteLen;
    }

    /** @return true once the peer or our own disconnect ended the connection */
    boolean isDisconnected()
    {
        return disconnected;
    }

    /** The client: SEND the start buffer's descriptor (slot 0) for the server's RDMA READ. */
    void sendStartInfo()
    {
        sendInfo(0, startMr, startBuf.capacity());
    }

    /** The client: SEND the RDMA buffer's descriptor (slot 1) for the server's RDMA WRITE. */
    void sendSinkInfo()
    {
        sendInfo(1, rdmaMr, rdmaBuf.capacity());
    }

    /** The server's go-ahead: its send buffer, as rping never fills it: 16 zero bytes. */
    void sendGoAhead()
    {
        check(RdmaVerbs.postSend(id, 0, sendBuf.addressOffset(), RpingRdmaInfo.LENGTH, sendMr, SendFlags.SIGNALED),
            "post send");
    }

    /** The server: RDMA READ the peer's start buffer into the RDMA buffer. */
    void readStart(final int length)
    {
        check(RdmaVerbs.postRead(id, 0, rdmaBuf.addressOffset(), length, rdmaMr, SendFlags.SIGNALED, remoteAddr,
            remoteRkey), "post send");
    }

    /** The server: RDMA WRITE the first {@code length} bytes of the RDMA buffer into the peer's sink. */
    void writeSink(final int length)
    {
        check(RdmaVerbs.postWrite(id, 0, rdmaBuf.addressOffset(), length, rdmaMr, SendFlags.SIGNALED, remoteAddr,
            remoteRkey), "post send");
    }

    private void sendInfo(final int slot, final MemoryRegion mr, final int size)
    {
        final int offset = slot * RpingRdmaInfo.LENGTH;
        RpingRdmaInfo.encode(sendBuf, offset, mr.iova(), mr.rkey(), size);
        // one slot per descriptor: the start descriptor's SEND may still be retransmitted while the sink's is built
        check(RdmaVerbs.postSend(id, slot, sendBuf.addressOffset() + offset, RpingRdmaInfo.LENGTH, sendMr,
            SendFlags.SIGNALED), "post send");
    }

    private void postRecv()
    {
        check(RdmaVerbs.postRecv(id, 0, recvBuf.addressOffset(), RpingRdmaInfo.LENGTH, recvMr), "post recv");
    }

    private void check(final int status, final String what)
    {
        if (0 != status)
        {
            final String qpError = null == id.qp() ? "" : " (" + id.qp().postError() + ")";
            throw new IllegalStateException("rping " + role + ": " + what + " error " + status + qpError);
        }
    }

    /**
     * Wait for the next thing that matters to the protocol: a receive, an RDMA completion, or the end of the
     * connection. ESTABLISHED is noted; an error event or a failed completion ends the run.
     *
     * @param timeoutNs how long this wait may take
     * @param what what the caller waits for, in rping's terms, for the timeout message
     * @return what happened
     * @throws IllegalStateException on a timeout, a failed completion or a bogus receive
     * @throws CmEventFailure on an error event
     */
    Signal next(final long timeoutNs, final String what)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        try
        {
            while (true)
            {
                Signal s = pollCq();
                if (null == s)
                {
                    s = pollCm();
                }
                if (null != s)
                {
                    return s;
                }
                if (0 != cq.reqNotify(false))
                {
                    continue; // completions arrived while arming: poll them; an error CQ fails in the poll
                }
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    throw CmTestSupport.timedOut("rping " + role, timeoutNs, what);
                }
                final CompletionQueue fired = compChannel.getEvent(Math.min(left, CM_POLL_SLICE_NS),
                    TimeUnit.NANOSECONDS);
                if (null != fired)
                {
                    fired.ackEvents(1);
                }
            }
        }
        catch (final InterruptedException e)
        {
            throw CmTestSupport.interrupted("rping " + role, what, e);
        }
    }

    private Signal pollCq()
    {
        while (1 == cq.poll(wcs, 1))
        {
            final WorkCompletion wc = wcs[0];
            if (WcStatus.WR_FLUSH_ERR.code() == wc.status())
            {
                continue; // the QP went to ERR at a disconnect: rping ignores flushed requests
            }
            if (WcStatus.SUCCESS.code() != wc.status())
            {
                err.println("cq completion failed status " + wc.status());
                throw new IllegalStateException("rping " + role + ": completion failed: " +
                    WcStatus.of(wc.status()).message() + " (status " + wc.status() + ", opcode " + wc.opcode() + ")");
            }
            switch (wc.opcode())
            {
                case WcOpcode.SEND:
                    break;
                case WcOpcode.RDMA_READ:
                    return Signal.READ_DONE;
                case WcOpcode.RDMA_WRITE:
                    return Signal.WRITE_DONE;
                case WcOpcode.RECV:
                    received(wc);
                    return Signal.RECV;
                default:
                    throw new IllegalStateException("rping " + role + ": unexpected completion opcode " + wc.opcode());
            }
        }
        return null;
    }

    private void received(final WorkCompletion wc)
    {
        if (RpingRdmaInfo.LENGTH != wc.byteLen())
        {
            err.println("Received bogus data, size " + wc.byteLen());
            throw new IllegalStateException("rping " + role + ": received bogus data, size " + wc.byteLen() +
                " (a descriptor is " + RpingRdmaInfo.LENGTH + " bytes)");
        }
        remoteAddr = RpingRdmaInfo.buf(recvBuf, 0);
        remoteRkey = RpingRdmaInfo.rkey(recvBuf, 0);
        remoteLen = RpingRdmaInfo.size(recvBuf, 0);
        postRecv();
    }

    private Signal pollCm()
    {
        for (CmEvent e = events.pollEvent(); null != e; e = events.pollEvent())
        {
            final CmEventType type = e.type();
            final int status = e.status();
            final CmId other = CmEventType.CONNECT_REQUEST == type ? e.id() : null;
            events.ackEvent(e);
            if (null != other)
            {
                refuse(other);
            }
            else if (CmEventType.ESTABLISHED == type)
            {
                established = true;
            }
            else if (CmEventType.DISCONNECTED == type)
            {
                disconnectedEvent();
                return Signal.DISCONNECTED;
            }
            else
            {
                failOnError(role, err, type, status);
            }
        }
        return null;
    }

    /** A second client while one is served: rping's non-persistent server never answers it; refuse it at once. */
    private static void refuse(final CmId other)
    {
        try
        {
            other.reject(null);
        }
        finally
        {
            other.destroy();
        }
    }

    private void disconnectedEvent()
    {
        if (!disconnected)
        {
            disconnected = true;
            err.println(role + " DISCONNECT EVENT...");
        }
    }

    /**
     * rping's CM handler on an error event: print it and give up.
     *
     * @throws CmEventFailure for ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED, DEVICE_REMOVAL
     */
    static void failOnError(final String role, final PrintStream err, final CmEventType type, final int status)
    {
        switch (type)
        {
            case ADDR_ERROR:
            case ROUTE_ERROR:
            case CONNECT_ERROR:
            case UNREACHABLE:
            case REJECTED:
            case DEVICE_REMOVAL:
                err.println("cma event " + type.str() + ", error " + status);
                throw new CmEventFailure("rping " + role, type, status);
            default:
                break; // TIMEWAIT_EXIT and the like: rping ignores them
        }
    }

    /** Note an ESTABLISHED taken from the channel by the caller (the client waits for it itself). */
    void established()
    {
        established = true;
    }

    /**
     * {@code rping_disconnect}: DREQ (or the DREP to the peer's DREQ), then, if we were connected and the peer had
     * not ended it yet, wait for DISCONNECTED so the exchange is over before the ids and the node go.
     *
     * @param timeoutNs how long to wait for DISCONNECTED
     */
    void disconnect(final long timeoutNs)
    {
        try
        {
            id.disconnect();
        }
        catch (final RdmaCmException e)
        {
            return; // never connected (rejected, unreachable): nothing to end
        }
        if (!established || disconnected)
        {
            return;
        }
        final long deadline = System.nanoTime() + timeoutNs;
        while (!disconnected && System.nanoTime() - deadline < 0)
        {
            next(Math.max(1, deadline - System.nanoTime()), "DISCONNECTED after our DREQ");
        }
    }

    /** {@code rping_free_buffers} and {@code rping_free_qp}: MRs, QP, CQ, channel, PD (the id stays). */
    void release()
    {
        for (final MemoryRegion mr : new MemoryRegion[]{recvMr, sendMr, rdmaMr, startMr})
        {
            if (null != mr)
            {
                device.deregMr(mr);
            }
        }
        recvMr = sendMr = rdmaMr = startMr = null;
        if (null != id.qp())
        {
            id.destroyQp(); // before the id: rping frees its QP first, and the CQ and PD cannot go while it lives
        }
        if (null != cq)
        {
            device.destroyCq(cq);
            cq = null;
        }
        if (null != compChannel)
        {
            device.destroyCompChannel(compChannel);
            compChannel = null;
        }
        if (null != pd)
        {
            device.deallocPd(pd);
            pd = null;
        }
    }

    private static UnsafeBuffer buffer(final int size)
    {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(size, 4096));
    }
}
