package io.jrxe.ulp.rpcrdma;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.rpcrdma.RawRdmaPeer.Msg;
import io.jrxe.ulp.sunrpc.RpcCall;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.jrxe.ulp.rpcrdma.RawRdmaPeer.noChunks;
import static io.jrxe.ulp.rpcrdma.RawRdmaPeer.word;
import static io.jrxe.ulp.rpcrdma.RpcPair.MS;
import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * RpcRdmaClient against a hostile server: a raw rdma_cm listener of the test's own (the client is pointed at it with
 * {@link RpcRdmaTransport#setPort}) answering with hand-made transport headers. A reply with an xid the client does
 * not know, or one that does not decode, is counted and dropped, and the call goes the timer's way (disconnect,
 * reconnect, retransmission), never hangs; credits are sanitized as rpcrdma_reply_handler does; RDMA_ERROR fails the
 * call with EIO at once.
 */
class RpcRdmaHostileServerTest
{
    private static final int RAW_PORT = RpcPair.PORT + 1;
    private RpcPair pair;
    private RawRdmaPeer raw;
    private int messages;

    @AfterEach
    void close()
    {
        if (null != raw)
        {
            raw.close();
        }
        if (null != pair)
        {
            pair.close();
        }
    }

    private void start(final RawRdmaPeer.Handler handler)
    {
        pair = new RpcPair(WireFaults.none(), new RpcRdmaClient.Context().timeoutNs(100 * MS).retries(2),
            new RpcRdmaServerContext());
        raw = RawRdmaPeer.listen(pair, RAW_PORT, RawRdmaPeer.rfc8797(4096, false), (p, msg, length) ->
        {
            messages++;
            handler.onMessage(p, msg, length);
        });
        pair.client.transport().setPort(RAW_PORT);
        pair.connect();
    }

    private long counter(final RpcRdmaCounter c)
    {
        return pair.client.transport().counters().get(c);
    }

