package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrException;

import java.util.List;

/**
 * Reads a COMPOUND4res (RFC 8881 §16.2.2) result by result, in the order the operations were sent. A flyweight,
 * reused; allocation-free except for directory entries and EXCHANGE_ID's strings.
 * <pre>
 *   | status | tag | resarray count | resop | status | resok body if NFS4_OK | resop | status | ...
 * </pre>
 * The server stops at the first operation that fails and returns its result last, with the COMPOUND's status
 * equal to it (RFC 8881 §16.2.3): {@link #next} gives each operation's status, {@link #ok} turns a failure into
 * a {@link Nfs4StatusException}; a COMPOUND that ends before an operation that was sent (the server refused the
 * whole request: NFS4ERR_MINOR_VERS_MISMATCH, NFS4ERR_BADXDR ...) throws one with the COMPOUND's status. A result
 * for a different operation than the one sent, or a malformed body, throws {@link XdrException}.
 */
public final class Nfs4CompoundDecoder
{
    private static final int MAX_RESULTS = 4096;

    private XdrDecoder xdr;
    private int status;
    private int results;
    private int index;
    private boolean readEof;
    private long cookieVerifier;
    private long lastCookie;

    /**
     * Read the COMPOUND4res header.
     *
     * @param xdr the reply's results, after the RPC header
     * @return this
     */
    public Nfs4CompoundDecoder wrap(final XdrDecoder xdr)
    {
        this.xdr = xdr;
        status = xdr.getInt();
        xdr.skipOpaque(Nfs4.OPAQUE_LIMIT); // tag
        results = xdr.getInt();
        if (results < 0 || results > MAX_RESULTS)
        {
            throw new XdrException("COMPOUND4res with " + (results & 0xFFFF_FFFFL) + " results");
        }
        index = 0;
        return this;
    }

    /** @return the COMPOUND's status: the last result's status */
    public int status()
    {
        return status;
    }

    /** @return the number of results */
    public int results()
    {
        return results;
    }

    /** @return results read so far */
    public int index()
    {
        return index;
    }

    /** @return the decoder, positioned after what was read */
    public XdrDecoder xdr()
    {
        return xdr;
    }

    /**
     * The next result's status.
     *
     * @param op the operation sent at this position
     * @return its nfsstat4 (when not NFS4_OK the body is void and no result follows)
     * @throws Nfs4StatusException when the COMPOUND ended before this operation
     */
    public int next(final int op)
    {
        if (index == results)
        {
            if (Nfs4Status.OK == status)
            {
                throw new XdrException("COMPOUND4res has " + results + " results, none for " + Nfs4.opName(op));
            }
            throw new Nfs4StatusException(op, status, "the server ended the COMPOUND before this operation");
        }
        final int resop = xdr.getInt();
        if (resop != op && Nfs4.OP_ILLEGAL != resop)
        {
            throw new XdrException("result " + index + " is for " + Nfs4.opName(resop) + ", " + Nfs4.opName(op) +
                " was sent");
        }
        index++;
        return xdr.getInt();
    }

    /**
     * The next result, which must be NFS4_OK.
     *
     * @param op the operation sent at this position
     * @param context what it was about, for the exception's message, or null
     * @throws Nfs4StatusException when it failed
     */
    public void ok(final int op, final String context)
    {
        final int st = next(op);
        if (Nfs4Status.OK != st)
        {
            throw new Nfs4StatusException(op, st, context);
        }
    }

    /**
     * @param result where SEQUENCE4resok goes
     * @return result
     */
    public Nfs4SequenceResult sequence(final Nfs4SequenceResult result)
    {
        return result.decode(xdr);
    }

    /**
     * @param fh where GETFH's handle goes
     * @return fh
     */
    public Nfs4FileHandle fileHandle(final Nfs4FileHandle fh)
    {
        return fh.decode(xdr);
    }

    /**
     * @param attrs where GETATTR's fattr4 goes
     * @return attrs
     */
    public Nfs4Attributes attributes(final Nfs4Attributes attrs)
    {
        return attrs.decode(xdr);
    }

    /**
     * @param result where OPEN4resok goes
     * @return result
     */
    public Nfs4OpenResult open(final Nfs4OpenResult result)
    {
        return result.decode(xdr);
    }

    /**
     * READ4resok: eof, then the data through {@link RpcCall#readPayload} (already placed by a Write chunk, or
     * copied from the inline reply to the call's read payload).
     *
     * @param call the call whose results this decoder reads
     * @return bytes read
     */
    public int read(final RpcCall call)
    {
        readEof = xdr.getBoolean();
        final int count = xdr.getInt();
        return call.readPayload(count);
    }

    /** @return the eof of the last {@link #read} */
    public boolean readEof()
    {
        return readEof;
    }

    /**
     * @param result where WRITE4resok goes
     * @return result
     */
    public Nfs4WriteResult write(final Nfs4WriteResult result)
    {
        return result.decode(xdr);
    }

    /** @return COMMIT4resok's write verifier */
    public long commit()
    {
        return xdr.getHyper();
    }

    /**
     * @param stateid where CLOSE4res's stateid goes (NFSv4.1 servers may return a special stateid)
     * @return stateid
     */
    public Nfs4Stateid close(final Nfs4Stateid stateid)
    {
        return stateid.decode(xdr);
    }

    /** REMOVE4resok: the directory's change_info4, skipped. */
    public void remove()
    {
        xdr.getBoolean();
        xdr.skip(16);
    }

    /**
     * READDIR4resok: entries appended to {@code out}, with the attributes of {@link Nfs4Attr#TYPE},
     * {@link Nfs4Attr#SIZE} and {@link Nfs4Attr#FILEID} when returned.
     * <pre>
     *   | cookieverf 8 | entries: (TRUE | cookie 8 | name | fattr4)* FALSE | eof |
     * </pre>
     *
     * @param out where entries go
     * @param scratch attributes reused per entry
     * @return eof: no entries after these
     */
    public boolean readdir(final List<Nfs4DirEntry> out, final Nfs4Attributes scratch)
    {
        cookieVerifier = xdr.getHyper();
        while (xdr.getBoolean())
        {
            lastCookie = xdr.getHyper();
            final String name = xdr.getString(Nfs4.OPAQUE_LIMIT);
            scratch.decode(xdr);
            out.add(new Nfs4DirEntry(name, lastCookie,
                scratch.has(Nfs4Attr.TYPE) ? scratch.type() : 0,
                scratch.has(Nfs4Attr.SIZE) ? scratch.size() : -1,
                scratch.has(Nfs4Attr.FILEID) ? scratch.fileid() : -1));
        }
        return xdr.getBoolean();
    }

    /** @return the cookie verifier of the last {@link #readdir} */
    public long cookieVerifier()
    {
        return cookieVerifier;
    }

    /** @return the cookie of the last entry {@link #readdir} read */
    public long lastCookie()
    {
        return lastCookie;
    }

    /**
     * @param result where EXCHANGE_ID4resok goes
     * @return result
     */
    public Nfs4ExchangeIdResult exchangeId(final Nfs4ExchangeIdResult result)
    {
        return result.decode(xdr);
    }

    /**
     * @param result where CREATE_SESSION4resok goes
     * @return result
     */
    public Nfs4CreateSessionResult createSession(final Nfs4CreateSessionResult result)
    {
        return result.decode(xdr);
    }
}
