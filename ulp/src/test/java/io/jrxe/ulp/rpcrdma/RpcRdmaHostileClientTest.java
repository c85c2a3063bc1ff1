package io.jrxe.ulp.rpcrdma;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.ulp.rpcrdma.RawRdmaPeer.Msg;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcMessage;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.ulp.rpcrdma.RawRdmaPeer.CALL_CREDITS;
import static io.jrxe.ulp.rpcrdma.RawRdmaPeer.noChunks;
import static io.jrxe.ulp.rpcrdma.RawRdmaPeer.word;
import static io.jrxe.ulp.rpcrdma.RpcPair.MS;
import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RpcRdmaServer against a hostile client: a raw rdma_cm connection of the test's own (its QP, its registered
 * memory, RFC 8797 private data or none) sending hand-made transport headers. Every bad header is answered with
 * RDMA_ERROR (the bytes decoded here) or dropped and counted; memory the client did not offer is never written; a
 * failed RDMA READ drops that connection only; more calls than the credits granted are dropped and counted; and the
 * server keeps serving (a well-behaved client afterwards, or the same connection).
 */
class RpcRdmaHostileClientTest
{
    private static final int GRANTED = 64;
    private RpcPair pair;
    private RawRdmaPeer raw;
    private final List<RawRdmaPeer> others = new ArrayList<>();

    @AfterEach
    void close()
    {
        for (final RawRdmaPeer p : others)
        {
            p.close();
        }
        if (null != raw)
        {
            raw.close();
        }
        if (null != pair)
        {
            pair.close();
        }
    }

    private void start(final RpcRdmaServerContext serverCtx, final byte[] privateData, final boolean halfChunk)
    {
        pair = new RpcPair(WireFaults.none(), new RpcRdmaClient.Context(), serverCtx);
        raw = RawRdmaPeer.connect(pair, privateData, 1, halfChunk);
    }

    private void start()
    {
        start(new RpcRdmaServerContext(), RawRdmaPeer.rfc8797(4096, false), false);
    }

    private long counter(final RpcRdmaCounter c)
    {
        return pair.server.counters().get(c);
    }

    private static void assertErrChunk(final byte[] reply, final int xid)
    {
        assertEquals(RpcRdma.ERR_CHUNK_HEADER, reply.length, "RDMA_ERROR ERR_CHUNK is 5 words");
        assertEquals(xid, word(reply, 0), "the offending message's xid");
        assertEquals(RpcRdma.VERSION, word(reply, 1));
        assertEquals(GRANTED, word(reply, 2), "credits granted");
        assertEquals(RpcRdma.RDMA_ERROR, word(reply, 3));
        assertEquals(RpcRdma.ERR_CHUNK, word(reply, 4));
    }

    /** A NULL call on the same connection is still answered: the connection and the server are fine. */
    private void assertNullAnswered(final int xid)
    {
        assertEquals(0, raw.send(noChunks(xid, CALL_CREDITS, RpcRdma.RDMA_MSG).call(xid, TestProgram.NULL)));
        final byte[] reply = raw.awaitMessage("the NULL reply");
        assertEquals(xid, word(reply, 0));
        assertEquals(RpcRdma.RDMA_MSG, word(reply, 3));
        assertEquals(xid, word(reply, 7), "the RPC reply follows the 28-byte header");
        assertEquals(RpcMessage.REPLY, word(reply, 8));
    }

