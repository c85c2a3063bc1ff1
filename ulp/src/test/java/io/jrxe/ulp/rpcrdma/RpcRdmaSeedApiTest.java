package io.jrxe.ulp.rpcrdma;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.ulp.sunrpc.DuplicateReplyCache;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static io.jrxe.ulp.rpcrdma.RpcPair.MS;
import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The xprtrdma seed operations of {@link RpcRdmaTransport}, called directly, with the returns their kernel-doc
 * gives (seeds 000 and 001): xprt_rdma_allocate 0 / -ENOMEM / -EIO; xprt_rdma_send_request 0 / -ENOTCONN (and a
 * connect starts) / -ENOBUFS (the credit window, one call before the first reply: RFC 8166 §3.3.3) / -EIO;
 * xprt_rdma_set_port (connect state unchanged, the next connection goes to the new port); xprt_rdma_timer;
 * rpcrdma_alloc_regbuf (LOCAL access only) / rpcrdma_free_regbuf; rpcrdma_ep_post_extra_recv 0 / -ENOTCONN.
 */
class RpcRdmaSeedApiTest
{
    private RpcPair pair;
    private RpcRdmaServer second;

    @AfterEach
    void close()
    {
        if (null != second)
        {
            pair.client.transport().close();
            pair.runFor(50 * MS);
            second.close();
        }
        if (null != pair)
        {
            pair.close();
        }
    }

    private RpcRdmaTransport start(final RpcRdmaClient.Context ctx)
    {
        pair = new RpcPair(WireFaults.none(), ctx, new RpcRdmaServerContext());
        return pair.client.transport();
    }

