package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;

import java.util.ArrayList;
import java.util.List;

/**
 * Requests on names: each starts at the server's root (PUTROOTFH) or at a known handle (PUTFH) and LOOKUPs its
 * way down a run of path components (RFC 8881 §18.13), then does its operation there. Control path: the messages
 * of failures name the path.
 * <pre>
 *   Lookup   SEQUENCE | PUTROOTFH or PUTFH | LOOKUP x n | GETFH | GETATTR
 *   Open     SEQUENCE | PUTROOTFH or PUTFH | LOOKUP x n (the directory) | OPEN name | GETFH | GETATTR
 *   Close    SEQUENCE | PUTFH | CLOSE [| DELEGRETURN]                 (a delegation the session does not keep)
 *   DelegReturn  SEQUENCE | PUTFH | DELEGRETURN                         (a delegation kept: recalled, or at close)
 *   Remove   SEQUENCE | PUTROOTFH or PUTFH | LOOKUP x n (the directory) | REMOVE name
 *   Readdir  SEQUENCE | PUTROOTFH or PUTFH | LOOKUP x n | GETFH | READDIR      (the first page)
 *            SEQUENCE | PUTFH | READDIR                                       (the next pages: cookie, verifier)
 * </pre>
 */
final class Nfs4PathRequests
{
    /** Attributes of a looked-up or opened file. */
    static final long FILE_ATTRS = Nfs4Attr.mask(Nfs4Attr.TYPE, Nfs4Attr.CHANGE, Nfs4Attr.SIZE, Nfs4Attr.FILEID,
        Nfs4Attr.MODE, Nfs4Attr.NUMLINKS, Nfs4Attr.TIME_MODIFY);
    /** Attributes of a directory entry. */
    static final long ENTRY_ATTRS = Nfs4Attr.mask(Nfs4Attr.TYPE, Nfs4Attr.SIZE, Nfs4Attr.FILEID);

    private Nfs4PathRequests()
    {
    }

    private static void ok(final Nfs4CompoundDecoder dec, final int op, final String[] path, final int at)
    {
        final int status = dec.next(op);
        if (Nfs4Status.OK != status)
        {
            throw new Nfs4StatusException(op, status, Nfs4.OP_LOOKUP == op ?
                "\"" + path[at] + "\" in " + Nfs4Path.toString(path, at) : Nfs4Path.toString(path, at));
        }
    }

    /** The walk: from the root or a handle, down components [from, to). */
    abstract static class Walk extends Nfs4Request
    {
        final Nfs4FileHandle start = new Nfs4FileHandle();
        String[] path = new String[0];
        int from;
        int to;

        /**
         * @param components the whole path from the server's root
         * @param startFh the handle of components [0, first), or an empty handle to start at the root
         * @param first first component to LOOKUP
         * @param end one past the last
         */
        void walk(final String[] components, final Nfs4FileHandle startFh, final int first, final int end)
        {
            path = components;
            if (startFh.isSet())
            {
                start.copy(startFh);
            }
            else
            {
                start.clear();
            }
            from = first;
            to = end;
        }

        /** @return operations the walk takes */
        int walkOps()
        {
            return 1 + to - from;
        }

        void encodeWalk(final Nfs4CompoundEncoder enc)
        {
            if (start.isSet())
            {
                enc.putFh(start);
            }
            else
            {
                enc.putRootFh();
            }
            for (int i = from; i < to; i++)
            {
                enc.lookup(path[i]);
            }
        }

        void decodeWalk(final Nfs4CompoundDecoder dec)
        {
            ok(dec, start.isSet() ? Nfs4.OP_PUTFH : Nfs4.OP_PUTROOTFH, path, from);
            for (int i = from; i < to; i++)
            {
                ok(dec, Nfs4.OP_LOOKUP, path, i);
            }
        }
    }

    /** Walk, GETFH, GETATTR. */
    static final class Lookup extends Walk
    {
        final Nfs4FileHandle fh = new Nfs4FileHandle();
        final Nfs4Attributes attrs = new Nfs4Attributes();
        long attrMask = FILE_ATTRS;

        @Override
        public String name()
        {
            return "LOOKUP";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            encodeWalk(enc);
            enc.getFh().getAttr(attrMask);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            decodeWalk(dec);
            ok(dec, Nfs4.OP_GETFH, path, to);
            dec.fileHandle(fh);
            ok(dec, Nfs4.OP_GETATTR, path, to);
            dec.attributes(attrs);
        }
    }

    /** Walk to the directory, OPEN (CLAIM_NULL), GETFH, GETATTR. */
    static final class Open extends Walk
    {
        final Nfs4OpenResult result = new Nfs4OpenResult();
        final Nfs4FileHandle fh = new Nfs4FileHandle();
        final Nfs4Attributes attrs = new Nfs4Attributes();
        long clientId;
        byte[] owner;
        String name;
        int shareAccess;
        int shareDeny;
        boolean create;
        int createMode;
        long createSize;
        int createModeBits;

        @Override
        public String name()
        {
            return "OPEN";
        }

