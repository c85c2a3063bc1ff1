package io.jrxe.driver.emu;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed set of named counters, each written by one thread (ordered stores, no CAS) and readable from any.
 * Counters that more than one thread bumps use {@link #incrementShared(int)}.
 */
class SingleWriterCounters
{
    private final AtomicLongArray values;
    private final String[] names;

    SingleWriterCounters(final String... names)
    {
        this.names = names.clone();
        this.values = new AtomicLongArray(names.length);
    }

    final void increment(final int id)
    {
        values.lazySet(id, values.get(id) + 1);
    }

    final void add(final int id, final long delta)
    {
        values.lazySet(id, values.get(id) + delta);
    }

    /** Raises counter {@code id} to {@code value} if that is larger (a high-water mark). */
    final void max(final int id, final long value)
    {
        if (value > values.get(id))
        {
            values.lazySet(id, value);
        }
    }

    final void incrementShared(final int id)
    {
        values.incrementAndGet(id);
    }

    /** Value of counter {@code id}. */
    public final long get(final int id)
    {
        return values.get(id);
    }

    /** Number of counters. */
    public final int count()
    {
        return names.length;
    }

    /** Name of counter {@code id}, in snake_case as tools print it. */
    public final String name(final int id)
    {
        return names[id];
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.length; i++)
        {
            if (i > 0)
            {
                sb.append(' ');
            }
            sb.append(names[i]).append('=').append(values.get(i));
        }
        return sb.toString();
    }
}
