package io.jrxe.rxe.engine;

import org.agrona.concurrent.NanoClock;

/** A clock tests move by hand. */
final class ManualClock implements NanoClock
{
    private long now = 1_000_000_000L;

    @Override
    public long nanoTime()
    {
        return now;
    }

    void advance(final long ns)
    {
        now += ns;
    }
}
