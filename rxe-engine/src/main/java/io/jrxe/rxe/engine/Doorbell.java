package io.jrxe.rxe.engine;

import io.jrxe.driver.wake.Wakeup;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Allocation-free many-producer / one-consumer doorbell: application threads ring it with a QP slot after posting
 * to the QP's send or receive ring; the engine thread drains the rung slots and runs those QPs.
 * <p>
 * Each slot has a pending flag. {@link #ring(int)} enqueues the slot only on the 0 → 1 transition of its flag, so
 * a slot is queued at most once per drain and the queue can never fill: it is sized for every slot twice. The
 * consumer clears the flag <em>before</em> it runs the QP, so a post that lands after the QP was looked at rings
 * again and is never missed.
 * <pre>
 *  app thread:  post WQE (release store) -> ring(slot): FENCE -> pending[slot] == 0 && CAS 0->1 ? enqueue : nothing
 *  engine:      drain(): dequeue slot -> pending[slot] = 0 -> FENCE -> handler.onDoorbell(slot) (reads the WQEs)
 * </pre>
 * Both fences are store-load barriers, and both are needed (a Dekker pair): each side writes one word and then
 * reads the other's. Without them the application can read {@code pending == 1} before its WQE store is visible
 * while the engine clears the flag and reads the old producer position: the ring is skipped, the engine saw no
 * WQE, and the post waits until something else rings the QP (a SEND posted right after a receive hung that way).
 * A release store followed by a volatile read does not order the two, and neither does a failed CAS.
 * <p>
 * A queued slot also signals the engine thread's {@link Wakeup}, so an engine that parked for lack of work wakes
 * for the post; a ring that finds the slot already pending needs no signal, the engine has yet to drain it.
 */
public final class Doorbell
{
    /** Called by {@link #drain} for each rung slot, on the engine thread. */
    @FunctionalInterface
    public interface Handler
    {
        /**
         * @param slot the slot that was rung
         */
        void onDoorbell(int slot);
    }

    private static final int MSG_TYPE = 1;

    private final AtomicIntegerArray pending;
    private final ManyToOneRingBuffer queue;
    private final Reader reader = new Reader();
    private volatile Wakeup wakeup;

    /**
     * @param slots number of distinct slots (QPs) that may ring, valid slots are 0..slots-1
     */
    public Doorbell(final int slots)
    {
        if (slots <= 0)
        {
            throw new IllegalArgumentException("doorbell needs at least one slot: " + slots);
        }
        pending = new AtomicIntegerArray(slots);
        final int recordLength = BitUtil.align(RecordDescriptor.HEADER_LENGTH + Integer.BYTES,
            RecordDescriptor.ALIGNMENT);
        // A slot's pending flag is cleared while its record is still in the batch being read (the ring releases
        // the space after the batch), so up to 2 x slots records can coexist, plus one padding record at a wrap.
        final int capacity = BitUtil.findNextPositivePowerOfTwo(recordLength * (2 * slots + 2));
        queue = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /**
     * Wakes the draining thread when a slot is queued (set-up, before that thread starts; null: nobody parks).
     *
     * @param wakeup the line of the thread that drains
     */
    public void wakeup(final Wakeup wakeup)
    {
        this.wakeup = wakeup;
    }

    /**
     * @return number of slots
     */
    public int slots()
    {
        return pending.length();
    }

    /**
     * Rings the doorbell for a slot; thread safe, allocation free, never blocks.
     *
     * @param slot slot to run
     */
    public void ring(final int slot)
    {
        VarHandle.fullFence(); // the caller's WQE store before the read of pending (see the class comment)
        if (0 == pending.get(slot) && pending.compareAndSet(slot, 0, 1))
        {
            final int index = queue.tryClaim(MSG_TYPE, Integer.BYTES);
            if (index < 0)
            {
                // Cannot happen: each slot is queued at most once and the ring holds all of them.
                pending.set(slot, 0);
                throw new IllegalStateException("doorbell queue full; slots=" + pending.length());
            }
            queue.buffer().putInt(index, slot);
            queue.commit(index);
            final Wakeup line = wakeup;
            if (null != line)
            {
                line.signal(); // only on the 0 -> 1 transition: a burst of posts to one QP signals once
            }
        }
    }

    /**
     * Drains up to {@code limit} rung slots, calling the handler for each; engine thread only.
     *
     * @param handler called per slot after its pending flag is cleared
     * @param limit   maximum slots to take; at most {@link #slots()} are taken in one call, because a slot rung
     *                again while its batch is being read is read again in the same batch, and the ring holds
     *                two records per slot only if a batch reads no more than one per slot
     * @return number of slots handled
     */
    public int drain(final Handler handler, final int limit)
    {
        reader.handler = handler;
        final int max = Math.min(limit, pending.length());
        int count = 0;
        try
        {
            // one read() stops at the end of the ring's buffer; a second one takes what wrapped around
            while (count < max)
            {
                final int n = queue.read(reader, max - count);
                if (0 == n)
                {
                    break;
                }
                count += n;
            }
            return count;
        }
        finally
        {
            reader.handler = null;
        }
    }

    private final class Reader implements MessageHandler
    {
        private Handler handler;

        @Override
        public void onMessage(
            final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
        {
            final int slot = buffer.getInt(index);
            pending.setRelease(slot, 0);
            VarHandle.fullFence(); // the cleared flag before the handler reads the QP's rings (class comment)
            handler.onDoorbell(slot);
        }
    }
}
