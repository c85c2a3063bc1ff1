package io.jrxe.driver;

import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.wake.Wakeup;

/**
 * A NIC as jrxe's stack sees it: rx and tx queues, batched, moving buffer ids of a {@link PacketPool}; by default
 * one queue pair, with multiqueue NICs {@link #queuePairs()} of them.
 * <p>
 * Ownership: ids returned by {@link #rxBatch} belong to the caller, which frees them to {@link #pool()} (or
 * reuses them). Ids accepted by {@link #txBatch} belong to the device until it reclaims them after transmission;
 * the driver frees them to the pool itself. Frame data starts at {@link PacketPool#dataOffset(int)} and its
 * length is {@link PacketPool#length(int)}.
 * <p>
 * Threads: each queue pair q has one owner thread, the only one to call the methods taking q ({@link
 * #rxBatch(int, int[], int)}, {@link #txBatch(int, int[], int)}, {@link #reclaimTx(int)}, {@link #stats(int)})
 * and to allocate or free buffers of {@link #pool(int) pool(q)} (a pool is single-threaded; each pair has its own,
 * and ids of one pair's pool mean nothing to another pair). Pairs share nothing on the data path, so their owners
 * need no locks. The methods without a pair number are queue pair 0's ({@code rxBatch(ids, max)} is
 * {@code rxBatch(0, ids, max)}) and, with the control path (link, receive filter, RSS, interrupts, zero-copy
 * transmit), belong to pair 0's owner, the NIC's owner. With one queue pair all methods are called from one
 * thread.
 * <p>
 * A NIC may filter received frames by destination MAC ({@link #rxFilter}); one that cannot, or has not been asked
 * to, receives every frame on its link.
 */
public interface NicDevice extends AutoCloseable
{
    /** PCI address or emulated name. */
    String name();

    /** The MAC address in the low 48 bits, first byte on the wire in bits 47..40. */
    long macAddress();

    /** IP MTU of the link (1500 unless the device says otherwise). */
    int mtu();

    boolean linkUp();

    PacketPool pool();

    /**
     * Receives up to {@code max} frames into {@code ids[0..]}, refilling the rx ring from the pool.
     *
     * @return number of frames received, 0 if none
     */
    int rxBatch(int[] ids, int max);

    /**
     * Queues {@code ids[0..count)} for transmission with one device notification. Also reclaims completed tx
     * buffers.
     *
     * @return how many were accepted (a prefix of the array); the rest still belong to the caller
     */
    int txBatch(int[] ids, int count);

    /**
     * Reclaims completed tx buffers (frees them to the pool), as {@link #txBatch} does first, without queuing
     * anything: for a caller with nothing to send, so that buffers the NIC is done with go back, and their
     * {@link PacketPool.ReleaseListener} hears of it, while nothing is transmitted (as a driver's tx completion
     * does without a new transmission). The default is for a device that gives buffers back in {@link #txBatch}.
     *
     * @return buffers reclaimed
     */
    default int reclaimTx()
    {
        return 0;
    }

    NicStats stats();

    // ---------------------------------------------------------------- queue pairs (multiqueue)

    /** Queue pairs the NIC runs (1 unless it was configured for more); pair q's methods take 0 &lt;= q &lt; this. */
    default int queuePairs()
    {
        return 1;
    }

    /**
     * The pool of queue pair {@code q}: {@code rxBatch(q, ...)} hands out its ids, {@code txBatch(q, ...)} takes
     * them. Pair 0's is {@link #pool()}.
     *
     * @throws IllegalArgumentException if the NIC has no pair {@code q}
     */
    default PacketPool pool(final int q)
    {
        checkQueuePair(q);
        return pool();
    }

    /**
     * {@link #rxBatch(int[], int)} on queue pair {@code q}: frames the NIC steered to that pair, in ids of
     * {@link #pool(int) pool(q)}. On pair q's owner thread only; allocation-free.
     *
     * @throws IllegalArgumentException if the NIC has no pair {@code q}
     */
    default int rxBatch(final int q, final int[] ids, final int max)
    {
        checkQueuePair(q);
        return rxBatch(ids, max);
    }

    /**
     * {@link #txBatch(int[], int)} on queue pair {@code q}, with ids of {@link #pool(int) pool(q)}. On pair q's
     * owner thread only; allocation-free.
     *
     * @throws IllegalArgumentException if the NIC has no pair {@code q}, or as {@link #txBatch(int[], int)}
     */
    default int txBatch(final int q, final int[] ids, final int count)
    {
        checkQueuePair(q);
        return txBatch(ids, count);
    }

