package io.jrxe.ulp.nfs4;

/**
 * The file a session has open, one at a time (RFC 8881 §18.16, §18.2): OPEN by name under its directory, with the
 * session's open owner, the share access asked and OPEN4_SHARE_ACCESS_WANT_* bits; then its handle and open stateid
 * for READ and WRITE; then CLOSE. A delegation that comes with the OPEN is handed to the
 * {@link Nfs4DelegationKeeper}, or, when it cannot be kept, goes back with the CLOSE (CLOSE DELEGRETURN).
 * <pre>
 *   open:   SEQUENCE PUT* LOOKUP x n OPEN(name) GETFH GETATTR     (the OPEN counted outstanding while it is out:
 *                                                                  a recall of what it grants waits for it)
 *   close:  SEQUENCE PUTFH CLOSE [DELEGRETURN]
 * </pre>
 * Reused from call to call: nothing is allocated but the path's components and its string. Not thread safe: the
 * session's thread uses it.
 */
final class Nfs4OpenFile
{
    private final Nfs4ForeChannel channel;
    private final Nfs4PathWalker paths;
    private final Nfs4DelegationKeeper delegations;
    private final byte[] openOwner;
    private final Nfs4PathRequests.Open open = new Nfs4PathRequests.Open();
    private final Nfs4PathRequests.Close close = new Nfs4PathRequests.Close();
    private final Nfs4FileHandle fh = new Nfs4FileHandle();
    private final Nfs4Stateid stateid = new Nfs4Stateid();
    private long clientId;

    /**
     * @param channel where OPEN and CLOSE go
     * @param paths the session's paths
     * @param delegations keeps the delegations OPEN grants
     * @param options the session's options (their owner id is the open owner)
     */
    Nfs4OpenFile(final Nfs4ForeChannel channel, final Nfs4PathWalker paths, final Nfs4DelegationKeeper delegations,
        final Nfs41Options options)
    {
        this.channel = channel;
        this.paths = paths;
        this.delegations = delegations;
        final byte[] owner = options.ownerId();
        this.openOwner = java.util.Arrays.copyOf(owner, Math.min(owner.length, Nfs4.OPAQUE_LIMIT));
    }

    /** @param id the client ID from EXCHANGE_ID, the open owner's */
    void clientId(final long id)
    {
        clientId = id;
    }

    /**
     * OPEN a file; a delegation that comes with it is kept in the table, or set to go back with the CLOSE.
     *
     * @param path the file under the export
     * @param access OPEN4_SHARE_ACCESS_READ, _WRITE or _BOTH
     * @param want the OPEN4_SHARE_ACCESS_WANT_* bits
     * @param create true: OPEN4_CREATE
     * @param createMode UNCHECKED4 or GUARDED4, when creating
     * @param size the size to set when creating (0 truncates), or -1
     * @param mode the mode bits when creating, or -1
     */
    void open(
        final String path, final int access, final int want, final boolean create, final int createMode,
        final long size, final int mode)
    {
        final String[] all = paths.fileIn(path);
        final Nfs4PathRequests.Open o = open;
        paths.walk(o, all, all.length - 1, 3);
        o.name = all[all.length - 1];
        o.clientId = clientId;
        o.owner = openOwner;
        o.shareAccess = access | want;
        o.shareDeny = Nfs4.SHARE_DENY_NONE;
        o.create = create;
        o.createMode = createMode;
        o.createSize = size;
        o.createModeBits = mode;
        final String what = Nfs4Path.toString(all, all.length);
        delegations.table().openStarted();
        try
        {
            channel.run(o);
            close.returnDelegation = o.result.hasDelegation() && !delegations.keep(o, what);
        }
        finally
        {
            delegations.table().openEnded(); // a recall of what this OPEN granted is found in the table from now on
        }
        fh.copy(o.fh);
        stateid.copy(o.result.stateid());
        close.fh.copy(o.fh);
        close.stateid.copy(o.result.stateid());
        close.delegation.copy(o.result.delegationStateid());
        close.what = what;
    }

    /**
     * CLOSE the file opened last (with DELEGRETURN when its delegation was not kept).
     *
     * @param failure what already failed, or null: a CLOSE failing then is added to it as suppressed, not thrown
     */
    void close(final Throwable failure)
    {
        try
        {
            channel.run(close);
            if (close.returnDelegation)
            {
                delegations.returnedWithClose();
            }
        }
        catch (final RuntimeException ex)
        {
            if (null == failure)
            {
                throw ex;
            }
            failure.addSuppressed(ex);
        }
    }

    /** @return the handle of the file opened last */
    Nfs4FileHandle fh()
    {
        return fh;
    }

    /** @return the open stateid of the file opened last */
    Nfs4Stateid stateid()
    {
        return stateid;
    }

    /** @return the size of the file opened last, as OPEN's GETATTR said */
    long size()
    {
        return open.attrs.size();
    }

    /** @return why_no_delegation4 of the last OPEN (WND4_*, with OPEN_DELEGATE_NONE_EXT), or -1 */
    int whyNoDelegation()
    {
        return open.result.whyNoDelegation();
    }
}
