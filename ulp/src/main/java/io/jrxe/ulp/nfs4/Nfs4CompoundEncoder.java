package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * Writes a COMPOUND4args (RFC 8881 §16.2) into a call's arguments, operation by operation, and sums the largest
 * reply the operations can produce ({@link #replyLimit()}, from {@link Nfs4ReplySizes}). A flyweight, reused call
 * after call; allocation-free (names that are not ASCII are the exception: UTF-8 bytes are made for them).
 * <pre>
 *   | tag: length 0 | minorversion 1 | argarray count | op | args | op | args | ...
 *                                      ^ reserved by begin, filled by end
 * </pre>
 * WRITE's data is a DDP-eligible item (RFC 8267 §2.2): {@link #write} writes its length word and hands the bytes to
 * {@link RpcCall#payload}, and the operations after it go on in the arguments' tail.
 */
public final class Nfs4CompoundEncoder
{
    private XdrEncoder xdr;
    private int countAt;
    private int ops;
    private int replyBytes;

    /**
     * Start a COMPOUND with an empty tag and minor version 1.
     *
     * @param xdr the call's arguments, positioned after the RPC header
     * @return this
     */
    public Nfs4CompoundEncoder begin(final XdrEncoder xdr)
    {
        this.xdr = xdr;
        xdr.putInt(0).putInt(Nfs4.MINOR_VERSION);
        countAt = xdr.reserveInt();
        ops = 0;
        replyBytes = Nfs4ReplySizes.RPC_HEADER + Nfs4ReplySizes.COMPOUND_HEADER;
        return this;
    }

    /**
     * Write the operation count.
     *
     * @return the number of operations
     */
    public int end()
    {
        xdr.putIntAt(countAt, ops);
        return ops;
    }

    /** @return operations written so far */
    public int ops()
    {
        return ops;
    }

    /** @return the largest reply the COMPOUND can produce, RPC header included, a READ's data excluded */
    public int replyLimit()
    {
        return replyBytes;
    }

    /** @return the encoder written to */
    public XdrEncoder xdr()
    {
        return xdr;
    }

    private XdrEncoder op(final int op, final int reply)
    {
        ops++;
        replyBytes += reply;
        return xdr.putInt(op);
    }

    /**
     * SEQUENCE (RFC 8881 §18.46), the first operation of every COMPOUND on a session.
     *
     * @param session the session
     * @param sequenceId the slot's sequence id
     * @param slot the slot
     * @param highestSlot the highest slot the client has in use
     * @param cacheThis whether the server must cache the reply for a retry
     * @return this
     */
    public Nfs4CompoundEncoder sequence(
        final Nfs4SessionId session, final int sequenceId, final int slot, final int highestSlot,
        final boolean cacheThis)
    {
        op(Nfs4.OP_SEQUENCE, Nfs4ReplySizes.SEQUENCE);
        session.encode(xdr);
        xdr.putInt(sequenceId).putInt(slot).putInt(highestSlot).putBoolean(cacheThis);
        return this;
    }

    /**
     * PUTROOTFH (RFC 8881 §18.21): the current file handle becomes the server's root.
     *
     * @return this
     */
    public Nfs4CompoundEncoder putRootFh()
    {
        op(Nfs4.OP_PUTROOTFH, Nfs4ReplySizes.STATUS_ONLY);
        return this;
    }

    /**
     * PUTFH (RFC 8881 §18.19).
     *
     * @param fh the handle
     * @return this
     */
    public Nfs4CompoundEncoder putFh(final Nfs4FileHandle fh)
    {
        op(Nfs4.OP_PUTFH, Nfs4ReplySizes.STATUS_ONLY);
        fh.encode(xdr);
        return this;
    }

    /**
     * LOOKUP (RFC 8881 §18.13): the current file handle becomes the named entry of the current directory.
     *
     * @param name one path component
     * @return this
     */
    public Nfs4CompoundEncoder lookup(final CharSequence name)
    {
        op(Nfs4.OP_LOOKUP, Nfs4ReplySizes.STATUS_ONLY);
        putName(name);
        return this;
    }

    /**
     * GETFH (RFC 8881 §18.8).
     *
     * @return this
     */
    public Nfs4CompoundEncoder getFh()
    {
        op(Nfs4.OP_GETFH, Nfs4ReplySizes.GETFH);
        return this;
    }

    /**
     * GETATTR (RFC 8881 §18.7).
     *
     * @param attrMask the attributes (bit n for attribute n, {@link Nfs4Attr})
     * @return this
     */
    public Nfs4CompoundEncoder getAttr(final long attrMask)
    {
        op(Nfs4.OP_GETATTR, Nfs4ReplySizes.getattr(attrMask));
        Nfs4Attr.encodeBitmap(xdr, attrMask);
        return this;
    }

    /**
     * OPEN (RFC 8881 §18.16) of an existing file by name in the current directory: OPEN4_NOCREATE, CLAIM_NULL.
     *
     * @param shareAccess OPEN4_SHARE_ACCESS_* with any OPEN4_SHARE_ACCESS_WANT_* flag
     * @param shareDeny OPEN4_SHARE_DENY_*
     * @param clientId the client ID (open_owner4's clientid)
     * @param owner open_owner4's owner
     * @param name the file's name
     * @return this
     */
    public Nfs4CompoundEncoder openNoCreate(
        final int shareAccess, final int shareDeny, final long clientId, final byte[] owner, final CharSequence name)
    {
        openHead(shareAccess, shareDeny, clientId, owner);
        xdr.putInt(Nfs4.OPEN4_NOCREATE);
        xdr.putInt(Nfs4.CLAIM_NULL);
        putName(name);
        return this;
    }

    /**
     * OPEN with OPEN4_CREATE, CLAIM_NULL: UNCHECKED4 (create or open; a size of 0 truncates) or GUARDED4
     * (NFS4ERR_EXIST when the name exists).
     *
     * @param shareAccess OPEN4_SHARE_ACCESS_* with any OPEN4_SHARE_ACCESS_WANT_* flag
     * @param shareDeny OPEN4_SHARE_DENY_*
     * @param clientId the client ID
     * @param owner open_owner4's owner
     * @param createMode {@link Nfs4#UNCHECKED4} or {@link Nfs4#GUARDED4}
     * @param size size to set, or -1
     * @param mode mode bits to set, or -1
     * @param name the file's name
     * @return this
     */
    public Nfs4CompoundEncoder openCreate(
        final int shareAccess, final int shareDeny, final long clientId, final byte[] owner, final int createMode,
        final long size, final int mode, final CharSequence name)
    {
        if (Nfs4.UNCHECKED4 != createMode && Nfs4.GUARDED4 != createMode)
        {
            throw new IllegalArgumentException("createmode " + createMode + ": UNCHECKED4 or GUARDED4");
        }
        openHead(shareAccess, shareDeny, clientId, owner);
        xdr.putInt(Nfs4.OPEN4_CREATE).putInt(createMode);
        Nfs4Attributes.encodeCreateAttrs(xdr, size, mode);
        xdr.putInt(Nfs4.CLAIM_NULL);
        putName(name);
        return this;
    }

    private void openHead(final int shareAccess, final int shareDeny, final long clientId, final byte[] owner)
    {
        op(Nfs4.OP_OPEN, Nfs4ReplySizes.OPEN);
        // seqid is ignored in NFSv4.1: the session's slot orders the requests (RFC 8881 §18.16.3)
        xdr.putInt(0).putInt(shareAccess).putInt(shareDeny).putHyper(clientId).putOpaque(owner);
    }

    /**
     * READ (RFC 8881 §18.22). The reply's data goes to the call's read payload ({@link RpcCall#readPayloadTo}).
     *
     * @param stateid the open stateid
     * @param offset file offset
     * @param count bytes
     * @return this
     */
    public Nfs4CompoundEncoder read(final Nfs4Stateid stateid, final long offset, final int count)
    {
        op(Nfs4.OP_READ, Nfs4ReplySizes.READ);
        stateid.encode(xdr);
        xdr.putHyper(offset).putInt(count);
        return this;
    }

    /**
     * WRITE (RFC 8881 §18.32) with its data as the call's DDP payload: the length word here, the bytes left in
     * the caller's memory ({@link RpcCall#payload}); operations encoded after this go to the tail.
     *
     * @param call the call being encoded (its {@link RpcCall#args()} is this encoder's)
     * @param stateid the open stateid
     * @param offset file offset
     * @param stable {@link Nfs4#UNSTABLE4}, {@link Nfs4#DATA_SYNC4} or {@link Nfs4#FILE_SYNC4}
     * @param address the data (direct memory, alive until the call is done)
     * @param length bytes
     * @return this
     */
    public Nfs4CompoundEncoder write(
        final RpcCall call, final Nfs4Stateid stateid, final long offset, final int stable, final long address,
        final int length)
    {
        writeHead(stateid, offset, stable, length);
        call.payload(address, length);
        return this;
    }

    /**
     * WRITE's arguments up to the data's length word, for a caller that places the data itself.
     *
     * @param stateid the open stateid
     * @param offset file offset
     * @param stable stable_how4
     * @param length bytes of data that follow
     * @return this
     */
    public Nfs4CompoundEncoder writeHead(
        final Nfs4Stateid stateid, final long offset, final int stable, final int length)
    {
        op(Nfs4.OP_WRITE, Nfs4ReplySizes.WRITE);
        stateid.encode(xdr);
        xdr.putHyper(offset).putInt(stable).putInt(length);
        return this;
    }

    /**
     * COMMIT (RFC 8881 §18.3).
     *
     * @param offset first byte to commit
     * @param count bytes, 0 for all from offset on
     * @return this
     */
    public Nfs4CompoundEncoder commit(final long offset, final int count)
    {
        op(Nfs4.OP_COMMIT, Nfs4ReplySizes.COMMIT);
        xdr.putHyper(offset).putInt(count);
        return this;
    }

    /**
     * CLOSE (RFC 8881 §18.2).
     *
     * @param stateid the open stateid
     * @return this
     */
    public Nfs4CompoundEncoder close(final Nfs4Stateid stateid)
    {
        op(Nfs4.OP_CLOSE, Nfs4ReplySizes.CLOSE);
        xdr.putInt(0); // seqid, ignored in NFSv4.1 (RFC 8881 §18.2.3)
        stateid.encode(xdr);
        return this;
    }

    /**
     * DELEGRETURN (RFC 8881 §18.6): give a delegation back.
     *
     * @param stateid the delegation's stateid
     * @return this
     */
    public Nfs4CompoundEncoder delegReturn(final Nfs4Stateid stateid)
    {
        op(Nfs4.OP_DELEGRETURN, Nfs4ReplySizes.STATUS_ONLY);
        stateid.encode(xdr);
        return this;
    }

    /**
     * REMOVE (RFC 8881 §18.25) of a name in the current directory.
     *
     * @param name the entry
     * @return this
     */
    public Nfs4CompoundEncoder remove(final CharSequence name)
    {
        op(Nfs4.OP_REMOVE, Nfs4ReplySizes.REMOVE);
        putName(name);
        return this;
    }

    /**
     * READDIR (RFC 8881 §18.23) of the current directory.
     *
     * @param cookie 0 to start, else the cookie of the last entry seen
     * @param cookieVerifier 0 to start, else the verifier of the previous reply
     * @param dirCount a hint: bytes of names and cookies the server should gather
     * @param maxCount the largest READDIR4resok the client accepts
     * @param attrMask attributes of each entry
     * @return this
     */
    public Nfs4CompoundEncoder readdir(
        final long cookie, final long cookieVerifier, final int dirCount, final int maxCount, final long attrMask)
    {
        op(Nfs4.OP_READDIR, Nfs4ReplySizes.readdir(maxCount));
        xdr.putHyper(cookie).putHyper(cookieVerifier).putInt(dirCount).putInt(maxCount);
        Nfs4Attr.encodeBitmap(xdr, attrMask);
        return this;
    }

    /**
     * EXCHANGE_ID (RFC 8881 §18.35) with SP4_NONE.
     *
     * @param verifier co_verifier: changes when the client restarts
     * @param ownerId co_ownerid
     * @param flags EXCHGID4_FLAG_*
     * @param implDomain nii_domain of the one nfs_impl_id4 sent, or null to send none
     * @param implName nii_name
     * @return this
     */
    public Nfs4CompoundEncoder exchangeId(
        final long verifier, final byte[] ownerId, final int flags, final String implDomain, final String implName)
    {
        op(Nfs4.OP_EXCHANGE_ID, Nfs4ReplySizes.EXCHANGE_ID);
        xdr.putHyper(verifier).putOpaque(ownerId).putInt(flags).putInt(Nfs4.SP4_NONE);
        if (null == implDomain)
        {
            xdr.putInt(0);
        }
        else
        {
            xdr.putInt(1).putUtf8(implDomain).putUtf8(implName).putHyper(0).putInt(0);
        }
        return this;
    }

    /**
     * CREATE_SESSION (RFC 8881 §18.36) with one callback security parameter: AUTH_NONE, or AUTH_SYS with the
     * given identity and no supplementary groups (authsys_parms of RFC 5531).
     *
     * @param clientId from EXCHANGE_ID
     * @param sequence eir_sequenceid from EXCHANGE_ID
     * @param flags CREATE_SESSION4_FLAG_*
     * @param fore fore channel attributes asked for
     * @param back back channel attributes asked for
     * @param cbProgram the callback program number
     * @param authSys true for AUTH_SYS, false for AUTH_NONE
     * @param stamp AUTH_SYS stamp
     * @param machineName AUTH_SYS machine name (ASCII)
     * @param uid AUTH_SYS uid
     * @param gid AUTH_SYS gid
     * @return this
     */
    public Nfs4CompoundEncoder createSession(
        final long clientId, final int sequence, final int flags, final Nfs4ChannelAttrs fore,
        final Nfs4ChannelAttrs back, final int cbProgram, final boolean authSys, final int stamp,
        final String machineName, final int uid, final int gid)
    {
        op(Nfs4.OP_CREATE_SESSION, Nfs4ReplySizes.CREATE_SESSION);
        xdr.putHyper(clientId).putInt(sequence).putInt(flags);
        fore.encode(xdr);
        back.encode(xdr);
        xdr.putInt(cbProgram).putInt(1);
        if (authSys)
        {
            xdr.putInt(RpcMessage.AUTH_SYS).putInt(stamp).putAscii(machineName)
                .putInt(uid).putInt(gid).putInt(0);
        }
        else
        {
            xdr.putInt(RpcMessage.AUTH_NONE);
        }
        return this;
    }

    /**
     * DESTROY_SESSION (RFC 8881 §18.37).
     *
     * @param session the session
     * @return this
     */
    public Nfs4CompoundEncoder destroySession(final Nfs4SessionId session)
    {
        op(Nfs4.OP_DESTROY_SESSION, Nfs4ReplySizes.STATUS_ONLY);
        session.encode(xdr);
        return this;
    }

    /**
     * DESTROY_CLIENTID (RFC 8881 §18.50).
     *
     * @param clientId the client ID
     * @return this
     */
    public Nfs4CompoundEncoder destroyClientId(final long clientId)
    {
        op(Nfs4.OP_DESTROY_CLIENTID, Nfs4ReplySizes.STATUS_ONLY);
        xdr.putHyper(clientId);
        return this;
    }

    /**
     * RECLAIM_COMPLETE (RFC 8881 §18.51).
     *
     * @param oneFs false: the client has nothing more to reclaim anywhere (what a new client says)
     * @return this
     */
    public Nfs4CompoundEncoder reclaimComplete(final boolean oneFs)
    {
        op(Nfs4.OP_RECLAIM_COMPLETE, Nfs4ReplySizes.STATUS_ONLY);
        xdr.putBoolean(oneFs);
        return this;
    }

    private void putName(final CharSequence name)
    {
        for (int i = 0; i < name.length(); i++)
        {
            if (name.charAt(i) > 0x7F)
            {
                xdr.putUtf8(name.toString()); // component4 is UTF-8 (RFC 8881 §14.4)
                return;
            }
        }
        xdr.putAscii(name);
    }
}
