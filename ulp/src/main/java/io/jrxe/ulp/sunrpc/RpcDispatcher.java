package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The server side of ONC RPC, transport-independent (the kernel's {@code svc_process}): it reads a call, finds
 * its program and version, answers from the {@link DuplicateReplyCache} or runs the procedure, and writes the
 * reply. Every outcome of RFC 5531 §9 has its answer and its counter:
 * <pre>
 *   not an RPC call, or overruns itself      no reply (dropped)            malformed
 *   rpcvers != 2                             MSG_DENIED RPC_MISMATCH 2..2  rpcMismatch
 *   malformed AUTH_SYS body                  MSG_DENIED AUTH_ERROR BADCRED authErrors
 *   unknown program                          PROG_UNAVAIL                  progUnavail
 *   version outside the program's range      PROG_MISMATCH low high        progMismatch
 *   procedure's own answer                   SUCCESS / PROC_UNAVAIL / GARBAGE_ARGS (arguments do not decode) /
 *                                            SYSTEM_ERR (the procedure failed or its results did not fit) /
 *                                            no reply (RpcProgram.DROP, svc_drop)      dropped
 * </pre>
 * Used by one server thread at a time.
 */
public final class RpcDispatcher
{
    /** {@link #dispatch} result: no reply to send. */
    public static final int DROP = -1;

    private static final int MAX_PROGRAMS = 16;

    private final RpcProgram[] programs = new RpcProgram[MAX_PROGRAMS];
    private int programCount;
    private final DuplicateReplyCache cache;

    private long calls;
    private long malformed;
    private long rpcMismatch;
    private long authErrors;
    private long progUnavail;
    private long progMismatch;
    private long procUnavail;
    private long garbageArgs;
    private long systemErr;
    private long dropped;

    /**
     * @param cache the duplicate reply cache, or null for none
     */
    public RpcDispatcher(final DuplicateReplyCache cache)
    {
        this.cache = cache;
    }

    /**
     * Serve a program (control path, before calls arrive).
     *
     * @param program the program
     * @return this
     */
    public RpcDispatcher register(final RpcProgram program)
    {
        for (int i = 0; i < programCount; i++)
        {
            if (programs[i].program() == program.program())
            {
                throw new IllegalArgumentException("program " + program.program() + " is registered already");
            }
        }
        if (programCount == MAX_PROGRAMS)
        {
            throw new IllegalStateException("at most " + MAX_PROGRAMS + " programs");
        }
        programs[programCount++] = program;
        return this;
    }

    /**
     * Serve one call.
     *
     * @param call the reusable call (the transport has set its origin)
     * @param msg holding the whole RPC call
     * @param offset its first byte (the xid)
     * @param length its bytes
     * @param out where the reply goes
     * @param outOffset first byte of the reply
     * @param outCapacity room for the reply
     * @return the reply's length, or {@link #DROP}
     */
    public int dispatch(
        final RpcServerCall call, final DirectBuffer msg, final int offset, final int length,
        final MutableDirectBuffer out, final int outOffset, final int outCapacity)
    {
        calls++;
        call.reset();
        final RpcCallHeader header = call.header();
        final int verdict;
        try
        {
            verdict = header.decode(call.args().wrap(msg, offset, length));
        }
        catch (final XdrException ex)
        {
            malformed++;
            return DROP;
        }
        final io.jrxe.ulp.xdr.XdrEncoder results = call.results().wrap(out, outOffset, outCapacity);
        if (RpcCallHeader.DENY_RPC_MISMATCH == verdict)
        {
            rpcMismatch++;
            RpcReplyHeader.encodeRpcMismatch(results, header.xid());
            return results.length();
        }
        if (RpcCallHeader.DENY_BADCRED == verdict)
        {
            authErrors++;
            RpcReplyHeader.encodeAuthError(results, header.xid(), RpcMessage.AUTH_BADCRED);
            return results.length();
        }
        final RpcProgram program = find(header.program());
        if (null == program)
        {
            progUnavail++;
            RpcReplyHeader.encodeAccepted(results, header.xid(), RpcMessage.PROG_UNAVAIL);
            return results.length();
        }
        if (header.version() < program.lowVersion() || header.version() > program.highVersion())
        {
            progMismatch++;
            RpcReplyHeader.encodeProgMismatch(results, header.xid(), program.lowVersion(), program.highVersion());
            return results.length();
        }
        final boolean cacheable = null != cache && null != call.peer() &&
            program.cacheReply(header.version(), header.procedure());
        int argsChecksum = 0;
        final int argsStart = call.args().position();
        final int argsLength = call.args().remaining();
        if (cacheable)
        {
            argsChecksum = DuplicateReplyCache.checksum(msg, argsStart, argsLength);
            final int cached = cache.lookup(call.peer().getAddress(), header, argsLength, argsChecksum,
                out, outOffset, outCapacity);
            if (cached >= 0)
            {
                return cached;
            }
        }
        final int stat = run(program, call, results);
        if (RpcProgram.DROP == stat)
        {
            dropped++;
            call.dropPayload();
            return DROP;
        }
        if (RpcMessage.SUCCESS != stat)
        {
            call.dropPayload();
            results.position(outOffset);
            RpcReplyHeader.encodeAccepted(results, header.xid(), stat);
        }
        if (cacheable && !call.hasPayload())
        {
            cache.store(call.peer().getAddress(), header, argsLength, argsChecksum, out, outOffset,
                results.length());
        }
        return results.length();
    }

    private int run(final RpcProgram program, final RpcServerCall call, final io.jrxe.ulp.xdr.XdrEncoder results)
    {
        RpcReplyHeader.encodeAccepted(results, call.header().xid(), RpcMessage.SUCCESS);
        int stat;
        try
        {
            stat = program.call(call);
        }
        catch (final XdrException ex)
        {
            // the arguments did not decode (GARBAGE_ARGS), or the results did not fit (the server's failure)
            stat = ex.encoding() ? RpcMessage.SYSTEM_ERR : RpcMessage.GARBAGE_ARGS;
        }
        catch (final RuntimeException ex)
        {
            stat = RpcMessage.SYSTEM_ERR;
        }
        switch (stat)
        {
            case RpcMessage.SUCCESS:
            case RpcProgram.DROP:
                break;
            case RpcMessage.PROC_UNAVAIL:
                procUnavail++;
                break;
            case RpcMessage.GARBAGE_ARGS:
                garbageArgs++;
                break;
            default:
                systemErr++;
                stat = RpcMessage.SYSTEM_ERR;
                break;
        }
        return stat;
    }

    private RpcProgram find(final int number)
    {
        for (int i = 0; i < programCount; i++)
        {
            if (programs[i].program() == number)
            {
                return programs[i];
            }
        }
        return null;
    }

    /** @return the duplicate reply cache, or null */
    public DuplicateReplyCache cache()
    {
        return cache;
    }

    /** @return calls seen */
    public long calls()
    {
        return calls;
    }

    /** @return calls dropped as malformed */
    public long malformed()
    {
        return malformed;
    }

    /** @return RPC_MISMATCH answers */
    public long rpcMismatch()
    {
        return rpcMismatch;
    }

    /** @return AUTH_ERROR answers */
    public long authErrors()
    {
        return authErrors;
    }

    /** @return PROG_UNAVAIL answers */
    public long progUnavail()
    {
        return progUnavail;
    }

    /** @return PROG_MISMATCH answers */
    public long progMismatch()
    {
        return progMismatch;
    }

    /** @return PROC_UNAVAIL answers */
    public long procUnavail()
    {
        return procUnavail;
    }

    /** @return GARBAGE_ARGS answers */
    public long garbageArgs()
    {
        return garbageArgs;
    }

    /** @return calls a program chose not to answer ({@link RpcProgram#DROP}) */
    public long dropped()
    {
        return dropped;
    }

    /** @return SYSTEM_ERR answers */
    public long systemErr()
    {
        return systemErr;
    }
}
