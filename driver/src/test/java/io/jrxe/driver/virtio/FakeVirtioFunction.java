package io.jrxe.driver.virtio;

import io.jrxe.driver.pci.DmaMapper;
import io.jrxe.driver.pci.MmioRegion;
import io.jrxe.driver.pci.PciFunction;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * A scripted virtio-net PCI function for driver tests: configuration space with a capability list, BARs whose
 * common configuration behaves as virtio 1.1 §4.1.4.3 says (with knobs to make it misbehave), a log of every
 * register write, and the device side of the rx/tx rings so tests can deliver and collect frames.
 */
public final class FakeVirtioFunction implements PciFunction
{
    /** One virtio capability to put in configuration space. */
    public record Cap(int cfgType, int bar, long offset, long length, int multiplier)
    {
    }

    public static final long NET_FEATURES = featureMask(F_VERSION_1) | featureMask(F_ACCESS_PLATFORM) |
        featureMask(F_MAC) | featureMask(F_MTU) | featureMask(F_STATUS);

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    // Script knobs: set before opening the driver.
    public long offeredFeatures = NET_FEATURES;
    public boolean featuresOkSticks = true;
    public boolean resetCompletes = true;
    public int[] queueMax = { 256, 256 };
    public long mac = 0x5254_0000_0001L;
    public int mtu = 1500;
    public int netStatus = S_LINK_UP;
    public int unstableGenerationReads;

    public final List<String> events = new ArrayList<>();
    public final RecordingDmaMapper dma = new RecordingDmaMapper();
    public int notifiesBeforeDriverOk;

    private final byte[] config = new byte[256];
    private final List<Cap> caps;
    private final FakeBar[] bars = new FakeBar[6];
    private int status;
    private int generation;
    private int deviceFeatureSelect;
    private int driverFeatureSelect;
    private final int[] driverFeatures = new int[2];
    private int queueSelect;
    private int[] queueSize;
    private int[] queueEnable;
    private long[][] queueAddress;
    private final DeviceSideRing[] rings = new DeviceSideRing[2];

    public FakeVirtioFunction(final int vendorId, final int deviceId, final List<Cap> caps)
    {
        this.caps = caps;
        put16(0x00, vendorId);
        put16(0x02, deviceId);
        put16(PCI_STATUS, PCI_STATUS_CAP_LIST);
        // A non-virtio capability (MSI-X) first: the walk must skip it.
        int pointer = 0x40;
        config[PCI_CAPABILITY_POINTER] = (byte)pointer;
        config[pointer] = 0x11;
        int next = pointer + 12;
        config[pointer + 1] = (byte)next;
        for (final Cap cap : caps)
        {
            pointer = next;
            final int len = CFG_TYPE_NOTIFY == cap.cfgType() ? 20 : 16;
            next = pointer + len;
            config[pointer] = (byte)PCI_CAP_ID_VENDOR;
            config[pointer + CAP_NEXT] = (byte)next;
            config[pointer + CAP_LEN] = (byte)len;
            config[pointer + CAP_CFG_TYPE] = (byte)cap.cfgType();
            config[pointer + CAP_BAR] = (byte)cap.bar();
            put32(pointer + CAP_OFFSET, (int)cap.offset());
            put32(pointer + CAP_LENGTH, (int)cap.length());
            if (CFG_TYPE_NOTIFY == cap.cfgType())
            {
                put32(pointer + CAP_NOTIFY_OFF_MULTIPLIER, cap.multiplier());
            }
            if (cap.bar() < bars.length && null == bars[cap.bar()])
            {
                bars[cap.bar()] = new FakeBar(cap.bar(), 0x4000);
            }
        }
        config[pointer + CAP_NEXT] = 0;
        resetState();
    }

    /** The layout QEMU's virtio-net-pci shows through VFIO: everything in BAR 4, notify multiplier 4. */
    public static FakeVirtioFunction qemuLike()
    {
        return new FakeVirtioFunction(VENDOR_ID, DEVICE_ID_NET_MODERN, qemuCaps());
    }

