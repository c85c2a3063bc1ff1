package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.Xdr;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

import java.util.HashMap;
import java.util.Map;

/**
 * An in-memory NFSv3 server program (RFC 1813) for tests, with real semantics for what the client uses: handles
 * that go stale when their file is removed, attributes, sizes, NFS3ERR_NOENT / EXIST / NOTDIR / ISDIR / BADHANDLE,
 * CREATE's three modes (§3.3.8), READDIRPLUS with cookies, a cookie verifier and maxcount (§3.3.17), UNSTABLE
 * writes lost by a simulated restart that changes the write verifier (§3.3.7, §3.3.21). Knobs make it misbehave
 * as servers may: short reads and writes, a restart after N writes, CREATE replies without a handle.
 * <pre>
 *   handle: | "JRXE" | fsid (4) | fileid (8) |      16 bytes
 * </pre>
 * Thread safe (one lock), so a test may look at the files while a TCP server thread serves calls.
 */
final class MemoryNfsServer implements RpcProgram
{
    static final int FSID = 0x4A52;
    static final int HANDLE_LENGTH = 16;
    static final int MAGIC = 0x4A525845;

    private final Map<Long, MemoryFile> files = new HashMap<>();
    private final MemoryFile root;
    private final Fattr3 attrs = new Fattr3();
    private final Fattr3 before = new Fattr3();
    private final Sattr3 sattr = new Sattr3();
    private final byte[] handleBytes = new byte[Nfs3.NFS3_FHSIZE];
    private long nextFileid = 100;
    private long clock = 1_700_000_000L;
    private long writeVerifier = 0x1111_2222_3333_4444L;

    int rtmax = 1 << 20;
    int rtpref = 64 * 1024;
    int wtmax = 1 << 20;
    int wtpref = 64 * 1024;
    int shortReads;
    int shortWrites;
    int restartAfterWrites;
    int restartEvery;
    boolean omitCreateHandle;
    final int[] callsByProcedure = new int[Nfs3.NFSPROC3_COMMIT + 1];
    int writes;
    int restarts;

    MemoryNfsServer()
    {
        root = add(null, Nfs3.NF3DIR, 0755);
    }

    private MemoryFile add(final MemoryFile dir, final int type, final int mode)
    {
        final MemoryFile f = new MemoryFile(nextFileid++, type, dir, mode, ++clock);
        files.put(f.fileid, f);
        return f;
    }

    synchronized FileHandle3 rootHandle()
    {
        return handle(root);
    }

    static FileHandle3 handle(final MemoryFile f)
    {
        final byte[] h = new byte[HANDLE_LENGTH];
        final org.agrona.concurrent.UnsafeBuffer b = new org.agrona.concurrent.UnsafeBuffer(h);
        b.putInt(0, MAGIC, java.nio.ByteOrder.BIG_ENDIAN);
        b.putInt(4, FSID, java.nio.ByteOrder.BIG_ENDIAN);
        b.putLong(8, f.fileid, java.nio.ByteOrder.BIG_ENDIAN);
        return new FileHandle3(h);
    }

    /** A file with content, for tests that read. */
    synchronized MemoryFile createFile(final String name, final byte[] content)
    {
        final MemoryFile f = add(root, Nfs3.NF3REG, 0644);
        root.children.put(name, f);
        root.version++;
        f.write(0, content, 0, content.length, true);
        return f;
    }

    synchronized MemoryFile mkdir(final MemoryFile dir, final String name)
    {
        final MemoryFile d = add(dir, Nfs3.NF3DIR, 0755);
        dir.children.put(name, d);
        dir.version++;
        return d;
    }

    synchronized MemoryFile root()
    {
        return root;
    }

    synchronized MemoryFile find(final String name)
    {
        return root.children.get(name);
    }

    synchronized byte[] content(final String name)
    {
        final MemoryFile f = root.children.get(name);
        return java.util.Arrays.copyOf(f.data, f.size);
    }

