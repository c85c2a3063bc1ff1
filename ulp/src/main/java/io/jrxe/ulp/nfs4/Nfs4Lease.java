package io.jrxe.ulp.nfs4;

/**
 * A session's lease (RFC 8881 §8.3): every SEQUENCE renews it, so a busy session never thinks of it; an idle one
 * sends a SEQUENCE alone once half the lease passed since the last. The fore channel keeps the time of the last
 * SEQUENCE answered; this knows the lease's length (the export's lease_time) and sends the renewal. Not thread
 * safe: the session's thread uses it.
 */
final class Nfs4Lease
{
    private final Nfs4ForeChannel channel;
    private final Nfs41Options options;
    private final Nfs4SessionRequests.Renew renew = new Nfs4SessionRequests.Renew();
    private int seconds;

    /**
     * @param channel where the SEQUENCE goes
     * @param options the session's options (their clock)
     */
    Nfs4Lease(final Nfs4ForeChannel channel, final Nfs41Options options)
    {
        this.channel = channel;
        this.options = options;
    }

    /** @param leaseSeconds the server's lease_time */
    void seconds(final int leaseSeconds)
    {
        seconds = leaseSeconds;
    }

    /** @return the server's lease_time in seconds */
    int seconds()
    {
        return seconds;
    }

    /** Send a SEQUENCE alone: it renews the lease and refreshes the channel's status flags. */
    void renew()
    {
        channel.run(renew);
    }

    /** @return true when half of the lease passed since the last SEQUENCE */
    boolean due()
    {
        return nanosSinceRenewal() >= seconds * 500_000_000L;
    }

    /** @return nanoseconds since the last successful SEQUENCE */
    long nanosSinceRenewal()
    {
        return options.clock().nanoTime() - channel.lastSequenceNs();
    }
}
