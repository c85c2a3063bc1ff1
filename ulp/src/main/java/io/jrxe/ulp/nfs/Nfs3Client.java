package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.sunrpc.RpcException;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

import java.io.IOException;

/**
 * NFS version 3 procedures (RFC 1813 §3.3) over any {@link RpcClient}: RDMA or TCP. Each result decodes into a
 * reusable holder; an nfsstat3 other than NFS3_OK throws {@link NfsException}, an RPC that did not run throws
 * {@link RpcException}, results that do not decode throw {@link RpcException} too ("malformed reply").
 * <p>
 * Synchronous calls share one internal {@link RpcCall}. Bulk transfers have an asynchronous form so one thread keeps
 * several READs or WRITEs outstanding, each on a caller-owned call:
 * <pre>
 *   startRead(call, fh, offset, count, dst)     prepare, encode, readPayloadTo(dst), submit
 *   ... progress() until call.isDone() (or the call's listener) ...
 *   finishRead(call, result)                    check, decode, readPayload: the data is at dst; release
 * </pre>
 * For the RDMA transport (RFC 8267 §2.2, DDP-eligible items): a WRITE's data goes by {@link RpcCall#payload} and a
 * READ's by {@link RpcCall#readPayloadTo}/{@link RpcCall#readPayload}; every call sets
 * {@link RpcCall#replyLimit(int)} from {@link Nfs3Sizes}. The asynchronous forms allocate nothing; the synchronous
 * control-path calls allocate only for names. One thread at a time, as its {@link RpcClient}.
 */
public final class Nfs3Client
{
    private static final String[] OPERATIONS = new String[Nfs3.NFSPROC3_COMMIT + 1];

    static
    {
        for (int i = 0; i < OPERATIONS.length; i++)
        {
            OPERATIONS[i] = "NFS3 " + Nfs3.procedureName(i);
        }
    }

    private final RpcClient rpc;
    private final RpcCall call = new RpcCall();
    private final LookupResult lookupScratch = new LookupResult();
    private final WccData wccScratch = new WccData();

    /**
     * @param rpc the RPC client (connected to the server's NFS program)
     */
    public Nfs3Client(final RpcClient rpc)
    {
        this.rpc = rpc;
    }

    /** @return the RPC client */
    public RpcClient rpc()
    {
        return rpc;
    }

    /**
     * @param procedure an NFSPROC3_ number
     * @return "NFS3 " and its name, for messages
     */
    public static String operation(final int procedure)
    {
        return procedure >= 0 && procedure < OPERATIONS.length ? OPERATIONS[procedure] :
            "NFS3 " + Nfs3.procedureName(procedure);
    }

    // ---- synchronous plumbing ---------------------------------------------------------------------------------

    private XdrEncoder begin(final int procedure, final int replyLimit) throws RpcException
    {
        final int rc = rpc.prepare(call, Nfs3.PROGRAM, Nfs3.VERSION, procedure);
        if (rc < 0)
        {
            throw RpcException.failed(operation(procedure), -rc);
        }
        call.replyLimit(replyLimit);
        return call.args();
    }

    private XdrDecoder run(final int procedure) throws RpcException
    {
        rpc.execute(call);
        RpcException.check(call, operation(procedure));
        return call.results();
    }

    private static void check(final int status, final int procedure) throws NfsException
    {
        if (Nfs3Status.NFS3_OK != status)
        {
            throw new NfsException(operation(procedure), status, null);
        }
    }

    private static IOException xdrFailure(final int procedure, final XdrException ex)
    {
        return ex.encoding() ? new IOException(operation(procedure) + ": the arguments do not fit the call: " +
            ex.getMessage(), ex) : RpcException.malformed(operation(procedure), ex.getMessage());
    }

    private static void diropargs(final XdrEncoder args, final FileHandle3 dir, final String name)
    {
        dir.encode(args);
        args.putUtf8(name);
    }

    // ---- procedures -------------------------------------------------------------------------------------------

