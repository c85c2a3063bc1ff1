package io.jrxe.ulp.rpcrdma;

import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.xdr.XdrDecoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RPC-over-RDMA between jrxe's client and server on the emulated wire: every way a call and a reply can travel
 * (inline, Write chunk, Read chunk, Reply chunk, position-zero Read chunk with RDMA_NOMSG), the bytes checked,
 * the chunk counters and the MR pool checked afterwards (every registration invalidated and back).
 */
class RpcRdmaChunksTest
{
    private final RpcPair pair = new RpcPair();
    private final RpcCall call = new RpcCall();

    @AfterEach
    void close()
    {
        pair.close();
    }

    private RpcCall run(final RpcCall c)
    {
        assertEquals(0, pair.client.submit(c));
        pair.runUntil(c::isDone, 30 * SECOND, "reply to " + c);
        assertEquals(0, c.status(), c.toString());
        return c;
    }

    private void prepare(final int proc)
    {
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, proc));
    }

    private RpcRdmaCounters counters()
    {
        return pair.client.transport().counters();
    }

    private void assertAllMrsBack()
    {
        final RpcRdmaTransport t = pair.client.transport();
        assertEquals(t.mrPoolSize(), t.freeMrs(), "every FRWR MR invalidated and back in the pool");
        // the server frees a call's context when its reply's SEND completes, which may be after the client has it
        pair.runUntil(() -> 0 == pair.server.busyCalls(), SECOND, "every server call context back");
    }

    @Test
    void shouldAnswerNullInlineAndNegotiateFromThePrivateData()
    {
        pair.connect();
        final RpcRdmaTransport t = pair.client.transport();
        assertEquals(RpcRdma.DEFAULT_INLINE, t.inlineSend(), "RFC 8797: both sides offered 4096");
        assertEquals(RpcRdma.DEFAULT_INLINE, t.inlineRecv());
        prepare(TestProgram.NULL);
        run(call);
        assertTrue(call.accepted());
        assertEquals(64, t.credits(), "svcrdma's 64 credits granted in the reply");
        assertEquals(0, counters().get(RpcRdmaCounter.READ_CHUNK_COUNT) +
            counters().get(RpcRdmaCounter.WRITE_CHUNK_COUNT) + counters().get(RpcRdmaCounter.REPLY_CHUNK_COUNT));
        pair.client.release(call);
        assertAllMrsBack();
    }

    @Test
    void shouldBringALargeReadPayloadThroughAWriteChunk()
    {
        final int count = 1024 * 1024;
        final UnsafeBuffer dst = new UnsafeBuffer(BufferUtil.allocateDirectAligned(count, 4096));
        prepare(TestProgram.READ);
        call.args().putInt(4096 + 3).putInt(count);
        call.readPayloadTo(dst.addressOffset(), count).replyLimit(256);
        run(call);
        final XdrDecoder res = call.results();
        assertEquals(count, call.readPayload(res.getInt()));
        assertEquals(0, res.remaining(), "the payload's bytes are not in the inline reply");
        for (int i = 0; i < count; i += 997)
        {
            assertEquals(TestProgram.pattern(4096 + 3 + i), dst.getByte(i), "byte " + i);
        }
        assertEquals(TestProgram.pattern(4096 + 3 + count - 1), dst.getByte(count - 1));
        assertEquals(1, counters().get(RpcRdmaCounter.WRITE_CHUNK_COUNT));
        pair.client.release(call);
        assertAllMrsBack();
    }

    @Test
    void shouldSendALargeWritePayloadAsAReadChunk()
    {
        final int length = 300_001; // not a multiple of 4: the chunk's XDR roundup is implicit
        final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(length + 64, 4096));
        for (int i = 0; i < length; i++)
        {
            src.putByte(i + 5, (byte)(i * 7));
        }
        prepare(TestProgram.WRITE);
        call.args().putInt(100).putInt(length);
        call.payload(src.addressOffset() + 5, length);
        run(call);
        assertEquals(length, call.results().getInt());
        assertEquals(TestProgram.checksum(src, 5, length), call.results().getInt());
        assertEquals(TestProgram.checksum(src, 5, length), TestProgram.checksum(pair.program.file, 100, length));
        assertEquals(1, counters().get(RpcRdmaCounter.READ_CHUNK_COUNT));
        assertEquals(0, counters().get(RpcRdmaCounter.NOMSG_CALL_COUNT));
        pair.client.release(call);
        assertAllMrsBack();
    }

    @Test
    void shouldMoveALongCallAndALongReplyThroughPositionZeroAndReplyChunks()
    {
        final int length = 9000;
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(i ^ (i >> 8));
        }
        prepare(TestProgram.ECHO);
        call.args().putOpaque(bytes);
        call.replyLimit(length + 64);
        run(call);
        final byte[] back = call.results().getOpaqueBytes(length);
        assertEquals(java.util.Arrays.toString(bytes).hashCode(), java.util.Arrays.toString(back).hashCode());
        assertEquals(1, counters().get(RpcRdmaCounter.NOMSG_CALL_COUNT), "the call went RDMA_NOMSG");
        assertEquals(1, counters().get(RpcRdmaCounter.REPLY_CHUNK_COUNT), "the reply came by Reply chunk");
        pair.client.release(call);
        assertAllMrsBack();
    }

    @Test
    void shouldCarryManyCallsAtOnceWithinTheCredits()
    {
        final RpcCall[] calls = new RpcCall[100];
        for (int i = 0; i < calls.length; i++)
        {
            calls[i] = new RpcCall();
            assertEquals(0, pair.client.prepare(calls[i], TestProgram.PROGRAM, 1, TestProgram.INCREMENT));
            calls[i].args().putInt(i + 1);
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
        }, 60 * SECOND, "100 replies");
        long seen = 0;
        for (final RpcCall c : calls)
        {
            assertEquals(0, c.status());
            assertEquals(RpcMessage.SUCCESS, c.acceptStat());
            seen = Math.max(seen, c.results().getInt() & 0xFFFF_FFFFL);
            pair.client.release(c);
        }
        assertEquals(100 * 101 / 2, pair.program.total);
        assertEquals(100 * 101 / 2, seen, "the last increment saw the whole sum");
        assertTrue(counters().get(RpcRdmaCounter.CREDIT_WAITS) > 0, "the first call's 1 credit held the rest back");
        assertAllMrsBack();
    }
}
