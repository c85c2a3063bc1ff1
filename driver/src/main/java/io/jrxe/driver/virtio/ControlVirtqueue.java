package io.jrxe.driver.virtio;

import io.jrxe.driver.mem.DmaRegion;
import io.jrxe.driver.pci.DmaMapper;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import static io.jrxe.driver.virtio.VirtioNetCtrl.*;

/**
 * The driver's side of the virtio-net control virtqueue (virtio 1.1 §5.1.6.5): posts one command at a time as a
 * header / data / ack chain ({@link VirtioNetCtrl} shows the layout) and polls for the device's answer. One command
 * at a time because the only user, {@link VirtioRxFilter}, sends each command after the previous one was answered;
 * it never blocks: {@link #poll()} says whether the answer is there, and how long it has been awaited.
 * <pre>
 *   command buffer (DMA, after the rings):
 *   +0 class u8 | +1 command u8 | ... | +8 ack u8 | ... | +16 command-specific data (up to DATA_CAPACITY bytes)
 *   chain: desc(+0, 2) -NEXT-> desc(+16, data length) -NEXT-> desc(+8, 1, WRITE)   (no data: header and ack only)
 * </pre>
 * The ack byte is set to 0xff before each command, so a device that completes the chain without writing an ack
 * is told apart from one that answers. Control path only: called on the driver's thread (the thread that owns
 * the NIC, as every {@link io.jrxe.driver.NicDevice} method is), allocates nothing.
 */
final class ControlVirtqueue implements AutoCloseable
{
    /** No answer yet (or no command in flight). */
    static final int NO_ANSWER = -1;
    /** The command was completed with used.len 0 or an ack that is neither OK nor ERR. */
    static final int NO_ACK = -2;
    /** The queue saw an impossible used entry ({@link SplitVirtqueue#broken()}): the device needs a reset. */
    static final int BROKEN = -3;

    /**
     * Command-specific data one command may carry: a MAC table of 1 unicast and 32 multicast MACs needs 206, an
     * RSS_CONFIG of 128 entries and a 40-byte key 307.
     */
    static final int DATA_CAPACITY = 512;
    private static final int HEADER_OFFSET = 0;
    private static final int ACK_OFFSET = 8;
    private static final int DATA_OFFSET = 16;
    /** Bytes of command buffer the queue needs after its rings. */
    static final int BUFFER_BYTES = DATA_OFFSET + DATA_CAPACITY;
    private static final byte ACK_UNWRITTEN = (byte)0xff;
    private static final int COMMAND_ID = 0;
    /** Entries of controlq: one command of 3 descriptors in flight at a time, with room to spare. */
    private static final int QUEUE_SIZE = 8;
    private static final int CHAIN = 3;

    private final SplitVirtqueue queue;
    private final DmaRegion region;
    private final UnsafeBuffer memory;
    private final int buffer;
    private final long bufferIova;
    private final NanoClock clock;
    private final long[] addrs = new long[3];
    private final int[] lengths = new int[3];
    private final int[] usedIds = new int[1];
    private final int[] usedLengths = new int[1];
    private final int[] drained;
    private boolean busy;
    private int commandClass;
    private int command;
    private long submittedNs;
    private long submitted;

    /**
     * @param queue        the split virtqueue of the control queue, set up at the device
     * @param region       DMA memory holding the command buffer
     * @param bufferOffset where the {@link #BUFFER_BYTES} of command buffer start in {@code region}, 16-byte aligned
     * @param clock        clock of {@link #waitedNs()}
     */
    ControlVirtqueue(final SplitVirtqueue queue, final DmaRegion region, final int bufferOffset, final NanoClock clock)
    {
        if (queue.size() < 3)
        {
            throw new IllegalArgumentException("a control command takes 3 descriptors, the queue has " + queue.size());
        }
        this.queue = queue;
        this.region = region;
        this.memory = region.buffer();
        this.buffer = bufferOffset;
        this.bufferIova = region.iova() + bufferOffset;
        this.clock = clock;
        this.drained = new int[queue.size()];
    }

    /**
     * Allocates ring and command buffer for controlq (virtqueue {@code index}: {@link VirtioNet#CTRL_QUEUE}, or
     * 2 * max_virtqueue_pairs with F_MQ) in one DMA region mapped for the
     * device, sized by the device's maximum for that queue. Setup only, after FEATURES_OK; the caller then sets the
     * queue up at the device (§4.1.5.1.3).
     *
     * @return null if the device's controlq cannot hold one command's chain of 3 descriptors
     */
    static ControlVirtqueue open(
        final VirtioPciTransport transport, final DmaMapper dma, final VirtioNetConfig config, final int index)
    {
        transport.selectQueue(index);
        final int max = transport.queueSize();
        if (max < CHAIN)
        {
            return null;
        }
        final int size = Math.min(QUEUE_SIZE, Integer.highestOneBit(max));
        final long notifyOffset = transport.notifyOffset(index);
        final int ringBytes = SplitVirtqueue.ringBytes(size);
        final DmaRegion region = config.dmaAllocator().allocate(ringBytes + BUFFER_BYTES, dma);
        return new ControlVirtqueue(new SplitVirtqueue(index, size, region, 0, transport.notifyBar(),
            notifyOffset), region, ringBytes, config.nanoClock());
    }