    /** {@link #reclaimTx()} on queue pair {@code q}, on its owner thread. */
    default int reclaimTx(final int q)
    {
        checkQueuePair(q);
        return reclaimTx();
    }

    /** Counters of queue pair {@code q}, written by its owner (pair 0's are {@link #stats()}). */
    default NicStats stats(final int q)
    {
        checkQueuePair(q);
        return stats();
    }

    /** @throws IllegalArgumentException if {@code q} is not one of the NIC's {@link #queuePairs()} */
    default void checkQueuePair(final int q)
    {
        if (q < 0 || q >= queuePairs())
        {
            throw new IllegalArgumentException("queue pair " + q + " of NIC " + name() + ", which runs " +
                queuePairs());
        }
    }

    // ---------------------------------------------------------------- receive-side scaling (control path)

    /**
     * Entries of the RSS indirection table the NIC takes (a power of two), 0 if it does not steer by RSS: then
     * every frame arrives on pair 0 (or wherever the NIC likes) and {@link #rss} refuses.
     */
    default int rssTableCapacity()
    {
        return 0;
    }

    /** Bytes of RSS key the NIC takes, 0 without RSS. */
    default int rssKeyCapacity()
    {
        return 0;
    }

    /**
     * Programs receive-side scaling: a received UDP/IPv4 or UDP/IPv6 frame goes to the pair
     * {@code table[toeplitz(key, addresses and ports) & (tableLength - 1)]} ({@link io.jrxe.driver.rss}); other
     * frames (ARP, ...) to pair 0. Control path, on pair 0's owner; asynchronous like {@link #rxFilter}:
     * {@link #rssStatus()} says when the NIC has taken it. A new request replaces one still on its way.
     *
     * @return false if the NIC has no RSS ({@link #rssTableCapacity()} 0): nothing changes
     * @throws IllegalArgumentException if the key length, the table length (a power of two up to the capacity)
     *                                  or an entry (a pair number below {@link #queuePairs()}) is out of range
     */
    default boolean rss(final byte[] key, final int keyLength, final int[] table, final int tableLength)
    {
        return false;
    }

    /** Copies the indirection table in use (or on its way) into {@code into}; returns its length, 0 without RSS. */
    default int rssTable(final int[] into)
    {
        return 0;
    }

    /** Copies the RSS key in use (or on its way) into {@code into}; returns its length, 0 without RSS. */
    default int rssKey(final byte[] into)
    {
        return 0;
    }

    /**
     * Where the NIC's multiqueue set-up (enabling the pairs, then RSS) or the last {@link #rss} request stands;
     * moves it along. {@link RxFilterStatus#UNSUPPORTED} for a single-queue NIC.
     */
    default RxFilterStatus rssStatus()
    {
        return RxFilterStatus.UNSUPPORTED;
    }

    /** Why the multiqueue set-up or the last {@link #rss} request {@link RxFilterStatus#FAILED}, or null. */
    default String rssError()
    {
        return null;
    }

    // ---------------------------------------------------------------- transmit gather (zero-copy transmit)

    /**
     * Gather segments a transmitted frame may have after the bytes in its pool buffer; 0 when the NIC cannot take
     * frames from more than one buffer (then {@link #txGather} always refuses).
     */
    default int maxTxGather()
    {
        return 0;
    }

    /**
     * Appends {@code length} bytes of memory the NIC can reach at {@code iova} (mapped through {@link #iovaSpace()})
     * to the frame in pool buffer {@code id}: the frame on the wire is its {@link PacketPool#length(int)} bytes,
     * then each appended segment in order, as a scatter-gather NIC sends a frame of several buffers. Call before
     * {@link #txBatch}; the attachment is the device's until the frame is reclaimed (the memory must stay mapped
     * and, to send what was meant, unchanged), or until {@link #txGatherCancel} for a frame that is not sent.
     *
     * @return false if the segment cannot be added (none supported, or {@link #maxTxGather()} reached)
     */
    default boolean txGather(final int id, final long iova, final int length)
    {
        return false;
    }

    /** @return bytes appended to the frame in buffer {@code id} by {@link #txGather}, 0 if none. */
    default int txGatherLength(final int id)
    {
        return 0;
    }

    /** Drops the gather segments of a frame that is freed without being sent. */
    default void txGatherCancel(final int id)
    {
    }

    /**
     * Sequence number of the latest frame given gather segments (1, 2, ...; 0 before the first): a ticket to wait
     * for with {@link #txGatherOldest()}.
     */
    default long txGatherSequence()
    {
        return 0;
    }

