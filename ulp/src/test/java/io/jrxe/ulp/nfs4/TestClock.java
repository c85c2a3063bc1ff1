package io.jrxe.ulp.nfs4;

import org.agrona.concurrent.NanoClock;

/**
 * A clock that moves a millisecond each time it is read, so a session's bounded waits pass without sleeping, and
 * that a test can move on at will.
 */
final class TestClock implements NanoClock
{
    private long now = 1_000_000_000L;

    @Override
    public long nanoTime()
    {
        now += 1_000_000L;
        return now;
    }

    void advance(final long nanos)
    {
        now += nanos;
    }
}