    /** A server restart: unstable data is lost, the write verifier changes. */
    synchronized void restart()
    {
        for (final MemoryFile f : files.values())
        {
            f.restart();
        }
        writeVerifier = writeVerifier * 31 + 7;
        restarts++;
    }

    synchronized long writeVerifier()
    {
        return writeVerifier;
    }

    @Override
    public int program()
    {
        return Nfs3.PROGRAM;
    }

    @Override
    public int lowVersion()
    {
        return Nfs3.VERSION;
    }

    @Override
    public int highVersion()
    {
        return Nfs3.VERSION;
    }

    @Override
    public boolean cacheReply(final int version, final int procedure)
    {
        switch (procedure)
        {
            case Nfs3.NFSPROC3_SETATTR:
            case Nfs3.NFSPROC3_WRITE:
            case Nfs3.NFSPROC3_CREATE:
            case Nfs3.NFSPROC3_REMOVE:
            case Nfs3.NFSPROC3_COMMIT:
                return true;
            default:
                return false;
        }
    }

    /** Thrown inside a procedure to answer with an nfsstat3. */
    private static final class Status extends RuntimeException
    {
        private static final long serialVersionUID = 1L;
        final int status;

        Status(final int status)
        {
            super(null, null, false, false);
            this.status = status;
        }
    }

    private MemoryFile file(final XdrDecoder args)
    {
        final int length = args.getOpaqueLength(Nfs3.NFS3_FHSIZE);
        args.getFixedOpaque(handleBytes, length);
        final org.agrona.concurrent.UnsafeBuffer b = new org.agrona.concurrent.UnsafeBuffer(handleBytes);
        if (HANDLE_LENGTH != length || MAGIC != b.getInt(0, java.nio.ByteOrder.BIG_ENDIAN) ||
            FSID != b.getInt(4, java.nio.ByteOrder.BIG_ENDIAN))
        {
            throw new Status(Nfs3Status.NFS3ERR_BADHANDLE);
        }
        final MemoryFile f = files.get(b.getLong(8, java.nio.ByteOrder.BIG_ENDIAN));
        if (null == f)
        {
            throw new Status(Nfs3Status.NFS3ERR_STALE);
        }
        return f;
    }

    private MemoryFile directory(final XdrDecoder args)
    {
        final MemoryFile d = file(args);
        if (!d.isDirectory())
        {
            throw new Status(Nfs3Status.NFS3ERR_NOTDIR);
        }
        return d;
    }

