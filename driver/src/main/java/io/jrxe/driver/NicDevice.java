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

    /**
     * The NIC's DMA address space, for users that map their own memory for the device (an RDMA device's
     * {@code ib_dma_*}): its IOMMU mapper (identity IOVA) and DMA memory allocator. The default is for a device
     * without an IOMMU: {@link IovaSpace#UNTRANSLATED}.
     */
    default IovaSpace iovaSpace()
    {
        return IovaSpace.UNTRANSLATED;
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
