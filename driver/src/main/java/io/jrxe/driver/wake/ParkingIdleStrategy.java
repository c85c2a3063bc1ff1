package io.jrxe.driver.wake;

import org.agrona.concurrent.IdleStrategy;

/**
 * Spin, then yield, then park on a {@link Wakeup} until something signals it: the idle strategy that cannot
 * livelock on a machine with fewer cores than busy threads, and costs no CPU while nothing happens.
 * <pre>
 *   idle cycles:  1 .. spins        Thread.onSpinWait()        (work in the next µs: stay hot)
 *                 .. + yields       Thread.yield()             (give a core to whoever has work)
 *                 next              wakeup.arm()               (then one more duty cycle: the re-check)
 *                 next ...          wakeup.park(maxParkNs)     (until a signal, or maxParkNs for timers)
 *   work:         wakeup.disarm() if armed, back to spinning
 * </pre>
 * The re-check cycle between arming and parking is what makes a lost wake-up impossible (see {@link Wakeup}).
 * After a park the thread re-arms before it parks again, since the signal that woke it disarmed the line.
 * {@code maxParkNs} bounds the sleep for work nobody signals: transport timers, a wire's delayed frames, CQ
 * moderation periods. One instance per thread (it holds state); allocates nothing.
 */
public final class ParkingIdleStrategy implements IdleStrategy
{
    /** Default spins before yielding. */
    public static final int DEFAULT_SPINS = 100;
    /** Default yields before parking. */
    public static final int DEFAULT_YIELDS = 20;
    /** Default longest park: the resolution of work that is not signalled (timers). */
    public static final long DEFAULT_MAX_PARK_NS = 1_000_000L;

    private final Wakeup wakeup;
    private final int spins;
    private final int yields;
    private final long maxParkNs;
    private int idleCycles;
    /** Armed and the re-check cycle ran: the next idle cycle parks. */
    private boolean armed;
    /** Armed since the last work: interrupts are on and must go off when work comes. */
    private boolean interruptsOn;

    /**
     * @param wakeup the thread's wake-up line, signalled by its work sources
     */
    public ParkingIdleStrategy(final Wakeup wakeup)
    {
        this(wakeup, DEFAULT_SPINS, DEFAULT_YIELDS, DEFAULT_MAX_PARK_NS);
    }

    /**
     * @param wakeup    the thread's wake-up line, signalled by its work sources
     * @param spins     idle cycles spent spinning first
     * @param yields    idle cycles spent yielding next
     * @param maxParkNs longest park, for work that nobody signals
     */
    public ParkingIdleStrategy(final Wakeup wakeup, final int spins, final int yields, final long maxParkNs)
    {
        if (spins < 0 || yields < 0 || maxParkNs <= 0)
        {
            throw new IllegalArgumentException("spins and yields must be >= 0 and maxParkNs > 0: spins=" + spins +
                " yields=" + yields + " maxParkNs=" + maxParkNs);
        }
        this.wakeup = wakeup;
        this.spins = spins;
        this.yields = yields;
        this.maxParkNs = maxParkNs;
    }

    /**
     * The same strategy for another thread, or for a thread started again after {@link Wakeup#close()} ended this
     * one's line: the same spins, yields and longest park, on a new line of the same name.
     *
     * @return a new strategy
     */
    public ParkingIdleStrategy withNewLine()
    {
        return new ParkingIdleStrategy(new Wakeup(wakeup.name()), spins, yields, maxParkNs);
    }

    /** @return the wake-up line this strategy parks on. */
    public Wakeup wakeup()
    {
        return wakeup;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        if (idleCycles < spins)
        {
            idleCycles++;
            Thread.onSpinWait();
        }
        else if (idleCycles < spins + yields)
        {
            idleCycles++;
            Thread.yield();
        }
        else if (!armed)
        {
            wakeup.arm();
            armed = true; // the caller runs one more duty cycle before the next idle() parks
            interruptsOn = true;
        }
        else
        {
            wakeup.park(maxParkNs);
            armed = false; // a signal disarmed the line: arm again and re-check before the next park
        }
    }

    @Override
    public void reset()
    {
        idleCycles = 0;
        armed = false;
        if (interruptsOn)
        {
            interruptsOn = false;
            wakeup.disarm();
        }
    }

    @Override
    public String alias()
    {
        return "park";
    }
}
