package io.jrxe.ulp.nfsmount;

import io.jrxe.ulp.nfs.MountResult;
import io.jrxe.ulp.nfs.NfsException;
import io.jrxe.ulp.nfs4.Nfs41Options;
import io.jrxe.ulp.nfs4.Nfs41Session;
import io.jrxe.ulp.nfs4.Nfs4CallbackProgram;
import io.jrxe.ulp.nfs4.Nfs4Exception;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rpcrdma.RpcRdmaClient;
import io.jrxe.ulp.sunrpc.RoundRobinRpcClient;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcException;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Mounts an export over jrxe (see the package comment).
 */
public final class NfsMounts
{
    private NfsMounts()
    {
    }

    /**
     * Mount.
     *
     * @param cm the node's connection manager (its node's engine runs on a thread of its own)
     * @param options what and how
     * @return the mount
     * @throws IOException an NfsError (the server refused), or the connection could not be made in time
     */
    public static NfsMount mount(final RdmaCm cm, final NfsMountOptions options) throws IOException
    {
        return "4.1".equals(options.version()) ? mount41(cm, options) : mount3(cm, options);
    }

    private static RpcRdmaClient.Context rdma(final NfsMountOptions options)
    {
        final RpcRdmaClient.Context ctx = new RpcRdmaClient.Context().auth(options.auth())
            .timeoutNs(options.timeoutNs()).retries(options.retries()).idle(options.newIdle());
        final int payload = Math.max(Math.max(options.rsize(), options.wsize()), 1024 * 1024);
        ctx.transport().server(new InetSocketAddress(options.server(), options.port())).maxSegmentBytes(payload);
        return ctx;
    }

    private static void connect(final RpcRdmaClient client, final NfsMountOptions options) throws IOException
    {
        if (!client.awaitConnected(options.connectTimeoutNs()))
        {
            client.close();
            throw new IOException("no RDMA connection to " + options.server().getHostAddress() + ":" +
                options.port() + " within " + options.connectTimeoutNs() / 1_000_000 + " ms");
        }
    }

    private static NfsMount mount3(final RdmaCm cm, final NfsMountOptions options) throws IOException
    {
        final MountResult mounted;
        try
        {
            mounted = Nfs3Mount.mnt(options);
        }
        catch (final RpcException ex)
        {
            throw Nfs3Mount.error(ex);
        }
        final RpcRdmaClient[] clients = new RpcRdmaClient[options.nconnect()];
        try
        {
            for (int i = 0; i < clients.length; i++)
            {
                clients[i] = RpcRdmaClient.create(cm, rdma(options));
                connect(clients[i], options);
            }
            final RpcClient rpc = 1 == clients.length ? clients[0] : new RoundRobinRpcClient(clients,
                options.newIdle());
            return new Nfs3Mount(options, rpc, clients[0], mounted);
        }
        catch (final NfsException ex)
        {
            closeAll(clients);
            throw Nfs3Mount.error(ex);
        }
        catch (final RpcException ex)
        {
            closeAll(clients);
            throw Nfs3Mount.error(ex);
        }
        catch (final IOException | RuntimeException ex)
        {
            closeAll(clients);
            throw ex;
        }
    }

    private static void closeAll(final RpcRdmaClient[] clients)
    {
        for (final RpcRdmaClient c : clients)
        {
            if (null != c)
            {
                c.close();
            }
        }
    }

    private static NfsMount mount41(final RdmaCm cm, final NfsMountOptions options) throws IOException
    {
        if (options.nconnect() > 1)
        {
            throw new IllegalArgumentException("nconnect > 1 needs session trunking for NFSv4.1, which jrxe " +
                "does not do yet: use --vers 3 or one connection");
        }
        final Nfs41Options v41 = new Nfs41Options().exportPath(options.export()).outstanding(options.outstanding())
            .idle(options.newIdle());
        if (options.rsize() > 0)
        {
            v41.rsize(options.rsize());
        }
        if (options.wsize() > 0)
        {
            v41.wsize(options.wsize());
        }
        final Nfs4CallbackProgram callback = new Nfs4CallbackProgram(Nfs4CallbackProgram.DEFAULT_PROGRAM);
        final RpcRdmaClient.Context ctx = rdma(options);
        ctx.transport().bcMaxRequests(Math.max(1, v41.backSlots()));
        final RpcRdmaClient client = RpcRdmaClient.create(cm, ctx);
        client.transport().backchannel(new RpcDispatcher(null).register(callback));
        try
        {
            connect(client, options);
            final Nfs41Session session = Nfs41Session.connect(client, callback, v41);
            return new Nfs41Mount(client, callback, session);
        }
        catch (final Nfs4Exception ex)
        {
            client.close();
            throw Nfs41Mount.error(ex);
        }
        catch (final IOException | RuntimeException ex)
        {
            client.close();
            throw ex;
        }
    }
}
