package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;

/**
 * MOUNT v3 (RFC 1813 Appendix I) for {@link MemoryNfsServer}: one export, MNT returns its root handle and AUTH_SYS;
 * any other path is MNT3ERR_NOENT. Counts UMNTs.
 */
final class MemoryMountProgram implements RpcProgram
{
    private final MemoryNfsServer nfs;
    private final String export;
    int mounts;
    int unmounts;

    MemoryMountProgram(final MemoryNfsServer nfs, final String export)
    {
        this.nfs = nfs;
        this.export = export;
    }

    @Override
    public int program()
    {
        return Mount3.PROGRAM;
    }

    @Override
    public int lowVersion()
    {
        return 1;
    }

    @Override
    public int highVersion()
    {
        return Mount3.VERSION;
    }

    @Override
    public synchronized int call(final RpcServerCall call)
    {
        switch (call.header().procedure())
        {
            case Mount3.MOUNTPROC3_NULL:
                return RpcMessage.SUCCESS;
            case Mount3.MOUNTPROC3_MNT:
            {
                final String path = call.args().getString(Mount3.MNTPATHLEN);
                if (!export.equals(path))
                {
                    call.results().putInt(Mount3.MNT3ERR_NOENT);
                    return RpcMessage.SUCCESS;
                }
                mounts++;
                call.results().putInt(Mount3.MNT3_OK);
                nfs.rootHandle().encode(call.results());
                call.results().putInt(1).putInt(RpcMessage.AUTH_SYS);
                return RpcMessage.SUCCESS;
            }
            case Mount3.MOUNTPROC3_UMNT:
                call.args().getString(Mount3.MNTPATHLEN);
                unmounts++;
                return RpcMessage.SUCCESS;
            default:
                return RpcMessage.PROC_UNAVAIL;
        }
    }
}
