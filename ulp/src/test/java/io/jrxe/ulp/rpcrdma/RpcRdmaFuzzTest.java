package io.jrxe.ulp.rpcrdma;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrxe.ulp.fuzz.GuardedBuffer;
import io.jrxe.ulp.sunrpc.DuplicateReplyCache;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcReplyHeader;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.ByteOrder;

/**
 * Coverage-guided fuzz targets (Jazzer) for what a server does with a received message before any RDMA: the
 * RPC-over-RDMA transport header ({@link RpcRdmaHeader#decode}) and, for RDMA_MSG, the RPC call after it through
 * the call header, the {@link RpcDispatcher}, its duplicate reply cache and a program that decodes every XDR item
 * type. Without {@code JAZZER_FUZZ=1} each target replays its seed corpus (the files under
 * {@code src/test/resources/io/jrxe/ulp/rpcrdma/RpcRdmaFuzzTestInputs/<method>/}) as a plain JUnit test. To fuzz:
 * <pre>
 *   JAZZER_FUZZ=1 JAZZER_INSTRUMENT='io.jrxe.ulp.**' mvn -o test -pl ulp -Dtest='RpcRdmaFuzzTest#transportHeaderThenCall'
 * </pre>
 * Invariants, each an {@link AssertionError} when broken:
 * <ul>
 *   <li>decode and dispatch throw nothing (decode returns a verdict; dispatch DROPs or answers);</li>
 *   <li>neither reads a byte outside the region it was given (the buffer checks every read);</li>
 *   <li>an OK header has its counts within the {@link ChunkLists} bounds, aligned non-decreasing Read positions,
 *       and re-encodes to exactly the bytes it was decoded from (XDR has one encoding per value);</li>
 *   <li>a reply is written inside the room given, is a whole number of XDR words, carries the call's xid and
 *       decodes as an RPC reply whose status is the one counted.</li>
 * </ul>
 */
class RpcRdmaFuzzTest
{
    private static final int GUARD = 64;
    private static final int MAX_INPUT = 16 * 1024;
    private static final int OUT_OFFSET = 32;
    private static final int OUT_CAPACITY = 2048;

    /** Reused across runs: a target is called millions of times on one thread. */
    private static final Target TARGET = new Target();

    @FuzzTest(maxDuration = "10m")
    void transportHeaderThenCall(final byte[] data)
    {
        TARGET.transportHeaderThenCall(data);
    }

    @FuzzTest(maxDuration = "10m")
    void rpcCall(final byte[] data)
    {
        TARGET.rpcCall(data);
    }

    /** The state of the targets, shared by both. */
    static final class Target
    {
        private final GuardedBuffer in = new GuardedBuffer(GUARD + MAX_INPUT + GUARD);
        private final UnsafeBuffer out = new UnsafeBuffer(new byte[OUT_OFFSET + OUT_CAPACITY + GUARD]);
        private final UnsafeBuffer reencoded = new UnsafeBuffer(new byte[MAX_INPUT]);
        private final XdrDecoder xdr = new XdrDecoder();
        private final XdrEncoder enc = new XdrEncoder();
        private final RpcRdmaHeader header = new RpcRdmaHeader();
        private final RpcReplyHeader reply = new RpcReplyHeader();
        private final XdrDecoder replyXdr = new XdrDecoder();
        private final RpcServerCall call = new RpcServerCall();
        private final RpcDispatcher dispatcher =
            new RpcDispatcher(new DuplicateReplyCache(16, 256)).register(new FuzzProgram());
        private final InetSocketAddress[] peers =
            {new InetSocketAddress("192.0.2.1", 700), new InetSocketAddress("192.0.2.2", 700)};

