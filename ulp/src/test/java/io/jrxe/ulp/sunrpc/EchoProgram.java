package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * A test program: 0x20000101 version 1. ECHO returns its opaque; SUM returns the length and byte sum of its opaque
 * (a payload on the call side); PATTERN returns an opaque of the asked length, byte i = (i * 7 + seed) (a payload
 * on the reply side); SILENT never answers is not possible here, so the timeout tests use a raw socket.
 */
final class EchoProgram implements RpcProgram
{
    static final int PROGRAM = 0x2000_0101;
    static final int ECHO = 1;
    static final int SUM = 2;
    static final int PATTERN = 3;

    int calls;

    static byte patternByte(final int i, final int seed)
    {
        return (byte)(i * 7 + seed);
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
    public int call(final RpcServerCall call)
    {
        calls++;
        final XdrDecoder args = call.args();
        final XdrEncoder results = call.results();
        switch (call.header().procedure())
        {
            case 0:
                return RpcMessage.SUCCESS;
            case ECHO:
            {
                final int length = args.getOpaqueLength(1 << 24);
                final int at = args.skipFixedOpaque(length);
                results.putOpaque(args.buffer(), at, length);
                return RpcMessage.SUCCESS;
            }
            case SUM:
            {
                final int length = args.getOpaqueLength(1 << 24);
                final int at = args.skipFixedOpaque(length);
                long sum = 0;
                for (int i = 0; i < length; i++)
                {
                    sum += args.buffer().getByte(at + i) & 0xFF;
                }
                final int trailer = args.getInt();
                results.putInt(length).putHyper(sum).putInt(trailer);
                return RpcMessage.SUCCESS;
            }
            case PATTERN:
            {
                final int length = args.getInt();
                final int seed = args.getInt();
                results.putInt(length);
                final int at = call.reservePayload(length);
                for (int i = 0; i < length; i++)
                {
                    call.resultsBuffer().putByte(at + i, patternByte(i, seed));
                }
                results.putInt(0xC0DA);
                return RpcMessage.SUCCESS;
            }
            default:
                return RpcMessage.PROC_UNAVAIL;
        }
    }
}