    private RpcCall increment(final RpcCall call)
    {
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.INCREMENT));
        call.args().putInt(1);
        assertEquals(0, pair.client.submit(call));
        return call;
    }

    private static Msg goodReply(final int xid, final int credits, final int result)
    {
        return noChunks(xid, credits, RpcRdma.RDMA_MSG).reply(xid).words(result);
    }

    private void assertAllMrsBack()
    {
        final RpcRdmaTransport t = pair.client.transport();
        pair.runUntil(() -> t.mrPoolSize() == t.freeMrs(), SECOND, "the MR pool whole again");
    }

    @Test
    void shouldDropRepliesWithUnknownXidsAndResendAfterTheTimerForcedAReconnect()
    {
        start((p, msg, length) ->
        {
            final int xid = word(msg, 0);
            if (1 == messages)
            {
                // the call's slot with another xid, and a slot the client does not have
                assertEquals(0, p.send(goodReply(xid ^ 0x0F0F_0000, 16, 99)));
                assertEquals(0, p.send(goodReply(xid | 0x3FF, 16, 98)));
            }
            else
            {
                assertEquals(0, p.send(goodReply(xid, 16, 42)));
            }
        });
        final RpcCall call = increment(new RpcCall());
        pair.runUntil(() -> 2 == counter(RpcRdmaCounter.UNKNOWN_XID), SECOND, "two unknown xids");
        assertFalse(call.isDone(), "neither answered the call");
        assertEquals(2, counter(RpcRdmaCounter.BAD_REPLY_COUNT));
        pair.runUntil(call::isDone, 10 * SECOND, "the reply to the retransmission");
        assertEquals(0, call.status(), call.toString());
        assertEquals(42, call.results().getInt());
        assertEquals(2, call.transmissions());
        assertEquals(2, messages, "sent once per connection");
        assertEquals(1, counter(RpcRdmaCounter.RPC_TIMEOUTS), "the timer forced the disconnect");
        assertEquals(2, counter(RpcRdmaCounter.CONNECT_COUNT));
        assertEquals(2, raw.established);
        assertEquals(1, counter(RpcRdmaCounter.RETRANSMITS));
        pair.client.release(call);
    }

    @Test
    void shouldTimeOutWhenTheServerNeverAnswers()
    {
        start((p, msg, length) ->
        {
        });
        final RpcCall call = increment(new RpcCall());
        pair.runUntil(call::isDone, 10 * SECOND, "the call's failure");
        assertEquals(-Errno.ETIMEDOUT, call.status());
        assertEquals(3, call.transmissions());
        assertEquals(3, messages, "the server saw each transmission, each on its own connection");
        assertEquals(3, raw.established);
        assertEquals(2, counter(RpcRdmaCounter.RPC_TIMEOUTS));
        pair.client.release(call);
    }

    @Test
    void shouldSanitizeTheCreditsGranted()
    {
        final int[] grants = {0, 0, 1000, 0x8000_0000, 0xFFFF_FFFF, 5};
        start((p, msg, length) -> assertEquals(0, p.send(goodReply(word(msg, 0), grants[messages - 1], 7))));
        final RpcRdmaTransport t = pair.client.transport();
        final int max = t.ctx.maxRequests();

        final RpcCall a = increment(new RpcCall());
        pair.runUntil(a::isDone, SECOND, "reply A");
        assertEquals(0, a.status());
        assertEquals(1, t.credits(), "0 credits taken as 1: the client never deadlocks");
        assertEquals(1, counter(RpcRdmaCounter.CREDITS_SANITIZED));

        // with 1 credit, two calls go one after the other
        final RpcCall b = increment(new RpcCall());
        final RpcCall c = increment(new RpcCall());
        assertEquals(1, counter(RpcRdmaCounter.CREDIT_WAITS), "the second waited for the credit");
        pair.runUntil(() -> b.isDone() && c.isDone(), SECOND, "replies B and C");
        assertEquals(0, b.status());
        assertEquals(0, c.status());
        assertEquals(max, t.credits(), "1000 clamped to max_requests");
        assertEquals(3, counter(RpcRdmaCounter.CREDITS_SANITIZED));

        for (final int grant : new int[]{0x8000_0000, 0xFFFF_FFFF})
        {
            final RpcCall d = increment(new RpcCall());
            pair.runUntil(d::isDone, SECOND, "reply granting " + Integer.toUnsignedString(grant));
            assertEquals(0, d.status());
            assertEquals(max, t.credits(), Integer.toUnsignedString(grant) + " (an unsigned XDR word) clamped");
            pair.client.release(d);
        }
        assertEquals(5, counter(RpcRdmaCounter.CREDITS_SANITIZED));

        final RpcCall e = increment(new RpcCall());
        pair.runUntil(e::isDone, SECOND, "reply E");
        assertEquals(5, t.credits());
        assertEquals(5, counter(RpcRdmaCounter.CREDITS_SANITIZED), "5 is within the bounds");
        assertEquals(0, counter(RpcRdmaCounter.RPC_TIMEOUTS));
    }

    @Test
    void shouldCountAndDropMalformedRepliesAndRecoverThroughTheTimer()
    {
        start((p, msg, length) ->
        {
            final int xid = word(msg, 0);
            switch (messages)
            {
                case 1:
                    // version 2, then 12 bytes: not even a fixed header
                    assertEquals(0, p.send(new Msg().words(xid, 2, 16, RpcRdma.RDMA_MSG, 0, 0, 0).reply(xid)));
                    assertEquals(0, p.send(new Msg().words(xid, 1, 16).buf, 12));
                    break;
                case 2:
                    // a Read list cut off after its first word, and an RDMA_ERROR with an unknown code
                    assertEquals(0, p.send(new Msg().words(xid, 1, 16, RpcRdma.RDMA_MSG, 1, 0)));
                    assertEquals(0, p.send(new Msg().words(xid, 1, 16, RpcRdma.RDMA_ERROR, 9)));
                    break;
                default:
                    assertEquals(0, p.send(goodReply(xid, 16, 77)));
                    break;
            }
        });
        final RpcCall call = increment(new RpcCall());
        pair.runUntil(() -> 2 == counter(RpcRdmaCounter.BAD_REPLY_COUNT), SECOND, "two bad replies");
        assertFalse(call.isDone());
        pair.runUntil(call::isDone, 10 * SECOND, "the call's end");
        assertEquals(0, call.status(), call.toString());
        assertEquals(77, call.results().getInt());
        assertEquals(3, call.transmissions(), "resent after each of two timeouts");
        assertEquals(4, counter(RpcRdmaCounter.BAD_REPLY_COUNT));
        assertEquals(2, counter(RpcRdmaCounter.RPC_TIMEOUTS));
        assertEquals(0, counter(RpcRdmaCounter.UNKNOWN_XID));
        pair.client.release(call);
        assertAllMrsBack();
    }

    @Test
    void shouldFailACallWhoseReplyClaimsMoreThanItsWriteChunkHeld()
    {
        start((p, msg, length) ->
        {
            // the call's Write chunk: xid 1 credits RDMA_MSG | 0 | 1 1 handle length offset | 0 | 0
            final int xid = word(msg, 0);
            assertEquals(1, word(msg, 5));
            final int handle = word(msg, 7);
            final int offered = word(msg, 8);
            assertEquals(0, p.send(new Msg().words(xid, 1, 16, RpcRdma.RDMA_MSG, 0, 1, 1, handle, offered + 4096,
                word(msg, 9), word(msg, 10), 0, 0).reply(xid).words(offered + 4096)));
        });
        final UnsafeBuffer dst = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 * 1024, 4096));
        final RpcCall call = new RpcCall();
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.READ));
        call.args().putInt(0).putInt(dst.capacity());
        call.readPayloadTo(dst.addressOffset(), dst.capacity()).replyLimit(256);
        assertEquals(0, pair.client.submit(call));
        pair.runUntil(call::isDone, SECOND, "the call's end");
        assertEquals(-Errno.EIO, call.status(), "a Write chunk longer than its registration is not believed");
        assertEquals(1, counter(RpcRdmaCounter.BAD_REPLY_COUNT));
        assertEquals(0, counter(RpcRdmaCounter.RPC_TIMEOUTS));
        pair.client.release(call);
        assertAllMrsBack();
    }

    @Test
    void shouldFailACallWithEioOnRdmaError()
    {
        start((p, msg, length) ->
        {
            final int xid = word(msg, 0);
            switch (messages)
            {
                case 1:
                    assertEquals(0, p.send(new Msg().words(xid, 1, 16, RpcRdma.RDMA_ERROR, RpcRdma.ERR_VERS, 2, 3)));
                    break;
                case 2:
                    assertEquals(0, p.send(new Msg().words(xid, 1, 16, RpcRdma.RDMA_ERROR, RpcRdma.ERR_CHUNK)));
                    break;
                default:
                    // a Write chunk the call did not offer
                    assertEquals(0, p.send(new Msg().words(xid, 1, 16, RpcRdma.RDMA_MSG, 0, 1, 1, 0x1234, 64)
                        .hyper(0x1000).words(0, 0).reply(xid).words(1)));
                    break;
            }
        });
        final RpcCall vers = increment(new RpcCall());
        pair.runUntil(vers::isDone, SECOND, "ERR_VERS");
        assertEquals(-Errno.EIO, vers.status());
        assertEquals(1, counter(RpcRdmaCounter.ERR_VERS_RECEIVED));

        // a READ with a Write chunk: refused with ERR_CHUNK, its registration invalidated before the call ends
        final UnsafeBuffer dst = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 * 1024, 4096));
        final RpcCall chunk = new RpcCall();
        assertEquals(0, pair.client.prepare(chunk, TestProgram.PROGRAM, 1, TestProgram.READ));
        chunk.args().putInt(0).putInt(dst.capacity());
        chunk.readPayloadTo(dst.addressOffset(), dst.capacity()).replyLimit(256);
        assertEquals(0, pair.client.submit(chunk));
        pair.runUntil(chunk::isDone, SECOND, "ERR_CHUNK");
        assertEquals(-Errno.EIO, chunk.status());
        assertEquals(1, counter(RpcRdmaCounter.ERR_CHUNK_RECEIVED));
        assertEquals(1, counter(RpcRdmaCounter.WRITE_CHUNK_COUNT));
        assertEquals(1, counter(RpcRdmaCounter.LOCAL_INV_NEEDED), "the Write chunk's MR invalidated");
        final RpcRdmaTransport t = pair.client.transport();
        assertEquals(t.mrPoolSize(), t.freeMrs(), "every MR back when the call ended");

        final RpcCall stray = increment(new RpcCall());
        pair.runUntil(stray::isDone, SECOND, "a reply with a chunk never offered");
        assertEquals(-Errno.EIO, stray.status());
        assertEquals(1, counter(RpcRdmaCounter.BAD_REPLY_COUNT));

        assertEquals(1, vers.transmissions());
        assertEquals(1, chunk.transmissions());
        assertEquals(0, counter(RpcRdmaCounter.RPC_TIMEOUTS), "failed at once, not by the timer");
        assertEquals(1, counter(RpcRdmaCounter.CONNECT_COUNT));
        pair.client.release(vers);
        pair.client.release(chunk);
        pair.client.release(stray);
    }
}
