package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.Arrays;

import static io.jrxe.ulp.xdr.XdrBytes.assertBytes;
import static io.jrxe.ulp.xdr.XdrBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every outcome in RpcDispatcher's class comment, with the reply bytes written out by hand from RFC 5531 §9 and
 * the counter each one moves; then the duplicate reply cache as the dispatcher uses it.
 */
class RpcDispatcherTest
{
    /** Program 0x20000099 (hex 20000099), versions 2..4. */
    static final class Program implements RpcProgram
    {
        static final int NUMBER = 0x2000_0099;
        static final int NULL = 0;
        static final int INC = 1;         // int -> int + 1
        static final int OVERFLOW = 2;    // writes results until the encoder is full
        static final int THROW = 3;       // throws IllegalStateException
        static final int SILENT = 4;      // RpcProgram.DROP
        static final int FAIL = 5;        // returns SYSTEM_ERR
        static final int ODD = 6;         // returns an accept_stat a procedure may not (PROG_UNAVAIL)
        static final int PAYLOAD = 7;     // count -> opaque of count bytes (byte i = i) as a DDP payload
        static final int PAYLOAD_THEN_THROW = 8;
        static final int BAD_ARGS = 9;    // returns GARBAGE_ARGS itself

        int calls;

        @Override
        public int program()
        {
            return NUMBER;
        }

        @Override
        public int lowVersion()
        {
            return 2;
        }

        @Override
        public int highVersion()
        {
            return 4;
        }

        @Override
        public int call(final RpcServerCall call)
        {
            calls++;
            final XdrDecoder args = call.args();
            final XdrEncoder results = call.results();
            switch (call.header().procedure())
            {
                case NULL:
                    return RpcMessage.SUCCESS;
                case INC:
                    results.putInt(args.getInt() + 1);
                    return RpcMessage.SUCCESS;
                case OVERFLOW:
                    while (true)
                    {
                        results.putInt(0x0BAD_0BAD);
                    }
                case THROW:
                    throw new IllegalStateException("a bug in the program");
                case SILENT:
                    return RpcProgram.DROP;
                case FAIL:
                    return RpcMessage.SYSTEM_ERR;
                case ODD:
                    return RpcMessage.PROG_UNAVAIL;
                case PAYLOAD:
                case PAYLOAD_THEN_THROW:
                {
                    final int count = args.getInt();
                    results.putInt(count);
                    final int at = call.reservePayload(count);
                    for (int i = 0; i < count; i++)
                    {
                        results.buffer().putByte(at + i, (byte)i);
                    }
                    results.putInt(0x7777_7777);
                    if (PAYLOAD_THEN_THROW == call.header().procedure())
                    {
                        throw new IllegalStateException("after the payload");
                    }
                    return RpcMessage.SUCCESS;
                }
                case BAD_ARGS:
                    return RpcMessage.GARBAGE_ARGS;
                default:
                    return RpcMessage.PROC_UNAVAIL;
            }
        }
    }

    private static final String CRED_NONE = "00000000 00000000 00000000 00000000";
    private static final String PROG = "20000099";