    public static List<Cap> qemuCaps()
    {
        return new ArrayList<>(List.of(
            new Cap(CFG_TYPE_COMMON, 4, 0x0, 0x1000, 0),
            new Cap(CFG_TYPE_ISR, 4, 0x1000, 0x1000, 0),
            new Cap(CFG_TYPE_DEVICE, 4, 0x2000, 0x1000, 0),
            new Cap(CFG_TYPE_NOTIFY, 4, 0x3000, 0x1000, 4),
            new Cap(CFG_TYPE_PCI, 0, 0, 0, 0)));
    }

    /** A layout unlike QEMU's: structures spread over BARs 0 and 2, a large notify multiplier. */
    public static FakeVirtioFunction spreadOverBars()
    {
        return new FakeVirtioFunction(VENDOR_ID, DEVICE_ID_NET_MODERN, List.of(
            new Cap(CFG_TYPE_NOTIFY, 2, 0x1000, 0x2000, 0x800),
            new Cap(CFG_TYPE_DEVICE, 2, 0x100, 0x40, 0),
            new Cap(CFG_TYPE_COMMON, 0, 0x200, 0x40, 0)));
    }

    public byte[] configSpace()
    {
        return config;
    }

    private void put16(final int offset, final int value)
    {
        config[offset] = (byte)value;
        config[offset + 1] = (byte)(value >> 8);
    }

    private void put32(final int offset, final int value)
    {
        put16(offset, value);
        put16(offset + 2, value >>> 16);
    }

    private void resetState()
    {
        status = 0;
        queueSelect = 0;
        deviceFeatureSelect = 0;
        driverFeatureSelect = 0;
        Arrays.fill(driverFeatures, 0);
        queueSize = queueMax.clone();
        queueEnable = new int[queueMax.length];
        queueAddress = new long[queueMax.length][3];
        Arrays.fill(rings, null);
    }

    public int status()
    {
        return status;
    }

    /** Sets DEVICE_NEEDS_RESET as a device does after an internal error, §2.1.2. */
    public void raiseNeedsReset()
    {
        status |= STATUS_DEVICE_NEEDS_RESET;
    }

    public long acceptedFeatures()
    {
        return (driverFeatures[1] & 0xffff_ffffL) << 32 | (driverFeatures[0] & 0xffff_ffffL);
    }

    public int queueSize(final int queue)
    {
        return queueSize[queue];
    }

    public long queueAddress(final int queue, final int which)
    {
        return queueAddress[queue][which];
    }

    public List<Integer> statusWrites()
    {
        final List<Integer> writes = new ArrayList<>();
        for (final String e : events)
        {
            if (e.startsWith("status "))
            {
                writes.add(Integer.decode(e.substring(7)));
            }
        }
        return writes;
    }

    public int count(final String event)
    {
        return (int)events.stream().filter(event::equals).count();
    }

