package io.jrxe.ulp.nfs4;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcClient;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * A session's fore channel (RFC 8881 §2.10.3): sends {@link Nfs4Request}s as COMPOUNDs on an {@link RpcClient},
 * each on a slot of the {@link Nfs4SlotTable} behind a SEQUENCE, and reads SEQUENCE's result before the
 * request's own. Synchronous ({@link #run}) or split for requests kept in flight together ({@link #begin}, then
 * the caller's submit, then {@link #complete}). Not thread safe: the session's thread drives it and the client.
 * <pre>
 *   run(request):   slot = acquire -> begin: prepare, SEQUENCE(session, slot's seqid, slot, highest, cachethis),
 *                   request.encode -> execute -> complete: SEQUENCE result -> slot table -> request.decode
 *                   DONE | RETRY (slot fixed: at once) | RETRY_LATER (DELAY, GRACE: after a bounded wait)
 * </pre>
 * Operations sent before a session exists or to end it (EXCHANGE_ID, CREATE_SESSION, DESTROY_SESSION,
 * DESTROY_CLIENTID) go alone, without SEQUENCE ({@link #runAlone}; RFC 8881 §18.35.3, §18.36.3, §18.37.3,
 * §18.50.3 let each be the only operation).
 */
final class Nfs4ForeChannel
{
    /** {@link #complete}: the request's results were read. */
    static final int DONE = 0;
    /** {@link #complete}: send the request again now (the slot was corrected). */
    static final int RETRY = 1;
    /** {@link #complete}: send it again after a wait (NFS4ERR_DELAY, NFS4ERR_GRACE); see {@link #retryCause()}. */
    static final int RETRY_LATER = 2;

    private final RpcClient client;
    private final NanoClock clock;
    private final IdleStrategy idle;
    private final Nfs4SlotTable slots = new Nfs4SlotTable();
    private final Nfs4SessionId session = new Nfs4SessionId();
    private final Nfs4CompoundEncoder enc = new Nfs4CompoundEncoder();
    private final Nfs4CompoundDecoder dec = new Nfs4CompoundDecoder();
    private final Nfs4SequenceResult sequence = new Nfs4SequenceResult();
    private final RpcCall call = new RpcCall();
    private final Nfs4Backoff backoff;
    private Nfs4StatusException retryCause;

    private long compounds;
    private long delayRetries;
    private long graceRetries;
    private long misorderedRetries;
    private long badSlotRetries;
    private long lastSequenceNs;
    private int statusFlags;

    Nfs4ForeChannel(final RpcClient client, final Nfs41Options options)
    {
        this.client = client;
        this.clock = options.clock();
        this.idle = options.idle();
        this.backoff = new Nfs4Backoff(options);
    }

    /**
     * The session exists: requests go on its slots from now on.
     *
     * @param id the session id
     * @param slotCount ca_maxrequests granted
     */
    void open(final Nfs4SessionId id, final int slotCount)
    {
        session.copy(id);
        slots.reset(slotCount);
        lastSequenceNs = clock.nanoTime();
    }

    RpcClient client()
    {
        return client;
    }

    Nfs4SlotTable slots()
    {
        return slots;
    }

    Nfs4SessionId session()
    {
        return session;
    }

    /**
     * Send a request alone (no SEQUENCE), retrying NFS4ERR_DELAY within the bounded wait.
     *
     * @param request the request
     */
    void runAlone(final Nfs4Request request)
    {
        backoff.reset();
        while (true)
        {
            prepare(request, call);
            try
            {
                enc.begin(call.args());
                request.encode(enc, call);
                enc.end();
                call.replyLimit(enc.replyLimit());
            }
            catch (final RuntimeException ex)
            {
                client.release(call);
                throw ex;
            }
            client.execute(call);
            compounds++;
            try
            {
                checkRpc(request, call);
                dec.wrap(call.results());
                request.decode(dec, call);
                return;
            }
            catch (final XdrException ex)
            {
                throw malformed(request, ex);
            }
            catch (final Nfs4StatusException ex)
            {
                if (Nfs4Status.DELAY != ex.status())
                {
                    throw ex;
                }
                delayRetries++;
                retryCause = ex;
            }
            finally
            {
                client.release(call);
            }
            waitToRetry();
        }
    }

    /**
     * Send a request on a slot and wait for its results, retrying as the server asks.
     *
     * @param request the request
     * @throws Nfs4StatusException when an operation failed (or kept asking for retries past the limit)
     * @throws Nfs4RpcException when the RPC failed
     */
    void run(final Nfs4Request request)
    {
        backoff.reset();
        while (true)
        {
            final int slot = slots.acquire();
            if (slot < 0)
            {
                throw new IllegalStateException("no free slot for " + request.name() + ": " + slots.inUse() +
                    " in use");
            }
            begin(request, call, slot);
            client.execute(call);
            final int outcome = complete(request, call, slot);
            if (DONE == outcome)
            {
                return;
            }
            if (RETRY_LATER == outcome)
            {
                waitToRetry();
            }
        }
    }

    private void waitToRetry()
    {
        final long waitNs = backoff.nextWaitNs();
        if (waitNs < 0)
        {
            throw new Nfs4StatusException(retryCause.op(), retryCause.status(),
                "still refused after " + backoff.retries() + " retries in " + backoff.elapsedNs() / 1_000_000 + " ms");
        }
        pause(waitNs);
    }

    /**
     * Wait, driving the RPC client (its replies, and the callbacks its transport hands to the back channel).
     *
     * @param nanos how long
     */
    void pause(final long nanos)
    {
        final long deadline = clock.nanoTime() + nanos;
        idle.reset();
        while (clock.nanoTime() - deadline < 0)
        {
            idle.idle(client.progress());
        }
    }

    /** @return the bounded wait of requests run by {@link #run} */
    Nfs4Backoff backoff()
    {
        return backoff;
    }

    /**
     * Prepare a call and write SEQUENCE and the request's operations.
     *
     * @param request the request
     * @param rpc an idle call
     * @param slot a slot acquired for it
     */
    void begin(final Nfs4Request request, final RpcCall rpc, final int slot)
    {
        try
        {
            prepare(request, rpc);
        }
        catch (final RuntimeException ex)
        {
            slots.unchanged(slot);
            throw ex;
        }
        try
        {
            enc.begin(rpc.args());
            enc.sequence(session, slots.sequenceId(slot), slot, slots.highestInUse(), request.cacheThis());
            request.encode(enc, rpc);
            enc.end();
            rpc.replyLimit(enc.replyLimit());
        }
        catch (final RuntimeException ex)
        {
            slots.unchanged(slot);
            client.release(rpc);
            throw ex;
        }
    }

    private void prepare(final Nfs4Request request, final RpcCall rpc)
    {
        int rc;
        idle.reset();
        while (-Errno.ENOMEM == (rc = client.prepare(rpc, Nfs4.PROGRAM, Nfs4.VERSION, Nfs4.PROC_COMPOUND)))
        {
            idle.idle(client.progress()); // no transport buffer now: calls in flight will give theirs back
        }
        if (0 != rc)
        {
            throw new Nfs4Exception(request.name() + ": the RPC client refused the call (errno " + -rc + ")");
        }
    }

    /**
     * A call begun by {@link #begin} is done: read SEQUENCE's result, settle the slot, read the request's results,
     * give the call back to the client.
     *
     * @param request the request
     * @param rpc the done call
     * @param slot its slot
     * @return {@link #DONE}, {@link #RETRY} or {@link #RETRY_LATER}
     * @throws Nfs4StatusException when an operation failed for good
     * @throws Nfs4RpcException when the RPC failed
     */
    int complete(final Nfs4Request request, final RpcCall rpc, final int slot)
    {
        compounds++;
        boolean settled = false;
        try
        {
            if (0 != rpc.status())
            {
                settled = true;
                slots.noReply(slot);
                throw Nfs4RpcException.of(request.name(), rpc);
            }
            if (!rpc.accepted())
            {
                settled = true;
                slots.unchanged(slot); // refused by the RPC layer: the NFS server never saw the slot
                throw Nfs4RpcException.of(request.name(), rpc);
            }
            dec.wrap(rpc.results());
            final int sentSequence = slots.sequenceId(slot);
            final int status;
            try
            {
                status = dec.next(Nfs4.OP_SEQUENCE);
            }
            catch (final Nfs4StatusException ex)
            {
                settled = true;
                slots.unchanged(slot); // refused as a whole (BADXDR, MINOR_VERS_MISMATCH): SEQUENCE did not run
                throw ex;
            }
            if (Nfs4Status.OK != status)
            {
                settled = true;
                return sequenceFailed(slot, status);
            }
            dec.sequence(sequence);
            checkEcho(slot, sentSequence);
            settled = true;
            slots.succeeded(slot, sequence.highestSlot(), sequence.targetHighestSlot());
            lastSequenceNs = clock.nanoTime();
            statusFlags = sequence.statusFlags();
            try
            {
                request.decode(dec, rpc);
                return DONE;
            }
            catch (final Nfs4StatusException ex)
            {
                if (Nfs4Status.DELAY == ex.status() || Nfs4Status.GRACE == ex.status())
                {
                    if (Nfs4Status.DELAY == ex.status())
                    {
                        delayRetries++;
                    }
                    else
                    {
                        graceRetries++;
                    }
                    retryCause = ex;
                    return RETRY_LATER;
                }
                throw ex;
            }
        }
        catch (final XdrException ex)
        {
            throw malformed(request, ex);
        }
        finally
        {
            if (!settled)
            {
                slots.noReply(slot); // the reply did not decode: what the server did is unknown
            }
            client.release(rpc);
        }
    }

    private void checkEcho(final int slot, final int sentSequence)
    {
        if (!sequence.session().matches(session.high(), session.low()) || sequence.slot() != slot ||
            sequence.sequenceId() != sentSequence)
        {
            throw new XdrException("SEQUENCE result for session " + sequence.session() + " slot " + sequence.slot() +
                " seqid " + sequence.sequenceId() + ", sent " + session + " slot " + slot + " seqid " + sentSequence);
        }
    }

    private int sequenceFailed(final int slot, final int status)
    {
        switch (status)
        {
            case Nfs4Status.DELAY:
                slots.unchanged(slot);
                delayRetries++;
                retryCause = new Nfs4StatusException(Nfs4.OP_SEQUENCE, status, "slot " + slot);
                return RETRY_LATER;
            case Nfs4Status.SEQ_MISORDERED:
                misorderedRetries++;
                final int sent = slots.sequenceId(slot);
                if (slots.misordered(slot))
                {
                    return RETRY;
                }
                throw new Nfs4StatusException(Nfs4.OP_SEQUENCE, status, "slot " + slot + " seqid " + sent +
                    ": the session's reply cache and this client disagree");
            case Nfs4Status.BADSLOT:
                badSlotRetries++;
                if (slots.badSlot(slot))
                {
                    return RETRY;
                }
                throw new Nfs4StatusException(Nfs4.OP_SEQUENCE, status, "slot 0");
            default:
                slots.unchanged(slot);
                throw new Nfs4StatusException(Nfs4.OP_SEQUENCE, status, "session " + session + " slot " + slot);
        }
    }

    private static Nfs4Exception malformed(final Nfs4Request request, final XdrException ex)
    {
        return new Nfs4Exception(request.name() + ": malformed reply: " + ex.getMessage(), ex);
    }

    private static void checkRpc(final Nfs4Request request, final RpcCall rpc)
    {
        if (0 != rpc.status() || !rpc.accepted())
        {
            throw Nfs4RpcException.of(request.name(), rpc);
        }
    }

    /** @return the exception a {@link #RETRY_LATER} outcome would surface as when retries run out */
    Nfs4StatusException retryCause()
    {
        return retryCause;
    }

    /** @return COMPOUNDs sent, retries included */
    long compounds()
    {
        return compounds;
    }

    /** @return retries after NFS4ERR_DELAY */
    long delayRetries()
    {
        return delayRetries;
    }

    /** @return retries after NFS4ERR_GRACE */
    long graceRetries()
    {
        return graceRetries;
    }

    /** @return NFS4ERR_SEQ_MISORDERED answers */
    long misorderedRetries()
    {
        return misorderedRetries;
    }

    /** @return NFS4ERR_BADSLOT answers */
    long badSlotRetries()
    {
        return badSlotRetries;
    }

    /** @return when the last SEQUENCE succeeded (it renewed the lease, RFC 8881 §8.3) */
    long lastSequenceNs()
    {
        return lastSequenceNs;
    }

    /** @return sr_status_flags of the last SEQUENCE */
    int statusFlags()
    {
        return statusFlags;
    }
}