    private RpcCall prepare(final RpcCall call, final int delta)
    {
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.INCREMENT));
        call.args().putInt(delta);
        return call;
    }

    @Test
    void allocateGivesASlotUntilAllAreTakenAndFailsForGoodAfterDestroy()
    {
        final RpcRdmaClient.Context ctx = new RpcRdmaClient.Context();
        ctx.transport().maxRequests(2);
        final RpcRdmaTransport t = start(ctx);
        final RpcCall a = new RpcCall();
        final RpcCall b = new RpcCall();
        final RpcCall c = new RpcCall();
        assertEquals(0, t.allocate(a));
        assertTrue(a.sendCapacity() > 0, "a registered send buffer attached");
        assertEquals(0, t.allocate(b));
        assertEquals(-Errno.ENOMEM, t.allocate(c), "every slot taken: call again later");
        t.free(a);
        assertEquals(0, t.allocate(c), "a freed slot is given again");
        t.free(b);
        t.free(c);
        pair.client.close(); // destroys the transport
        assertTrue(t.isDestroyed());
        assertEquals(-Errno.EIO, t.allocate(a), "destroyed: a permanent error");
        assertEquals(-Errno.EIO, t.sendRequest(a));
    }

    @Test
    void sendRequestConnectsFirstThenHonoursTheCreditWindow()
    {
        final RpcRdmaTransport t = start(new RpcRdmaClient.Context());
        final RpcCall first = prepare(new RpcCall(), 1);
        final RpcCall next = prepare(new RpcCall(), 2);
        assertEquals(-Errno.ENOTCONN, t.sendRequest(first), "not connected: reconnect and call again");
        assertFalse(t.isDisconnected(), "and a connect is started");
        pair.runUntil(t::isConnected, 10 * SECOND, "the connection");

        assertEquals(0, t.sendRequest(first));
        assertEquals(1, t.credits());
        assertEquals(-Errno.ENOBUFS, t.sendRequest(next), "RFC 8166 §3.3.3: one call before the first reply");
        assertEquals(1, t.counters().get(RpcRdmaCounter.CREDIT_WAITS));
        pair.runUntil(first::isDone, 10 * SECOND, "the first reply");
        assertEquals(0, first.status());
        assertEquals(64, t.credits(), "the server's grant");
        assertEquals(0, t.sendRequest(next));
        pair.runUntil(next::isDone, 10 * SECOND, "the second reply");
        assertEquals(3, next.results().getInt());
        pair.client.release(first);
        pair.client.release(next);
    }

    @Test
    void sendRequestFailsWithEioForACallNeedingMoreMrsThanTheTransportHas()
    {
        final RpcRdmaClient.Context ctx = new RpcRdmaClient.Context();
        ctx.transport().maxRequests(1);
        final RpcRdmaTransport t = start(ctx);
        pair.connect();
        // a WRITE whose payload needs a Read chunk of one MR per MiB: more than the whole pool holds
        final int length = (t.mrPoolSize() + 1) * t.frwr.maxSegmentBytes();
        final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 4096));
        final RpcCall call = new RpcCall();
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.WRITE));
        call.args().putInt(0).putInt(length);
        call.payload(src.addressOffset(), length);
        assertEquals(-Errno.EIO, t.sendRequest(call), "never sendable: a permanent error, not -ENOBUFS");
        assertEquals(1, t.counters().get(RpcRdmaCounter.FAILED_MARSHAL_COUNT));
        assertEquals(t.mrPoolSize(), t.freeMrs(), "nothing stays registered");
        assertEquals(0, t.counters().get(RpcRdmaCounter.CREDIT_WAITS));
        // through the client: the call fails at once instead of waiting in the queue for MRs that never come
        pair.client.release(call);
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.WRITE));
        call.args().putInt(0).putInt(length);
        call.payload(src.addressOffset(), length);
        assertEquals(-Errno.EIO, pair.client.submit(call));
        assertTrue(call.isDone());
        pair.client.release(call);
        final RpcCall ok = prepare(new RpcCall(), 5);
        assertEquals(0, pair.client.submit(ok));
        pair.runUntil(ok::isDone, 10 * SECOND, "a normal call on the same slot");
        assertEquals(0, ok.status());
        pair.client.release(ok);
    }

    @Test
    void setPortChangesTheNextConnectionOnly()
    {
        final RpcRdmaTransport t = start(new RpcRdmaClient.Context());
        final TestProgram other = new TestProgram();
        final int port = RpcPair.PORT + 2;
        second = RpcRdmaServer.start(pair.cmB, new RpcDispatcher(new DuplicateReplyCache(64, 4096)).register(other),
            new RpcRdmaServerContext().clock(pair.clock).bind(new InetSocketAddress(port)));
        pair.also(second::doWork);

        t.setPort(port + 1);
        assertTrue(t.isDisconnected(), "setting the port does not connect");
        pair.runFor(20 * MS);
        assertTrue(t.isDisconnected());
        t.setPort(RpcPair.PORT);
        pair.connect();
        execute(prepare(new RpcCall(), 1));
        t.setPort(port);
        assertEquals(port, t.server().getPort());
        assertTrue(t.isConnected(), "the connection stays");
        execute(prepare(new RpcCall(), 1));
        assertEquals(2, pair.program.total, "both calls on the first server's connection");
        assertEquals(0, other.total);
        assertEquals(1, t.counters().get(RpcRdmaCounter.CONNECT_COUNT));

        t.close(); // xprt_rdma_close: the connection goes, the transport stays usable
        pair.runUntil(t::isDisconnected, SECOND, "the connection closed");
        execute(prepare(new RpcCall(), 10));
        assertEquals(10, other.total, "the next connection went to the new port");
        assertEquals(2, pair.program.total);
        assertEquals(1, second.connectionCount());
    }

    private void execute(final RpcCall call)
    {
        assertEquals(0, pair.client.submit(call));
        pair.runUntil(call::isDone, 10 * SECOND, "reply to " + call);
        assertEquals(0, call.status(), call.toString());
        pair.client.release(call);
    }

    @Test
    void closeTakesTheConnectionDownAndTheNextSendReconnects()
    {
        final RpcRdmaTransport t = start(new RpcRdmaClient.Context());
        pair.connect();
        t.close();
        assertFalse(t.isConnected(), "xprt_rdma_close: the connection goes at once");
        pair.runUntil(t::isDisconnected, SECOND, "the drain");
        pair.runFor(200 * MS);
        assertTrue(t.isDisconnected(), "and it stays down: nothing asked for a connection");
        assertEquals(1, t.counters().get(RpcRdmaCounter.CONNECT_COUNT));
        assertEquals(1, t.counters().get(RpcRdmaCounter.DISCONNECT_COUNT));

        final RpcCall call = prepare(new RpcCall(), 4);
        assertEquals(-Errno.ENOTCONN, t.sendRequest(call), "the next send reconnects (and is called again)");
        pair.runUntil(t::isConnected, 10 * SECOND, "the reconnection");
        assertEquals(0, t.sendRequest(call));
        pair.runUntil(call::isDone, 10 * SECOND, "the reply");
        assertEquals(4, call.results().getInt());
        pair.client.release(call);
    }

    @Test
    void timerForcesADisconnectOnlyWhileConnected()
    {
        final RpcRdmaTransport t = start(new RpcRdmaClient.Context());
        final RpcCall call = prepare(new RpcCall(), 1);
        t.timer(call);
        assertEquals(0, t.counters().get(RpcRdmaCounter.RPC_TIMEOUTS), "not connected: nothing to do");
        pair.connect();
        t.timer(call);
        assertEquals(1, t.counters().get(RpcRdmaCounter.RPC_TIMEOUTS));
        assertFalse(t.isConnected(), "forced down");
        pair.runUntil(t::isDisconnected, SECOND, "the drain");
        pair.client.release(call);
    }

    @Test
    void regbufsAreRegisteredForLocalAccessOnlyAndDeregisteredWhenFreed()
    {
        final RpcRdmaTransport t = start(new RpcRdmaClient.Context());
        pair.connect();
        final Regbuf rb = t.allocRegbuf(5000);
        assertTrue(rb.size() >= 5000);
        final MemoryRegion mr = rb.mr();
        assertEquals(MemoryRegion.STATE_VALID, mr.state());
        assertEquals(AccessFlags.LOCAL_WRITE, mr.access(), AccessFlags.toString(mr.access()));
        assertEquals(0, mr.access() & (AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE |
            AccessFlags.REMOTE_ATOMIC), "no remote access");
        assertEquals(0, mr.rkey(), "no rkey to offer");
        assertEquals(t.qp().pd(), mr.pd(), "in the transport's PD");
        rb.buffer().setMemory(0, 64, (byte)0x11);
        // a peer that guessed the key cannot write it, even from a QP in the same PD
        try (SideChannel side = new SideChannel(pair, t.qp().pd()))
        {
            assertEquals(WcStatus.REM_ACCESS_ERR.code(), side.write(mr.lkey(), rb.address(), 64, (byte)0x22));
        }
        assertEquals((byte)0x11, rb.buffer().getByte(0));
        t.freeRegbuf(rb);
        assertEquals(MemoryRegion.STATE_FREE, mr.state(), "deregistered");
    }

    @Test
    void postExtraRecvPostsOnlyOnAConnection()
    {
        final RpcRdmaTransport t = start(new RpcRdmaClient.Context());
        assertEquals(-Errno.ENOTCONN, t.postExtraRecv(2));
        pair.connect();
        final int posted = t.postedRecvs;
        assertEquals(0, t.postExtraRecv(2));
        assertEquals(posted + 2, t.postedRecvs);
        t.close();
        pair.runUntil(t::isDisconnected, SECOND, "the drain");
        assertEquals(-Errno.ENOTCONN, t.postExtraRecv(1));
    }
}