        void transportHeaderThenCall(final byte[] data)
        {
            final int n = load(data);
            in.guard(GUARD, GUARD + n);
            final int verdict;
            try
            {
                verdict = header.decode(xdr.wrap(in, GUARD, n));
            }
            catch (final RuntimeException ex)
            {
                throw new AssertionError("decode threw " + ex, ex);
            }
            checkHeader(verdict, n);
            if (RpcRdmaHeader.OK == verdict && RpcRdma.RDMA_MSG == header.proc())
            {
                final int hdrLen = header.length();
                dispatch(GUARD + hdrLen, n - hdrLen, header.xid() & 1);
            }
        }

        void rpcCall(final byte[] data)
        {
            final int n = load(data);
            dispatch(GUARD, n, n & 1);
        }

        private int load(final byte[] data)
        {
            final int n = Math.min(data.length, MAX_INPUT);
            in.guard(0, in.capacity());
            in.setMemory(0, in.capacity(), (byte)0xA5); // guard bytes that would parse as garbage if read
            in.putBytes(GUARD, data, 0, n);
            return n;
        }

        private void checkHeader(final int verdict, final int n)
        {
            switch (verdict)
            {
                case RpcRdmaHeader.OK:
                    break;
                case RpcRdmaHeader.DROP:
                    check(n < RpcRdma.FIXED_HEADER, "DROP for a header of " + n + " bytes");
                    check(null != header.problem(), "DROP without a problem");
                    return;
                case RpcRdmaHeader.BAD_VERSION:
                    check(n >= RpcRdma.FIXED_HEADER && RpcRdma.VERSION != header.version(), "BAD_VERSION for vers 1");
                    check(header.xid() == in.getInt(GUARD, ByteOrder.BIG_ENDIAN), "BAD_VERSION without the xid");
                    return;
                case RpcRdmaHeader.BAD_CHUNK:
                    check(n >= RpcRdma.FIXED_HEADER, "BAD_CHUNK for a header shorter than 16 bytes");
                    check(null != header.problem(), "BAD_CHUNK without a problem");
                    return;
                default:
                    throw new AssertionError("decode returned " + verdict);
            }
            final int length = header.length();
            check(null == header.problem(), "OK with a problem: " + header.problem());
            check(length >= RpcRdma.ERR_CHUNK_HEADER && length <= n && 0 == (length & 3),
                "OK header of " + length + " bytes in " + n);
            check(xdr.position() == GUARD + length, "the decoder is not at the header's end");
            final ChunkLists lists = header.lists();
            final int proc = header.proc();
            if (RpcRdma.RDMA_ERROR == proc)
            {
                check(RpcRdma.ERR_VERS == header.errCode() || RpcRdma.ERR_CHUNK == header.errCode(), "errCode");
            }
            else
            {
                check(RpcRdma.RDMA_MSG == proc || RpcRdma.RDMA_NOMSG == proc, "OK for proc " + proc);
                check(length >= RpcRdma.MIN_HEADER, "an RDMA_MSG of " + length + " bytes");
                check(lists.readCount() >= 0 && lists.readCount() <= ChunkLists.MAX_READ_SEGMENTS, "readCount");
                check(lists.writeChunkCount() >= 0 && lists.writeChunkCount() <= ChunkLists.MAX_WRITE_CHUNKS,
                    "writeChunkCount");
                int segments = 0;
                for (int c = 0; c < lists.writeChunkCount(); c++)
                {
                    check(lists.writeFirst(c) == segments && lists.writeSegments(c) >= 0, "Write chunk " + c);
                    segments += lists.writeSegments(c);
                }
                if (lists.hasReplyChunk())
                {
                    check(lists.replyFirst() == segments, "Reply chunk's first segment");
                    segments += lists.replySegments();
                }
                else
                {
                    check(-1 == lists.replySegments(), "replySegments of an absent Reply chunk");
                }
                check(segments <= ChunkLists.MAX_SEGMENTS, segments + " segments");
                int last = 0;
                for (int i = 0; i < lists.readCount(); )
                {
                    final int position = lists.readPosition(i);
                    check(position >= last && 0 == (position & 3), "Read position " + position);
                    check(lists.readLength(i) >= 0, "Read length");
                    final int chunk = lists.readChunkSegments(i);
                    check(chunk >= 1 && i + chunk <= lists.readCount(), "readChunkSegments");
                    for (int k = i; k < i + chunk; k++)
                    {
                        check(lists.readPosition(k) == position, "a Read chunk's segments share a position");
                    }
                    last = position;
                    i += chunk;
                }
            }
            reencode(length);
        }

