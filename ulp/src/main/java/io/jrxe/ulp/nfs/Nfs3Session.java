package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.sunrpc.RpcTcpClient;
import io.jrxe.ulp.sunrpc.RpcTcpOptions;
import io.jrxe.ulp.sunrpc.Rpcbind;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An NFSv3 mount as a CLI uses it: an {@link RpcClient} to the server's NFS program (RDMA or TCP) and the export's
 * root handle, with operations on paths relative to the export. Whole-file transfers keep
 * {@link Nfs3SessionOptions#outstanding()} READs or WRITEs in flight on the calling thread, hand the bytes over in
 * file order (so the caller can hash them) and report progress.
 * <pre>
 *   MountClient.connect(host, 111, auth, tcp).mnt("/export") -&gt; root handle   (or Nfs3Session.mountOverTcp)
 *   new Nfs3Session(rpcClient, root, options)                FSINFO: rsize and wsize
 *   lookup("a/b") getattr list create remove                 LOOKUP walks the path from the root
 *   readFile("a/b", sink, progress)                          GETATTR, then READs of rsize, in order to the sink
 *   writeFile("a/c", source, length, progress)               CREATE UNCHECKED size 0, UNSTABLE WRITEs of wsize,
 *                                                            COMMIT; sent again if the write verifier changes
 * </pre>
 * Errors name the path: {@code NFS3 LOOKUP "a/b": NFS3ERR_NOENT (no such file or directory)}. One thread at a time.
 */
public final class Nfs3Session implements Closeable
{
    private final Nfs3Client nfs;
    private final FileHandle3 root;
    private final Nfs3SessionOptions options;
    private final FsInfo fsinfo = new FsInfo();
    private final LookupResult lookup = new LookupResult();
    private final CreateResult created = new CreateResult();
    private final WccData wcc = new WccData();
    private final Fattr3 attributes = new Fattr3();
    private final DirectoryPage page = new DirectoryPage();
    private final int rsize;
    private final int wsize;
    private final Unmount unmount;
    private ReadPipeline reader;
    private WritePipeline writer;

    /** What closing a session made by {@link #mountOverTcp} also does: UMNT. */
    private static final class Unmount
    {
        final InetAddress host;
        final int pmapPort;
        final String export;
        final RpcAuth auth;
        final RpcTcpOptions options;

        Unmount(final InetAddress host, final int pmapPort, final String export, final RpcAuth auth,
            final RpcTcpOptions options)
        {
            this.host = host;
            this.pmapPort = pmapPort;
            this.export = export;
            this.auth = auth;
            this.options = options;
        }
    }

    /**
     * A session on a mounted export; asks FSINFO for the transfer sizes.
     *
     * @param rpc the RPC client to the NFS program (owned by the session from now on: closed with it)
     * @param root the export's root handle (from MNT)
     * @param options sizes and outstanding calls
     * @throws IOException when FSINFO fails
     */
    public Nfs3Session(final RpcClient rpc, final FileHandle3 root, final Nfs3SessionOptions options)
        throws IOException
    {
        this(rpc, root, options, null);
    }

    private Nfs3Session(final RpcClient rpc, final FileHandle3 root, final Nfs3SessionOptions options,
        final Unmount unmount) throws IOException
    {
        this.nfs = new Nfs3Client(rpc);
        this.root = root.copy();
        this.options = options;
        this.unmount = unmount;
        nfs.fsinfo(this.root, fsinfo);
        this.rsize = transferSize(options.rsize(), fsinfo.rtpref(), fsinfo.rtmax());
        this.wsize = transferSize(options.wsize(), fsinfo.wtpref(), fsinfo.wtmax());
    }

    private static int transferSize(final int asked, final int preferred, final int max)
    {
        final int limit = max <= 0 ? Nfs3SessionOptions.MAX_IO : max;
        final int size = asked > 0 ? asked : preferred > 0 ? Math.min(preferred, Nfs3SessionOptions.MAX_IO) : 32768;
        return Math.max(1, Math.min(size, limit));
    }

    /**
     * Mount an export over TCP the way {@code mount.nfs} does: MOUNT v3 through the port mapper, then NFS v3 over
     * TCP. Closing the session sends UMNT.
     *
     * @param host the server
     * @param export the export's path
     * @param auth the credential (AUTH_SYS or AUTH_NONE; it must be one the export accepts)
     * @param tcp connection settings for MOUNT and NFS (maxCalls at least options.outstanding() + 1)
     * @param nfsPort NFS's TCP port, or 0 to ask the port mapper
     * @param pmapPort the port mapper's port ({@link Rpcbind#PMAP_PORT})
     * @param options session settings
     * @return the session
     * @throws IOException when MOUNT, the port mapper or NFS fails, or the export refuses the credential's flavor
     */
    public static Nfs3Session mountOverTcp(final InetAddress host, final String export, final RpcAuth auth,
        final RpcTcpOptions tcp, final int nfsPort, final int pmapPort, final Nfs3SessionOptions options)
        throws IOException
    {
        final MountResult mounted;
        try (MountClient mount = MountClient.connect(host, pmapPort, auth, tcp))
        {
            mounted = mount.mnt(export);
        }
        if (!mounted.accepts(auth.flavor()))
        {
            throw new IOException("MOUNT3 MNT \"" + export + "\": the export accepts auth flavors " +
                Arrays.toString(mounted.flavors()) + ", not " + auth + " (flavor " + auth.flavor() + ")");
        }
        final int port = nfsPort > 0 ? nfsPort : Rpcbind.getTcpPort(host, pmapPort, Nfs3.PROGRAM, Nfs3.VERSION, tcp);
        final RpcTcpClient rpc = RpcTcpClient.connect(new InetSocketAddress(host, port), auth, tcp);
        try
        {
            return new Nfs3Session(rpc, mounted.root(), options, new Unmount(host, pmapPort, export, auth, tcp));
        }
        catch (final IOException | RuntimeException ex)
        {
            rpc.close();
            throw ex;
        }
    }

    /** @return the protocol client (for procedures the session does not wrap) */
    public Nfs3Client client()
    {
        return nfs;
    }

    /** @return the export's root handle */
    public FileHandle3 root()
    {
        return root;
    }

    /** @return what FSINFO said */
    public FsInfo fsinfo()
    {
        return fsinfo;
    }

    /** @return bytes per READ */
    public int rsize()
    {
        return rsize;
    }

    /** @return bytes per WRITE */
    public int wsize()
    {
        return wsize;
    }

    // ---- paths ------------------------------------------------------------------------------------------------

    private FileHandle3 walk(final List<String> names, final String path) throws IOException
    {
        final FileHandle3 at = root.copy();
        final StringBuilder walked = new StringBuilder();
        for (final String name : names)
        {
            walked.append(walked.length() == 0 ? "" : "/").append(name);
            try
            {
                nfs.lookup(at, name, lookup);
            }
            catch (final NfsException ex)
            {
                throw ex.withPath(walked.toString());
            }
            at.set(lookup.handle());
        }
        return at;
    }

    /**
     * @param path relative to the export ("" or "/" is the export's root)
     * @return the handle (a new object)
     * @throws IOException NFS3ERR_NOENT naming the first missing part, or another failure
     */
    public FileHandle3 lookup(final String path) throws IOException
    {
        return walk(Nfs3Path.names(path), path);
    }

    /**
     * @param path relative to the export
     * @return the attributes (a new object)
     * @throws IOException an NFS or RPC failure
     */
    public Fattr3 getattr(final String path) throws IOException
    {
        final FileHandle3 fh = lookup(path);
        final Fattr3 out = new Fattr3();
        try
        {
            nfs.getattr(fh, out);
        }
        catch (final NfsException ex)
        {
            throw ex.withPath(path);
        }
        return out;
    }

    /**
     * List a directory with READDIRPLUS, page after page (cookie and cookie verifier, RFC 1813 §3.3.17); "." and
     * ".." are left out. A directory that changes under the listing (NFS3ERR_BAD_COOKIE) is listed again from the
     * start, twice at most.
     *
     * @param path the directory, relative to the export
     * @return its entries in the server's order
     * @throws IOException NFS3ERR_NOTDIR, NFS3ERR_NOENT ..., or an RPC failure
     */
    public List<Nfs3DirEntry> list(final String path) throws IOException
    {
        final FileHandle3 dir = lookup(path);
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                return listOnce(dir);
            }
            catch (final NfsException ex)
            {
                if (Nfs3Status.NFS3ERR_BAD_COOKIE != ex.status() || attempt == 2)
                {
                    throw ex.withPath(path);
                }
            }
        }
    }

    private List<Nfs3DirEntry> listOnce(final FileHandle3 dir) throws IOException
    {
        final List<Nfs3DirEntry> entries = new ArrayList<>();
        long cookie = 0;
        long verifier = 0;
        do
        {
            nfs.readdirplus(dir, cookie, verifier, options.dircount(), options.maxcount(), page);
            for (int i = 0; i < page.count(); i++)
            {
                final DirEntryPlus e = page.entry(i);
                cookie = e.cookie();
                if (".".equals(e.name()) || "..".equals(e.name()))
                {
                    continue;
                }
                final boolean known = e.attributes().present();
                final Fattr3 a = e.attributes().attributes();
                entries.add(new Nfs3DirEntry(e.name(), e.fileid(), known ? a.type() : 0, known ? a.size() : -1,
                    known ? a.mode() : 0, known ? a.mtimeSeconds() : 0, e.handlePresent() ? e.handle().copy() : null));
            }
            if (0 == page.count() && !page.eof())
            {
                throw new IOException(Nfs3Client.operation(Nfs3.NFSPROC3_READDIRPLUS) +
                    ": the server returned no entries and no eof (maxcount " + options.maxcount() + " too small?)");
            }
            verifier = page.cookieVerifier();
        }
        while (!page.eof());
        return entries;
    }

    /**
     * Create a regular file.
     *
     * @param path relative to the export
     * @param how {@link Nfs3#UNCHECKED}, {@link Nfs3#GUARDED} or {@link Nfs3#EXCLUSIVE}
     * @param mode mode bits
     * @return its handle (a new object)
     * @throws IOException NFS3ERR_EXIST (GUARDED), or another failure
     */
    public FileHandle3 create(final String path, final int how, final int mode) throws IOException
    {
        final FileHandle3 dir = walk(Nfs3Path.parent(path), path);
        final long verifier = Nfs3.EXCLUSIVE == how ? System.nanoTime() ^ (long)path.hashCode() << 32 : 0;
        try
        {
            nfs.create(dir, Nfs3Path.leaf(path), how, new Sattr3().mode(mode), verifier, created);
        }
        catch (final NfsException ex)
        {
            throw ex.withPath(path);
        }
        return created.handle().copy();
    }

    /**
     * Remove a file.
     *
     * @param path relative to the export
     * @throws IOException NFS3ERR_NOENT, NFS3ERR_ISDIR ..., or an RPC failure
     */
    public void remove(final String path) throws IOException
    {
        final FileHandle3 dir = walk(Nfs3Path.parent(path), path);
        try
        {
            nfs.remove(dir, Nfs3Path.leaf(path), wcc);
        }
        catch (final NfsException ex)
        {
            throw ex.withPath(path);
        }
    }

    // ---- transfers --------------------------------------------------------------------------------------------

    /**
     * Read a whole remote file into a sink, in order, with {@link Nfs3SessionOptions#outstanding()} READs of
     * {@link #rsize()} outstanding. The size is the file's when the transfer starts.
     *
     * @param path relative to the export
     * @param sink where the bytes go (a channel, a stream, a hash)
     * @param progress told after each chunk (may be {@link TransferProgress#NONE})
     * @return bytes read
     * @throws IOException an NFS or RPC failure, or the sink's
     */
    public long readFile(final String path, final TransferSink sink, final TransferProgress progress)
        throws IOException
    {
        final FileHandle3 fh = lookup(path);
        try
        {
            nfs.getattr(fh, attributes);
            if (Nfs3.NF3REG != attributes.type())
            {
                throw new NfsException(Nfs3Client.operation(Nfs3.NFSPROC3_READ), Nfs3.NF3DIR == attributes.type() ?
                    Nfs3Status.NFS3ERR_ISDIR : Nfs3Status.NFS3ERR_INVAL, path);
            }
            if (null == reader)
            {
                reader = new ReadPipeline(nfs, new TransferSlots(options.outstanding(), rsize, options.buffers()));
            }
            return reader.run(fh, attributes.size(), sink, progress);
        }
        catch (final NfsException ex)
        {
            throw null == ex.path() ? ex.withPath(path) : ex;
        }
    }

    /**
     * Write a whole local file to a remote path: CREATE UNCHECKED with size 0 (created or truncated, mode
     * {@link Nfs3SessionOptions#fileMode()}), {@link Nfs3SessionOptions#outstanding()} UNSTABLE WRITEs of
     * {@link #wsize()}, then COMMIT. When the write verifier changes (the server restarted) the file is sent again
     * from the start, {@link Nfs3SessionOptions#maxResends()} times at most.
     *
     * @param path relative to the export
     * @param source the bytes (re-readable from offset 0 for a resend)
     * @param length bytes to write
     * @param progress told after each chunk and at a restart (may be {@link TransferProgress#NONE})
     * @return the remote file's handle (a new object)
     * @throws IOException an NFS or RPC failure, the source's, or {@link WriteVerifierChangedException}
     */
    public FileHandle3 writeFile(final String path, final TransferSource source, final long length,
        final TransferProgress progress) throws IOException
    {
        final FileHandle3 dir = walk(Nfs3Path.parent(path), path);
        try
        {
            nfs.create(dir, Nfs3Path.leaf(path), Nfs3.UNCHECKED, new Sattr3().mode(options.fileMode()).size(0), 0,
                created);
            final FileHandle3 fh = created.handle().copy();
            if (null == writer)
            {
                writer = new WritePipeline(nfs, new TransferSlots(options.outstanding(), wsize, options.buffers()));
            }
            writer.run(fh, source, length, options.maxResends(), progress);
            return fh;
        }
        catch (final NfsException ex)
        {
            throw null == ex.path() ? ex.withPath(path) : ex;
        }
    }

    /** @return times the last writeFile sent the file again because the server restarted */
    public int lastResends()
    {
        return null == writer ? 0 : writer.resends();
    }

    /**
     * Close the RPC client; a session from {@link #mountOverTcp} also sends UMNT.
     *
     * @throws IOException when UMNT fails (the NFS client is closed anyway)
     */
    @Override
    public void close() throws IOException
    {
        nfs.rpc().close();
        if (null != unmount)
        {
            try (MountClient mount = MountClient.connect(unmount.host, unmount.pmapPort, unmount.auth,
                unmount.options))
            {
                mount.umnt(unmount.export);
            }
        }
    }
}
