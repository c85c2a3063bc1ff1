package io.jrxe.rxe.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

import org.agrona.BitUtil;

/**
 * Single-producer/single-consumer ring of preallocated WQE slots shared by the application thread (producer:
 * post verbs) and the engine thread (consumer: requester/completer or responder).
 * <pre>
 *   slots: W[2^k], 2^k &gt;= maxWr + 1, usable capacity = 2^k - 1 (rxe reports this as the actual max_wr)
 *
 *      consumer (engine, release)          producer (application, release)
 *          v                                  v
 *   ... | retired | wqe | wqe | wqe | wqe | free | free | ...
 *                  \______ outstanding ______/
 * </pre>
 * The producer fills {@code slot(producer)} and later publishes a new producer position with release semantics;
 * the consumer reads the producer position with acquire semantics, so it sees every field written before the
 * publication. The consumer advances its position with release semantics when it retires WQEs; only then may
 * the producer reuse the slots. Positions are 64-bit counters. A send queue consumer may keep its own private
 * cursors (e.g. the requester's next WQE) between the consumer position and the producer position.
 *
 * @param <W> slot type.
 */
public final class WqeRing<W>
{
    private static final VarHandle PRODUCER;
    private static final VarHandle CONSUMER;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER = lookup.findVarHandle(WqeRing.class, "producer", long.class);
            CONSUMER = lookup.findVarHandle(WqeRing.class, "consumer", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Object[] slots;
    private final int mask;
    private final int capacity;
    private long producer;
    private long consumer;

    public WqeRing(final int maxWr, final Supplier<W> factory)
    {
        final int length = BitUtil.findNextPositivePowerOfTwo(maxWr + 1);
        slots = new Object[length];
        for (int i = 0; i < length; i++)
        {
            slots[i] = factory.get();
        }
        mask = length - 1;
        capacity = length - 1;
    }

    /** @return usable number of slots. */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Slot at a position (either side; the caller must own the position).
     *
     * @param position ring position.
     * @return the slot.
     */
    @SuppressWarnings("unchecked")
    public W slot(final long position)
    {
        return (W)slots[(int)position & mask];
    }

    /** @return the producer position, acquire (consumer side: everything before it is published). */
    public long producerPosition()
    {
        return (long)PRODUCER.getAcquire(this);
    }

    /** @return the consumer position, acquire. */
    public long consumerPosition()
    {
        return (long)CONSUMER.getAcquire(this);
    }

    /** @return outstanding WQEs (a snapshot). */
    public int count()
    {
        return (int)(producerPosition() - consumerPosition());
    }

    /**
     * Consumer side: retire WQEs up to (not including) a position.
     *
     * @param position new consumer position, at most the producer position.
     */
    public void advanceConsumer(final long position)
    {
        CONSUMER.setRelease(this, position);
    }

    /**
     * Producer side: number of free slots given a planned producer position.
     *
     * @param plannedProducer producer position including slots filled but not yet published.
     * @return free slots.
     */
    public int free(final long plannedProducer)
    {
        return capacity - (int)(plannedProducer - (long)CONSUMER.getAcquire(this));
    }

    /** @return producer position, producer side (plain read of its own field). */
    public long producerPlain()
    {
        return (long)PRODUCER.getOpaque(this);
    }

    /**
     * Producer side: publish filled slots.
     *
     * @param position new producer position.
     */
    public void publish(final long position)
    {
        PRODUCER.setRelease(this, position);
    }

    /**
     * Consumer side (the engine, applying a RESET): drop the WQEs before a position the producer had reached.
     *
     * @param position the producer position at the RESET (WQEs posted after it stay)
     */
    public void resetTo(final long position)
    {
        if (position > (long)CONSUMER.getAcquire(this))
        {
            CONSUMER.setRelease(this, position);
        }
    }

    /** Drop everything (QP to RESET). Only when neither side is active on the ring. */
    public void reset()
    {
        CONSUMER.setRelease(this, (long)PRODUCER.getAcquire(this));
    }
}
