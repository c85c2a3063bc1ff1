package io.jrxe.ulp.nfs4;

import org.agrona.concurrent.NanoClock;

/**
 * The bounded wait of a request the server asked to retry later (NFS4ERR_DELAY, RFC 8881 §15.1.1.3;
 * NFS4ERR_GRACE, §15.1.9.2): waits double from an initial one up to a cap, and the retries stop once the total
 * passes a limit, as Linux's client polls between NFS4_POLL_RETRY_MIN and _MAX. Reused; not thread safe.
 */
final class Nfs4Backoff
{
    private final NanoClock clock;
    private final long limitNs;
    private final long initialNs;
    private final long maxNs;
    private long startNs;
    private long nextNs;
    private boolean started;
    private int retries;

    Nfs4Backoff(final Nfs41Options options)
    {
        this.clock = options.clock();
        this.limitNs = options.retryLimitNs();
        this.initialNs = options.retryInitialNs();
        this.maxNs = options.retryMaxNs();
    }

    /** A request starts (or one succeeded): its retries start from nothing. */
    void reset()
    {
        started = false;
        retries = 0;
    }

    /** @return retries since {@link #reset()} */
    int retries()
    {
        return retries;
    }

    /** @return nanoseconds waited or spent since the first retry of this request */
    long elapsedNs()
    {
        return started ? clock.nanoTime() - startNs : 0;
    }

    /**
     * @return how long to wait before the next retry, or -1 when the limit has passed (give up)
     */
    long nextWaitNs()
    {
        final long now = clock.nanoTime();
        if (!started)
        {
            started = true;
            startNs = now;
            nextNs = initialNs;
        }
        final long spent = now - startNs;
        if (spent >= limitNs)
        {
            return -1;
        }
        final long wait = Math.min(nextNs, limitNs - spent);
        nextNs = Math.min(nextNs * 2, maxNs);
        retries++;
        return wait;
    }
}
