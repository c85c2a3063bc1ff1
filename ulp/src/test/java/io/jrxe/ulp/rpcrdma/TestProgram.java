package io.jrxe.ulp.rpcrdma;

import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A test RPC program (number 0x20000099, version 1) with one procedure per transport path:
 * <pre>
 *   0 NULL
 *   1 INCREMENT(int delta) -> int total         not idempotent: a replay must come from the reply cache
 *   2 ECHO(opaque<>) -> opaque<>                long calls and replies (position-zero Read chunk, Reply chunk)
 *   3 READ(int offset, int count) -> opaque<>   the data is a DDP-eligible payload (Write chunk)
 *   4 WRITE(int offset, opaque<> data [, int tag]) -> int count, int checksum, int tag
 *                                               the data a DDP-eligible argument (Read chunk), a tail after it
 * </pre>
 * {@link #dropNext} makes it swallow calls (no reply at all) to drive the client's timer.
 */
final class TestProgram implements RpcProgram
{
    static final int PROGRAM = 0x2000_0099;
    static final int NULL = 0;
    static final int INCREMENT = 1;
    static final int ECHO = 2;
    static final int READ = 3;
    static final int WRITE = 4;
    static final int FILE_SIZE = 4 * 1024 * 1024;

    final UnsafeBuffer file = new UnsafeBuffer(BufferUtil.allocateDirectAligned(FILE_SIZE, 64));
    long total;
    int executions;
    int dropNext;

    TestProgram()
    {
        for (int i = 0; i < FILE_SIZE; i++)
        {
            file.putByte(i, pattern(i));
        }
    }

    static byte pattern(final int i)
    {
        return (byte)(i * 31 + (i >>> 9));
    }

    static int checksum(final UnsafeBuffer buf, final int offset, final int length)
    {
        int h = 17;
        for (int i = 0; i < length; i++)
        {
            h = h * 31 + buf.getByte(offset + i);
        }
        return h;
    }

    @Override
    public int program()
    {
        return PROGRAM;
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
    public boolean cacheReply(final int version, final int procedure)
    {
        return INCREMENT == procedure || WRITE == procedure;
    }

    @Override
    public int call(final RpcServerCall call)
    {
        if (dropNext > 0)
        {
            dropNext--;
            return DROP;
        }
        executions++;
        final XdrDecoder args = call.args();
        final XdrEncoder res = call.results();
        switch (call.header().procedure())
        {
            case NULL:
                return RpcMessage.SUCCESS;
            case INCREMENT:
                total += args.getInt();
                res.putInt((int)total);
                return RpcMessage.SUCCESS;
            case ECHO:
            {
                final int length = args.getOpaqueLength(FILE_SIZE);
                final int at = args.skipFixedOpaque(length);
                res.putOpaque(args.buffer(), at, length);
                return RpcMessage.SUCCESS;
            }
            case READ:
            {
                final int offset = args.getInt();
                final int count = args.getInt();
                if (offset < 0 || count < 0 || offset + count > FILE_SIZE)
                {
                    return RpcMessage.GARBAGE_ARGS;
                }
                res.putInt(count);
                final int at = call.reservePayload(count);
                res.buffer().putBytes(at, file, offset, count);
                return RpcMessage.SUCCESS;
            }
            case WRITE:
            {
                final int offset = args.getInt();
                final int length = args.getOpaqueLength(FILE_SIZE);
                if (offset < 0 || offset + length > FILE_SIZE)
                {
                    return RpcMessage.GARBAGE_ARGS;
                }
                final int at = args.skipFixedOpaque(length);
                final int tag = args.remaining() >= 4 ? args.getInt() : 0; // an optional word after the data
                file.putBytes(offset, args.buffer(), at, length);
                res.putInt(length).putInt(checksum(file, offset, length)).putInt(tag);
                return RpcMessage.SUCCESS;
            }
            default:
                return RpcMessage.PROC_UNAVAIL;
        }
    }
}
