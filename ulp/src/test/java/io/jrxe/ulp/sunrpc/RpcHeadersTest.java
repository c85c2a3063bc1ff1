package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.jrxe.ulp.xdr.XdrBytes.assertBytes;
import static io.jrxe.ulp.xdr.XdrBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RpcCallHeader, RpcReplyHeader and RpcAuth against RFC 5531 §9 messages written out by hand, AUTH_SYS bodies
 * as in its Appendix A ({@code stamp, machinename<255>, uid, gid, gids<16>}).
 */
class RpcHeadersTest
{
    /** NFSv3 (100003 = 0x186a3) GETATTR (1), xid 0x12345678, AUTH_NONE credential and verifier. */
    private static final String CALL_AUTH_NONE =
        "12345678 00000000 00000002 000186a3 00000003 00000001 | 00000000 00000000 | 00000000 00000000";

    /** AUTH_SYS: stamp 0x01020304, machinename "host", uid 1000, gid 100, gids {10, 20}: 32 bytes of body. */
    private static final String AUTH_SYS_HOST =
        "00000001 00000020 | 01020304 | 00000004 686f7374 | 000003e8 | 00000064 | 00000002 0000000a 00000014";

    private final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
    private final XdrEncoder enc = new XdrEncoder();
    private final XdrDecoder dec = new XdrDecoder();
    private final RpcCallHeader call = new RpcCallHeader();
    private final RpcReplyHeader reply = new RpcReplyHeader();

    private XdrDecoder over(final String hex)
    {
        final UnsafeBuffer b = buffer(hex);
        return dec.wrap(b, 0, b.capacity());
    }

    // ---- call header: encode -------------------------------------------------------------------------------

    @Test
    void callWithAuthNoneIsFortyBytes()
    {
        enc.wrap(out, 0, out.capacity());
        RpcCallHeader.encode(enc, 0x1234_5678, 100003, 3, 1, RpcAuth.none());
        assertEquals(RpcMessage.CALL_HEADER_AUTH_NONE, enc.length());
        assertEquals(40, RpcAuth.none().encodedLength() + 24);
        assertBytes(CALL_AUTH_NONE, out, 0, 40);
    }

    @Test
    void callWithAuthSys()
    {
        final RpcAuth auth = RpcAuth.sys(0x0102_0304, "host", 1000, 100, 10, 20);
        assertEquals(RpcMessage.AUTH_SYS, auth.flavor());
        assertEquals(32, auth.bodyLength());
        assertEquals(8 + 32 + 8, auth.encodedLength());
        assertEquals(1000, auth.uid());
        assertEquals(100, auth.gid());
        assertEquals("AUTH_SYS(uid=1000,gid=100)", auth.toString());
        enc.wrap(out, 4, 200);
        RpcCallHeader.encode(enc, 7, 100005, 3, 0, auth);
        assertEquals(24 + auth.encodedLength(), enc.length());
        assertBytes("00000007 00000000 00000002 000186a5 00000003 00000000 | " + AUTH_SYS_HOST +
            " | 00000000 00000000", out, 4, enc.length());
    }

    @Test
    void authSysPadsTheMachineNameAndCountsItsUtf8Bytes()
    {
        enc.wrap(out, 0, out.capacity());
        RpcAuth.sys(0, "abcde", 0, 0).encode(enc);
        assertBytes("00000001 0000001c | 00000000 | 00000005 61626364 65000000 | 00000000 | 00000000 | 00000000 |" +
            " 00000000 00000000", out, 0, enc.length());
        enc.wrap(out, 0, out.capacity());
        RpcAuth.sys(-1, "\u00e9", -2, -3).encode(enc); // c3 a9: two bytes
        assertBytes("00000001 00000018 | ffffffff | 00000002 c3a90000 | fffffffe | fffffffd | 00000000 |" +
            " 00000000 00000000", out, 0, enc.length());
        assertEquals("AUTH_NONE", RpcAuth.none().toString());
        assertEquals(0, RpcAuth.none().bodyLength());
    }

