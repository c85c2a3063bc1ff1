package io.jrxe.ulp.nfsmount;

import io.jrxe.ulp.nfs.Mount3;
import io.jrxe.ulp.nfs.MountClient;
import io.jrxe.ulp.nfs.MountException;
import io.jrxe.ulp.nfs.MountResult;
import io.jrxe.ulp.nfs.Nfs3;
import io.jrxe.ulp.nfs.Nfs3DirEntry;
import io.jrxe.ulp.nfs.Nfs3Session;
import io.jrxe.ulp.nfs.Nfs3SessionOptions;
import io.jrxe.ulp.nfs.Nfs3Status;
import io.jrxe.ulp.nfs.NfsException;
import io.jrxe.ulp.nfs.TransferSinks;
import io.jrxe.ulp.nfs.TransferSources;
import io.jrxe.ulp.rpcrdma.RpcRdmaClient;
import io.jrxe.ulp.rpcrdma.RpcRdmaTransport;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.sunrpc.RpcException;
import io.jrxe.ulp.sunrpc.RpcTcpOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * NFSv3 over RDMA: the root handle from MOUNT v3 over TCP (through the port mapper, as mount.nfs does: MOUNT has no
 * RDMA binding), then NFS on one or more RDMA connections. Closing sends UMNT.
 */
final class Nfs3Mount implements NfsMount
{
    private final NfsMountOptions options;
    private final RpcRdmaTransport transport;
    private final Nfs3Session session;

    Nfs3Mount(final NfsMountOptions options, final RpcClient rpc, final RpcRdmaClient first,
        final MountResult mounted) throws IOException
    {
        this.options = options;
        this.transport = first.transport();
        try
        {
            this.session = new Nfs3Session(rpc, mounted.root(), new Nfs3SessionOptions()
                .rsize(options.rsize()).wsize(options.wsize()).outstanding(options.outstanding()));
        }
        catch (final NfsException ex)
        {
            throw error(ex);
        }
    }

    static MountResult mnt(final NfsMountOptions options) throws IOException
    {
        final MountResult mounted;
        try (MountClient mount = MountClient.connect(options.mountHost(), options.pmapPort(), options.auth(),
            tcp(options)))
        {
            mounted = mount.mnt(options.export());
        }
        catch (final MountException ex)
        {
            final String text = Mount3.statusText(ex.status());
            final int space = text.indexOf(' ');
            throw new NfsError("MNT", space > 0 ? text.substring(0, space) : text, ex.getMessage(), ex);
        }
        if (!mounted.accepts(options.auth().flavor()))
        {
            throw new NfsError("MNT", "MNT3ERR_ACCES", "MOUNT3 MNT \"" + options.export() +
                "\": the export accepts auth flavors " + Arrays.toString(mounted.flavors()) + ", not " +
                options.auth(), null);
        }
        return mounted;
    }

    private static RpcTcpOptions tcp(final NfsMountOptions options)
    {
        return new RpcTcpOptions().connectTimeoutMs((int)Math.min(Integer.MAX_VALUE, options.connectTimeoutNs() /
            1_000_000)).callTimeoutMs((int)Math.min(Integer.MAX_VALUE, options.timeoutNs() / 1_000_000));
    }

    static NfsError error(final NfsException ex)
    {
        return new NfsError(ex.operation(), Nfs3Status.name(ex.status()), ex.getMessage(), ex);
    }

    static NfsError error(final RpcException ex)
    {
        return new NfsError(ex.operation(), "RPC", ex.getMessage(), ex);
    }

    @Override
    public String version()
    {
        return "3";
    }

    @Override
    public int rsize()
    {
        return session.rsize();
    }

    @Override
    public int wsize()
    {
        return session.wsize();
    }

    @Override
    public RpcRdmaTransport transport()
    {
        return transport;
    }

    @Override
    public List<NfsEntry> list(final String dir) throws IOException
    {
        try
        {
            final List<NfsEntry> out = new ArrayList<>();
            for (final Nfs3DirEntry e : session.list(dir))
            {
                if (!".".equals(e.name()) && !"..".equals(e.name()))
                {
                    out.add(new NfsEntry(e.name(), NfsEntry.letterOf(e.type()), e.size()));
                }
            }
            return out;
        }
        catch (final NfsException ex)
        {
            throw error(ex);
        }
    }


    @Override
    public long read(final String path, final OutputStream out, final NfsProgress progress) throws IOException
    {
        try
        {
            return session.readFile(path, TransferSinks.to(out), progress::progress);
        }
        catch (final NfsException ex)
        {
            throw error(ex);
        }
    }

    @Override
    public long write(final String path, final FileChannel in, final NfsProgress progress) throws IOException
    {
        final long length = in.size();
        try
        {
            session.writeFile(path, TransferSources.from(in), length, progress::progress);
            return length;
        }
        catch (final NfsException ex)
        {
            throw error(ex);
        }
    }

    @Override
    public void create(final String path) throws IOException
    {
        try
        {
            session.create(path, Nfs3.UNCHECKED, 0644);
        }
        catch (final NfsException ex)
        {
            throw error(ex);
        }
    }

    @Override
    public void remove(final String path) throws IOException
    {
        try
        {
            session.remove(path);
        }
        catch (final NfsException ex)
        {
            throw error(ex);
        }
    }

    @Override
    public String holdDelegation(final String path) throws IOException
    {
        throw new NfsError("OPEN", "NOTSUPP", "NFSv3 has no delegations: use --vers 4.1", null);
    }

    @Override
    public boolean awaitRecall(final long timeoutNs) throws IOException
    {
        throw new NfsError("CB_RECALL", "NOTSUPP", "NFSv3 has no delegations: use --vers 4.1", null);
    }

    @Override
    public String backchannel()
    {
        return "";
    }

    @Override
    public void close() throws IOException
    {
        session.close();
        try (MountClient mount = MountClient.connect(options.mountHost(), options.pmapPort(), options.auth(),
            tcp(options)))
        {
            mount.umnt(options.export());
        }
    }
}