    /**
     * Reclaims transmitted frames, then returns the sequence of the oldest frame whose gather segments the NIC may
     * still read, {@link Long#MAX_VALUE} if none: once it is above a {@link #txGatherSequence()} ticket, no frame
     * given segments up to that ticket references them any more, and their memory may be unmapped or reused.
     * Control path (it may scan every buffer), same thread as the data path.
     */
    default long txGatherOldest()
    {
        return Long.MAX_VALUE;
    }

    /**
     * The NIC's DMA address space, for users that map their own memory for the device (an RDMA device's
     * {@code ib_dma_*}): its IOMMU mapper (identity IOVA) and DMA memory allocator. The default is for a device
     * without an IOMMU: {@link IovaSpace#UNTRANSLATED}.
     */
    default IovaSpace iovaSpace()
    {
        return IovaSpace.UNTRANSLATED;
    }

    // ---------------------------------------------------------------- receive filter (control path)

    /** {@link #rxFilterCapacity()} of a NIC that cannot filter. */
    int NO_RX_FILTER = -1;

    /**
     * How many multicast MACs {@link #rxFilter} takes, or {@link #NO_RX_FILTER} if the NIC has no receive filter it
     * can program: it then receives every frame on its link (as a promiscuous NIC), and its user's own MAC check is
     * all the filtering there is.
     */
    default int rxFilterCapacity()
    {
        return NO_RX_FILTER;
    }

    /**
     * Programs the NIC's receive filter. With {@code promiscuous} the NIC receives every frame on its link;
     * otherwise frames to its own MAC, broadcast, and multicast to one of {@code multicastMacs[0..count)} or, with
     * {@code allMulticast}, to any multicast MAC. A filter is best effort: a frame it should have dropped may still
     * arrive, so the user keeps checking destination MACs. Control path, on the thread that owns the NIC;
     * asynchronous: the request goes to the device, and {@link #rxFilterStatus()} says when it has taken it. A new
     * request replaces one still on its way.
     *
     * @return false if the NIC cannot filter ({@link #rxFilterCapacity()} is {@link #NO_RX_FILTER}): nothing
     * changes, it stays promiscuous
     * @throws IllegalArgumentException if {@code count} exceeds {@link #rxFilterCapacity()} or a MAC is not
     *                                  multicast (the caller falls back to {@code allMulticast} for long lists)
     */
    default boolean rxFilter(
        final boolean promiscuous, final boolean allMulticast, final long[] multicastMacs, final int count)
    {
        return false;
    }

    /**
     * Where the last {@link #rxFilter} request stands; moves it along (reads the device's answers: call it while
     * it is {@link RxFilterStatus#PENDING}, on the thread that owns the NIC).
     */
    default RxFilterStatus rxFilterStatus()
    {
        return RxFilterStatus.UNSUPPORTED;
    }

    /** Why the last request {@link RxFilterStatus#FAILED}, or null. */
    default String rxFilterError()
    {
        return null;
    }

    /**
     * Lets the NIC's interrupt for queue pair 0 (and its configuration changes) wake the thread of {@code wakeup}
     * while it sleeps: {@link #wakeOnInterrupt(int, Wakeup) wakeOnInterrupt(0, wakeup)}.
     *
     * @return false if the NIC cannot interrupt: the thread's bounded park is then what finds received frames
     */
    default boolean wakeOnInterrupt(final Wakeup wakeup)
    {
        return wakeOnInterrupt(0, wakeup);
    }

    /**
     * Lets the NIC's interrupt for queue pair {@code q} wake the thread of {@code wakeup}, the pair's owner, while
     * it sleeps: the NIC registers an {@link Wakeup.Arming} that turns pair q's interrupts on when the thread arms
     * and off when it polls again. Each pair interrupts on its own line: a frame for pair 1 does not wake pair 0's
     * thread.
     * <p>
     * Threads: control path (pair 0's owner), set-up only, before pair q's owner thread starts; one line per pair
     * (called again for the same pair, the interrupt goes to the new line, for a new owner thread).
     *
     * @param q      the queue pair, {@code 0..queuePairs() - 1}
     * @param wakeup the line of pair q's owner thread
     * @return false if the NIC cannot interrupt for pair q (no interrupt vector for it): pair q's owner then
     *         polls, and its bounded park is what finds received frames
     * @throws IllegalArgumentException if {@code q} is not a queue pair of this NIC
     */
    default boolean wakeOnInterrupt(final int q, final Wakeup wakeup)
    {
        if (q < 0 || q >= queuePairs())
        {
            throw new IllegalArgumentException("queue pair " + q + " of " + name() + ", which runs 0.." +
                (queuePairs() - 1));
        }
        return false;
    }

    @Override
    void close();
}
