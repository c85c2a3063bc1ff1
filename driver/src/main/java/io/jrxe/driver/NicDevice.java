package io.jrxe.driver;

import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.wake.Wakeup;

/**
 * A NIC as jrxe's stack sees it: one rx and one tx queue, batched, moving buffer ids of one {@link PacketPool}.
 * <p>
 * Ownership: ids returned by {@link #rxBatch} belong to the caller, which frees them to {@link #pool()} (or
 * reuses them). Ids accepted by {@link #txBatch} belong to the device until it reclaims them after transmission;
 * the driver frees them to the pool itself. Frame data starts at {@link PacketPool#dataOffset(int)} and its
 * length is {@link PacketPool#length(int)}. All methods are called from one thread.
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
     * Lets the NIC's interrupt wake the thread of {@code wakeup} while it sleeps: the NIC registers an
     * {@link Wakeup.Arming} that turns its interrupts on when the thread arms and off when it polls again. Set-up
     * only, before that thread starts.
     *
     * @return false if the NIC cannot interrupt: the thread's bounded park is then what finds received frames
     */
    default boolean wakeOnInterrupt(final Wakeup wakeup)
    {
        return false;
    }

    @Override
    void close();
}
