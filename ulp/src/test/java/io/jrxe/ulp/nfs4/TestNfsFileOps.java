package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.nfs4.TestNfsServer.Open;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.ulp.nfs4.TestNfsServer.fail;
import static io.jrxe.ulp.nfs4.TestNfsServer.ok;

/**
 * {@link TestNfsServer}'s operations on its file tree ({@link TestFs}) at the current filehandle: names and
 * attributes (PUTFH, LOOKUP, GETFH, GETATTR; RFC 8881 §18.19, §18.15, §18.8, §18.7), I/O under an open stateid
 * (READ with its data as a DDP payload, WRITE, COMMIT; §18.22, §18.32, §18.3) with the knobs that make it short,
 * stale or restarted, REMOVE (§18.25) and READDIR with cookies and its verifier (§18.23).
 */
final class TestNfsFileOps
{
    private static final long SUPPORTED = Nfs4Attr.mask(Nfs4Attr.TYPE, Nfs4Attr.CHANGE, Nfs4Attr.SIZE,
        Nfs4Attr.LEASE_TIME, Nfs4Attr.FILEID, Nfs4Attr.MAXREAD, Nfs4Attr.MAXWRITE, Nfs4Attr.MODE, Nfs4Attr.NUMLINKS,
        Nfs4Attr.TIME_MODIFY);

    private final TestNfsServer server;

    TestNfsFileOps(final TestNfsServer server)
    {
        this.server = server;
    }

    int putFh(final XdrDecoder a, final XdrEncoder r)
    {
        final Object n = server.fs.decodeFh(a);
        if (n instanceof Integer)
        {
            return fail(r, (Integer)n);
        }
        server.current = (TestFs.Node)n;
        return ok(r);
    }

