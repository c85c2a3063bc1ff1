package io.jrxe.ulp.rpcbench;

import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;

/**
 * The benchmark's RPC program (number 0x20000100, version 1): NULL, READ (a payload of the asked size, a
 * DDP-eligible result, so it goes through the client's Write chunk) and WRITE (a DDP-eligible argument, pulled
 * from the client's Read chunk), idempotent all, so nothing is cached.
 */
public final class BenchProgram implements RpcProgram
{
    /** Program number. */
    public static final int PROGRAM = 0x2000_0100;
    /** NULL. */
    public static final int NULL = 0;
    /** READ(int count) -> opaque data. */
    public static final int READ = 1;
    /** WRITE(opaque data) -> int count. */
    public static final int WRITE = 2;

    private final int maxPayload;

    /**
     * @param maxPayload the largest READ or WRITE
     */
    public BenchProgram(final int maxPayload)
    {
        this.maxPayload = maxPayload;
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
        return false;
    }

    @Override
    public int call(final RpcServerCall call)
    {
        switch (call.header().procedure())
        {
            case NULL:
                return RpcMessage.SUCCESS;
            case READ:
            {
                final int count = call.args().getInt();
                if (count < 0 || count > maxPayload)
                {
                    return RpcMessage.GARBAGE_ARGS;
                }
                call.results().putInt(count);
                call.reservePayload(count); // the bytes are whatever the buffer holds: the transport is measured
                return RpcMessage.SUCCESS;
            }
            case WRITE:
            {
                final int length = call.args().getOpaqueLength(maxPayload);
                call.args().skipFixedOpaque(length);
                call.results().putInt(length);
                return RpcMessage.SUCCESS;
            }
            default:
                return RpcMessage.PROC_UNAVAIL;
        }
    }
}
