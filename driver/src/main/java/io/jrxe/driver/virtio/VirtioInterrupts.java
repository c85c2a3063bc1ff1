package io.jrxe.driver.virtio;

import io.jrxe.driver.pci.PciFunction;
import io.jrxe.driver.wake.Wakeup;

import static io.jrxe.driver.virtio.VirtioPci.NO_VECTOR;

/**
 * The MSI-X side of {@link VirtioNetDriver}: which vector each queue pair's queues (and the configuration
 * changes) are mapped to, the routing of those vectors to the pairs' owner threads, and each pair's
 * {@link Wakeup.Arming}.
 * <pre>
 *   MSI-X vector    0                          1                     ...   p
 *   sources         config changes,            receiveq2 +                 receiveq(p+1) +
 *                   receiveq1 + transmitq1     transmitq2                  transmitq(p+1)
 *                   (pair 0)                   (pair 1)                    (pair p)
 *   routed to       pair 0 owner's Wakeup      pair 1 owner's Wakeup       pair p owner's Wakeup
 *
 *   controlq: no vector (the driver polls its answers). A pair whose vector is not routed (not asked for, or
 *   beyond the function's MSI-X table) keeps NO_VECTOR, and its owner polls.
 * </pre>
 * Vector p = pair p keeps each pair's interrupt on its own line, so a frame that RSS steers to pair 1 wakes pair
 * 1's owner only. Configuration changes (link status, DEVICE_NEEDS_RESET) go with pair 0, whose owner runs the
 * control path that reads them. A device needs an MSI-X table of 1 + p entries for pair p to interrupt (QEMU's
 * virtio-net has 2 * pairs + 2).
 * <p>
 * Threads: the control path (pair 0's owner) routes and maps, before pair q's owner starts; each pair's Arming
 * runs on that pair's owner and touches that pair's rings only.
 */
final class VirtioInterrupts
{
    private final PciFunction function;
    private final VirtioPciTransport transport;
    private final VirtioQueuePair[] pairs;
    /** By pair: the MSI-X vector its queues are mapped to, or NO_VECTOR (its owner polls). */
    private final int[] vectors;
    private final PairArming[] armings;

    VirtioInterrupts(final PciFunction function, final VirtioPciTransport transport, final VirtioQueuePair[] pairs)
    {
        this.function = function;
        this.transport = transport;
        this.pairs = pairs;
        this.vectors = new int[pairs.length];
        this.armings = new PairArming[pairs.length];
        for (int p = 0; p < pairs.length; p++)
        {
            vectors[p] = NO_VECTOR;
            armings[p] = new PairArming(pairs[p]);
        }
    }

    /** The vector of configuration changes: pair 0's, NO_VECTOR while pair 0 polls. */
    int configVector()
    {
        return vectors[0];
    }

    /** The vector pair {@code p}'s queues are mapped to, or NO_VECTOR. */
    int vector(final int p)
    {
        return vectors[p];
    }

    /** Interrupts pair {@code p}'s vector delivered so far (0 while it polls). */
    long interrupts(final int p)
    {
        return NO_VECTOR == vectors[p] ? 0 : function.interrupts(vectors[p]);
    }

    /**
     * Routes vector q to {@code wakeup}, maps pair q's queues (and for pair 0 config changes) to it and adds the
     * pair's Arming to the line; routed already, the vector and the Arming go to the new line.
     *
     * @return false if the function cannot route vector q or the device refused the mapping
     */
    boolean route(final int q, final Wakeup wakeup)
    {
        if (!function.routeInterrupt(q, wakeup))
        {
            return false;
        }
        if (NO_VECTOR != vectors[q])
        {
            wakeup.addArming(armings[q]); // a new thread takes over the interrupt (the queues stay mapped)
            return true;
        }
        boolean mapped = 0 != q || q == transport.configVector(q);
        mapped &= q == queueVector(pairs[q].rxQueue(), q);
        mapped &= q == queueVector(pairs[q].txQueue(), q);
        if (!mapped)
        {
            unmap(q);
            if (!anyMapped())
            {
                function.unrouteInterrupts();
            }
            // else vector q stays routed with nothing mapped to it, so it never fires
            return false;
        }
        vectors[q] = q;
        wakeup.addArming(armings[q]);
        return true;
    }

    private int queueVector(final SplitVirtqueue queue, final int vector)
    {
        transport.selectQueue(queue.queueIndex());
        return transport.queueVector(vector);
    }

    private void unmap(final int q)
    {
        if (0 == q)
        {
            transport.configVector(NO_VECTOR);
        }
        queueVector(pairs[q].rxQueue(), NO_VECTOR);
        queueVector(pairs[q].txQueue(), NO_VECTOR);
    }

    private boolean anyMapped()
    {
        for (final int v : vectors)
        {
            if (NO_VECTOR != v)
            {
                return true;
            }
        }
        return false;
    }

    /** Stops every routed vector (the device was reset, so nothing is mapped any more). */
    void close()
    {
        if (anyMapped())
        {
            function.unrouteInterrupts();
        }
    }

    /** Pair p's interrupt switch: on while its owner is armed to park, off while it polls (as NAPI does). */
    private static final class PairArming implements Wakeup.Arming
    {
        private final VirtioQueuePair pair;

        PairArming(final VirtioQueuePair pair)
        {
            this.pair = pair;
        }

        @Override
        public void arm()
        {
            pair.interrupts(true);
        }

        @Override
        public void disarm()
        {
            pair.interrupts(false);
        }
    }
}