    /** The device side of an enabled queue. */
    public DeviceSideRing ring(final int queue)
    {
        if (1 != queueEnable[queue])
        {
            throw new IllegalStateException("queue " + queue + " is not enabled");
        }
        if (null == rings[queue])
        {
            final int size = queueSize[queue];
            final long[] a = queueAddress[queue];
            check(dma.isMapped(a[0], 16L * size) && dma.isMapped(a[1], 6 + 2L * size) &&
                dma.isMapped(a[2], 6 + 8L * size), "queue " + queue + " rings are not in mapped DMA memory");
            rings[queue] = new DeviceSideRing(a[0], a[1], a[2], size);
        }
        return rings[queue];
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new AssertionError(message);
        }
    }

    /** Delivers one frame into the next rx buffer; false if the driver left none (the frame is dropped). */
    public boolean receive(final byte[] frame)
    {
        return receive(frame, HEADER_LENGTH + frame.length);
    }

    /** Delivers a frame but reports {@code usedLength} in the used ring, e.g. a bogus one. */
    public boolean receive(final byte[] frame, final int usedLength)
    {
        final DeviceSideRing rx = ring(RX_QUEUE);
        if (0 == rx.pending())
        {
            return false;
        }
        final int head = rx.take();
        final long addr = rx.addr(head);
        final int len = rx.len(head);
        check(SplitVirtqueue.DESC_F_WRITE == rx.flags(head), "rx descriptor is not device-writable");
        check(len >= HEADER_LENGTH + frame.length, "rx buffer of " + len + " too small for " + frame.length);
        check(dma.isMapped(addr, len), "rx buffer not mapped");
        final UnsafeBuffer buffer = new UnsafeBuffer(addr, len);
        buffer.setMemory(0, HEADER_LENGTH, (byte)0);
        buffer.putShort(10, (short)1, LE);
        buffer.putBytes(HEADER_LENGTH, frame);
        rx.use(head, usedLength);
        rx.publishUsed();
        return true;
    }

    /** Takes up to {@code max} frames from the tx ring, completes them and returns their bytes. */
    public List<byte[]> transmit(final int max)
    {
        final DeviceSideRing tx = ring(TX_QUEUE);
        final List<byte[]> frames = new ArrayList<>();
        while (frames.size() < max && tx.pending() > 0)
        {
            final int head = tx.take();
            final long addr = tx.addr(head);
            final int len = tx.len(head);
            check(0 == tx.flags(head), "tx descriptor flags must be 0, got " + tx.flags(head));
            check(dma.isMapped(addr, len), "tx buffer not mapped");
            final UnsafeBuffer buffer = new UnsafeBuffer(addr, len);
            for (int i = 0; i < HEADER_LENGTH; i++)
            {
                check(0 == buffer.getByte(i), "tx virtio_net_hdr byte " + i + " is not zero");
            }
            final byte[] frame = new byte[len - HEADER_LENGTH];
            buffer.getBytes(HEADER_LENGTH, frame);
            frames.add(frame);
            tx.use(head, 0);
        }
        tx.publishUsed();
        return frames;
    }

    @Override
    public String address()
    {
        return "ffff:00:01.0";
    }

    @Override
    public int configRead8(final int offset)
    {
        return config[offset] & 0xff;
    }

    @Override
    public int configRead16(final int offset)
    {
        return configRead8(offset) | configRead8(offset + 1) << 8;
    }

    @Override
    public int configRead32(final int offset)
    {
        return configRead16(offset) | configRead16(offset + 2) << 16;
    }

    @Override
    public void configWrite16(final int offset, final int value)
    {
        put16(offset, value);
    }

    @Override
    public void configWrite32(final int offset, final int value)
    {
        put32(offset, value);
    }

    @Override
    public MmioRegion bar(final int index)
    {
        if (index < 0 || index > 5 || null == bars[index])
        {
            throw new IllegalArgumentException("BAR " + index + " does not exist");
        }
        return bars[index];
    }

    @Override
    public DmaMapper dma()
    {
        return dma;
    }

    @Override
    public void reset()
    {
        events.add("flr");
        resetState();
    }

    @Override
    public void close()
    {
    }

    private Cap capAt(final int bar, final long offset)
    {
        for (final Cap cap : caps)
        {
            if (cap.bar() == bar && offset >= cap.offset() && offset < cap.offset() + cap.length())
            {
                return cap;
            }
        }
        return null;
    }

    long read(final int bar, final long offset, final int width)
    {
        final Cap cap = capAt(bar, offset);
        if (null == cap)
        {
            return 0;
        }
        final int at = (int)(offset - cap.offset());
        return switch (cap.cfgType())
        {
            case CFG_TYPE_COMMON -> readCommon(checkWidth(at, width));
            case CFG_TYPE_DEVICE -> readDevice(at, width);
            default -> 0;
        };
    }

    /** Common configuration fields must be accessed with their natural width, §4.1.3.1. */
    private static int checkWidth(final int at, final int width)
    {
        final int natural = at < COMMON_MSIX_CONFIG ? 4 : at < COMMON_DEVICE_STATUS ? 2 :
            at < COMMON_QUEUE_SELECT ? 1 : at < COMMON_QUEUE_DESC ? 2 : 4;
        check(width == natural, "common config +0x" + Integer.toHexString(at) + " accessed with width " + width +
            ", its natural width is " + natural);
        return at;
    }

    private long readCommon(final int at)
    {
        final boolean queueExists = queueSelect < queueMax.length;
        return switch (at)
        {
            case COMMON_DEVICE_FEATURE_SELECT -> deviceFeatureSelect;
            case COMMON_DEVICE_FEATURE ->
                deviceFeatureSelect > 1 ? 0 : (int)(offeredFeatures >>> (32 * deviceFeatureSelect));
            case COMMON_DRIVER_FEATURE_SELECT -> driverFeatureSelect;
            case COMMON_DRIVER_FEATURE -> driverFeatureSelect > 1 ? 0 : driverFeatures[driverFeatureSelect];
            case COMMON_MSIX_CONFIG -> NO_VECTOR;
            case COMMON_NUM_QUEUES -> queueMax.length;
            case COMMON_DEVICE_STATUS -> status;
            case COMMON_CONFIG_GENERATION -> generation;
            case COMMON_QUEUE_SELECT -> queueSelect;
            case COMMON_QUEUE_SIZE -> queueExists ? queueSize[queueSelect] : 0;
            case COMMON_QUEUE_MSIX_VECTOR -> NO_VECTOR;
            case COMMON_QUEUE_ENABLE -> queueExists ? queueEnable[queueSelect] : 0;
            case COMMON_QUEUE_NOTIFY_OFF -> queueSelect;
            default -> 0;
        };
    }

    private long readDevice(final int at, final int width)
    {
        if (CONFIG_MAC == at && unstableGenerationReads > 0)
        {
            // The config changes under the reader: a torn value, and a new generation, §2.4.1.
            unstableGenerationReads--;
            generation++;
            return 0xee;
        }
        final byte[] cfg = new byte[12];
        for (int i = 0; i < 6; i++)
        {
            cfg[i] = (byte)(mac >>> (40 - 8 * i));
        }
        cfg[CONFIG_STATUS] = (byte)netStatus;
        cfg[8] = 1;
        cfg[CONFIG_MTU] = (byte)mtu;
        cfg[CONFIG_MTU + 1] = (byte)(mtu >> 8);
        long value = 0;
        for (int i = width - 1; i >= 0; i--)
        {
            value = value << 8 | (at + i < cfg.length ? cfg[at + i] & 0xff : 0);
        }
        return value;
    }

    void write(final int bar, final long offset, final int width, final long value)
    {
        final Cap cap = capAt(bar, offset);
        if (null == cap)
        {
            events.add("stray write bar " + bar + " 0x" + Long.toHexString(offset));
            return;
        }
        final int at = (int)(offset - cap.offset());
        if (CFG_TYPE_NOTIFY == cap.cfgType())
        {
            final int queue = 0 == cap.multiplier() ? (int)value : at / cap.multiplier();
            check(2 == width && value == queue, "notify write of " + value + " at queue " + queue + "'s register");
            if (0 == (status & STATUS_DRIVER_OK))
            {
                notifiesBeforeDriverOk++;
            }
            events.add("notify " + queue);
        }
        else if (CFG_TYPE_COMMON == cap.cfgType())
        {
            writeCommon(checkWidth(at, width), (int)value);
        }
        else
        {
            events.add("write to cfg_type " + cap.cfgType() + " +" + at);
        }
    }

    private void writeCommon(final int at, final int value)
    {
        switch (at)
        {
            case COMMON_DEVICE_FEATURE_SELECT -> deviceFeatureSelect = value;
            case COMMON_DRIVER_FEATURE_SELECT -> driverFeatureSelect = value;
            case COMMON_DRIVER_FEATURE ->
            {
                events.add("driver_feature[" + driverFeatureSelect + "] 0x" + Integer.toHexString(value));
                driverFeatures[driverFeatureSelect] = value;
            }
            case COMMON_DEVICE_STATUS -> writeStatus(value);
            case COMMON_QUEUE_SELECT -> queueSelect = value;
            case COMMON_QUEUE_SIZE ->
            {
                events.add("queue_size[" + queueSelect + "] " + value);
                queueSize[queueSelect] = value;
            }
            case COMMON_QUEUE_MSIX_VECTOR -> events.add("queue_msix_vector[" + queueSelect + "] " + value);
            case COMMON_QUEUE_ENABLE ->
            {
                events.add("queue_enable[" + queueSelect + "] " + value);
                queueEnable[queueSelect] = value;
            }
            case COMMON_QUEUE_DESC, COMMON_QUEUE_DESC + 4, COMMON_QUEUE_DRIVER, COMMON_QUEUE_DRIVER + 4,
                COMMON_QUEUE_DEVICE, COMMON_QUEUE_DEVICE + 4 ->
            {
                final int which = (at - COMMON_QUEUE_DESC) / 8;
                final boolean high = 4 == (at - COMMON_QUEUE_DESC) % 8;
                final long old = queueAddress[queueSelect][which];
                queueAddress[queueSelect][which] = high ?
                    (old & 0xffff_ffffL) | (long)value << 32 : (old & ~0xffff_ffffL) | (value & 0xffff_ffffL);
            }
            default -> events.add("common write +0x" + Integer.toHexString(at) + " " + value);
        }
    }

    private void writeStatus(final int value)
    {
        events.add("status 0x" + Integer.toHexString(value));
        if (0 == value)
        {
            if (resetCompletes)
            {
                resetState();
            }
            else
            {
                status = STATUS_ACKNOWLEDGE;
            }
            return;
        }
        int newStatus = value;
        if (0 != (value & STATUS_FEATURES_OK) && 0 == (status & STATUS_FEATURES_OK))
        {
            final long accepted = acceptedFeatures();
            if (!featuresOkSticks || 0 != (accepted & ~offeredFeatures))
            {
                newStatus &= ~STATUS_FEATURES_OK;
            }
        }
        status = newStatus | (status & STATUS_DEVICE_NEEDS_RESET);
    }

    /** A BAR whose accesses go to the fake's register model; every access is recorded by width. */
    final class FakeBar implements MmioRegion
    {
        private final int index;
        private final long length;

        FakeBar(final int index, final long length)
        {
            this.index = index;
            this.length = length;
        }

        @Override
        public long length()
        {
            return length;
        }

        @Override
        public int read8(final long offset)
        {
            return (int)read(index, offset, 1) & 0xff;
        }

        @Override
        public int read16(final long offset)
        {
            return (int)read(index, offset, 2) & 0xffff;
        }

        @Override
        public int read32(final long offset)
        {
            return (int)read(index, offset, 4);
        }

        @Override
        public long read64(final long offset)
        {
            return read(index, offset, 8);
        }

        @Override
        public void write8(final long offset, final int value)
        {
            write(index, offset, 1, value & 0xff);
        }

        @Override
        public void write16(final long offset, final int value)
        {
            write(index, offset, 2, value & 0xffff);
        }

        @Override
        public void write32(final long offset, final int value)
        {
            write(index, offset, 4, value & 0xffff_ffffL);
        }

        @Override
        public void write64(final long offset, final long value)
        {
            write(index, offset, 8, value);
        }
    }
}