    SplitVirtqueue queue()
    {
        return queue;
    }

    /** The buffer command-specific data is written into, at {@link #dataOffset()}, before {@link #submit}. */
    UnsafeBuffer buffer()
    {
        return memory;
    }

    int dataOffset()
    {
        return buffer + DATA_OFFSET;
    }

    /** A command is in flight: posted and not yet answered. */
    boolean busy()
    {
        return busy;
    }

    /** Class and command of the last command submitted. */
    int commandClass()
    {
        return commandClass;
    }

    int command()
    {
        return command;
    }

    /** Commands submitted so far. */
    long submitted()
    {
        return submitted;
    }

    /** How long the command in flight has waited for its answer. */
    long waitedNs()
    {
        return clock.nanoTime() - submittedNs;
    }

    /**
     * Posts a command whose {@code dataLength} bytes of data are already at {@link #dataOffset()}, and notifies the
     * device. The driver must not have a command in flight, and must only call this after DRIVER_OK (§3.1.1: no
     * notifications before).
     *
     * @throws IllegalStateException    if a command is in flight (a driver bug)
     * @throws IllegalArgumentException if the data does not fit the buffer
     */
    void submit(final int commandClass, final int command, final int dataLength)
    {
        if (busy)
        {
            throw new IllegalStateException("a control command is in flight: " + name(this.commandClass,
                this.command));
        }
        if (dataLength < 0 || dataLength > DATA_CAPACITY)
        {
            throw new IllegalArgumentException("control command data of " + dataLength + " bytes, at most " +
                DATA_CAPACITY);
        }
        memory.putByte(buffer + HEADER_OFFSET, (byte)commandClass);
        memory.putByte(buffer + HEADER_OFFSET + 1, (byte)command);
        memory.putByte(buffer + ACK_OFFSET, ACK_UNWRITTEN);
        int n = 0;
        addrs[n] = bufferIova + HEADER_OFFSET;
        lengths[n++] = CTRL_HEADER_LENGTH;
        if (dataLength > 0)
        {
            addrs[n] = bufferIova + DATA_OFFSET; // QEMU refuses zero-length descriptors: no data, no descriptor
            lengths[n++] = dataLength;
        }
        addrs[n] = bufferIova + ACK_OFFSET;
        lengths[n] = ACK_LENGTH;
        // §5.1.6.5: the readable header and data, then the device-writable ack (§2.6.4.2: readable first)
        if (!queue.addRequest(addrs, lengths, n, 1, COMMAND_ID))
        {
            throw new IllegalStateException("control virtqueue has no free descriptors with no command in flight");
        }
        this.commandClass = commandClass;
        this.command = command;
        busy = true;
        submitted++;
        submittedNs = clock.nanoTime();
        queue.publishAndKick(); // publish orders header, data and descriptors before avail.idx (§2.6.13.3.1)
    }

    /**
     * Looks for the answer to the command in flight (one read of used.idx when there is none).
     *
     * @return {@link VirtioNetCtrl#OK} or {@link VirtioNetCtrl#ERR} when it was answered, {@link #NO_ANSWER},
     * {@link #NO_ACK} or {@link #BROKEN}; OK, ERR and NO_ACK end the command
     */
    int poll()
    {
        if (!busy)
        {
            return NO_ANSWER;
        }
        if (0 == queue.pollUsed(usedIds, 0, usedLengths, 1))
        {
            return queue.broken() ? BROKEN : NO_ANSWER;
        }
        busy = false;
        // pollUsed read used.idx with acquire semantics: the ack written before it is visible (§2.6.14)
        final int ack = memory.getByte(buffer + ACK_OFFSET) & 0xff;
        if (usedLengths[0] < ACK_LENGTH || (OK != ack && ERR != ack))
        {
            return NO_ACK;
        }
        return ack;
    }

    /**
     * Forgets the command in flight and empties the ring: only after a device reset completed (the device has let
     * go of the ring), before the queue is set up again.
     */
    void reset()
    {
        queue.drainInFlight(drained);
        queue.reset();
        busy = false;
    }

    /** Frees ring and command buffer: only once the device is reset and no longer reads them. */
    @Override
    public void close()
    {
        region.close();
    }
}