        @Override
        public boolean cacheThis()
        {
            return true;
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            encodeWalk(enc);
            if (create)
            {
                enc.openCreate(shareAccess, shareDeny, clientId, owner, createMode, createSize, createModeBits, name);
            }
            else
            {
                enc.openNoCreate(shareAccess, shareDeny, clientId, owner, name);
            }
            enc.getFh().getAttr(FILE_ATTRS);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            decodeWalk(dec);
            final int status = dec.next(Nfs4.OP_OPEN);
            if (Nfs4Status.OK != status)
            {
                throw new Nfs4StatusException(Nfs4.OP_OPEN, status, "\"" + name + "\" in " +
                    Nfs4Path.toString(path, to));
            }
            dec.open(result);
            ok(dec, Nfs4.OP_GETFH, path, to);
            dec.fileHandle(fh);
            ok(dec, Nfs4.OP_GETATTR, path, to);
            dec.attributes(attrs);
        }
    }

    /** PUTFH, CLOSE, and DELEGRETURN when a delegation came with the open. */
    static final class Close extends Nfs4Request
    {
        final Nfs4FileHandle fh = new Nfs4FileHandle();
        final Nfs4Stateid stateid = new Nfs4Stateid();
        final Nfs4Stateid delegation = new Nfs4Stateid();
        final Nfs4Stateid closed = new Nfs4Stateid();
        boolean returnDelegation;
        String what;

        @Override
        public String name()
        {
            return "CLOSE";
        }

        @Override
        public boolean cacheThis()
        {
            return true;
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.putFh(fh).close(stateid);
            if (returnDelegation)
            {
                enc.delegReturn(delegation);
            }
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            dec.ok(Nfs4.OP_PUTFH, what);
            dec.ok(Nfs4.OP_CLOSE, what);
            dec.close(closed);
            if (returnDelegation)
            {
                dec.ok(Nfs4.OP_DELEGRETURN, what);
            }
        }
    }

    /**
     * PUTFH, DELEGRETURN (RFC 8881 §18.6: the current file handle is the delegation's file): a delegation kept
     * after its CLOSE, given back.
     */
    static final class DelegReturn extends Nfs4Request
    {
        final Nfs4FileHandle fh = new Nfs4FileHandle();
        final Nfs4Stateid stateid = new Nfs4Stateid();
        String what;

        @Override
        public String name()
        {
            return "DELEGRETURN";
        }

        @Override
        public boolean cacheThis()
        {
            return true;
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            enc.putFh(fh).delegReturn(stateid);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            dec.ok(Nfs4.OP_PUTFH, what);
            dec.ok(Nfs4.OP_DELEGRETURN, what);
        }
    }

    /** Walk to the directory, REMOVE. */
    static final class Remove extends Walk
    {
        String name;

        @Override
        public String name()
        {
            return "REMOVE";
        }

        @Override
        public boolean cacheThis()
        {
            return true;
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            encodeWalk(enc);
            enc.remove(name);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            decodeWalk(dec);
            final int status = dec.next(Nfs4.OP_REMOVE);
            if (Nfs4Status.OK != status)
            {
                throw new Nfs4StatusException(Nfs4.OP_REMOVE, status, "\"" + name + "\" in " +
                    Nfs4Path.toString(path, to));
            }
            dec.remove();
        }
    }

    /** One page of READDIR: the first walks and takes the directory's handle, the next ones PUTFH it. */
    static final class Readdir extends Walk
    {
        final Nfs4FileHandle dir = new Nfs4FileHandle();
        final Nfs4Attributes scratch = new Nfs4Attributes();
        final List<Nfs4DirEntry> entries = new ArrayList<>();
        long cookie;
        long verifier;
        int maxCount;
        boolean eof;

        @Override
        public String name()
        {
            return "READDIR";
        }

        @Override
        public void encode(final Nfs4CompoundEncoder enc, final RpcCall call)
        {
            if (0 == cookie)
            {
                encodeWalk(enc);
                enc.getFh();
            }
            else
            {
                enc.putFh(dir);
            }
            enc.readdir(cookie, verifier, maxCount, maxCount, ENTRY_ATTRS);
        }

        @Override
        public void decode(final Nfs4CompoundDecoder dec, final RpcCall call)
        {
            final int mark = entries.size();
            if (0 == cookie)
            {
                decodeWalk(dec);
                ok(dec, Nfs4.OP_GETFH, path, to);
                dec.fileHandle(dir);
            }
            else
            {
                ok(dec, Nfs4.OP_PUTFH, path, to);
            }
            ok(dec, Nfs4.OP_READDIR, path, to);
            try
            {
                eof = dec.readdir(entries, scratch);
            }
            catch (final RuntimeException ex)
            {
                entries.subList(mark, entries.size()).clear();
                throw ex;
            }
            if (entries.size() > mark)
            {
                cookie = dec.lastCookie();
            }
            else if (!eof)
            {
                throw new Nfs4Exception("READDIR of " + Nfs4Path.toString(path, to) +
                    ": no entries and no EOF (maxcount " + maxCount + " too small?)");
            }
            verifier = dec.cookieVerifier();
        }
    }
}
