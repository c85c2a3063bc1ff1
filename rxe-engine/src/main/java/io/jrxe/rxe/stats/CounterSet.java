package io.jrxe.rxe.stats;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A writable block of counter values: a device set or one QP's slot in a {@link CountersFile}. Single writer:
 * only the thread that owns the device set or QP may call the mutators; each update is a plain read plus an
 * ordered (release) store, so readers in other threads or processes see whole values without any atomic
 * read-modify-write on the hot path.
 * <p>
 * A QP set may have a parent (its device set): every update is applied to both, so device totals survive the QP.
 * A detached set (no free QP slot) writes to private memory nobody reads and still forwards to its parent, so
 * callers never test for "no slot".
 */
public final class CounterSet
{
    private final AtomicBuffer buffer;
    private final int base;
    private final int slot;
    private final int qpn;
    private final CounterSet parent;

    CounterSet(final AtomicBuffer buffer, final int base, final int slot, final int qpn, final CounterSet parent)
    {
        this.buffer = buffer;
        this.base = base;
        this.slot = slot;
        this.qpn = qpn;
        this.parent = parent;
    }

    static CounterSet detached(final int counterSlots, final int qpn, final CounterSet parent)
    {
        return new CounterSet(
            new UnsafeBuffer(new byte[CountersDescriptor.valuesLength(counterSlots)]), 0, -1, qpn, parent);
    }

    /**
     * Adds one.
     *
     * @param counter which counter
     */
    public void increment(final RxeCounter counter)
    {
        add(counter.id(), 1L);
    }

    /**
     * Adds {@code delta}.
     *
     * @param counter which counter
     * @param delta   amount to add
     */
    public void add(final RxeCounter counter, final long delta)
    {
        add(counter.id(), delta);
    }

    /**
     * Adds {@code delta} to the counter with id {@code id} here and in the parent set.
     *
     * @param id    counter id, {@link RxeCounter#id()}
     * @param delta amount to add
     */
    public void add(final int id, final long delta)
    {
        final int offset = base + id * CountersDescriptor.VALUE_LENGTH;
        buffer.putLongOrdered(offset, buffer.getLong(offset) + delta);
        if (null != parent)
        {
            parent.add(id, delta);
        }
    }

    /**
     * Current value as the owner thread sees it.
     *
     * @param counter which counter
     * @return its value in this set
     */
    public long get(final RxeCounter counter)
    {
        return buffer.getLong(base + counter.id() * CountersDescriptor.VALUE_LENGTH);
    }

    /**
     * @return the QP slot index, -1 for a device set or a detached QP set
     */
    public int slot()
    {
        return slot;
    }

    /**
     * @return the QPN of a QP set, -1 for a device set
     */
    public int qpn()
    {
        return qpn;
    }

    /**
     * @return the set updates are forwarded to, or null
     */
    public CounterSet parent()
    {
        return parent;
    }

    /**
     * @return true if this QP set has no slot in the file (its own values are invisible to readers)
     */
    public boolean isDetached()
    {
        return -1 == slot && -1 != qpn;
    }

    int base()
    {
        return base;
    }
}