    @Test
    void authSysBounds()
    {
        final String name255 = "n".repeat(255);
        final RpcAuth longest = RpcAuth.sys(1, name255, 0, 0, new int[16]);
        assertEquals(4 + 4 + 256 + 4 + 4 + 4 + 64, longest.bodyLength());
        assertThrows(IllegalArgumentException.class, () -> RpcAuth.sys(1, "n".repeat(256), 0, 0));
        assertThrows(IllegalArgumentException.class, () -> RpcAuth.sys(1, "h", 0, 0, new int[17]));
        // 128 characters, 256 bytes of UTF-8
        assertThrows(IllegalArgumentException.class, () -> RpcAuth.sys(1, "\u00e9".repeat(128), 0, 0));
        RpcAuth.sys(1, "\u00e9".repeat(127) + "x", 0, 0);

        // what the server reads back of the longest
        enc.wrap(out, 0, out.capacity());
        RpcCallHeader.encode(enc, 9, 1, 1, 1, RpcAuth.sys(1, name255, 5, 6, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
            13, 14, 15, 16));
        assertEquals(RpcCallHeader.OK, call.decode(dec.wrap(out, 0, enc.length())));
        assertEquals(16, call.gidCount());
        assertEquals(16, call.gid(15));
        assertEquals(0, dec.remaining());
    }

    // ---- call header: decode -------------------------------------------------------------------------------

    @Test
    void decodeAuthNoneLeavesTheDecoderAtTheArguments()
    {
        over(CALL_AUTH_NONE + " | 0000002a");
        assertEquals(RpcCallHeader.OK, call.decode(dec));
        assertEquals(0x1234_5678, call.xid());
        assertEquals(2, call.rpcVersion());
        assertEquals(100003, call.program());
        assertEquals(3, call.version());
        assertEquals(1, call.procedure());
        assertEquals(RpcMessage.AUTH_NONE, call.credFlavor());
        assertEquals(0, call.uid());
        assertEquals(0, call.gidCount());
        assertEquals(40, dec.consumed());
        assertEquals(42, dec.getInt());
    }

    @Test
    void decodeAuthSysKeepsItsIds()
    {
        over("00000007 00000000 00000002 000186a5 00000003 00000000 | " + AUTH_SYS_HOST + " | 00000000 00000000");
        assertEquals(RpcCallHeader.OK, call.decode(dec));
        assertEquals(RpcMessage.AUTH_SYS, call.credFlavor());
        assertEquals(1000, call.uid());
        assertEquals(100, call.gid());
        assertEquals(2, call.gidCount());
        assertEquals(10, call.gid(0));
        assertEquals(20, call.gid(1));
        assertEquals(0, dec.remaining());

        // the next call, AUTH_NONE, keeps nothing of it
        over(CALL_AUTH_NONE);
        assertEquals(RpcCallHeader.OK, call.decode(dec));
        assertEquals(0, call.uid());
        assertEquals(0, call.gid());
        assertEquals(0, call.gidCount());
    }

    @Test
    void otherFlavorsAreSkippedAsOpaque()
    {
        // RPCSEC_GSS (6) credential of 5 bytes, a verifier of flavor 6 and 4 bytes
        over("00000001 00000000 00000002 000186a3 00000004 00000000 | 00000006 00000005 0102030405000000 |" +
            " 00000006 00000004 aabbccdd | ffffffff");
        assertEquals(RpcCallHeader.OK, call.decode(dec));
        assertEquals(6, call.credFlavor());
        assertEquals(-1, dec.getInt());
    }

    @Test
    void rpcVersionOtherThanTwoIsAMismatchWithTheXid()
    {
        over("0000abcd 00000000 00000003 000186a3 00000003 00000000 00000000 00000000 00000000 00000000");
        assertEquals(RpcCallHeader.DENY_RPC_MISMATCH, call.decode(dec));
        assertEquals(0xabcd, call.xid());
        assertEquals(3, call.rpcVersion());
        over("0000abce 00000000 00000001"); // nothing else needed to answer it
        assertEquals(RpcCallHeader.DENY_RPC_MISMATCH, call.decode(dec));
        assertEquals(0xabce, call.xid());
    }

    @Test
    void aMessageThatIsNotACallOrEndsEarlyThrows()
    {
        assertThrows(XdrException.class, () -> call.decode(over("00000001 00000001 00000002")));
        assertThrows(XdrException.class, () -> call.decode(over("00000001 00000002")));
        assertThrows(XdrException.class, () -> call.decode(over("00000001")));
        assertThrows(XdrException.class, () -> call.decode(over("")));
        // every prefix of a good call is malformed
        final byte[] whole = io.jrxe.ulp.xdr.XdrBytes.hex(CALL_AUTH_NONE);
        for (int n = 0; n < whole.length; n++)
        {
            final int length = n;
            assertThrows(XdrException.class, () -> call.decode(dec.wrap(new UnsafeBuffer(whole), 0, length)),
                "prefix of " + n);
        }
    }

