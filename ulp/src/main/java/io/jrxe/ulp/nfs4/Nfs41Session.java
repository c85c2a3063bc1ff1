package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcClient;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * An NFSv4.1 client session on one {@link RpcClient} (RFC 8881 §2.4, §2.10): what a command-line tool uses to list,
 * read, write, create and remove files under an export. Driven by one thread; every call blocks until its
 * COMPOUNDs are answered, driving the client (and, through its transport, the callback service) meanwhile.
 * <pre>
 *   connect:   EXCHANGE_ID (co_ownerid unique per instance, SP4_NONE, USE_NON_PNFS)
 *              CREATE_SESSION (fore and back channel, CONN_BACK_CHAN, the callback program and security)
 *              SEQUENCE RECLAIM_COMPLETE(one_fs false)          knfsd answers OPEN with NFS4ERR_GRACE before it
 *              SEQUENCE PUTROOTFH LOOKUP(export...) GETFH GETATTR(lease_time, maxread, maxwrite ...)
 *   paths:     relative to the export; each request walks PUTROOTFH, LOOKUP per component (several COMPOUNDs
 *              when the components outnumber the session's ca_maxoperations)
 *   read:      OPEN(NOCREATE, READ) -> READ x N in flight (rsize each, one slot each) -> CLOSE
 *   write:     OPEN(CREATE UNCHECKED4, size 0, WRITE) -> WRITE x N in flight (wsize each) -> COMMIT -> CLOSE
 *   lease:     every SEQUENCE renews it (RFC 8881 §8.3); an idle client calls renewIfDue() now and then
 *   delegations (RFC 8881 §10.2, §10.4): OPENs carry Nfs41Options#wantDelegation (WANT_NO_DELEG by default);
 *              holdDelegation: OPEN(NOCREATE, READ | WANT_READ_DELEG) -> CLOSE, the delegation kept
 *              a delegation granted is kept after its CLOSE in a table of 64 (Nfs4Delegations): stateid, fh, path,
 *              type; without a back channel, or with the table full, it goes back with the CLOSE (DELEGRETURN)
 *   recall:    server: CB_COMPOUND(CB_SEQUENCE, CB_RECALL) on the back channel, dispatched while the client is
 *              driven; Nfs4CallbackProgram answers at once (NFS4_OK and marks the entry) and returns
 *              client:  SEQUENCE PUTFH DELEGRETURN(stateid) from this session's thread, never inside the dispatch:
 *              at the end of the next call into the session, in awaitRecall, or in returnRecalled
 *   close:     SEQUENCE PUTFH DELEGRETURN for each delegation held (DESTROY_CLIENTID is refused while the client
 *              has state, RFC 8881 §18.50.3), DESTROY_SESSION, DESTROY_CLIENTID
 * </pre>
 * NFS4ERR_DELAY and NFS4ERR_GRACE are retried within {@link Nfs41Options#retryLimitNs()}; any other error
 * surfaces as an {@link Nfs4StatusException} naming the operation, the status and the path.
 * <p>
 * The session itself connects and closes, and hands the rest to package-private collaborators on the same fore
 * channel ({@code Nfs4ForeChannel}): {@code Nfs4PathWalker} (paths), {@code Nfs4OpenFile} and
 * {@code Nfs4FileTransfer} (OPEN / CLOSE, whole-file READ and WRITE), {@code Nfs4DelegationKeeper} (delegations
 * kept, recalled, returned) and {@code Nfs4Lease} (renewal).
 */
public final class Nfs41Session implements AutoCloseable
{
    /** Bytes of a READ or WRITE COMPOUND besides the data (RPC header with AUTH_SYS, SEQUENCE, PUTFH, READ/WRITE). */
    static final int IO_OVERHEAD = 1024;

    private final Nfs41Options options;
    private final Nfs4ForeChannel channel;
    private final Nfs4CallbackProgram callback;
    private final Nfs4PathWalker paths;
    private final Nfs4Lease lease;
    private final Nfs4DelegationKeeper delegations;
    private final Nfs4OpenFile file;
    private final Nfs4FileTransfer transfer;
    private final Nfs4ChannelAttrs fore = new Nfs4ChannelAttrs();
    private final Nfs4ChannelAttrs back = new Nfs4ChannelAttrs();
    private final Nfs4SessionRequests.ExchangeId exchangeId = new Nfs4SessionRequests.ExchangeId();
    private final Nfs4SessionRequests.CreateSession createSession = new Nfs4SessionRequests.CreateSession();
    private final Nfs4SessionRequests.ReclaimComplete reclaimComplete = new Nfs4SessionRequests.ReclaimComplete();
    private final Nfs4SessionRequests.DestroySession destroySession = new Nfs4SessionRequests.DestroySession();
    private final Nfs4SessionRequests.DestroyClientId destroyClientId = new Nfs4SessionRequests.DestroyClientId();
    private final Nfs4PathRequests.Lookup lookup = new Nfs4PathRequests.Lookup();
    private final Nfs4PathRequests.Remove remove = new Nfs4PathRequests.Remove();
    private final Nfs4PathRequests.Readdir readdir = new Nfs4PathRequests.Readdir();
    private final Nfs4Attributes exportAttrs = new Nfs4Attributes();
    private long clientId;
    private int rsize;
    private int wsize;
    private int maxOps;
    private boolean backChannelBound;
    private boolean sessionUp;
    private boolean clientUp;
    private boolean closed;

    private Nfs41Session(final RpcClient client, final Nfs4CallbackProgram callback, final Nfs41Options options)
    {
        this.options = options;
        this.channel = new Nfs4ForeChannel(client, options);
        this.callback = callback;
        this.paths = new Nfs4PathWalker(channel, Nfs4Path.components(options.exportPath()));
        this.lease = new Nfs4Lease(channel, options);
        this.delegations = new Nfs4DelegationKeeper(channel, options, lease);
        this.file = new Nfs4OpenFile(channel, paths, delegations, options);
        this.transfer = new Nfs4FileTransfer(channel, options, file);
    }

    /**
     * Make a client ID and a session, tell the server there is nothing to reclaim, and look the export up.
     *
     * @param client the RPC client (its transport dispatches reverse-direction calls to {@code callback})
     * @param callback the callback service, or null for a session without a back channel
     * @param options what to ask for
     * @return the session
     * @throws Nfs4Exception when the server refuses (the client ID and session made so far are destroyed)
     */
    public static Nfs41Session connect(
        final RpcClient client, final Nfs4CallbackProgram callback, final Nfs41Options options)
    {
        final Nfs41Session session = new Nfs41Session(client, callback, options);
        try
        {
            session.establish();
        }
        catch (final RuntimeException ex)
        {
            try
            {
                session.close();
            }
            catch (final RuntimeException suppressed)
            {
                ex.addSuppressed(suppressed);
            }
            throw ex;
        }
        return session;
    }

    private void establish()
    {
        exchangeId.verifier = options.verifier();
        exchangeId.ownerId = options.ownerId();
        channel.runAlone(exchangeId);
        clientId = exchangeId.result.clientId();
        file.clientId(clientId);
        clientUp = true;
        createSession();
        channel.run(reclaimComplete);
        lookUpExport();
        transfer.sizes(rsize, wsize);
    }

    /** CREATE_SESSION: the channels granted, the callback service bound, the sizes the session allows. */
    private void createSession()
    {
        final Nfs4SessionRequests.CreateSession cs = createSession;
        cs.clientId = clientId;
        cs.sequence = exchangeId.result.sequenceId();
        cs.flags = null == callback ? 0 : Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN;
        cs.cbProgram = null == callback ? Nfs4CallbackProgram.DEFAULT_PROGRAM : callback.number();
        cs.authSys = options.callbackAuthSys();
        cs.machineName = options.machineName();
        cs.stamp = (int)(options.verifier() ^ (options.verifier() >>> 32));
        cs.fore.set(options.wsize() + IO_OVERHEAD, Math.max(options.rsize(), options.readdirMaxCount()) + IO_OVERHEAD,
            options.foreMaxResponseCached(), options.foreMaxOps(), options.foreSlots());
        cs.back.set(options.backMaxMessage(), options.backMaxMessage(), 0, options.backMaxOps(), options.backSlots());
        channel.runAlone(cs);
        final Nfs4CreateSessionResult created = cs.result;
        copy(created.fore(), fore);
        copy(created.back(), back);
        channel.open(created.session(), fore.maxRequests());
        sessionUp = true;
        backChannelBound = null != callback && 0 != (created.flags() & Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN);
        delegations.recallable(backChannelBound);
        if (null != callback)
        {
            callback.bind(created.session(), back.maxRequests(), back.maxOperations(), delegations.table(),
                channel.slots());
        }
        maxOps = Math.min(fore.maxOperations(), options.foreMaxOps());
        paths.maxOperations(maxOps);
        if (maxOps < 5)
        {
            // SEQUENCE PUTFH OPEN GETFH GETATTR is the smallest COMPOUND this client sends
            throw new Nfs4Exception("CREATE_SESSION: the server allows " + maxOps + " operations per COMPOUND, " +
                "at least 5 are needed");
        }
        rsize = Math.min(options.rsize(), fore.maxResponseSize() - IO_OVERHEAD);
        wsize = Math.min(options.wsize(), fore.maxRequestSize() - IO_OVERHEAD);
    }

    /** The export's handle and attributes: a directory, its lease_time, maxread and maxwrite. */
    private void lookUpExport()
    {
        lookup.attrMask = Nfs4PathRequests.FILE_ATTRS | Nfs4Attr.mask(Nfs4Attr.LEASE_TIME, Nfs4Attr.MAXREAD,
            Nfs4Attr.MAXWRITE);
        try
        {
            final String[] export = paths.export();
            paths.walk(lookup, export, export.length, 2);
            channel.run(lookup);
        }
        finally
        {
            lookup.attrMask = Nfs4PathRequests.FILE_ATTRS;
        }
        exportAttrs.copy(lookup.attrs);
        if (Nfs4.NF4DIR != exportAttrs.type())
        {
            throw new Nfs4Exception("export " + options.exportPath() + " is not a directory");
        }
        lease.seconds(exportAttrs.has(Nfs4Attr.LEASE_TIME) ? exportAttrs.leaseTime() : 90);
        if (exportAttrs.has(Nfs4Attr.MAXREAD) && exportAttrs.maxRead() > 0)
        {
            rsize = (int)Math.min(rsize, exportAttrs.maxRead());
        }
        if (exportAttrs.has(Nfs4Attr.MAXWRITE) && exportAttrs.maxWrite() > 0)
        {
            wsize = (int)Math.min(wsize, exportAttrs.maxWrite());
        }
        if (rsize < 512 || wsize < 512)
        {
            throw new Nfs4Exception("the session allows READs of " + rsize + " and WRITEs of " + wsize + " bytes");
        }
    }

    private static void copy(final Nfs4ChannelAttrs from, final Nfs4ChannelAttrs to)
    {
        to.set(from.maxRequestSize(), from.maxResponseSize(), from.maxResponseSizeCached(), from.maxOperations(),
            from.maxRequests());
    }

    // ---- paths ----------------------------------------------------------------------------------------------

    /**
     * @param path a path under the export ("" for the export)
     * @return its file handle (a new object)
     */
    public Nfs4FileHandle lookup(final String path)
    {
        final String[] all = paths.resolve(path);
        paths.walk(lookup, all, all.length, 2);
        channel.run(lookup);
        final Nfs4FileHandle fh = new Nfs4FileHandle().copy(lookup.fh);
        delegations.returnRecalledIfAny();
        return fh;
    }

    /**
     * @param path a path under the export ("" for the export)
     * @return its type, size, mode, change, fileid, numlinks and time_modify (a new object)
     */
    public Nfs4Attributes getattr(final String path)
    {
        final String[] all = paths.resolve(path);
        paths.walk(lookup, all, all.length, 2);
        channel.run(lookup);
        final Nfs4Attributes attrs = new Nfs4Attributes().copy(lookup.attrs);
        delegations.returnRecalledIfAny();
        return attrs;
    }

    /**
     * List a directory: READDIR pages, each continuing at the last cookie (RFC 8881 §18.23.4), until eof.
     *
     * @param path a directory under the export ("" for the export)
     * @return its entries with type and size, in the server's order
     */
    public List<Nfs4DirEntry> list(final String path)
    {
        final String[] all = paths.resolve(path);
        paths.walk(readdir, all, all.length, 2);
        readdir.entries.clear();
        readdir.cookie = 0;
        readdir.verifier = 0;
        readdir.maxCount = options.readdirMaxCount();
        readdir.eof = false;
        while (!readdir.eof)
        {
            channel.run(readdir);
        }
        final List<Nfs4DirEntry> out = new ArrayList<>(readdir.entries);
        readdir.entries.clear();
        delegations.returnRecalledIfAny();
        return out;
    }

    /**
     * Create an empty file (OPEN with OPEN4_CREATE, then CLOSE). UNCHECKED4 leaves an existing file as it is;
     * exclusive uses GUARDED4, which fails with NFS4ERR_EXIST.
     *
     * @param path the new file under the export
     * @param mode its mode bits (0644 ...)
     * @param exclusive true: fail when it exists
     */
    public void create(final String path, final int mode, final boolean exclusive)
    {
        file.open(path, Nfs4.SHARE_ACCESS_WRITE, options.wantDelegation(), true,
            exclusive ? Nfs4.GUARDED4 : Nfs4.UNCHECKED4, -1, mode);
        file.close(null);
        delegations.returnRecalledIfAny();
    }

    /**
     * @param path a file or empty directory under the export
     */
    public void remove(final String path)
    {
        final String[] all = paths.fileIn(path);
        paths.walk(remove, all, all.length - 1, 1);
        remove.name = all[all.length - 1];
        channel.run(remove);
        delegations.returnRecalledIfAny();
    }

    // ---- data -----------------------------------------------------------------------------------------------

    /**
     * Read a whole file into a channel, from the channel's position, with {@link Nfs41Options#outstanding()} READs
     * of {@link #rsize()} in flight.
     *
     * @param path the file under the export
     * @param out where its bytes go (the position moves past them)
     * @param progress told after each chunk
     * @return bytes read
     * @throws IOException when the channel fails
     */
    public long read(final String path, final FileChannel out, final Nfs4Progress progress) throws IOException
    {
        return read(path, out, null, progress);
    }

    /**
     * Read a whole file into a stream, in order, with {@link Nfs41Options#outstanding()} READs in flight.
     *
     * @param path the file under the export
     * @param out where its bytes go
     * @param progress told after each chunk
     * @return bytes read
     * @throws IOException when the stream fails
     */
    public long read(final String path, final OutputStream out, final Nfs4Progress progress) throws IOException
    {
        return read(path, null, out, progress);
    }

    private long read(final String path, final FileChannel channelOut, final OutputStream streamOut,
        final Nfs4Progress progress) throws IOException
    {
        final long n = transfer.read(path, channelOut, streamOut, progress);
        delegations.returnRecalledIfAny();
        return n;
    }

    /**
     * Write a local file to the server: create or truncate it (OPEN4_CREATE UNCHECKED4 with size 0), WRITE it with
     * {@link Nfs41Options#outstanding()} calls of {@link #wsize()} in flight, COMMIT, CLOSE. When the write
     * verifier changes (the server restarted before COMMIT, RFC 8881 §18.3.4), the file is written once more.
     *
     * @param in the local file, read from position 0 to its size
     * @param path the file under the export
     * @param mode mode bits when it is created
     * @param progress told after each WRITE
     * @return bytes written
     * @throws IOException when the local file cannot be read
     */
    public long write(final FileChannel in, final String path, final int mode, final Nfs4Progress progress)
        throws IOException
    {
        final long n = transfer.write(in, path, mode, progress);
        delegations.returnRecalledIfAny();
        return n;
    }

    Nfs4ReadPipeline reader()
    {
        return transfer.reader();
    }

    /**
     * Send a request of the caller's on the session (its SEQUENCE is added), with the session's retries.
     *
     * @param request the request
     */
    public void run(final Nfs4Request request)
    {
        channel.run(request);
        delegations.returnRecalledIfAny();
    }

    // ---- delegations ----------------------------------------------------------------------------------------

    /**
     * Take a read delegation on a file and keep it (RFC 8881 §10.2, §18.16.3): OPEN for reading with
     * OPEN4_SHARE_ACCESS_WANT_READ_DELEG (whatever {@link Nfs41Options#wantDelegation()} says), CLOSE. A delegation
     * granted stays in the session's table after the CLOSE, as Linux's client keeps it, until the server recalls
     * it ({@link #awaitRecall}) or the session closes. knfsd grants none during its grace period, to a file open
     * for writing, or while the callback path is down.
     *
     * @param path the file under the export
     * @return {@link Nfs4#OPEN_DELEGATE_READ} or {@link Nfs4#OPEN_DELEGATE_WRITE} when the session holds a
     *         delegation on the file; {@link Nfs4#OPEN_DELEGATE_NONE} when it holds none ({@link #whyNoDelegation()}
     *         may say why)
     * @throws IllegalStateException when the session has no back channel: the server could not recall it
     */
    public int holdDelegation(final String path)
    {
        if (!backChannelBound)
        {
            throw new IllegalStateException("no back channel: a delegation could not be recalled");
        }
        file.open(path, Nfs4.SHARE_ACCESS_READ, Nfs4.SHARE_ACCESS_WANT_READ_DELEG, false, 0, -1, -1);
        file.close(null);
        final Nfs4Delegations table = delegations.table();
        final int held = table.find(file.fh());
        final int type = held >= 0 ? table.type(held) : Nfs4.OPEN_DELEGATE_NONE;
        delegations.returnRecalledIfAny();
        return type;
    }

    /**
     * Drive the client until a recalled delegation was returned: the server's CB_RECALL answered (by the callback
     * service, during the client's progress), then SEQUENCE PUTFH DELEGRETURN sent from here and answered (RFC
     * 8881 §10.4). The lease is renewed meanwhile (a SEQUENCE every half lease, {@link #renewIfDue()}). A recall
     * returned since the last call that reported one (at the end of another call into the session) counts at
     * once.
     *
     * @param timeoutNs how long to wait, by {@link Nfs41Options#clock()}
     * @return true when a recalled delegation was returned (the server answered its DELEGRETURN, NFS4_OK or that it
     *         no longer had it); false when the time is up, or at once when no delegation is held
     */
    public boolean awaitRecall(final long timeoutNs)
    {
        return delegations.awaitRecall(timeoutNs);
    }

    /**
     * Return every delegation recalled so far, each with SEQUENCE PUTFH DELEGRETURN (RFC 8881 §18.6). Every call
     * into the session does this at its end; a caller that is idle for long calls it or {@link #awaitRecall}.
     * A DELEGRETURN answered NFS4ERR_BAD_STATEID, NFS4ERR_DELEG_REVOKED, NFS4ERR_ADMIN_REVOKED, NFS4ERR_EXPIRED or
     * NFS4ERR_STALE means the server no longer has the delegation: it is dropped too ({@link #delegationsLost()}).
     *
     * @return DELEGRETURNs answered
     * @throws Nfs4Exception when a DELEGRETURN failed otherwise (the delegation stays recalled: a later call tries
     *                       again)
     */
    public int returnRecalled()
    {
        return delegations.returnRecalled();
    }

    // ---- lease ----------------------------------------------------------------------------------------------

    /** Send a SEQUENCE alone: it renews the lease (RFC 8881 §8.3) and refreshes {@link #statusFlags()}. */
    public void renewLease()
    {
        lease.renew();
        delegations.returnRecalledIfAny();
    }

    /**
     * Renew the lease when half of it passed since the last SEQUENCE; call it at least every quarter lease while
     * idle.
     *
     * @return true when a SEQUENCE was sent
     */
    public boolean renewIfDue()
    {
        if (lease.due())
        {
            renewLease();
            return true;
        }
        return false;
    }

    /** @return nanoseconds since the last successful SEQUENCE */
    public long nanosSinceRenewal()
    {
        return lease.nanosSinceRenewal();
    }

    // ---- shutdown -------------------------------------------------------------------------------------------

    /**
     * DELEGRETURN of every delegation held, DESTROY_SESSION then DESTROY_CLIENTID (RFC 8881 §18.6, §18.37,
     * §18.50): the server forgets this client at once instead of at the end of its lease. Idempotent.
     *
     * @throws Nfs4Exception when any was refused (all are tried)
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        if (sessionUp)
        {
            failure = endSession();
        }
        if (clientUp)
        {
            try
            {
                destroyClientId.clientId = clientId;
                channel.runAlone(destroyClientId);
            }
            catch (final RuntimeException ex)
            {
                failure = firstOf(failure, ex);
            }
            clientUp = false;
        }
        if (null != failure)
        {
            throw failure;
        }
    }

    /**
     * DELEGRETURN of every delegation held, then DESTROY_SESSION; the callback service is unbound either way.
     *
     * @return the first failure, later ones suppressed in it, or null
     */
    private RuntimeException endSession()
    {
        RuntimeException failure = null;
        try
        {
            delegations.returnAll();
        }
        catch (final RuntimeException ex)
        {
            failure = ex;
        }
        try
        {
            destroySession.session.copy(channel.session());
            channel.runAlone(destroySession);
        }
        catch (final RuntimeException ex)
        {
            failure = firstOf(failure, ex);
        }
        sessionUp = false;
        if (null != callback)
        {
            callback.unbind();
        }
        return failure;
    }

    /** @return the failure so far, with another suppressed in it; or the other when there was none */
    private static RuntimeException firstOf(final RuntimeException failure, final RuntimeException ex)
    {
        if (null == failure)
        {
            return ex;
        }
        failure.addSuppressed(ex);
        return failure;
    }

    // ---- state ----------------------------------------------------------------------------------------------

    /** @return the client ID from EXCHANGE_ID */
    public long clientId()
    {
        return clientId;
    }

    /** @return the session id */
    public Nfs4SessionId sessionId()
    {
        return channel.session();
    }

    /** @return the fore channel the server granted */
    public Nfs4ChannelAttrs foreChannel()
    {
        return fore;
    }

    /** @return the back channel the server granted */
    public Nfs4ChannelAttrs backChannel()
    {
        return back;
    }

    /** @return true when the server bound this connection as the back channel too (callbacks can come) */
    public boolean backChannelBound()
    {
        return backChannelBound;
    }

    /** @return the server's lease_time in seconds */
    public int leaseSeconds()
    {
        return lease.seconds();
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

    /** @return operations per COMPOUND the session allows */
    public int maxOperations()
    {
        return maxOps;
    }

    /** @return fore channel slots held by requests (0 between calls) */
    int slotsInUse()
    {
        return channel.slots().inUse();
    }

    /** @return the fore channel's slots usable now */
    public int slots()
    {
        return channel.slots().limit();
    }

    /** @return the export's attributes as looked up at connect */
    public Nfs4Attributes exportAttributes()
    {
        return exportAttrs;
    }

    /** @return true when RECLAIM_COMPLETE was answered NFS4ERR_COMPLETE_ALREADY */
    public boolean reclaimWasComplete()
    {
        return reclaimComplete.alreadyComplete;
    }

    /** @return sr_status_flags of the last SEQUENCE (SEQ4_STATUS_CB_PATH_DOWN ...) */
    public int statusFlags()
    {
        return channel.statusFlags();
    }

    /** @return the server's EXCHANGE_ID answer (owner, scope, implementation) */
    public Nfs4ExchangeIdResult serverIdentity()
    {
        return exchangeId.result;
    }

    /** @return COMPOUNDs sent, retries included */
    public long compounds()
    {
        return channel.compounds();
    }

    /** @return retries after NFS4ERR_DELAY */
    public long delayRetries()
    {
        return channel.delayRetries();
    }

    /** @return retries after NFS4ERR_GRACE */
    public long graceRetries()
    {
        return channel.graceRetries();
    }

    /** @return NFS4ERR_SEQ_MISORDERED answers */
    public long misorderedRetries()
    {
        return channel.misorderedRetries();
    }

    /** @return NFS4ERR_BADSLOT answers */
    public long badSlotRetries()
    {
        return channel.badSlotRetries();
    }

    /** @return files written a second time because the write verifier changed */
    public long rewrites()
    {
        return transfer.rewrites();
    }

    /** @return delegations held now (recalled ones not yet returned included) */
    public int delegationsHeld()
    {
        return delegations.held();
    }

    /** @return delegations OPEN granted (each counted once, however often it was granted again) */
    public long delegationsGranted()
    {
        return delegations.granted();
    }

    /** @return DELEGRETURNs answered NFS4_OK: with a CLOSE, on recall, at close */
    public long delegationsReturned()
    {
        return delegations.returned();
    }

    /** @return delegations dropped because the server said it no longer had them (revoked, expired, stale) */
    public long delegationsLost()
    {
        return delegations.lost();
    }

    /** @return recalled delegations returned (DELEGRETURN answered) */
    public long recallsReturned()
    {
        return delegations.recallsReturned();
    }

    /** @return why_no_delegation4 of the last OPEN (WND4_*, with OPEN_DELEGATE_NONE_EXT), or -1 */
    public int whyNoDelegation()
    {
        return file.whyNoDelegation();
    }
}
