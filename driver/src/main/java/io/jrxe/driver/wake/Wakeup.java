package io.jrxe.driver.wake;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The wake-up line of one thread of control: the thread parks on it when its agents found no work, and whatever
 * gives them work signals it (an application's doorbell or invoke, a frame arriving on an emulated wire, a NIC's
 * interrupt). The thread that parks is the owner; any thread may {@link #signal()}.
 * <pre>
 *   owner (idle strategy)                              any producer
 *   arm():  interrupts on ; state = ARMED ; FENCE       publish work (ring, descriptor, queue entry)
 *   one more duty cycle (re-checks every source)        FENCE
 *   no work: park() while state == ARMED                state == ARMED && CAS ARMED -> AWAKE ? unpark(owner)
 *   work:    disarm(): state = AWAKE ; interrupts off
 * </pre>
 * The two fences make a Dekker pair: each side writes its word, then reads the other's. Either the producer sees
 * ARMED and unparks the owner, or the owner's re-check cycle sees the work; a wake-up cannot be lost between the
 * owner's decision to sleep and the producer's publication. An unpark that comes before the park leaves the
 * thread a permit, so the park returns at once. Interrupts are switched on before ARMED is published for the same
 * reason: a device that publishes used buffers and then sees interrupts enabled raises one, and one that saw them
 * disabled published before the re-check cycle, which finds its buffers.
 * <p>
 * A producer that finds the owner awake costs a fence and a volatile read, and no system call. Signals while the
 * owner runs are free. Nothing is allocated after the {@link Arming} hooks are registered.
 */
public final class Wakeup
{
    /** What a thread's devices do when it arms and disarms: enable and disable their interrupts. */
    public interface Arming
    {
        /** Owner thread, before it publishes ARMED: let the device interrupt (raise a signal) again. */
        void arm();

        /** Owner thread, after a duty cycle found work: back to polling without interrupts. */
        void disarm();
    }

    private static final int AWAKE = 0;
    private static final int ARMED = 1;
    /** The thread is stopping: it never parks again. */
    private static final int CLOSED = 2;

    private final String name;
    private final AtomicInteger state = new AtomicInteger(AWAKE);
    private final AtomicLong unparks = new AtomicLong();
    private volatile Thread owner;
    private Arming[] armings = new Arming[0];
    private long parks;

    /**
     * @param name the thread of control's name, for diagnostics
     */
    public Wakeup(final String name)
    {
        this.name = name;
    }

    /** @return the thread of control's name. */
    public String name()
    {
        return name;
    }

    /**
     * Adds a device's interrupt switch. Before the owner thread runs (set-up), or on the owner thread.
     */
    public synchronized void addArming(final Arming arming)
    {
        final Arming[] next = Arrays.copyOf(armings, armings.length + 1);
        next[armings.length] = arming;
        armings = next;
    }

    /**
     * Wakes the owner if it is parked or about to park; thread safe, allocation free. Call it after publishing
     * the work (see the class comment for why the fence is here).
     */
    public void signal()
    {
        VarHandle.fullFence(); // the producer's work before the read of state (Dekker, class comment)
        if (ARMED == state.get() && state.compareAndSet(ARMED, AWAKE))
        {
            unparks.incrementAndGet();
            LockSupport.unpark(owner);
        }
    }

    /**
     * Owner thread: enable interrupts and announce that the thread is about to sleep. The caller must then check
     * every work source once more (run one duty cycle) before {@link #park(long)}.
     */
    public void arm()
    {
        final Thread current = Thread.currentThread();
        if (owner != current)
        {
            owner = current;
        }
        final Arming[] hooks = armings;
        for (int i = 0; i < hooks.length; i++)
        {
            hooks[i].arm();
        }
        state.compareAndSet(AWAKE, ARMED); // fails only once closed: then the thread does not park
        VarHandle.fullFence(); // ARMED before the re-check cycle reads the work sources (Dekker, class comment)
    }

    /**
     * Owner thread: sleeps up to {@code maxNs} unless a signal came since {@link #arm()}.
     *
     * @return true if the thread parked
     */
    public boolean park(final long maxNs)
    {
        if (ARMED != state.get())
        {
            return false;
        }
        parks++;
        LockSupport.parkNanos(this, maxNs);
        return true;
    }

    /** Owner thread: work was found; interrupts off, producers need not wake this thread. */
    public void disarm()
    {
        state.compareAndSet(ARMED, AWAKE);
        final Arming[] hooks = armings;
        for (int i = 0; i < hooks.length; i++)
        {
            hooks[i].disarm();
        }
    }

    /**
     * The owner thread is being stopped: wakes it and keeps it from parking again, so that it sees its runner's
     * stop flag without waiting for a park to time out. Any thread; before or while the thread is stopped.
     */
    public void close()
    {
        state.set(CLOSED);
        final Thread thread = owner;
        if (null != thread)
        {
            LockSupport.unpark(thread);
        }
    }

    /** @return whether the owner announced it may sleep and no signal came since. */
    public boolean armed()
    {
        return ARMED == state.get();
    }

    /** @return times a signal unparked (or pre-empted the park of) the owner. */
    public long unparks()
    {
        return unparks.get();
    }

    /** @return times the owner parked (owner thread's count; approximate from others). */
    public long parks()
    {
        return parks;
    }

    @Override
    public String toString()
    {
        return "Wakeup(" + name + (armed() ? ", armed" : "") + ")";
    }
}
