package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcClient;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * What a session does with the delegations it is granted (RFC 8881 §10.2, §10.4): keeps them in its table
 * ({@link Nfs4Delegations}) after their CLOSE, and gives them back with SEQUENCE PUTFH DELEGRETURN (§18.6) when the
 * server recalled them or when the session closes, always from the session's thread, never inside the callback
 * service's dispatch. Counts what it kept, returned and lost.
 * <pre>
 *   keep:      a delegation OPEN granted goes in the table; without a back channel (it could not be recalled), or
 *              with the table full, it goes back with the CLOSE instead
 *   recalled:  the callback service marked it (CB_RECALL answered NFS4_OK); returnRecalled sends its DELEGRETURN
 *   at close:  returnAll sends a DELEGRETURN for each held (DESTROY_CLIENTID is refused while the client has state)
 *   gone:      a DELEGRETURN answered BAD_STATEID, DELEG_REVOKED, ADMIN_REVOKED, EXPIRED or STALE drops the entry
 * </pre>
 * Not thread safe: the session's thread uses it, and the callback service on that thread marks the table.
 */
final class Nfs4DelegationKeeper
{
    private final Nfs4ForeChannel channel;
    private final Nfs41Options options;
    private final Nfs4Lease lease;
    private final Nfs4Delegations delegations = new Nfs4Delegations();
    private final Nfs4PathRequests.DelegReturn delegReturn = new Nfs4PathRequests.DelegReturn();
    private boolean recallable;
    private long granted;
    private long returned;
    private long lost;
    private long recallsReturned;
    private long recallsReported;

    /**
     * @param channel where the DELEGRETURNs go
     * @param options the session's options (clock and idle strategy of {@link #awaitRecall})
     * @param lease renewed while {@link #awaitRecall} waits
     */
    Nfs4DelegationKeeper(final Nfs4ForeChannel channel, final Nfs41Options options, final Nfs4Lease lease)
    {
        this.channel = channel;
        this.options = options;
        this.lease = lease;
    }

    /** @return the table the callback service marks recalls in */
    Nfs4Delegations table()
    {
        return delegations;
    }

    /** @param backChannelBound true when the server can recall a delegation: only then is one kept */
    void recallable(final boolean backChannelBound)
    {
        recallable = backChannelBound;
    }

    /**
     * A delegation came with an OPEN: keep it in the table (RFC 8881 §10.2: it lasts until returned or recalled).
     *
     * @param o the OPEN answered
     * @param what the file's path
     * @return false when it cannot be kept (no back channel to recall it by, or the table is full): it goes back
     *         with the CLOSE
     */
    boolean keep(final Nfs4PathRequests.Open o, final String what)
    {
        final Nfs4Stateid stateid = o.result.delegationStateid();
        final boolean held = delegations.indexOf(stateid) >= 0;
        if (!held)
        {
            granted++;
            if (!recallable)
            {
                return false;
            }
        }
        return delegations.add(stateid, o.fh, what, o.result.delegationType()) >= 0;
    }

    /** A delegation not kept went back with its CLOSE, answered. */
    void returnedWithClose()
    {
        returned++;
    }

    /**
     * Drive the client until a recalled delegation was returned, renewing the lease meanwhile; a recall returned
     * since the last one reported counts at once.
     *
     * @param timeoutNs how long to wait, by {@link Nfs41Options#clock()}
     * @return true when a recalled delegation was returned; false when the time is up, or at once when no
     *         delegation is held
     */
    boolean awaitRecall(final long timeoutNs)
    {
        final NanoClock clock = options.clock();
        final IdleStrategy idle = options.idle();
        final RpcClient client = channel.client();
        final long deadline = clock.nanoTime() + timeoutNs;
        idle.reset();
        while (true)
        {
            returnRecalledIfAny();
            if (recallsReturned != recallsReported)
            {
                recallsReported = recallsReturned;
                return true;
            }
            if (0 == delegations.size() || clock.nanoTime() - deadline >= 0)
            {
                return false;
            }
            if (lease.due())
            {
                lease.renew();
                returnRecalledIfAny();
                continue; // its COMPOUND drove the client: look again before idling
            }
            idle.idle(client.progress());
        }
    }

    /**
     * Return every delegation recalled so far, each with SEQUENCE PUTFH DELEGRETURN.
     *
     * @return DELEGRETURNs answered
     * @throws Nfs4Exception when a DELEGRETURN failed otherwise than the delegation being gone (it stays recalled)
     */
    int returnRecalled()
    {
        int answered = 0;
        for (int i = delegations.nextRecalled(0); i >= 0; i = delegations.nextRecalled(0))
        {
            returnDelegation(i);
            recallsReturned++;
            answered++;
        }
        return answered;
    }

    /** {@link #returnRecalled()} when a recall is pending: what every call into the session does at its end. */
    void returnRecalledIfAny()
    {
        if (delegations.recalled() > 0)
        {
            returnRecalled();
        }
    }

    /** DELEGRETURN of an entry; the entry is dropped once the server answered (NFS4_OK or that it is gone). */
    private void returnDelegation(final int i)
    {
        final Nfs4PathRequests.DelegReturn d = delegReturn;
        d.fh.copy(delegations.fh(i));
        d.stateid.copy(delegations.stateid(i));
        d.what = delegations.path(i);
        try
        {
            channel.run(d);
            returned++;
        }
        catch (final Nfs4StatusException ex)
        {
            if (!gone(ex.status()))
            {
                throw ex;
            }
            lost++;
        }
        delegations.remove(i);
    }

    /** @return true when a DELEGRETURN's status says the server has no such delegation (any more) */
    private static boolean gone(final int status)
    {
        return Nfs4Status.BAD_STATEID == status || Nfs4Status.DELEG_REVOKED == status ||
            Nfs4Status.ADMIN_REVOKED == status || Nfs4Status.EXPIRED == status || Nfs4Status.STALE == status;
    }

    /**
     * Return every delegation held (at close): each is tried and dropped, the first failure is thrown after the
     * others; after a failure that is not an NFS status (the RPC failed: the connection is gone) the rest are only
     * dropped.
     */
    void returnAll()
    {
        RuntimeException failure = null;
        for (int i = delegations.next(0); i >= 0; i = delegations.next(i + 1))
        {
            if (null != failure && !(failure instanceof Nfs4StatusException))
            {
                delegations.remove(i);
                continue;
            }
            try
            {
                returnDelegation(i);
            }
            catch (final RuntimeException ex)
            {
                delegations.remove(i);
                if (null == failure)
                {
                    failure = ex;
                }
                else
                {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (null != failure)
        {
            throw failure;
        }
    }

    /** @return delegations held now (recalled ones not yet returned included) */
    int held()
    {
        return delegations.size();
    }

    /** @return delegations OPEN granted (each counted once, however often it was granted again) */
    long granted()
    {
        return granted;
    }

    /** @return DELEGRETURNs answered NFS4_OK: with a CLOSE, on recall, at close */
    long returned()
    {
        return returned;
    }

    /** @return delegations dropped because the server said it no longer had them */
    long lost()
    {
        return lost;
    }

    /** @return recalled delegations returned (DELEGRETURN answered) */
    long recallsReturned()
    {
        return recallsReturned;
    }
}