    @Test
    void authBodiesOverFourHundredBytesAreMalformed()
    {
        final String zeros404 = "00".repeat(404);
        assertThrows(XdrException.class, () -> call.decode(over(
            "00000001 00000000 00000002 00000001 00000001 00000000 | 00000006 00000194 " + zeros404 +
            " | 00000000 00000000")));
        // the verifier too
        assertThrows(XdrException.class, () -> call.decode(over(
            "00000001 00000000 00000002 00000001 00000001 00000000 | 00000000 00000000 | 00000006 00000191 " +
            zeros404)));
        // exactly 400 is allowed
        assertEquals(RpcCallHeader.OK, call.decode(over(
            "00000001 00000000 00000002 00000001 00000001 00000000 | 00000006 00000190 " + "00".repeat(400) +
            " | 00000000 00000000")));
    }

    @Test
    void malformedAuthSysBodiesAreBadCredentials()
    {
        final String head = "00000011 00000000 00000002 00000001 00000001 00000000 | 00000001 ";
        final String verf = " | 00000000 00000000";
        // 17 supplementary groups
        assertBadCred(head + "00000058 | 00000000 | 00000000 | 00000000 | 00000000 | 00000011 " +
            "00000000".repeat(17) + verf);
        // a negative group count
        assertBadCred(head + "00000014 | 00000000 | 00000000 | 00000000 | 00000000 | ffffffff" + verf);
        // a machinename of 256 bytes
        assertBadCred(head + "00000114 | 00000000 | 00000100 " + "61".repeat(256) + " | 00000000 00000000 00000000" +
            verf);
        // the body says 16 bytes, its fields take 20 (the group count would be read from the verifier)
        assertBadCred(head + "00000010 | 00000000 | 00000000 | 00000000 | 00000000" + verf + " 00000000");
        // the body says 24 bytes, its fields take 20: four bytes left over
        assertBadCred(head + "00000018 | 00000000 | 00000000 | 00000000 | 00000000 | 00000000 | 00000000" + verf);
        // the group count runs past the message
        assertBadCred(head + "00000014 | 00000000 | 00000000 | 00000000 | 00000000 | 00000003");
        // machinename padding not zero
        assertBadCred(head + "00000018 | 00000000 | 00000001 61000001 | 00000000 | 00000000 | 00000000" + verf);
        // the fields take 24 bytes (one group), the body says 21 to 23: the group's last bytes are the body's
        // padding, outside the credential
        assertBadCred(head + "00000017 | 00000000 | 00000000 | 00000000 | 00000000 | 00000001 00000000" + verf);
        assertBadCred(head + "00000016 | 00000000 | 00000000 | 00000000 | 00000000 | 00000001 00000000" + verf);
        assertBadCred(head + "00000015 | 00000000 | 00000000 | 00000000 | 00000000 | 00000001 00000000" + verf);
        // and 24 is right
        assertEquals(RpcCallHeader.OK, call.decode(over(
            head + "00000018 | 00000000 | 00000000 | 00000000 | 00000000 | 00000001 00000000" + verf)));
    }

    private void assertBadCred(final String hex)
    {
        assertEquals(RpcCallHeader.DENY_BADCRED, call.decode(over(hex)), hex);
        assertEquals(0x11, call.xid());
    }

    // ---- reply header --------------------------------------------------------------------------------------

    @Test
    void acceptedReplyHeaders()
    {
        enc.wrap(out, 0, out.capacity());
        RpcReplyHeader.encodeAccepted(enc, 0x1234_5678, RpcMessage.SUCCESS);
        assertEquals(RpcMessage.ACCEPTED_REPLY_HEADER, enc.length());
        assertBytes("12345678 00000001 00000000 | 00000000 00000000 | 00000000", out, 0, 24);

        enc.wrap(out, 0, out.capacity());
        RpcReplyHeader.encodeAccepted(enc, 1, RpcMessage.GARBAGE_ARGS);
        assertBytes("00000001 00000001 00000000 00000000 00000000 00000004", out, 0, enc.length());

        enc.wrap(out, 0, out.capacity());
        RpcReplyHeader.encodeProgMismatch(enc, 2, 3, 4);
        assertBytes("00000002 00000001 00000000 00000000 00000000 00000002 | 00000003 00000004", out, 0,
            enc.length());
    }

