package io.jrxe.driver.emu;

import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.pci.MmioRegion;
import org.agrona.concurrent.UnsafeBuffer;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * Test-side driver that speaks to an {@link EmulatedVirtioNet} through its registers and writes the split rings
 * directly, so tests can build well-formed and malformed chains at will.
 * <pre>
 *  DMA region: [queue 0: desc | avail | used] [queue 1] [queue 2 (controlq)] [buffers: 3 queues x size x 2 KiB]
 * </pre>
 */
final class RingDriver implements AutoCloseable
{
    static final long FEATURES = 1L << F_VERSION_1 | 1L << F_ACCESS_PLATFORM | 1L << F_MAC |
        1L << F_MTU | 1L << F_STATUS;
    static final int SLOT = 2048;
    static final int QUEUES = 3;
    /** Offset of a control command's ack byte in its slot. */
    static final int ACK_AT = 1024;

    final EmulatedVirtioNet device;
    final MmioRegion bar;
    final int size;
    final DirectDmaRegion memory;
    final UnsafeBuffer buffer;
    private final int queueArea;
    /** Queues of the device: 3 (one pair and controlq), or 2 * max_virtqueue_pairs + 1; controlq is the last. */
    final int queues;
    final int ctrl;
    private final int[] availIdx;

    RingDriver(final EmulatedVirtioNet device, final int size)
    {
        this(device, size, QUEUES);
    }

    /** For a multiqueue device of {@code queues} virtqueues (controlq last). */
    RingDriver(final EmulatedVirtioNet device, final int size, final int queues)
    {
        this.queues = queues;
        this.ctrl = queues - 1;
        this.availIdx = new int[queues];
        this.device = device;
        this.bar = device.bar(4);
        this.size = size;
        this.queueArea = align(align(16 * size + 6 + 2 * size, 4) + 6 + 8 * size, 4096);
        this.memory = new DirectDmaRegion((long)queues * queueArea + (long)queues * size * SLOT, device.dma());
        this.buffer = memory.buffer();
    }

    static int align(final int value, final int alignment)
    {
        return (value + alignment - 1) & -alignment;
    }