    /**
     * NFSPROC3_NULL: a ping.
     *
     * @throws IOException when the server does not answer
     */
    public void nullProc() throws IOException
    {
        begin(Nfs3.NFSPROC3_NULL, Nfs3Sizes.NULL_REPLY);
        try
        {
            run(Nfs3.NFSPROC3_NULL);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_GETATTR (RFC 1813 §3.3.1).
     *
     * @param fh the object
     * @param out its attributes
     * @throws IOException NFS3ERR_STALE and friends, or an RPC failure
     */
    public void getattr(final FileHandle3 fh, final Fattr3 out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_GETATTR;
        final XdrEncoder args = begin(proc, Nfs3Sizes.GETATTR_REPLY);
        try
        {
            fh.encode(args);
            final XdrDecoder r = run(proc);
            check(r.getInt(), proc);
            out.decode(r);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_SETATTR without a guard (RFC 1813 §3.3.2).
     *
     * @param fh the object
     * @param attributes what to set
     * @param out the object's wcc_data
     * @throws IOException an NFS or RPC failure
     */
    public void setattr(final FileHandle3 fh, final Sattr3 attributes, final WccData out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_SETATTR;
        final XdrEncoder args = begin(proc, Nfs3Sizes.SETATTR_REPLY);
        try
        {
            fh.encode(args);
            attributes.encode(args);
            args.putBoolean(false); // sattrguard3: no ctime check
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            out.decode(r);
            check(status, proc);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_LOOKUP (RFC 1813 §3.3.3).
     *
     * @param dir the directory
     * @param name a name in it (not a path)
     * @param out the object's handle and attributes
     * @throws IOException NFS3ERR_NOENT, NFS3ERR_NOTDIR, NFS3ERR_STALE ..., or an RPC failure
     */
    public void lookup(final FileHandle3 dir, final String name, final LookupResult out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_LOOKUP;
        final XdrEncoder args = begin(proc, Nfs3Sizes.LOOKUP_REPLY);
        try
        {
            diropargs(args, dir, name);
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            if (Nfs3Status.NFS3_OK != status)
            {
                out.dirAttributes().decode(r);
                throw new NfsException(operation(proc), status, name);
            }
            out.handle().decode(r);
            out.attributes().decode(r);
            out.dirAttributes().decode(r);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_ACCESS (RFC 1813 §3.3.4).
     *
     * @param fh the object
     * @param access ACCESS3_ bits asked about
     * @param attributes the object's attributes, out
     * @return the bits granted
     * @throws IOException an NFS or RPC failure
     */
    public int access(final FileHandle3 fh, final int access, final PostOpAttr attributes) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_ACCESS;
        final XdrEncoder args = begin(proc, Nfs3Sizes.ACCESS_REPLY);
        try
        {
            fh.encode(args);
            args.putInt(access);
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            attributes.decode(r);
            check(status, proc);
            return r.getInt();
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_READ, synchronous (RFC 1813 §3.3.6).
     *
     * @param fh the file
     * @param offset where to read
     * @param count bytes asked for
     * @param dstAddress where the data goes (direct memory of at least count bytes; registered for RDMA)
     * @param out count, eof, attributes
     * @throws IOException an NFS or RPC failure
     */
    public void read(final FileHandle3 fh, final long offset, final int count, final long dstAddress,
        final ReadResult out) throws IOException
    {
        final int rc = startRead(call, fh, offset, count, dstAddress);
        if (rc < 0)
        {
            throw RpcException.failed(operation(Nfs3.NFSPROC3_READ), -rc);
        }
        await(call);
        finishRead(call, out);
    }

    /**
     * NFSPROC3_WRITE, synchronous (RFC 1813 §3.3.7).
     *
     * @param fh the file
     * @param offset where to write
     * @param count bytes
     * @param stable {@link Nfs3#UNSTABLE}, {@link Nfs3#DATA_SYNC} or {@link Nfs3#FILE_SYNC}
     * @param srcAddress the data (direct memory; registered for RDMA)
     * @param out count, committed, verifier
     * @throws IOException an NFS or RPC failure
     */
    public void write(final FileHandle3 fh, final long offset, final int count, final int stable,
        final long srcAddress, final WriteResult out) throws IOException
    {
        final int rc = startWrite(call, fh, offset, count, stable, srcAddress);
        if (rc < 0)
        {
            throw RpcException.failed(operation(Nfs3.NFSPROC3_WRITE), -rc);
        }
        await(call);
        finishWrite(call, out);
    }

    private void await(final RpcCall c)
    {
        rpc.await(c);
    }

    /**
     * NFSPROC3_CREATE (RFC 1813 §3.3.8). UNCHECKED creates or opens (a size in the attributes truncates);
     * GUARDED fails with NFS3ERR_EXIST when the name exists; EXCLUSIVE creates at most once however often the call
     * is retransmitted (the server keeps the verifier) and then, as §3.3.8 asks, sets the attributes by SETATTR.
     * When the server leaves the handle out of the reply it is looked up.
     *
     * @param dir the directory
     * @param name the new file's name
     * @param how {@link Nfs3#UNCHECKED}, {@link Nfs3#GUARDED} or {@link Nfs3#EXCLUSIVE}
     * @param attributes attributes to set (may set nothing)
     * @param verifier EXCLUSIVE's createverf3, unique per create (ignored otherwise)
     * @param out the new file's handle and attributes
     * @throws IOException NFS3ERR_EXIST (GUARDED, or EXCLUSIVE with another verifier), or another NFS or RPC failure
     */
    public void create(final FileHandle3 dir, final String name, final int how, final Sattr3 attributes,
        final long verifier, final CreateResult out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_CREATE;
        if (how < Nfs3.UNCHECKED || how > Nfs3.EXCLUSIVE)
        {
            throw new IllegalArgumentException("createmode3 " + how);
        }
        final XdrEncoder args = begin(proc, Nfs3Sizes.CREATE_REPLY);
        final boolean handlePresent;
        try
        {
            diropargs(args, dir, name);
            args.putInt(how);
            if (Nfs3.EXCLUSIVE == how)
            {
                args.putHyper(verifier);
            }
            else
            {
                attributes.encode(args);
            }
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            if (Nfs3Status.NFS3_OK != status)
            {
                out.dirWcc().decode(r);
                throw new NfsException(operation(proc), status, name);
            }
            handlePresent = r.getBoolean();
            if (handlePresent)
            {
                out.handle().decode(r);
            }
            out.attributes().decode(r);
            out.dirWcc().decode(r);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
        if (!handlePresent)
        {
            lookup(dir, name, lookupScratch);
            out.handle().set(lookupScratch.handle());
        }
        if (Nfs3.EXCLUSIVE == how && attributes.any())
        {
            setattr(out.handle(), attributes, wccScratch);
            if (wccScratch.after().present())
            {
                out.attributes().attributes().set(wccScratch.after().attributes());
            }
        }
    }

    /**
     * NFSPROC3_REMOVE (RFC 1813 §3.3.12).
     *
     * @param dir the directory
     * @param name the name to remove
     * @param out the directory's wcc_data
     * @throws IOException NFS3ERR_NOENT, NFS3ERR_ISDIR ..., or an RPC failure
     */
    public void remove(final FileHandle3 dir, final String name, final WccData out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_REMOVE;
        final XdrEncoder args = begin(proc, Nfs3Sizes.REMOVE_REPLY);
        try
        {
            diropargs(args, dir, name);
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            out.decode(r);
            if (Nfs3Status.NFS3_OK != status)
            {
                throw new NfsException(operation(proc), status, name);
            }
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_READDIRPLUS (RFC 1813 §3.3.17): one page of entries with their attributes and handles. Start with
     * cookie 0 and verifier 0; continue with the last entry's cookie and the page's verifier until
     * {@link DirectoryPage#eof()}.
     *
     * @param dir the directory
     * @param cookie where to continue (0: the beginning)
     * @param cookieVerifier the verifier of the previous page (0 with cookie 0)
     * @param dircount the most bytes of directory information (fileid, name, cookie) the server should return
     * @param maxcount the most bytes of the whole READDIRPLUS3resok
     * @param out the page
     * @throws IOException NFS3ERR_BAD_COOKIE (the directory changed: start again), NFS3ERR_TOOSMALL, NFS3ERR_NOTDIR,
     *         or another failure
     */
    public void readdirplus(final FileHandle3 dir, final long cookie, final long cookieVerifier, final int dircount,
        final int maxcount, final DirectoryPage out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_READDIRPLUS;
        final XdrEncoder args = begin(proc, Nfs3Sizes.readdirplusReply(maxcount));
        try
        {
            dir.encode(args);
            args.putHyper(cookie).putHyper(cookieVerifier).putInt(dircount).putInt(maxcount);
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            out.dirAttributes().decode(r);
            check(status, proc);
            out.decodeBody(r);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_FSINFO (RFC 1813 §3.3.19).
     *
     * @param root the file system's root (the handle MOUNT returned)
     * @param out the transfer sizes and properties
     * @throws IOException an NFS or RPC failure
     */
    public void fsinfo(final FileHandle3 root, final FsInfo out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_FSINFO;
        final XdrEncoder args = begin(proc, Nfs3Sizes.FSINFO_REPLY);
        try
        {
            root.encode(args);
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            out.attributes().decode(r);
            check(status, proc);
            out.decodeBody(r);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    /**
     * NFSPROC3_COMMIT (RFC 1813 §3.3.21): make UNSTABLE writes stable. The caller compares the verifier with the
     * WRITE replies' ({@link WriteVerifier}): a different one means the server restarted and lost them.
     *
     * @param fh the file
     * @param offset first byte to commit
     * @param count bytes (0: to the end of the file)
     * @param out the verifier and wcc_data
     * @throws IOException an NFS or RPC failure
     */
    public void commit(final FileHandle3 fh, final long offset, final int count, final CommitResult out)
        throws IOException
    {
        final int proc = Nfs3.NFSPROC3_COMMIT;
        final XdrEncoder args = begin(proc, Nfs3Sizes.COMMIT_REPLY);
        try
        {
            fh.encode(args);
            args.putHyper(offset).putInt(count);
            final XdrDecoder r = run(proc);
            final int status = r.getInt();
            out.wcc().decode(r);
            check(status, proc);
            out.set(r.getHyper());
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(call);
        }
    }

    // ---- asynchronous bulk transfers ------------------------------------------------------------------------

    /**
     * Send a READ without waiting (RFC 1813 §3.3.6). The data goes to {@code dstAddress}: the RDMA transport
     * offers it as a Write chunk, an inline reply is copied there by {@link #finishRead}.
     * <pre>
     *   READ3args: | file: nfs_fh3 | offset (8) | count (4) |
     * </pre>
     *
     * @param c an idle call of the caller's
     * @param fh the file
     * @param offset where to read
     * @param count bytes asked for
     * @param dstAddress where the data goes (direct memory, at least count bytes, alive until finishRead)
     * @return 0: sent (or already failed: {@link #finishRead} says); a negative errno when the call could not be
     *         prepared (-ENOMEM: every transport slot is busy; the call stays idle)
     */
    public int startRead(final RpcCall c, final FileHandle3 fh, final long offset, final int count,
        final long dstAddress)
    {
        final int rc = rpc.prepare(c, Nfs3.PROGRAM, Nfs3.VERSION, Nfs3.NFSPROC3_READ);
        if (rc < 0)
        {
            return rc;
        }
        final XdrEncoder args = c.args();
        fh.encode(args);
        args.putHyper(offset).putInt(count);
        c.replyLimit(Nfs3Sizes.READ_REPLY);
        c.readPayloadTo(dstAddress, count);
        rpc.submit(c);
        return 0;
    }

    /**
     * Decode a done READ and release its call.
     * <pre>
     *   READ3res: | status | file_attributes: post_op_attr | count (4) | eof (bool) | data: length (4) [bytes] |
     *             (the bytes inline, or in the Write chunk with only the length inline, RFC 8267 §4.1)
     * </pre>
     *
     * @param c a done call started by {@link #startRead}
     * @param out count, eof, attributes
     * @throws IOException an NFS error (NFS3ERR_STALE ...), an RPC failure, or a reply whose data length is not
     *         its count or exceeds what was asked
     */
    public void finishRead(final RpcCall c, final ReadResult out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_READ;
        try
        {
            RpcException.check(c, OPERATIONS[proc]);
            final XdrDecoder r = c.results();
            final int status = r.getInt();
            out.attributes().decode(r);
            check(status, proc);
            final int count = r.getInt();
            final boolean eof = r.getBoolean();
            final int length = r.getInt();
            if (length != count || count < 0 || count > c.readPayloadLength())
            {
                throw RpcException.malformed(OPERATIONS[proc], "count " + count + ", data of " + length +
                    " bytes, asked for " + c.readPayloadLength());
            }
            c.readPayload(length);
            out.set(count, eof);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(c);
        }
    }

    /**
     * Send a WRITE without waiting (RFC 1813 §3.3.7). The data stays in the caller's memory until the call is done:
     * the RDMA transport sends it inline or offers it as a Read chunk, TCP copies it onto the socket.
     * <pre>
     *   WRITE3args: | file: nfs_fh3 | offset (8) | count (4) | stable (4) | data: length (4) [bytes, pad] |
     * </pre>
     *
     * @param c an idle call of the caller's
     * @param fh the file
     * @param offset where to write
     * @param count bytes
     * @param stable {@link Nfs3#UNSTABLE}, {@link Nfs3#DATA_SYNC} or {@link Nfs3#FILE_SYNC}
     * @param srcAddress the data (direct memory, alive until finishWrite)
     * @return 0: sent (or already failed: {@link #finishWrite} says); a negative errno when the call could not be
     *         prepared (the call stays idle)
     */
    public int startWrite(final RpcCall c, final FileHandle3 fh, final long offset, final int count, final int stable,
        final long srcAddress)
    {
        final int rc = rpc.prepare(c, Nfs3.PROGRAM, Nfs3.VERSION, Nfs3.NFSPROC3_WRITE);
        if (rc < 0)
        {
            return rc;
        }
        final XdrEncoder args = c.args();
        fh.encode(args);
        args.putHyper(offset).putInt(count).putInt(stable).putInt(count);
        c.payload(srcAddress, count);
        c.replyLimit(Nfs3Sizes.WRITE_REPLY);
        rpc.submit(c);
        return 0;
    }

    /**
     * Decode a done WRITE and release its call.
     * <pre>
     *   WRITE3res: | status | file_wcc: wcc_data | count (4) | committed (4) | verf (8) |
     * </pre>
     *
     * @param c a done call started by {@link #startWrite}
     * @param out count, committed, verifier
     * @throws IOException an NFS error (NFS3ERR_NOSPC, NFS3ERR_STALE ...) or an RPC failure
     */
    public void finishWrite(final RpcCall c, final WriteResult out) throws IOException
    {
        final int proc = Nfs3.NFSPROC3_WRITE;
        try
        {
            RpcException.check(c, OPERATIONS[proc]);
            final XdrDecoder r = c.results();
            final int status = r.getInt();
            out.wcc().decode(r);
            check(status, proc);
            final int count = r.getInt();
            final int committed = r.getInt();
            final long verifier = r.getHyper();
            if (count < 0 || count > c.payloadLength() || committed < Nfs3.UNSTABLE || committed > Nfs3.FILE_SYNC)
            {
                throw RpcException.malformed(OPERATIONS[proc], "count " + count + " of " + c.payloadLength() +
                    ", committed " + committed);
            }
            out.set(count, committed, verifier);
        }
        catch (final XdrException ex)
        {
            throw xdrFailure(proc, ex);
        }
        finally
        {
            rpc.release(c);
        }
    }

    /**
     * Drive the RPC client once (replies, timeouts), for callers with calls outstanding.
     *
     * @return work done
     */
    public int progress()
    {
        return rpc.progress();
    }
}