    @Test
    void deniedReplyHeaders()
    {
        enc.wrap(out, 0, out.capacity());
        RpcReplyHeader.encodeRpcMismatch(enc, 5);
        assertBytes("00000005 00000001 00000001 | 00000000 | 00000002 00000002", out, 0, enc.length());

        enc.wrap(out, 0, out.capacity());
        RpcReplyHeader.encodeAuthError(enc, 6, RpcMessage.AUTH_TOOWEAK);
        assertBytes("00000006 00000001 00000001 | 00000001 | 00000005", out, 0, enc.length());
    }

    @Test
    void decodeSuccessLeavesTheDecoderAtTheResults()
    {
        // a verifier with a body (as RPCSEC_GSS sends) is skipped
        assertTrue(reply.decode(over("00000009 00000001 00000000 | 00000006 00000003 01020300 | 00000000 | 0000002a")));
        assertEquals(9, reply.xid());
        assertEquals(RpcMessage.MSG_ACCEPTED, reply.replyStat());
        assertEquals(RpcMessage.SUCCESS, reply.acceptStat());
        assertEquals(-1, reply.rejectStat());
        assertEquals(42, dec.getInt());
        assertEquals("SUCCESS", reply.describe());
    }

    @Test
    void decodeEachUnsuccessfulAnswer()
    {
        assertFalse(reply.decode(over("00000001 00000001 00000000 00000000 00000000 00000002 00000002 00000004")));
        assertEquals(RpcMessage.PROG_MISMATCH, reply.acceptStat());
        assertEquals(2, reply.low());
        assertEquals(4, reply.high());
        assertEquals("PROG_MISMATCH (server has versions 2..4)", reply.describe());

        for (int stat = 1; stat <= 5; stat++)
        {
            if (RpcMessage.PROG_MISMATCH == stat)
            {
                continue;
            }
            assertFalse(reply.decode(over("00000001 00000001 00000000 00000000 00000000 0000000" + stat)));
            assertEquals(stat, reply.acceptStat());
            assertEquals(0, reply.low());
            assertEquals(RpcMessage.acceptStatName(stat), reply.describe());
        }

        assertFalse(reply.decode(over("00000002 00000001 00000001 00000000 00000002 00000002")));
        assertEquals(RpcMessage.MSG_DENIED, reply.replyStat());
        assertEquals(RpcMessage.RPC_MISMATCH, reply.rejectStat());
        assertEquals(-1, reply.acceptStat());
        assertEquals(2, reply.low());
        assertEquals(2, reply.high());
        assertEquals("MSG_DENIED RPC_MISMATCH", reply.describe());

        assertFalse(reply.decode(over("00000003 00000001 00000001 00000001 00000002")));
        assertEquals(RpcMessage.AUTH_ERROR, reply.rejectStat());
        assertEquals(RpcMessage.AUTH_REJECTEDCRED, reply.authStat());
        assertEquals(0, reply.low());
        assertEquals("MSG_DENIED AUTH_ERROR auth_stat 2", reply.describe());
    }

    @Test
    void malformedReplies()
    {
        assertThrows(XdrException.class, () -> reply.decode(over("00000001 00000000 00000000"))); // a CALL
        assertThrows(XdrException.class, () -> reply.decode(over("00000001 00000001 00000002"))); // reply_stat 2
        assertThrows(XdrException.class, () -> reply.decode(over("00000001 00000001 00000001 00000002")));
        assertThrows(XdrException.class, () -> reply.decode(over("00000001 00000001 00000000 00000000 00000000")));
        assertThrows(XdrException.class, () -> reply.decode(over(
            "00000001 00000001 00000000 00000000 00000000 00000002 00000002"))); // PROG_MISMATCH without high
        assertThrows(XdrException.class, () -> reply.decode(over(
            "00000001 00000001 00000000 00000000 00000191 " + "00".repeat(404) + " 00000000")));
        assertThrows(XdrException.class, () -> reply.decode(over(
            "00000001 00000001 00000000 00000000 00000001 01000100 00000000"))); // verifier padding
        assertThrows(XdrException.class, () -> reply.decode(over("00000001 00000001 00000001 00000000 00000002")));
    }
}