    /**
     * The driver initialisation of virtio 1.1 §3.1.1, with the given features, both data queues enabled, and
     * controlq too when the features have CTRL_VQ.
     */
    RingDriver start(final long features)
    {
        device.enableBusMaster();
        writeStatus(0);
        writeStatus(STATUS_ACKNOWLEDGE);
        writeStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER);
        writeFeatures(features);
        writeStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK);
        if (0 == (status() & STATUS_FEATURES_OK))
        {
            throw new IllegalStateException("FEATURES_OK refused");
        }
        final int setUp = 0 != (features & 1L << F_CTRL_VQ) ? queues : 2;
        for (int q = 0; q < setUp; q++)
        {
            setupQueue(q);
        }
        writeStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK);
        return this;
    }

    RingDriver start()
    {
        return start(FEATURES);
    }

    void setupQueue(final int q)
    {
        buffer.setMemory((int)(descAddress(q) - memory.address()), queueArea, (byte)0);
        bar.write16(COMMON_QUEUE_SELECT, q);
        bar.write16(COMMON_QUEUE_SIZE, size);
        bar.write64(COMMON_QUEUE_DESC, descAddress(q));
        bar.write64(COMMON_QUEUE_DRIVER, availAddress(q));
        bar.write64(COMMON_QUEUE_DEVICE, usedAddress(q));
        bar.write16(COMMON_QUEUE_ENABLE, 1);
        availIdx[q] = 0;
    }

    void writeFeatures(final long features)
    {
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 0);
        bar.write32(COMMON_DRIVER_FEATURE, (int)features);
        bar.write32(COMMON_DRIVER_FEATURE_SELECT, 1);
        bar.write32(COMMON_DRIVER_FEATURE, (int)(features >>> 32));
    }

    void writeStatus(final int status)
    {
        bar.write8(COMMON_DEVICE_STATUS, status);
    }

    int status()
    {
        return bar.read8(COMMON_DEVICE_STATUS);
    }

    long descAddress(final int q)
    {
        return memory.address() + (long)q * queueArea;
    }

    long availAddress(final int q)
    {
        return descAddress(q) + 16L * size;
    }

    long usedAddress(final int q)
    {
        return descAddress(q) + align(16 * size + 6 + 2 * size, 4);
    }

    /** Offset in {@link #buffer} of the 2 KiB buffer slot {@code i} of queue {@code q}. */
    int slotOffset(final int q, final int i)
    {
        return queues * queueArea + (q * size + i) * SLOT;
    }

    long slotAddress(final int q, final int i)
    {
        return memory.address() + slotOffset(q, i);
    }

    void putDesc(final int q, final int i, final long addr, final int len, final int flags, final int next)
    {
        final int at = (int)(descAddress(q) - memory.address()) + 16 * i;
        buffer.putLong(at + DESC_ADDR, addr);
        buffer.putInt(at + DESC_LEN, len);
        buffer.putShort(at + DESC_FLAGS, (short)flags);
        buffer.putShort(at + DESC_NEXT, (short)next);
    }

    /** Adds a chain head to the avail ring and publishes avail.idx (release). */
    void pushAvail(final int q, final int head)
    {
        final int avail = (int)(availAddress(q) - memory.address());
        buffer.putShort(avail + RING_ENTRIES + 2 * (availIdx[q] & (size - 1)), (short)head);
        availIdx[q] = (availIdx[q] + 1) & 0xffff;
        buffer.putShortVolatile(avail + RING_IDX, (short)availIdx[q]);
    }

    void availFlags(final int q, final int flags)
    {
        buffer.putShort((int)(availAddress(q) - memory.address()) + RING_FLAGS, (short)flags);
    }

    void notifyQueue(final int q)
    {
        bar.write16(VirtioNetRegisters.NOTIFY_OFFSET + q * VirtioNetRegisters.NOTIFY_OFF_MULTIPLIER, q);
    }

    int usedIdx(final int q)
    {
        return buffer.getShortVolatile((int)(usedAddress(q) - memory.address()) + RING_IDX) & 0xffff;
    }

    int usedId(final int q, final int k)
    {
        return buffer.getInt((int)(usedAddress(q) - memory.address()) + RING_ENTRIES + 8 * (k & (size - 1)));
    }

    int usedLen(final int q, final int k)
    {
        return buffer.getInt((int)(usedAddress(q) - memory.address()) + RING_ENTRIES + 8 * (k & (size - 1)) + 4);
    }

    /** Posts rx slot {@code i} as a one-descriptor device-writable buffer of {@code len} bytes. */
    void postRx(final int i, final int len)
    {
        putDesc(RX_QUEUE, i, slotAddress(RX_QUEUE, i), len, DESC_F_WRITE, 0);
        pushAvail(RX_QUEUE, i);
    }

    /** Queues {@code frame} in tx slot {@code i} behind a zero virtio_net_hdr, one descriptor, and notifies. */
    void sendTx(final int i, final byte[] frame)
    {
        final int at = slotOffset(TX_QUEUE, i);
        buffer.setMemory(at, HEADER_LENGTH, (byte)0);
        buffer.putBytes(at + HEADER_LENGTH, frame);
        putDesc(TX_QUEUE, i, slotAddress(TX_QUEUE, i), HEADER_LENGTH + frame.length, 0, 0);
        pushAvail(TX_QUEUE, i);
        notifyQueue(TX_QUEUE);
    }

    /**
     * Posts a control command in slot {@code i} of controlq: {@code readable} (header and data) in one device-readable
     * descriptor (2i), then a 1-byte device-writable ack (2i + 1, set to 0xff first), and notifies.
     */
    void sendCtrl(final int i, final byte... readable)
    {
        final int at = slotOffset(ctrl, i);
        buffer.putBytes(at, readable);
        buffer.putByte(at + ACK_AT, (byte)0xff);
        putDesc(ctrl, 2 * i, slotAddress(ctrl, i), readable.length, DESC_F_NEXT, 2 * i + 1);
        putDesc(ctrl, 2 * i + 1, slotAddress(ctrl, i) + ACK_AT, 1, DESC_F_WRITE, 0);
        pushAvail(ctrl, 2 * i);
        notifyQueue(ctrl);
    }

    /** The ack byte of control slot {@code i} (0xff: not written). */
    int ctrlAck(final int i)
    {
        return buffer.getByte(slotOffset(ctrl, i) + ACK_AT) & 0xff;
    }

    @Override
    public void close()
    {
        memory.close();
    }
}