        /** XDR has one encoding per value: an accepted header re-encodes to the bytes it came from. */
        private void reencode(final int length)
        {
            enc.wrap(reencoded, 0, reencoded.capacity());
            RpcRdmaHeader.encodeFixed(enc, header.xid(), header.credit(), header.proc());
            final ChunkLists lists = header.lists();
            if (RpcRdma.RDMA_ERROR == header.proc())
            {
                enc.putInt(header.errCode());
                if (RpcRdma.ERR_VERS == header.errCode())
                {
                    enc.putInt(header.errLow()).putInt(header.errHigh());
                }
            }
            else
            {
                for (int i = 0; i < lists.readCount(); i++)
                {
                    RpcRdmaHeader.encodeReadSegment(enc, lists.readPosition(i), lists.readHandle(i),
                        lists.readLength(i), lists.readOffset(i));
                }
                RpcRdmaHeader.encodeEnd(enc);
                for (int c = 0; c < lists.writeChunkCount(); c++)
                {
                    segments(lists.writeFirst(c), lists.writeSegments(c));
                }
                RpcRdmaHeader.encodeEnd(enc);
                if (lists.hasReplyChunk())
                {
                    segments(lists.replyFirst(), lists.replySegments());
                }
                else
                {
                    RpcRdmaHeader.encodeEnd(enc);
                }
            }
            check(enc.length() == length, "re-encoded " + enc.length() + " bytes of a " + length + "-byte header");
            in.guard(0, in.capacity());
            for (int i = 0; i < length; i++)
            {
                check(reencoded.getByte(i) == in.getByte(GUARD + i), "re-encoded header differs at byte " + i);
            }
        }

        private void segments(final int first, final int count)
        {
            final ChunkLists lists = header.lists();
            RpcRdmaHeader.encodeChunkStart(enc, count);
            for (int s = first; s < first + count; s++)
            {
                RpcRdmaHeader.encodeSegment(enc, lists.segHandle(s), lists.segLength(s), lists.segOffset(s));
            }
        }

        private void dispatch(final int offset, final int length, final int peer)
        {
            in.guard(offset, offset + length);
            out.setMemory(0, out.capacity(), (byte)0x3C);
            call.origin(peers[peer], null);
            final long before = counted();
            final long hitsBefore = dispatcher.cache().hits();
            final int result;
            try
            {
                result = dispatcher.dispatch(call, in, offset, length, out, OUT_OFFSET, OUT_CAPACITY);
            }
            catch (final RuntimeException ex)
            {
                throw new AssertionError("dispatch threw " + ex, ex);
            }
            in.guard(0, in.capacity());
            final long moved = counted() - before;
            for (int i = 0; i < OUT_OFFSET; i++)
            {
                check(0x3C == out.getByte(i), "the reply was written before its offset");
            }
            for (int i = OUT_OFFSET + OUT_CAPACITY; i < out.capacity(); i++)
            {
                check(0x3C == out.getByte(i), "the reply was written past its room");
            }
            if (RpcDispatcher.DROP == result)
            {
                check(1 == moved, "a DROP moved " + moved + " counters");
                return;
            }
            final boolean hit = dispatcher.cache().hits() != hitsBefore;
            check(result >= 20 && result <= OUT_CAPACITY && 0 == (result & 3), "a reply of " + result + " bytes");
            check(length >= 4 && out.getInt(OUT_OFFSET, ByteOrder.BIG_ENDIAN) == in.getInt(offset, ByteOrder.BIG_ENDIAN),
                "the reply's xid is not the call's");
            final boolean success;
            try
            {
                success = reply.decode(replyXdr.wrap(out, OUT_OFFSET, result));
            }
            catch (final XdrException ex)
            {
                throw new AssertionError("the dispatcher's reply does not decode: " + ex.getMessage(), ex);
            }
            if (success || hit)
            {
                check(0 == moved, "a SUCCESS or a replay moved an error counter");
                return;
            }
            check(1 == moved, "an error reply moved " + moved + " counters");
            if (RpcMessage.MSG_DENIED == reply.replyStat())
            {
                check(RpcMessage.RPC_MISMATCH == reply.rejectStat() ?
                    2 == reply.low() && 2 == reply.high() : RpcMessage.AUTH_BADCRED == reply.authStat(), "denied");
            }
            else
            {
                check(RpcMessage.PROG_MISMATCH != reply.acceptStat() || 1 == reply.low() && 3 == reply.high(),
                    "PROG_MISMATCH's versions");
            }
            check(0 == replyXdr.remaining(), "an error reply with bytes after its header");
        }

