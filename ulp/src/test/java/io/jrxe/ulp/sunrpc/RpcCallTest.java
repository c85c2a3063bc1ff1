package io.jrxe.ulp.sunrpc;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static io.jrxe.ulp.xdr.XdrBytes.assertBytes;
import static io.jrxe.ulp.xdr.XdrBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RpcCall as a transport sees it: the call's three parts (head, DDP payload, tail) and a READ payload taken from
 * an inline reply (copied, padding skipped and checked) or from a Write chunk (already placed, nothing in the
 * stream).
 */
class RpcCallTest
{
    private final UnsafeBuffer send = new UnsafeBuffer(new byte[256]);
    /** Direct memory for the READ payload, as the transport's registered memory would be. */
    private final UnsafeBuffer sink = new UnsafeBuffer(ByteBuffer.allocateDirect(32));
    private final RpcCall call = new RpcCall();

    private static final String SUCCESS_HEADER = "00000042 00000001 00000000 00000000 00000000 00000000";

    private RpcCall prepared()
    {
        call.attachSendBuffer(send, 16, 200);
        call.begin(this, 0x42, 100003, 3, 6, RpcAuth.none());
        return call;
    }

    private void receive(final String hex, final int writeChunkBytes)
    {
        final UnsafeBuffer b = buffer("ffffffff " + hex);
        call.replyReceived(b, 4, b.capacity() - 4, writeChunkBytes);
    }

    @Test
    void beginWritesTheCallHeaderAtTheSendOffset()
    {
        assertThrows(IllegalStateException.class, () -> new RpcCall().begin(null, 1, 1, 1, 1, RpcAuth.none()));
        prepared();
        assertEquals(RpcCall.PREPARED, call.state());
        assertEquals(0x42, call.xid());
        assertEquals(100003, call.program());
        assertEquals(3, call.version());
        assertEquals(6, call.procedure());
        assertEquals(56, call.args().position(), "16 + the 40-byte header");
        assertBytes("00000042 00000000 00000002 000186a3 00000003 00000006 00000000 00000000 00000000 00000000",
            send, 16, 40);
        assertEquals(40, call.headLength());
        assertEquals(0, call.tailLength());
        assertEquals(40, call.inlineLength());
        assertFalse(call.hasPayload());
        assertFalse(call.hasReadPayload());
        assertEquals(1024, call.replyLimit());
    }

    @Test
    void aPayloadSplitsTheCallIntoHeadAndTail()
    {
        prepared();
        call.args().putHyper(0x0102_0304_0506_0708L).putInt(5); // offset, then the opaque's length word
        call.payload(0xDEAD_0000L, 5);
        call.args().putInt(2).putInt(0); // stable_how, then something more
        assertTrue(call.hasPayload());
        assertEquals(0xDEAD_0000L, call.payloadAddress());
        assertEquals(5, call.payloadLength());
        assertEquals(40 + 12, call.headLength(), "the Read chunk's XDR position");
        assertEquals(8, call.tailLength());
        assertEquals(52 + 8 + 8, call.inlineLength(), "head, 5 bytes padded to 8, tail");
        // one payload per call
        assertThrows(IllegalStateException.class, () -> call.payload(0, 1));
    }

    @Test
    void aPayloadOnlyWhilePreparingAndNeverNegative()
    {
        assertThrows(IllegalStateException.class, () -> call.payload(0, 1), "idle");
        prepared();
        assertThrows(IllegalStateException.class, () -> call.payload(0, -1));
        call.state(RpcCall.IN_FLIGHT);
        assertThrows(IllegalStateException.class, () -> call.payload(0, 1));
        // a new begin forgets the last call's payload
        prepared();
        call.args().putInt(0);
        call.payload(0, 0);
        assertEquals(44, call.headLength());
        assertEquals(44, call.inlineLength());
        prepared();
        assertFalse(call.hasPayload());
    }

    @Test
    void readPayloadFromAnInlineReplyCopiesAndSkipsThePadding()
    {
        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        assertTrue(call.hasReadPayload());
        receive(SUCCESS_HEADER + " | 00000005 | 0a0b0c0d 0e000000 | 00000001", -1);
        assertTrue(call.isDone());
        assertEquals(0, call.status());
        assertTrue(call.accepted());
        assertEquals(RpcMessage.SUCCESS, call.acceptStat());
        final int count = call.results().getInt();
        assertEquals(5, call.readPayload(count));
        assertBytes("0a0b0c0d 0e", sink, 0, 5);
        assertEquals(0, sink.getByte(5), "nothing past the count");
        assertEquals(1, call.results().getInt(), "the item after the padding");
        assertThrows(XdrException.class, () -> call.readPayload(0), "once per reply");
    }

    @Test
    void readPayloadOfZeroBytes()
    {
        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | 00000000 | 00000007", -1);
        assertEquals(0, call.readPayload(call.results().getInt()));
        assertEquals(7, call.results().getInt());
    }

    @Test
    void readPayloadRefusesACountOverTheRoomOrTheMessageOrWithDirtyPadding()
    {
        prepared();
        call.readPayloadTo(sink.addressOffset(), 4);
        receive(SUCCESS_HEADER + " | 00000005 | 0a0b0c0d 0e000000", -1);
        assertThrows(XdrException.class, () -> call.readPayload(call.results().getInt()), "5 bytes, room for 4");

        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | 00000009 | 0a0b0c0d 0e000000", -1);
        assertThrows(XdrException.class, () -> call.readPayload(call.results().getInt()), "overruns the reply");

        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | 00000005 | 0a0b0c0d 0e000100", -1);
        assertThrows(XdrException.class, () -> call.readPayload(call.results().getInt()), "padding");

        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | ffffffff", -1);
        assertThrows(XdrException.class, () -> call.readPayload(call.results().getInt()), "negative");

        prepared(); // no readPayloadTo
        receive(SUCCESS_HEADER + " | 00000000", -1);
        assertThrows(XdrException.class, () -> call.readPayload(call.results().getInt()));
    }

    @Test
    void readPayloadFromAWriteChunkTakesNothingFromTheStream()
    {
        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | 00000008 | 00000001", 8);
        assertEquals(8, call.readPayload(call.results().getInt()));
        assertEquals(1, call.results().getInt(), "the data is not inline");

        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | 00000006 | 00000001", 8);
        assertEquals(6, call.readPayload(call.results().getInt()), "fewer bytes than were placed");

        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | 00000009 | 00000001", 8);
        final XdrException ex = assertThrows(XdrException.class, () -> call.readPayload(call.results().getInt()));
        assertTrue(ex.getMessage().contains("Write chunk"), ex.getMessage());

        prepared();
        call.readPayloadTo(sink.addressOffset(), 16);
        receive(SUCCESS_HEADER + " | 00000001 | 00000001", 0);
        assertThrows(XdrException.class, () -> call.readPayload(call.results().getInt()), "an empty Write chunk");
    }

    @Test
    void deniedAndFailedCalls()
    {
        prepared();
        receive("00000042 00000001 00000001 00000001 00000001", -1);
        assertTrue(call.isDone());
        assertEquals(0, call.status());
        assertFalse(call.accepted());
        assertEquals(-1, call.acceptStat());
        assertEquals(RpcMessage.AUTH_BADCRED, call.replyHeader().authStat());

        prepared();
        assertThrows(XdrException.class, () -> receive("00000042 00000000", -1));
        assertFalse(call.accepted());

        prepared();
        call.failed(Errno.ETIMEDOUT);
        assertTrue(call.isDone());
        assertEquals(-Errno.ETIMEDOUT, call.status());
        assertFalse(call.accepted());
    }
}
