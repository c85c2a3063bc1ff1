package io.jrxe.ulp.sunrpc;

import java.util.HashMap;
import java.util.Map;

/**
 * A port mapper for tests (RFC 1833 §3, version 2): NULL, SET, UNSET and GETPORT over a table of mappings.
 */
public final class PortmapProgram implements RpcProgram
{
    private final Map<Long, Integer> ports = new HashMap<>();

    private static long key(final int program, final int version, final int protocol)
    {
        return ((long)program << 32) | (version & 0xFFFFL) << 16 | protocol & 0xFFFF;
    }

    /**
     * @param program program number
     * @param version version
     * @param protocol IPPROTO_TCP or IPPROTO_UDP
     * @param port its port
     * @return this
     */
    public synchronized PortmapProgram map(final int program, final int version, final int protocol, final int port)
    {
        ports.put(key(program, version, protocol), port);
        return this;
    }

    @Override
    public int program()
    {
        return Rpcbind.PMAP_PROGRAM;
    }

    @Override
    public int lowVersion()
    {
        return Rpcbind.PMAP_VERSION;
    }

    @Override
    public int highVersion()
    {
        return Rpcbind.PMAP_VERSION;
    }

    @Override
    public synchronized int call(final RpcServerCall call)
    {
        switch (call.header().procedure())
        {
            case Rpcbind.PMAPPROC_NULL:
                return RpcMessage.SUCCESS;
            case Rpcbind.PMAPPROC_SET:
            case Rpcbind.PMAPPROC_UNSET:
            case Rpcbind.PMAPPROC_GETPORT:
            {
                final int program = call.args().getInt();
                final int version = call.args().getInt();
                final int protocol = call.args().getInt();
                final int port = call.args().getInt();
                final long key = key(program, version, protocol);
                if (Rpcbind.PMAPPROC_GETPORT == call.header().procedure())
                {
                    call.results().putInt(ports.getOrDefault(key, 0));
                }
                else
                {
                    final boolean known = ports.containsKey(key);
                    if (Rpcbind.PMAPPROC_SET == call.header().procedure())
                    {
                        ports.putIfAbsent(key, port);
                    }
                    else
                    {
                        ports.remove(key);
                    }
                    call.results().putBoolean(Rpcbind.PMAPPROC_SET == call.header().procedure() ? !known : known);
                }
                return RpcMessage.SUCCESS;
            }
            default:
                return RpcMessage.PROC_UNAVAIL;
        }
    }
}