    int lookup(final XdrDecoder a, final XdrEncoder r)
    {
        final String name = a.getString(1024);
        if (null == server.current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        if (!server.current.isDir())
        {
            return fail(r, Nfs4Status.NOTDIR);
        }
        final TestFs.Node next = server.current.children.get(name);
        if (null == next)
        {
            return fail(r, Nfs4Status.NOENT);
        }
        server.current = next;
        return ok(r);
    }

    int getFh(final XdrEncoder r)
    {
        if (null == server.current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        ok(r);
        server.fs.encodeFh(r, server.current);
        return Nfs4Status.OK;
    }

    int getAttr(final XdrDecoder a, final XdrEncoder r)
    {
        final long mask = Nfs4Attr.decodeBitmap(a);
        if (null == server.current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        ok(r);
        encodeAttrs(r, server.current, mask);
        return Nfs4Status.OK;
    }

    static void encodeAttrs(final XdrEncoder r, final TestFs.Node n, final long asked)
    {
        final long mask = asked & SUPPORTED;
        r.putInt(2).putInt((int)mask).putInt((int)(mask >>> 32));
        final int lengthAt = r.reserveInt();
        final int start = r.position();
        for (long m = mask; 0 != m; m &= m - 1)
        {
            switch (Long.numberOfTrailingZeros(m))
            {
                case Nfs4Attr.TYPE: r.putInt(n.type); break;
                case Nfs4Attr.CHANGE: r.putHyper(n.change); break;
                case Nfs4Attr.SIZE: r.putHyper(n.isDir() ? 4096 : n.size); break;
                case Nfs4Attr.LEASE_TIME: r.putInt((int)TestNfsServer.LEASE); break;
                case Nfs4Attr.FILEID: r.putHyper(n.id); break;
                case Nfs4Attr.MAXREAD: r.putHyper(1 << 20); break;
                case Nfs4Attr.MAXWRITE: r.putHyper(1 << 20); break;
                case Nfs4Attr.MODE: r.putInt(n.mode); break;
                case Nfs4Attr.NUMLINKS: r.putInt(n.isDir() ? 2 : 1); break;
                case Nfs4Attr.TIME_MODIFY: r.putHyper(1_700_000_000L + n.change).putInt(0); break;
                default: throw new IllegalStateException();
            }
        }
        r.putIntAt(lengthAt, r.position() - start);
    }

    int read(final XdrDecoder a, final XdrEncoder r, final RpcServerCall call)
    {
        final Open o = server.openOps.stateid(a);
        final long offset = a.getHyper();
        final int count = a.getInt();
        if (null == o)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (0 == (o.access & Nfs4.SHARE_ACCESS_READ))
        {
            return fail(r, Nfs4Status.OPENMODE);
        }
        server.reads++;
        if (server.staleAfterReads >= 0 && server.reads > server.staleAfterReads)
        {
            o.node.removed = true;
        }
        if (server.current.removed)
        {
            return fail(r, Nfs4Status.STALE);
        }
        final TestFs.Node f = server.current;
        final int n = (int)Math.max(0, Math.min(Math.min(count, server.readCap), f.size - offset));
        ok(r);
        r.putBoolean(offset + n >= f.size).putInt(n);
        final int at = call.reservePayload(n);
        r.buffer().putBytes(at, f.data, (int)Math.min(offset, f.size), n);
        return Nfs4Status.OK;
    }

    int write(final XdrDecoder a, final XdrEncoder r)
    {
        final Open o = server.openOps.stateid(a);
        final long offset = a.getHyper();
        final int stable = a.getInt();
        final int length = a.getOpaqueLength(16 << 20);
        final int at = a.skipFixedOpaque(length);
        if (null == o)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (0 == (o.access & Nfs4.SHARE_ACCESS_WRITE))
        {
            return fail(r, Nfs4Status.OPENMODE);
        }
        if (server.current.removed)
        {
            return fail(r, Nfs4Status.STALE);
        }
        server.writes++;
        final int n = Math.min(length, server.writeCap);
        server.current.write(offset, a, at, n);
        ok(r);
        r.putInt(n).putInt(Nfs4.UNSTABLE4 == stable ? Nfs4.UNSTABLE4 : Nfs4.FILE_SYNC4).putHyper(server.writeVerifier);
        return Nfs4Status.OK;
    }

    int commit(final XdrDecoder a, final XdrEncoder r)
    {
        a.getHyper();
        a.getInt();
        server.commits++;
        if (server.verifierChangesAtCommit > 0)
        {
            server.verifierChangesAtCommit--;
            server.writeVerifier++; // a restart between the WRITEs and the COMMIT
        }
        ok(r);
        r.putHyper(server.writeVerifier);
        return Nfs4Status.OK;
    }

    int remove(final XdrDecoder a, final XdrEncoder r)
    {
        final String name = a.getString(1024);
        if (null == server.current || !server.current.isDir())
        {
            return fail(r, null == server.current ? Nfs4Status.NOFILEHANDLE : Nfs4Status.NOTDIR);
        }
        final TestFs.Node n = server.current.children.get(name);
        if (null == n)
        {
            return fail(r, Nfs4Status.NOENT);
        }
        if (n.isDir() && !n.children.isEmpty())
        {
            return fail(r, Nfs4Status.NOTEMPTY);
        }
        final long before = server.current.change;
        server.fs.remove(server.current, name);
        ok(r);
        r.putBoolean(true).putHyper(before).putHyper(server.current.change);
        return Nfs4Status.OK;
    }

    int readdir(final XdrDecoder a, final XdrEncoder r)
    {
        final long cookie = a.getHyper();
        final long verifier = a.getHyper();
        a.getInt(); // dircount
        final int maxcount = a.getInt();
        final long mask = Nfs4Attr.decodeBitmap(a);
        if (null == server.current || !server.current.isDir())
        {
            return fail(r, null == server.current ? Nfs4Status.NOFILEHANDLE : Nfs4Status.NOTDIR);
        }
        if (0 != cookie && TestNfsServer.COOKIE_VERIFIER != verifier)
        {
            return fail(r, Nfs4Status.NOT_SAME);
        }
        final List<String> names = new ArrayList<>(server.current.children.keySet());
        final int first = 0 == cookie ? 0 : (int)(cookie - 2); // entry i has cookie i + 3
        if (first < 0 || first > names.size())
        {
            return fail(r, Nfs4Status.BAD_COOKIE);
        }
        ok(r);
        final int start = r.position();
        r.putHyper(TestNfsServer.COOKIE_VERIFIER);
        int i = first;
        for (; i < names.size(); i++)
        {
            final int mark = r.position();
            r.putBoolean(true).putHyper(i + 3).putAscii(names.get(i));
            encodeAttrs(r, server.current.children.get(names.get(i)), mask);
            if (r.position() - start + 8 > maxcount)
            {
                r.position(mark);
                break;
            }
        }
        if (i == first && i < names.size())
        {
            r.position(start - 4);
            return fail(r, Nfs4Status.TOOSMALL);
        }
        r.putBoolean(false).putBoolean(i == names.size());
        return Nfs4Status.OK;
    }
}