        private long counted()
        {
            final RpcDispatcher d = dispatcher;
            return d.malformed() + d.rpcMismatch() + d.authErrors() + d.progUnavail() + d.progMismatch() +
                d.procUnavail() + d.garbageArgs() + d.systemErr() + d.dropped();
        }

        private static void check(final boolean ok, final String what)
        {
            if (!ok)
            {
                throw new AssertionError(what);
            }
        }
    }

    /** Program 0x20000042, versions 1..3: procedures that read and write every XDR item type. */
    static final class FuzzProgram implements RpcProgram
    {
        @Override
        public int program()
        {
            return 0x2000_0042;
        }

        @Override
        public int lowVersion()
        {
            return 1;
        }

        @Override
        public int highVersion()
        {
            return 3;
        }

        @Override
        public int call(final RpcServerCall call)
        {
            final XdrDecoder args = call.args();
            final XdrEncoder results = call.results();
            switch (call.header().procedure())
            {
                case 0:
                    return RpcMessage.SUCCESS;
                case 1: // echo an opaque<1024>
                {
                    final int length = args.getOpaqueLength(1024);
                    final int at = args.skipFixedOpaque(length);
                    results.putOpaque(args.buffer(), at, length);
                    return RpcMessage.SUCCESS;
                }
                case 2: // a string<255>, a bool, a hyper, an unsigned int; all of the arguments
                {
                    results.putUtf8(args.getString(255));
                    results.putBoolean(args.getBoolean()).putHyper(args.getHyper()).putUnsignedInt(
                        args.getUnsignedInt());
                    return 0 == args.remaining() ? RpcMessage.SUCCESS : RpcMessage.GARBAGE_ARGS;
                }
                case 3: // a DDP payload of count & 1023 bytes
                {
                    final int count = args.getInt() & 1023;
                    results.putInt(count);
                    final int at = call.reservePayload(count);
                    final MutableDirectBuffer b = results.buffer();
                    for (int i = 0; i < count; i++)
                    {
                        b.putByte(at + i, (byte)i);
                    }
                    return RpcMessage.SUCCESS;
                }
                case 4: // a counted array of fixed opaque[6] into a reserved count
                {
                    final int n = args.getInt();
                    if (n < 0 || n > 64)
                    {
                        return RpcMessage.GARBAGE_ARGS;
                    }
                    final int count = results.reserveInt();
                    final byte[] six = new byte[6];
                    for (int i = 0; i < n; i++)
                    {
                        args.getFixedOpaque(six, 6);
                        results.putFixedOpaque(six, 0, 6);
                    }
                    results.putIntAt(count, n);
                    return RpcMessage.SUCCESS;
                }
                case 5:
                    throw new IllegalStateException("the program failed");
                case 6:
                    return RpcProgram.DROP;
                case 7: // results that never fit
                    while (true)
                    {
                        results.putHyper(args.remaining());
                    }
                case 8:
                    return args.getInt(); // any status at all
                default:
                    return RpcMessage.PROC_UNAVAIL;
            }
        }
    }
}