    private final Program program = new Program();
    private final RpcServerCall call = new RpcServerCall();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);

    private static String call(final int xid, final int version, final int procedure, final String args)
    {
        return String.format("%08x 00000000 00000002 %s %08x %08x ", xid, PROG, version, procedure) + CRED_NONE +
            " " + args;
    }

    private int dispatch(final RpcDispatcher dispatcher, final String msg)
    {
        return dispatch(dispatcher, msg, 0, out.capacity());
    }

    private int dispatch(final RpcDispatcher dispatcher, final String msg, final int outOffset, final int outCapacity)
    {
        // the call sits at offset 8 of a larger buffer, so absolute and relative offsets differ
        final UnsafeBuffer in = new UnsafeBuffer(new byte[8 + msg.replaceAll("[\\s|]", "").length() / 2 + 8]);
        Arrays.fill(in.byteArray(), (byte)0x5C);
        final byte[] bytes = io.jrxe.ulp.xdr.XdrBytes.hex(msg);
        in.putBytes(8, bytes);
        return dispatcher.dispatch(call, in, 8, bytes.length, out, outOffset, outCapacity);
    }

    private static void assertCounters(
        final RpcDispatcher d, final long calls, final long malformed, final long rpcMismatch, final long authErrors,
        final long progUnavail, final long progMismatch, final long procUnavail, final long garbageArgs,
        final long systemErr, final long dropped)
    {
        assertEquals(
            Arrays.toString(new long[] {calls, malformed, rpcMismatch, authErrors, progUnavail, progMismatch,
                procUnavail, garbageArgs, systemErr, dropped}),
            Arrays.toString(new long[] {d.calls(), d.malformed(), d.rpcMismatch(), d.authErrors(), d.progUnavail(),
                d.progMismatch(), d.procUnavail(), d.garbageArgs(), d.systemErr(), d.dropped()}),
            "calls, malformed, rpcMismatch, authErrors, progUnavail, progMismatch, procUnavail, garbageArgs, " +
            "systemErr, dropped");
    }

    @Test
    void success()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(28, dispatch(d, call(0x0a0b0c0d, 3, Program.INC, "00000029")));
        assertBytes("0a0b0c0d 00000001 00000000 00000000 00000000 00000000 | 0000002a", out, 0, 28);
        assertEquals(24, dispatch(d, call(2, 2, Program.NULL, "")));
        assertBytes("00000002 00000001 00000000 00000000 00000000 00000000", out, 0, 24);
        assertEquals(24, dispatch(d, call(3, 4, Program.NULL, "")), "the highest version");
        assertCounters(d, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertEquals(3, program.calls);
    }

    @Test
    void theReplyGoesAtItsOffset()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        Arrays.fill(out.byteArray(), (byte)0xEE);
        assertEquals(28, dispatch(d, call(5, 3, Program.INC, "00000000"), 100, 28));
        assertBytes("00000005 00000001 00000000 00000000 00000000 00000000 00000001", out, 100, 28);
        assertEquals((byte)0xEE, out.getByte(99));
        assertEquals((byte)0xEE, out.getByte(128));
    }

    @Test
    void malformedCallsAreDroppedUnanswered()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        Arrays.fill(out.byteArray(), (byte)0xEE);
        assertEquals(RpcDispatcher.DROP, dispatch(d, "00000001 00000001 00000002")); // a REPLY
        assertEquals(RpcDispatcher.DROP, dispatch(d, "00000001")); // ends after the xid
        assertEquals(RpcDispatcher.DROP, dispatch(d, ""));
        assertEquals(RpcDispatcher.DROP, dispatch(d, String.format("00000001 00000000 00000002 %s 00000003 00000001" +
            " 00000000 00000004", PROG))); // credential overruns
        assertEquals(RpcDispatcher.DROP, dispatch(d, String.format("00000001 00000000 00000002 %s 00000003 00000001" +
            " 00000000 00000000 00000000 00000194 00000000", PROG))); // verifier over 400 bytes
        assertCounters(d, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0);
        assertEquals(0, program.calls);
        assertEquals((byte)0xEE, out.getByte(0), "nothing written");
    }

    @Test
    void rpcMismatch()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(24, dispatch(d, "00001234 00000000 00000003 " + PROG + " 00000003 00000000 " + CRED_NONE));
        assertBytes("00001234 00000001 00000001 | 00000000 | 00000002 00000002", out, 0, 24);
        assertEquals(24, dispatch(d, "00001235 00000000 00000001"));
        assertBytes("00001235 00000001 00000001 00000000 00000002 00000002", out, 0, 24);
        assertCounters(d, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0);
        assertEquals(0, program.calls);
    }

    @Test
    void malformedAuthSysIsAuthErrorBadCred()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        // 17 supplementary groups
        assertEquals(20, dispatch(d, "00000077 00000000 00000002 " + PROG + " 00000003 00000001 | 00000001 00000058" +
            " 00000000 00000000 00000000 00000000 00000011 " + "00000000".repeat(17) + " | 00000000 00000000"));
        assertBytes("00000077 00000001 00000001 | 00000001 | 00000001", out, 0, 20);
        assertCounters(d, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0);
        assertEquals(0, program.calls);
        // a good AUTH_SYS runs
        assertEquals(28, dispatch(d, "00000078 00000000 00000002 " + PROG + " 00000003 00000001 | 00000001 00000018" +
            " 00000000 00000000 000003e8 00000064 00000001 0000000a | 00000000 00000000 | 00000009"));
        assertBytes("00000078 00000001 00000000 00000000 00000000 00000000 0000000a", out, 0, 28);
        assertEquals(1000, call.header().uid());
        assertEquals(10, call.header().gid(0));
    }

    @Test
    void unknownProgramIsProgUnavail()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(24, dispatch(d, "00000010 00000000 00000002 000186a3 00000003 00000000 " + CRED_NONE));
        assertBytes("00000010 00000001 00000000 00000000 00000000 00000001", out, 0, 24);
        assertEquals(24, dispatch(new RpcDispatcher(null), call(0x11, 3, 0, "")), "no program at all");
        assertBytes("00000011 00000001 00000000 00000000 00000000 00000001", out, 0, 24);
        assertCounters(d, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0);
    }

    @Test
    void versionOutsideTheRangeIsProgMismatchWithLowAndHigh()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        for (final int version : new int[] {1, 5, 0, -1, Integer.MAX_VALUE})
        {
            assertEquals(32, dispatch(d, call(0x20, version, Program.NULL, "")));
            assertBytes("00000020 00000001 00000000 00000000 00000000 00000002 | 00000002 00000004", out, 0, 32);
        }
        assertCounters(d, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0);
        assertEquals(0, program.calls);
    }

    @Test
    void unknownProcedureIsProcUnavail()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(24, dispatch(d, call(0x30, 3, 99, "")));
        assertBytes("00000030 00000001 00000000 00000000 00000000 00000003", out, 0, 24);
        assertCounters(d, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0);
    }

    @Test
    void argumentsThatDoNotDecodeAreGarbageArgs()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(24, dispatch(d, call(0x40, 3, Program.INC, ""))); // INC's int is missing
        assertBytes("00000040 00000001 00000000 00000000 00000000 00000004", out, 0, 24);
        assertEquals(24, dispatch(d, call(0x41, 3, Program.INC, "0000")));
        assertEquals(24, dispatch(d, call(0x42, 3, Program.BAD_ARGS, "")), "the program's own GARBAGE_ARGS");
        assertBytes("00000042 00000001 00000000 00000000 00000000 00000004", out, 0, 24);
        assertCounters(d, 3, 0, 0, 0, 0, 0, 0, 3, 0, 0);
    }

    @Test
    void resultsThatOverflowAreSystemErrAndReplaceWhatWasWritten()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        Arrays.fill(out.byteArray(), (byte)0xEE);
        assertEquals(24, dispatch(d, call(0x50, 3, Program.OVERFLOW, ""), 16, 64));
        assertBytes("00000050 00000001 00000000 00000000 00000000 00000005", out, 16, 24);
        assertCounters(d, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0);
    }

    @Test
    void aProgramThatThrowsOrFailsIsSystemErr()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(24, dispatch(d, call(0x60, 3, Program.THROW, "")));
        assertBytes("00000060 00000001 00000000 00000000 00000000 00000005", out, 0, 24);
        assertEquals(24, dispatch(d, call(0x61, 3, Program.FAIL, "")));
        assertBytes("00000061 00000001 00000000 00000000 00000000 00000005", out, 0, 24);
        assertEquals(24, dispatch(d, call(0x62, 3, Program.ODD, "")), "an accept_stat a procedure cannot give");
        assertBytes("00000062 00000001 00000000 00000000 00000000 00000005", out, 0, 24);
        assertCounters(d, 3, 0, 0, 0, 0, 0, 0, 0, 3, 0);
    }

    @Test
    void dropIsNoReply()
    {
        final RpcDispatcher d = new RpcDispatcher(new DuplicateReplyCache(4, 128)).register(program);
        call.origin(new InetSocketAddress("127.0.0.1", 700), null);
        assertEquals(RpcDispatcher.DROP, dispatch(d, call(0x70, 3, Program.SILENT, "")));
        assertEquals(RpcDispatcher.DROP, dispatch(d, call(0x70, 3, Program.SILENT, "")));
        assertEquals(2, program.calls, "a dropped call is not cached: its retransmission runs again");
        assertEquals(0, d.cache().stores());
        assertCounters(d, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2);
    }

    @Test
    void aPayloadIsReservedInTheResults()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(40, dispatch(d, call(0x80, 3, Program.PAYLOAD, "00000005")));
        assertTrue(call.hasPayload());
        assertEquals(28, call.payloadPosition());
        assertEquals(5, call.payloadLength());
        assertEquals(36, call.payloadEnd());
        assertBytes("00000080 00000001 00000000 00000000 00000000 00000000 | 00000005 | 00010203 04000000 |" +
            " 77777777", out, 0, 40);
        assertTrue(out == call.resultsBuffer());

        // the next call starts without it
        assertEquals(24, dispatch(d, call(0x81, 3, Program.NULL, "")));
        assertFalse(call.hasPayload());
    }

    @Test
    void aPayloadOfAFailedProcedureIsDropped()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertEquals(24, dispatch(d, call(0x90, 3, Program.PAYLOAD_THEN_THROW, "00000005")));
        assertBytes("00000090 00000001 00000000 00000000 00000000 00000005", out, 0, 24);
        assertFalse(call.hasPayload());
        assertThrows(IllegalStateException.class, () ->
        {
            call.reservePayload(1);
            call.reservePayload(1);
        });
    }

    @Test
    void registerRefusesTwiceTheSameProgramAndMoreThanSixteen()
    {
        final RpcDispatcher d = new RpcDispatcher(null).register(program);
        assertThrows(IllegalArgumentException.class, () -> d.register(new Program()));
        for (int i = 1; i < 16; i++)
        {
            final int number = i;
            d.register(new EmptyProgram(number));
        }
        assertThrows(IllegalStateException.class, () -> d.register(new EmptyProgram(99)));
        // the sixteenth is served
        assertEquals(24, dispatch(d, String.format("00000001 00000000 00000002 0000000f 00000001 00000000 %s",
            CRED_NONE)));
        assertBytes("00000001 00000001 00000000 00000000 00000000 00000000", out, 0, 24);
    }

    private static final class EmptyProgram implements RpcProgram
    {
        private final int number;

        EmptyProgram(final int number)
        {
            this.number = number;
        }

        @Override
        public int program()
        {
            return number;
        }

        @Override
        public int lowVersion()
        {
            return 1;
        }

        @Override
        public int highVersion()
        {
            return 1;
        }

        @Override
        public int call(final RpcServerCall call)
        {
            return RpcMessage.SUCCESS;
        }
    }

    // ---- with the duplicate reply cache ---------------------------------------------------------------------

    @Test
    void aRetransmissionIsAnsweredFromTheCacheWithoutRunningAgain()
    {
        final RpcDispatcher d = new RpcDispatcher(new DuplicateReplyCache(8, 64)).register(program);
        call.origin(new InetSocketAddress("10.1.2.3", 900), null);
        assertEquals(28, dispatch(d, call(0xA0, 3, Program.INC, "00000010")));
        Arrays.fill(out.byteArray(), (byte)0);
        assertEquals(28, dispatch(d, call(0xA0, 3, Program.INC, "00000010"), 40, 100));
        assertBytes("000000a0 00000001 00000000 00000000 00000000 00000000 00000011", out, 40, 28);
        assertEquals(1, program.calls);
        assertEquals(1, d.cache().hits());
        assertCounters(d, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);

        // the same xid with other arguments (a client that restarted) runs
        assertEquals(28, dispatch(d, call(0xA0, 3, Program.INC, "00000020")));
        assertBytes("000000a0 00000001 00000000 00000000 00000000 00000000 00000021", out, 0, 28);
        assertEquals(2, program.calls);
        // from another port of the same host it is the same client (nfsd keys on the address)
        call.origin(new InetSocketAddress("10.1.2.3", 901), null);
        assertEquals(28, dispatch(d, call(0xA0, 3, Program.INC, "00000020")));
        assertEquals(2, program.calls);
        // from another host it is another call
        call.origin(new InetSocketAddress("10.1.2.4", 900), null);
        assertEquals(28, dispatch(d, call(0xA0, 3, Program.INC, "00000020")));
        assertEquals(3, program.calls);
    }

    @Test
    void errorRepliesAreCachedToo()
    {
        final RpcDispatcher d = new RpcDispatcher(new DuplicateReplyCache(8, 64)).register(program);
        call.origin(new InetSocketAddress("10.1.2.3", 900), null);
        assertEquals(24, dispatch(d, call(0xB0, 3, Program.INC, "")));
        assertEquals(24, dispatch(d, call(0xB0, 3, Program.INC, "")));
        assertBytes("000000b0 00000001 00000000 00000000 00000000 00000004", out, 0, 24);
        assertEquals(1, program.calls);
        assertEquals(1, d.garbageArgs(), "a replayed reply is not counted again");
    }

    @Test
    void whatIsNotCached()
    {
        final RpcDispatcher d = new RpcDispatcher(new DuplicateReplyCache(8, 64)).register(program);
        // no peer
        call.origin(null, null);
        dispatch(d, call(0xC0, 3, Program.INC, "00000001"));
        dispatch(d, call(0xC0, 3, Program.INC, "00000001"));
        assertEquals(2, program.calls);
        call.origin(new InetSocketAddress("10.1.2.3", 900), null);
        // procedure 0 (idempotent by RpcProgram.cacheReply's default)
        dispatch(d, call(0xC1, 3, Program.NULL, ""));
        dispatch(d, call(0xC1, 3, Program.NULL, ""));
        assertEquals(4, program.calls);
        // a reply with a payload
        dispatch(d, call(0xC2, 3, Program.PAYLOAD, "00000004"));
        dispatch(d, call(0xC2, 3, Program.PAYLOAD, "00000004"));
        assertEquals(6, program.calls);
        // an error reply is short and is cached
        dispatch(d, call(0xC3, 3, Program.OVERFLOW, ""), 0, 200); // SYSTEM_ERR, 24 bytes
        assertEquals(1, d.cache().stores());
        // a denied call never reaches the cache
        dispatch(d, "000000c4 00000000 00000003");
        assertEquals(1, d.cache().stores());
        assertEquals(0, d.cache().hits());

        // a reply longer than an entry is not kept
        final RpcDispatcher tiny = new RpcDispatcher(new DuplicateReplyCache(8, 24)).register(program);
        assertEquals(28, dispatch(tiny, call(0xC5, 3, Program.INC, "00000001")));
        assertEquals(28, dispatch(tiny, call(0xC5, 3, Program.INC, "00000001")));
        assertEquals(2, tiny.cache().tooLarge());
        assertEquals(0, tiny.cache().hits());
        assertEquals(0, tiny.cache().stores());
    }

    @Test
    void aCachedReplyLargerThanTheRoomGivenIsNotReplayed()
    {
        final RpcDispatcher d = new RpcDispatcher(new DuplicateReplyCache(8, 64)).register(program);
        call.origin(new InetSocketAddress("10.1.2.3", 900), null);
        assertEquals(28, dispatch(d, call(0xD0, 3, Program.INC, "00000001")));
        // 26 bytes of room: the 28 cached ones do not fit, the call runs again and its results overflow
        assertEquals(24, dispatch(d, call(0xD0, 3, Program.INC, "00000001"), 0, 26));
        assertBytes("000000d0 00000001 00000000 00000000 00000000 00000005", out, 0, 24);
        assertEquals(2, program.calls);
        assertEquals(0, d.cache().hits());
    }
}