    /** A well-behaved client connects and is served: the server survived whatever came before. */
    private void assertServerHealthy()
    {
        pair.connect();
        final RpcCall call = new RpcCall();
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.INCREMENT));
        call.args().putInt(3);
        assertEquals(0, pair.client.submit(call));
        pair.runUntil(call::isDone, 10 * SECOND, "a good client's reply");
        assertEquals(0, call.status(), call.toString());
        assertEquals(RpcMessage.SUCCESS, call.acceptStat());
        pair.client.release(call);
        pair.runUntil(() -> 0 == pair.server.busyCalls(), SECOND, "every server call context back");
    }

    @Test
    void shouldAnswerVersionTwoWithErrVersOneToOne()
    {
        start();
        final int xid = 0x1234_0001;
        assertEquals(0, raw.send(new Msg().words(xid, 2, CALL_CREDITS, RpcRdma.RDMA_MSG, 0, 0, 0)
            .call(xid, TestProgram.INCREMENT).words(1)));
        final byte[] reply = raw.awaitMessage("ERR_VERS");
        assertEquals(RpcRdma.ERR_VERS_HEADER, reply.length, "RDMA_ERROR ERR_VERS is 7 words");
        assertEquals(xid, word(reply, 0));
        assertEquals(RpcRdma.VERSION, word(reply, 1), "the error itself is a version 1 message");
        assertEquals(GRANTED, word(reply, 2));
        assertEquals(RpcRdma.RDMA_ERROR, word(reply, 3));
        assertEquals(RpcRdma.ERR_VERS, word(reply, 4));
        assertEquals(1, word(reply, 5), "lowest version supported");
        assertEquals(1, word(reply, 6), "highest version supported");
        assertEquals(1, counter(RpcRdmaCounter.SVC_ERR_VERS_SENT));
        assertEquals(0, pair.program.executions, "the call was not run");
        assertNullAnswered(xid + 1);
        assertServerHealthy();
    }

    @Test
    void shouldDropAndCountAMessageShorterThanTheFixedHeader()
    {
        start();
        assertEquals(0, raw.send(new Msg().words(0x77, 1, CALL_CREDITS).buf, 12));
        assertEquals(0, raw.send(new Msg().words(0x78).buf, 4));
        // RC delivers in order and the server handles messages in order: the NULL's reply comes first and alone
        assertNullAnswered(0x79);
        pair.runFor(20 * MS);
        assertTrue(raw.inbox.isEmpty(), "nothing answered the short messages");
        assertEquals(2, counter(RpcRdmaCounter.SVC_DROP_MALFORMED));
        assertEquals(0, counter(RpcRdmaCounter.SVC_ERR_CHUNK_SENT) + counter(RpcRdmaCounter.SVC_ERR_VERS_SENT));
        assertServerHealthy();
    }

    @Test
    void shouldAnswerMalformedChunkListsAndObsoleteProceduresWithErrChunk()
    {
        start();
        final long at = raw.chunkAddress(0);
        final int rkey = raw.chunkMr.rkey();
        final Msg[] bad = {
            // a Write chunk of 5 segments with one present: its count overruns the message
            new Msg().words(0x100, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 0, 1, 5, rkey, 4096).hyper(at).words(0, 0),
            // a segment count that would be 64 GiB of segments
            new Msg().words(0x101, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 0, 1, 0xFFFF_FFFF, rkey, 4096).hyper(at),
            // more segments than the server's bounds, all present
            manySegments(0x102, ChunkLists.MAX_SEGMENTS + 1, rkey, at),
            // a Read list that never ends
            new Msg().words(0x103, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 1, 0, rkey, 64).hyper(at).words(1, 0),
            // the lists cut off: 16 bytes of fixed header and one word
            new Msg().words(0x104, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 0),
            // RDMA_NOMSG with no Read chunk at all
            noChunks(0x105, CALL_CREDITS, RpcRdma.RDMA_NOMSG),
            // RDMA_NOMSG whose Read chunk is not at position zero
            new Msg().words(0x106, 1, CALL_CREDITS, RpcRdma.RDMA_NOMSG, 1, 8, rkey, 64).hyper(at).words(0, 0, 0),
            // the procedures RFC 8166 removed, and one that never existed
            noChunks(0x107, CALL_CREDITS, RpcRdma.RDMA_MSGP).words(0, 0),
            noChunks(0x108, CALL_CREDITS, RpcRdma.RDMA_DONE),
            noChunks(0x109, CALL_CREDITS, 77),
            // a Read position that is not XDR-aligned
            new Msg().words(0x10A, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 1, 42, rkey, 64).hyper(at).words(0, 0, 0)
                .call(0x10A, TestProgram.NULL),
            // a Read chunk of 2 GiB, more than any call the server takes
            new Msg().words(0x10B, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 1, 48, rkey, Integer.MAX_VALUE).hyper(at)
                .words(0, 0, 0).call(0x10B, TestProgram.WRITE).words(0, 64),
            // a Read chunk positioned past the end of the inline call
            new Msg().words(0x10C, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 1, 4096, rkey, 64).hyper(at)
                .words(0, 0, 0).call(0x10C, TestProgram.WRITE).words(0, 64),
        };
        for (final Msg m : bad)
        {
            final int xid = word(m.buf, 0);
            assertEquals(0, raw.send(m));
            assertErrChunk(raw.awaitMessage("ERR_CHUNK for " + Integer.toHexString(xid)), xid);
        }
        assertEquals(bad.length, counter(RpcRdmaCounter.SVC_ERR_CHUNK_SENT));
        assertEquals(0, counter(RpcRdmaCounter.SVC_READ), "no RDMA READ issued");
        assertEquals(0, pair.program.executions);
        final UnsafeBuffer untouched = new UnsafeBuffer(BufferUtil.allocateDirectAligned(RawRdmaPeer.CHUNK_BYTES, 64));
        assertEquals(0, untouched.compareTo(raw.chunk), "no chunk was read or written");
        assertNullAnswered(0x200);
        assertServerHealthy();
    }

    private static Msg manySegments(final int xid, final int count, final int rkey, final long at)
    {
        final Msg m = new Msg().words(xid, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 0, 1, count);
        for (int i = 0; i < count; i++)
        {
            m.words(rkey, 8).hyper(at + 8L * i);
        }
        return m.words(0, 0).call(xid, TestProgram.NULL);
    }

    /** READ(offset, count) with one Write chunk of one segment. */
    private static Msg readCall(final int xid, final int rkey, final int length, final long at, final int count)
    {
        return new Msg().words(xid, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 0, 1, 1, rkey, length).hyper(at).words(0, 0)
            .call(xid, TestProgram.READ).words(0, count);
    }

    @Test
    void shouldRefuseChunksSmallerThanWhatTheyMustHoldAndWriteNothingPastAChunk()
    {
        start();
        raw.chunk.setMemory(0, RawRdmaPeer.CHUNK_BYTES, (byte)0x5A);
        final int rkey = raw.chunkMr.rkey();

        assertEquals(0, raw.send(readCall(0x300, rkey, 1000, raw.chunkAddress(0), 2000)));
        assertErrChunk(raw.awaitMessage("ERR_CHUNK for a short Write chunk"), 0x300);
        for (int i = 0; i < RawRdmaPeer.CHUNK_BYTES; i++)
        {
            assertEquals((byte)0x5A, raw.chunk.getByte(i), "byte " + i + " of the client's memory written");
        }

        // the same chunk with a payload that fits: written exactly, trimmed length echoed, the guard after it intact
        assertEquals(0, raw.send(readCall(0x301, rkey, 1000, raw.chunkAddress(4096), 800)));
        final byte[] reply = raw.awaitMessage("the READ reply");
        assertEquals(0x301, word(reply, 0));
        assertEquals(RpcRdma.RDMA_MSG, word(reply, 3));
        assertEquals(0, word(reply, 4), "no Read list");
        assertEquals(1, word(reply, 5), "the Write chunk echoed");
        assertEquals(1, word(reply, 6));
        assertEquals(rkey, word(reply, 7));
        assertEquals(800, word(reply, 8), "trimmed to the bytes written (RFC 8166 §3.4.6)");
        for (int i = 0; i < 800; i++)
        {
            assertEquals(TestProgram.pattern(i), raw.chunk.getByte(4096 + i), "payload byte " + i);
        }
        for (int i = 0; i < RawRdmaPeer.CHUNK_BYTES; i++)
        {
            if (i < 4096 || i >= 4096 + 800)
            {
                assertEquals((byte)0x5A, raw.chunk.getByte(i), "byte " + i + " outside the payload written");
            }
        }
        // a READ of 5000 bytes whose reply fits neither inline (4096) nor the 100-byte Reply chunk offered
        raw.chunk.setMemory(0, RawRdmaPeer.CHUNK_BYTES, (byte)0x5A);
        assertEquals(0, raw.send(new Msg().words(0x302, 1, CALL_CREDITS, RpcRdma.RDMA_MSG, 0, 0, 1, 1, rkey, 100)
            .hyper(raw.chunkAddress(0)).call(0x302, TestProgram.READ).words(0, 5000)));
        assertErrChunk(raw.awaitMessage("ERR_CHUNK for a short Reply chunk"), 0x302);
        for (int i = 0; i < RawRdmaPeer.CHUNK_BYTES; i++)
        {
            assertEquals((byte)0x5A, raw.chunk.getByte(i), "byte " + i + " of the client's memory written");
        }
        assertEquals(2, counter(RpcRdmaCounter.SVC_ERR_CHUNK_SENT));
        assertServerHealthy();
    }

    @Test
    void shouldDropTheConnectionWhenAWriteChunkSegmentIsLongerThanItsRegistration()
    {
        // only the first 32 KiB are registered; a segment claims 4 KiB from 1 KiB before their end
        start(new RpcRdmaServerContext(), RawRdmaPeer.rfc8797(4096, false), true);
        raw.chunk.setMemory(0, RawRdmaPeer.CHUNK_BYTES, (byte)0x5A);
        final int half = RawRdmaPeer.CHUNK_BYTES / 2;
        assertEquals(0, raw.send(readCall(0x400, raw.chunkMr.rkey(), 4096, raw.chunkAddress(half - 1024), 3000)));
        pair.runUntil(() -> raw.disconnects > 0, 10 * SECOND, "the connection dropped");
        assertEquals(1, counter(RpcRdmaCounter.SVC_RDMA_ERRORS), "the RDMA WRITE failed");
        for (int i = half; i < RawRdmaPeer.CHUNK_BYTES; i++)
        {
            assertEquals((byte)0x5A, raw.chunk.getByte(i), "guard byte " + i + " written");
        }
        pair.runUntil(() -> 0 == pair.server.connectionCount(), 5 * SECOND, "the connection gone on the server");
        assertServerHealthy();
    }

    @Test
    void shouldDropTheConnectionWhenAReadChunkRkeyIsBogusAndStayHealthy()
    {
        start();
        final int length = 2048;
        final int xid = 0x500;
        // WRITE(offset 0, opaque<2048>): the data a Read chunk at the opaque's position (40-byte call header + 8)
        final Msg m = new Msg().words(xid, 1, CALL_CREDITS, RpcRdma.RDMA_MSG,
            1, RpcMessage.CALL_HEADER_AUTH_NONE + 8, raw.chunkMr.rkey() ^ 0xFF, length)
            .hyper(raw.chunkAddress(0)).words(0, 0, 0).call(xid, TestProgram.WRITE).words(0, length);
        assertEquals(0, raw.send(m));
        pair.runUntil(() -> raw.disconnects > 0, 10 * SECOND, "the connection dropped");
        assertEquals(1, counter(RpcRdmaCounter.SVC_RDMA_ERRORS), "the RDMA READ failed");
        assertEquals(1, counter(RpcRdmaCounter.SVC_READ));
        assertEquals(0, pair.program.executions, "the call never ran");
        assertTrue(raw.inbox.isEmpty(), "no reply");
        pair.runUntil(() -> 0 == pair.server.connectionCount() && 0 == pair.server.busyCalls(), 5 * SECOND,
            "the connection and its call gone on the server");
        assertServerHealthy();
    }

    @Test
    void shouldUseTheV1DefaultInlineThresholdsWithoutPrivateData()
    {
        start(new RpcRdmaServerContext(), null, false);
        // the server's REP carries its own parameters in any case (svcrdma: version 1, no flags, 4 KiB both ways)
        final UnsafeBuffer rep = new UnsafeBuffer(raw.peerPrivateData);
        assertTrue(ConnectPrivate.present(rep, 0, raw.peerPrivateData.length));
        assertEquals(4096, ConnectPrivate.sendSize(rep, 0));
        assertEquals(4096, ConnectPrivate.recvSize(rep, 0));
        final SvcRdmaConnection c = pair.server.connection(0);
        assertEquals(RpcRdma.V1_DEFAULT_INLINE, c.maxInlineSend(), "RFC 8166 §3.3.2: 1024 without private data");
        assertEquals(RpcRdma.V1_DEFAULT_INLINE, c.maxInlineRecv());

        // a READ of 1100 bytes without chunks: its reply is over 1024 bytes and there is no Reply chunk
        assertEquals(0, raw.send(noChunks(0x600, CALL_CREDITS, RpcRdma.RDMA_MSG).call(0x600, TestProgram.READ)
            .words(0, 1100)));
        assertErrChunk(raw.awaitMessage("ERR_CHUNK: the reply does not fit 1024 bytes"), 0x600);
        // one of 900 fits
        assertEquals(0, raw.send(noChunks(0x601, CALL_CREDITS, RpcRdma.RDMA_MSG).call(0x601, TestProgram.READ)
            .words(0, 900)));
        final byte[] reply = raw.awaitMessage("the inline READ reply");
        assertEquals(RpcRdma.RDMA_MSG, word(reply, 3));
        assertTrue(reply.length <= RpcRdma.V1_DEFAULT_INLINE, "reply of " + reply.length + " bytes");
        assertEquals(900, word(reply, 7 + 6), "READ's count after the 24-byte accepted reply header");

        // a client that sent RFC 8797 data for 4 KiB gets the same 1100-byte READ inline
        final RawRdmaPeer negotiated = RawRdmaPeer.connect(pair, RawRdmaPeer.rfc8797(4096, false), 1, false);
        others.add(negotiated);
        assertEquals(0, negotiated.send(noChunks(0x602, CALL_CREDITS, RpcRdma.RDMA_MSG)
            .call(0x602, TestProgram.READ).words(0, 1100)));
        final byte[] big = negotiated.awaitMessage("the 1100-byte READ inline");
        assertEquals(RpcRdma.RDMA_MSG, word(big, 3));
        assertEquals(1100, word(big, 7 + 6));
        assertEquals(28 + 24 + 4 + 1100, big.length);
    }

    @Test
    void shouldDropAndCountCallsBeyondTheCreditsUntilTheirRepliesAreDelivered()
    {
        start(new RpcRdmaServerContext().credits(2), RawRdmaPeer.rfc8797(4096, false), false);
        // three calls at once against two credits: none of the replies can have reached us when the third arrives
        for (int i = 0; i < 3; i++)
        {
            assertEquals(0, raw.send(noChunks(0x700 + i, CALL_CREDITS, RpcRdma.RDMA_MSG)
                .call(0x700 + i, TestProgram.NULL)));
        }
        pair.runFor(50 * MS);
        assertEquals(2, raw.inbox.size(), "two calls answered, the one over the credits dropped");
        assertEquals(0x700, word(raw.inbox.poll(), 0));
        final byte[] second = raw.inbox.poll();
        assertEquals(0x701, word(second, 0));
        assertEquals(2, word(second, 2), "2 credits granted");
        assertEquals(1, counter(RpcRdmaCounter.SVC_CREDIT_OVERRUN));

        // the replies were delivered (their SENDs completed): two more calls are within the credits again
        for (int i = 3; i < 5; i++)
        {
            assertEquals(0, raw.send(noChunks(0x700 + i, CALL_CREDITS, RpcRdma.RDMA_MSG)
                .call(0x700 + i, TestProgram.NULL)));
        }
        pair.runFor(50 * MS);
        assertEquals(2, raw.inbox.size());
        assertEquals(0x703, word(raw.inbox.poll(), 0));
        assertEquals(0x704, word(raw.inbox.poll(), 0));
        assertEquals(1, counter(RpcRdmaCounter.SVC_CREDIT_OVERRUN));
        pair.runUntil(() -> 0 == pair.server.busyCalls(), SECOND, "every call context back");
    }

    @Test
    void shouldCountACallWithReadChunksAgainstTheCreditsWhileItIsPulledAndAnswered()
    {
        // read depth 1: the first WRITE's 16 KiB pull (16 RDMA READ responses) is still running when the other
        // two calls arrive: that call and the first NULL use the 2 credits, the second NULL is one too many
        start(new RpcRdmaServerContext().credits(2), RawRdmaPeer.rfc8797(4096, false), false);
        final int length = 16 * 1024;
        for (int i = 0; i < length; i++)
        {
            raw.chunk.putByte(i, (byte)(i * 13));
        }
        final int xid = 0x800;
        assertEquals(0, raw.send(new Msg().words(xid, 1, CALL_CREDITS, RpcRdma.RDMA_MSG,
            1, RpcMessage.CALL_HEADER_AUTH_NONE + 8, raw.chunkMr.rkey(), length).hyper(raw.chunkAddress(0))
            .words(0, 0, 0).call(xid, TestProgram.WRITE).words(0, length)));
        assertEquals(0, raw.send(noChunks(xid + 1, CALL_CREDITS, RpcRdma.RDMA_MSG).call(xid + 1, TestProgram.NULL)));
        assertEquals(0, raw.send(noChunks(xid + 2, CALL_CREDITS, RpcRdma.RDMA_MSG).call(xid + 2, TestProgram.NULL)));
        pair.runFor(100 * MS);
        assertEquals(2, raw.inbox.size(), "two answered");
        final List<Integer> xids = new ArrayList<>();
        byte[] write = null;
        while (!raw.inbox.isEmpty())
        {
            final byte[] r = raw.inbox.poll();
            xids.add(word(r, 0));
            write = xid == word(r, 0) ? r : write;
        }
        assertTrue(xids.contains(xid) && xids.contains(xid + 1), "answered: " + xids);
        assertEquals(1, counter(RpcRdmaCounter.SVC_CREDIT_OVERRUN));
        assertEquals(length, word(write, 7 + 6), "the WRITE's count");
        final byte[] sent = new byte[length];
        final byte[] stored = new byte[length];
        raw.chunk.getBytes(0, sent);
        pair.program.file.getBytes(0, stored);
        assertArrayEquals(sent, stored, "the pulled data written to the file");
    }

    @Test
    void shouldNeverCountAWellBehavedClientAsOverrunningItsCredits()
    {
        // the client frees a credit when the reply arrives; the server counts the call until the reply's SEND
        // completes, which the ACK that follows the reply tells it: it must not take the next call for an overrun
        start(new RpcRdmaServerContext().credits(3), RawRdmaPeer.rfc8797(4096, false), false);
        pair.connect();
        final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 * 1024, 4096));
        final RpcCall[] calls = new RpcCall[60];
        for (int i = 0; i < calls.length; i++)
        {
            calls[i] = new RpcCall();
            if (i % 3 == 0)
            {
                assertEquals(0, pair.client.prepare(calls[i], TestProgram.PROGRAM, 1, TestProgram.WRITE));
                calls[i].args().putInt(i * 64).putInt(src.capacity());
                calls[i].payload(src.addressOffset(), src.capacity());
            }
            else
            {
                assertEquals(0, pair.client.prepare(calls[i], TestProgram.PROGRAM, 1, TestProgram.INCREMENT));
                calls[i].args().putInt(1);
            }
            assertEquals(0, pair.client.submit(calls[i]));
        }
        pair.runUntil(() ->
        {
            for (final RpcCall c : calls)
            {
                if (!c.isDone())
                {
                    return false;
                }
            }
            return true;
        }, 60 * SECOND, "every reply");
        for (final RpcCall c : calls)
        {
            assertEquals(0, c.status(), c.toString());
            assertEquals(RpcMessage.SUCCESS, c.acceptStat());
            pair.client.release(c);
        }
        assertEquals(3, pair.client.transport().credits());
        assertEquals(0, counter(RpcRdmaCounter.SVC_CREDIT_OVERRUN), pair.server.counters().describe(true));
        assertEquals(1, pair.client.transport().counters().get(RpcRdmaCounter.CONNECT_COUNT), "no reconnect");
        assertTrue(pair.client.transport().counters().get(RpcRdmaCounter.CREDIT_WAITS) > 0);
        pair.runUntil(() -> 0 == pair.server.busyCalls(), SECOND, "every call context back");
    }
}
