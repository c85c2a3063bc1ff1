package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.sunrpc.RpcException;
import io.jrxe.ulp.sunrpc.RpcTcpClient;
import io.jrxe.ulp.sunrpc.RpcTcpOptions;
import io.jrxe.ulp.sunrpc.Rpcbind;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The MOUNT version 3 client (RFC 1813 Appendix I): MNT turns an export path into its root file handle, UMNT tells
 * the server the client is done. MOUNT runs over TCP only here (never over RDMA); {@link #connect} finds mountd's
 * TCP port with the port mapper, as {@code mount.nfs} does.
 * <pre>
 *   MNT:  dirpath: string&lt;1024&gt;  -&gt;  | mountstat3 | fhandle3: opaque&lt;64&gt; | auth_flavors: int&lt;&gt; |
 *   UMNT: dirpath                -&gt;  void
 * </pre>
 * Control path: allocates. One thread at a time.
 */
public final class MountClient implements AutoCloseable
{
    private static final String MNT = "MOUNT3 MNT";
    private static final String UMNT = "MOUNT3 UMNT";
    private static final String NULL = "MOUNT3 NULL";

    private final RpcClient rpc;
    private final RpcCall call = new RpcCall();

    /**
     * @param rpc connected to mountd
     */
    public MountClient(final RpcClient rpc)
    {
        this.rpc = rpc;
    }

    /**
     * Ask the port mapper on a host for mountd's TCP port and connect to it.
     *
     * @param host the NFS server
     * @param pmapPort the port mapper's port ({@link Rpcbind#PMAP_PORT}, another in tests)
     * @param auth the credential (AUTH_SYS: mountd checks the client's address, some also the credential)
     * @param options connection settings (reserved source port: servers exporting {@code secure} want one)
     * @return a connected client; close it when done
     * @throws IOException when the port mapper or mountd cannot be reached, or MOUNT v3 over TCP is not registered
     */
    public static MountClient connect(final InetAddress host, final int pmapPort, final RpcAuth auth,
        final RpcTcpOptions options) throws IOException
    {
        final int port = Rpcbind.getTcpPort(host, pmapPort, Mount3.PROGRAM, Mount3.VERSION, options);
        return new MountClient(RpcTcpClient.connect(new InetSocketAddress(host, port), auth, options));
    }

    private void begin(final int procedure, final String operation) throws RpcException
    {
        final int rc = rpc.prepare(call, Mount3.PROGRAM, Mount3.VERSION, procedure);
        if (rc < 0)
        {
            throw RpcException.failed(operation, -rc);
        }
    }

    /**
     * MOUNTPROC3_NULL.
     *
     * @throws IOException when mountd does not answer
     */
    public void nullProc() throws IOException
    {
        begin(Mount3.MOUNTPROC3_NULL, NULL);
        try
        {
            call.replyLimit(Nfs3Sizes.REPLY_HEADER);
            rpc.execute(call);
            RpcException.check(call, NULL);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * MOUNTPROC3_MNT.
     *
     * @param path the export ("/srv/nfs")
     * @return its root handle and auth flavors
     * @throws IOException a {@link MountException} (MNT3ERR_NOENT, MNT3ERR_ACCES ...) or an RPC failure
     */
    public MountResult mnt(final String path) throws IOException
    {
        begin(Mount3.MOUNTPROC3_MNT, MNT);
        try
        {
            call.args().putUtf8(path);
            call.replyLimit(Mount3.MNT_REPLY);
            rpc.execute(call);
            RpcException.check(call, MNT);
            final XdrDecoder r = call.results();
            final int status = r.getInt();
            if (Mount3.MNT3_OK != status)
            {
                throw new MountException(MNT, path, status);
            }
            final FileHandle3 root = new FileHandle3().decode(r);
            final int count = r.getInt();
            if (count < 0 || count > Mount3.MAX_FLAVORS)
            {
                throw RpcException.malformed(MNT, count + " auth flavors");
            }
            final int[] flavors = new int[count];
            for (int i = 0; i < count; i++)
            {
                flavors[i] = r.getInt();
            }
            return new MountResult(root, flavors);
        }
        catch (final XdrException ex)
        {
            throw RpcException.malformed(MNT, ex.getMessage());
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * MOUNTPROC3_UMNT: the server forgets this client's mount of the path (advisory: handles stay valid).
     *
     * @param path the export
     * @throws IOException an RPC failure
     */
    public void umnt(final String path) throws IOException
    {
        begin(Mount3.MOUNTPROC3_UMNT, UMNT);
        try
        {
            call.args().putUtf8(path);
            call.replyLimit(Nfs3Sizes.REPLY_HEADER);
            rpc.execute(call);
            RpcException.check(call, UMNT);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /** Close the RPC client. */
    @Override
    public void close()
    {
        rpc.close();
    }
}