    private static String name(final XdrDecoder args)
    {
        final String name = args.getString(4096);
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > Nfs3.MAX_NAME)
        {
            throw new Status(Nfs3Status.NFS3ERR_NAMETOOLONG);
        }
        if (name.isEmpty() || name.contains("/") || ".".equals(name) || "..".equals(name))
        {
            throw new Status(Nfs3Status.NFS3ERR_INVAL);
        }
        return name;
    }

    private void postOp(final XdrEncoder out, final MemoryFile f)
    {
        PostOpAttr.encode(out, null == f ? null : f.attributes(attrs));
    }

    private void wcc(final XdrEncoder out, final Fattr3 pre, final MemoryFile f)
    {
        WccData.encode(out, pre, null == f ? null : f.attributes(attrs));
    }

    @Override
    public synchronized int call(final RpcServerCall call)
    {
        final int procedure = call.header().procedure();
        if (procedure < 0 || procedure > Nfs3.NFSPROC3_COMMIT)
        {
            return RpcMessage.PROC_UNAVAIL;
        }
        callsByProcedure[procedure]++;
        final XdrEncoder out = call.results();
        final int start = out.position();
        try
        {
            return run(procedure, call, call.args(), out);
        }
        catch (final Status s)
        {
            // every failing result this server produces carries attributes that may be absent: send none
            call.dropPayload();
            out.position(start);
            out.putInt(s.status);
            switch (procedure)
            {
                case Nfs3.NFSPROC3_GETATTR:
                    break;
                case Nfs3.NFSPROC3_SETATTR:
                case Nfs3.NFSPROC3_WRITE:
                case Nfs3.NFSPROC3_CREATE:
                case Nfs3.NFSPROC3_REMOVE:
                case Nfs3.NFSPROC3_COMMIT:
                    wcc(out, null, null);
                    break;
                default:
                    postOp(out, null);
                    break;
            }
            return RpcMessage.SUCCESS;
        }
    }

    private int run(final int procedure, final RpcServerCall call, final XdrDecoder args, final XdrEncoder out)
    {
        switch (procedure)
        {
            case Nfs3.NFSPROC3_NULL:
                return RpcMessage.SUCCESS;
            case Nfs3.NFSPROC3_GETATTR:
            {
                final MemoryFile f = file(args);
                out.putInt(Nfs3Status.NFS3_OK);
                f.attributes(attrs).encode(out);
                return RpcMessage.SUCCESS;
            }
            case Nfs3.NFSPROC3_SETATTR:
            {
                final MemoryFile f = file(args);
                sattr.decode(args);
                if (args.getBoolean())
                {
                    args.skip(8); // guard ctime: not checked
                }
                f.attributes(before);
                apply(f, sattr);
                out.putInt(Nfs3Status.NFS3_OK);
                wcc(out, before, f);
                return RpcMessage.SUCCESS;
            }
            case Nfs3.NFSPROC3_LOOKUP:
                return lookup(args, out);
            case Nfs3.NFSPROC3_ACCESS:
            {
                final MemoryFile f = file(args);
                final int asked = args.getInt();
                out.putInt(Nfs3Status.NFS3_OK);
                postOp(out, f);
                final int all = f.isDirectory() ? 0x1F : (0 != (f.mode & 0111) ? 0x2D : 0x0D);
                out.putInt(asked & all);
                return RpcMessage.SUCCESS;
            }
            case Nfs3.NFSPROC3_READ:
                return read(call, args, out);
            case Nfs3.NFSPROC3_WRITE:
                return write(args, out);
            case Nfs3.NFSPROC3_CREATE:
                return create(args, out);
            case Nfs3.NFSPROC3_REMOVE:
            {
                final MemoryFile dir = directory(args);
                final String name = name(args);
                final MemoryFile f = dir.children.get(name);
                if (null == f)
                {
                    throw new Status(Nfs3Status.NFS3ERR_NOENT);
                }
                if (f.isDirectory())
                {
                    throw new Status(Nfs3Status.NFS3ERR_ISDIR);
                }
                dir.attributes(before);
                dir.children.remove(name);
                files.remove(f.fileid);
                dir.version++;
                dir.mtime = ++clock;
                out.putInt(Nfs3Status.NFS3_OK);
                wcc(out, before, dir);
                return RpcMessage.SUCCESS;
            }
            case Nfs3.NFSPROC3_READDIRPLUS:
                return readdirplus(args, out);
            case Nfs3.NFSPROC3_FSINFO:
            {
                final MemoryFile f = file(args);
                out.putInt(Nfs3Status.NFS3_OK);
                postOp(out, f);
                FsInfo.encodeBody(out, rtmax, rtpref, wtmax, wtpref, 8192, Long.MAX_VALUE,
                    Nfs3.FSF3_LINK | Nfs3.FSF3_SYMLINK | Nfs3.FSF3_HOMOGENEOUS | Nfs3.FSF3_CANSETTIME);
                return RpcMessage.SUCCESS;
            }
            case Nfs3.NFSPROC3_COMMIT:
            {
                final MemoryFile f = file(args);
                args.getHyper();
                args.getInt();
                if (f.isDirectory())
                {
                    throw new Status(Nfs3Status.NFS3ERR_ISDIR);
                }
                f.attributes(before);
                f.commit();
                out.putInt(Nfs3Status.NFS3_OK);
                wcc(out, before, f);
                out.putHyper(writeVerifier);
                return RpcMessage.SUCCESS;
            }
            default:
                return RpcMessage.PROC_UNAVAIL;
        }
    }

    private void apply(final MemoryFile f, final Sattr3 s)
    {
        if (s.setsMode())
        {
            f.mode = s.mode() & 07777;
        }
        if (s.setsUid())
        {
            f.uid = s.uid();
        }
        if (s.setsGid())
        {
            f.gid = s.gid();
        }
        if (s.setsSize())
        {
            if (f.isDirectory())
            {
                throw new Status(Nfs3Status.NFS3ERR_ISDIR);
            }
            f.truncate(s.size());
            f.mtime = ++clock;
        }
        if (Nfs3.DONT_CHANGE != s.atimeHow())
        {
            f.atime = Nfs3.SET_TO_CLIENT_TIME == s.atimeHow() ? s.atimeSeconds() : ++clock;
        }
        if (Nfs3.DONT_CHANGE != s.mtimeHow())
        {
            f.mtime = Nfs3.SET_TO_CLIENT_TIME == s.mtimeHow() ? s.mtimeSeconds() : ++clock;
        }
        f.ctime = ++clock;
    }

    private int lookup(final XdrDecoder args, final XdrEncoder out)
    {
        final MemoryFile dir = directory(args);
        final String name = args.getString(4096);
        final MemoryFile f = ".".equals(name) ? dir : "..".equals(name) ? dir.parent : dir.children.get(name);
        if (null == f)
        {
            // LOOKUP3resfail carries the directory's attributes
            out.putInt(Nfs3Status.NFS3ERR_NOENT);
            postOp(out, dir);
            return RpcMessage.SUCCESS;
        }
        out.putInt(Nfs3Status.NFS3_OK);
        handle(f).encode(out);
        postOp(out, f);
        postOp(out, dir);
        return RpcMessage.SUCCESS;
    }

    private int read(final RpcServerCall call, final XdrDecoder args, final XdrEncoder out)
    {
        final MemoryFile f = file(args);
        final long offset = args.getHyper();
        final int asked = args.getInt();
        if (f.isDirectory())
        {
            throw new Status(Nfs3Status.NFS3ERR_ISDIR);
        }
        int count = (int)Math.max(0, Math.min(Math.min(asked, rtmax), f.size - offset));
        if (shortReads > 0)
        {
            count = Math.min(count, shortReads);
        }
        final boolean eof = offset + count >= f.size;
        out.putInt(Nfs3Status.NFS3_OK);
        postOp(out, f);
        out.putInt(count).putBoolean(eof).putInt(count);
        final int at = call.reservePayload(count);
        call.resultsBuffer().putBytes(at, f.data, (int)Math.min(offset, f.size), count);
        return RpcMessage.SUCCESS;
    }

    private int write(final XdrDecoder args, final XdrEncoder out)
    {
        final MemoryFile f = file(args);
        final long offset = args.getHyper();
        final int count = args.getInt();
        final int stable = args.getInt();
        if (stable < Nfs3.UNSTABLE || stable > Nfs3.FILE_SYNC)
        {
            throw new XdrException("stable_how " + stable);
        }
        final int length = args.getOpaqueLength(Integer.MAX_VALUE);
        final int at = args.skipFixedOpaque(length);
        if (length != count)
        {
            throw new Status(Nfs3Status.NFS3ERR_INVAL);
        }
        if (f.isDirectory())
        {
            throw new Status(Nfs3Status.NFS3ERR_ISDIR);
        }
        final int accepted = shortWrites > 0 ? Math.min(count, shortWrites) : count;
        final byte[] bytes = new byte[accepted];
        args.buffer().getBytes(at, bytes);
        f.attributes(before);
        f.write(offset, bytes, 0, accepted, Nfs3.UNSTABLE != stable);
        f.mtime = ++clock;
        out.putInt(Nfs3Status.NFS3_OK);
        wcc(out, before, f);
        out.putInt(accepted).putInt(stable).putHyper(writeVerifier);
        if (++writes == restartAfterWrites || restartEvery > 0 && 0 == writes % restartEvery)
        {
            restart(); // after the reply is built: it carries the old verifier, as a reply sent just before a crash
        }
        return RpcMessage.SUCCESS;
    }

    private int create(final XdrDecoder args, final XdrEncoder out)
    {
        final MemoryFile dir = directory(args);
        final String name = name(args);
        final int how = args.getInt();
        long verifier = 0;
        if (Nfs3.EXCLUSIVE == how)
        {
            verifier = args.getHyper();
            sattr.clear();
        }
        else if (Nfs3.UNCHECKED == how || Nfs3.GUARDED == how)
        {
            sattr.decode(args);
        }
        else
        {
            throw new XdrException("createmode3 " + how);
        }
        dir.attributes(before);
        MemoryFile f = dir.children.get(name);
        if (null != f)
        {
            final boolean retransmittedExclusive = Nfs3.EXCLUSIVE == how && f.exclusive && f.createVerifier == verifier;
            if (Nfs3.GUARDED == how || Nfs3.EXCLUSIVE == how && !retransmittedExclusive ||
                Nfs3.UNCHECKED == how && f.isDirectory())
            {
                throw new Status(Nfs3Status.NFS3ERR_EXIST);
            }
            if (Nfs3.UNCHECKED == how)
            {
                apply(f, sattr);
            }
        }
        else
        {
            f = add(dir, Nfs3.NF3REG, 0);
            if (Nfs3.EXCLUSIVE == how)
            {
                f.exclusive = true;
                f.createVerifier = verifier;
            }
            apply(f, sattr);
            dir.children.put(name, f);
            dir.version++;
            dir.mtime = ++clock;
        }
        out.putInt(Nfs3Status.NFS3_OK);
        out.putBoolean(!omitCreateHandle);
        if (!omitCreateHandle)
        {
            handle(f).encode(out);
        }
        postOp(out, f);
        wcc(out, before, dir);
        return RpcMessage.SUCCESS;
    }

    private int readdirplus(final XdrDecoder args, final XdrEncoder out)
    {
        final MemoryFile dir = directory(args);
        final long cookie = args.getHyper();
        final long verifier = args.getHyper();
        final int dircount = args.getInt();
        final int maxcount = args.getInt();
        if (0 != cookie && verifier != dir.version)
        {
            throw new Status(Nfs3Status.NFS3ERR_BAD_COOKIE);
        }
        final String[] names = new String[dir.children.size() + 2];
        final MemoryFile[] entries = new MemoryFile[names.length];
        names[0] = ".";
        entries[0] = dir;
        names[1] = "..";
        entries[1] = dir.parent;
        int n = 2;
        for (final Map.Entry<String, MemoryFile> e : dir.children.entrySet())
        {
            names[n] = e.getKey();
            entries[n++] = e.getValue();
        }
        if (cookie < 0 || cookie > n)
        {
            throw new Status(Nfs3Status.NFS3ERR_BAD_COOKIE);
        }
        out.putInt(Nfs3Status.NFS3_OK);
        postOp(out, dir);
        out.putHyper(dir.version);
        int resok = PostOpAttr.SIZE + 8 + 4 + 4; // attributes, verifier, the closing FALSE and eof
        int dirinfo = 0;
        int i = (int)cookie;
        for (; i < n; i++)
        {
            final int nameBytes = Xdr.opaqueSize(names[i].getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
            final int entry = 4 + 8 + nameBytes + 8 + PostOpAttr.SIZE + 4 + 4 + HANDLE_LENGTH;
            if (resok + entry > maxcount || dirinfo + 8 + nameBytes + 8 > dircount && i > cookie)
            {
                break;
            }
            resok += entry;
            dirinfo += 8 + nameBytes + 8;
            out.putBoolean(true).putHyper(entries[i].fileid).putUtf8(names[i]).putHyper(i + 1);
            postOp(out, entries[i]);
            out.putBoolean(true);
            handle(entries[i]).encode(out);
        }
        if (i == cookie && i < n)
        {
            throw new Status(Nfs3Status.NFS3ERR_TOOSMALL);
        }
        out.putBoolean(false).putBoolean(i == n);
        return RpcMessage.SUCCESS;
    }
}
