package io.jrxe.driver.emu;

import io.jrxe.driver.pci.MmioRegion;
import io.jrxe.driver.wake.Wakeup;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * BAR4 of the emulated device: the virtio structures at QEMU's offsets, every access decoded by the device model.
 * <pre>
 *  BAR4 (16 KiB)
 *  0x0000 common cfg  (struct virtio_pci_common_cfg, 0x38 bytes used)
 *  0x1000 ISR status  (1 byte, read clears)
 *  0x2000 device cfg  (struct virtio_net_config: mac[6] | status u16 | max_virtqueue_pairs u16 | mtu u16, then
 *                     with F_RSS speed u32 | duplex u8 | rss_max_key_size u8 | rss_max_indirection_table_length
 *                     u16 | supported_hash_types u32: see VirtioNet)
 *  0x3000 notify      (queue q at 0x3000 + queue_notify_off(q) * 4, queue_notify_off(q) = q)
 * </pre>
 * Common cfg fields must be accessed with their natural width (§4.1.3.1); 64-bit fields may be accessed as two
 * 32-bit halves or as one 64-bit access, which is split low half first as QEMU's 4-byte-max region does. Other
 * accesses are ignored and counted in {@link EmulatedNicCounters#BAD_REGISTER_ACCESSES}.
 * <p>
 * MSI-X: a table of {@code msixVectors} entries, each routed (or not) to a thread's {@link Wakeup} as VFIO routes a
 * vector to an eventfd. A queue or config change mapped to vector v signals v's line only:
 * <pre>
 *   msix_config / queue_msix_vector[q] = v ──▶ raise: msixMessages[v]++ ; targets[v].signal()
 *   a write of v outside the table, or of a vector not routed, reads back NO_VECTOR (§4.1.5.1.2.1)
 * </pre>
 * Threads: register accesses come from the driver thread; the device agent reads {@link #status()},
 * queue registers and kicks, and sets DEVICE_NEEDS_RESET and ISR bits.
 */
final class VirtioNetRegisters implements MmioRegion
{
    static final int COMMON_OFFSET = 0x0000;
    static final int ISR_OFFSET = 0x1000;
    static final int DEVICE_OFFSET = 0x2000;
    static final int NOTIFY_OFFSET = 0x3000;
    static final int REGION_LENGTH = 0x1000;
    static final int NOTIFY_OFF_MULTIPLIER = 4;
    /**
     * receiveq1, transmitq1 and controlq (§5.1.2); a device without CTRL_VQ has the first two, one with F_MQ
     * 2 * max_virtqueue_pairs + 1.
     */
    static final int MAX_QUEUES = 3;
    /** F_MQ and F_RSS, offered by a device of more than one queue pair (F_RSS if the context says so). */
    static final long MQ_FEATURES = 1L << F_MQ | 1L << F_RSS;

    /** VERSION_1, ACCESS_PLATFORM, MAC, MTU, STATUS: what every emulated device offers. */
    static final long BASE_FEATURES = 1L << F_VERSION_1 | 1L << F_ACCESS_PLATFORM | 1L << F_MAC |
        1L << F_MTU | 1L << F_STATUS;
    /** CTRL_VQ and CTRL_RX, offered with the control queue (QEMU's defaults offer both). */
    static final long CONTROL_FEATURES = 1L << F_CTRL_VQ | 1L << F_CTRL_RX;

    /** What the driver thread asks of the device when it writes 0 to device_status. */
    interface ResetHandler
    {
        void resetDevice();
    }

    private final EmulatedNicCounters counters;
    private final ResetHandler resetHandler;
    private final long offeredFeatures;
    /** 2 * queue pairs + 1 with controlq, else 2: num_queues, and the queues that exist. */
    private final int queueCount;
    private final long configuredMac;
    private final VirtqueueRegisters[] queues;
    private final AtomicInteger status = new AtomicInteger();
    private final AtomicInteger isr = new AtomicInteger();
    private final AtomicIntegerArray kicks;
    private final int configLength;
    /** The thread running the device model: a notification or a status change wakes it. */
    private volatile Wakeup deviceWakeup;
    /**
     * Where each MSI-X vector is routed (what VFIO's eventfds are on a real device); null: not routed, and a
     * driver's mapping to it fails (§4.1.5.1.2.1). Written by the driver's control path, read by the device.
     */
    private final AtomicReferenceArray<Wakeup> vectorTargets;
    private final AtomicLongArray msixMessages;
    private final byte[] netConfig = new byte[CONFIG_LENGTH_RSS];
    private volatile int configGeneration;
    /** Mirror of the status field's LINK_UP bit for the device thread. */
    private volatile boolean linkUp;

    private int deviceFeatureSelect;
    private int driverFeatureSelect;
    private long driverFeatures;
    /** The driver wrote non-zero feature bits above bit 63, none of which is offered. */
    private boolean driverFeaturesBeyond64;
    private int msixConfig;
    private int queueSelect;
    private volatile String lastError;

    VirtioNetRegisters(
        final long mac, final int mtu, final int maxQueueSize, final boolean linkUp, final boolean controlQueue,
        final int maxQueuePairs, final boolean rss, final int msixVectors, final EmulatedNicCounters counters,
        final ResetHandler resetHandler)
    {
        this.vectorTargets = new AtomicReferenceArray<>(msixVectors);
        this.msixMessages = new AtomicLongArray(msixVectors);
        this.counters = counters;
        this.resetHandler = resetHandler;
        final boolean mq = controlQueue && maxQueuePairs > 1;
        this.offeredFeatures = BASE_FEATURES | (controlQueue ? CONTROL_FEATURES : 0) |
            (mq ? 1L << F_MQ | (rss ? 1L << F_RSS : 0) : 0);
        this.queueCount = controlQueue ? ctrlQueue(mq ? maxQueuePairs : 1) + 1 : MAX_QUEUES - 1;
        this.kicks = new AtomicIntegerArray(queueCount);
        this.configuredMac = mac;
        this.queues = new VirtqueueRegisters[queueCount];
        for (int i = 0; i < queueCount; i++)
        {
            queues[i] = new VirtqueueRegisters(maxQueueSize);
        }
        if (controlQueue)
        {
            // QEMU's size, whatever the rest
            queues[queueCount - 1] = new VirtqueueRegisters(DeviceControlQueue.MAX_SIZE);
        }
        netConfig[CONFIG_STATUS] = (byte)(linkUp ? S_LINK_UP : 0);
        this.linkUp = linkUp;
        final int pairs = mq ? maxQueuePairs : 1;
        netConfig[CONFIG_MAX_VIRTQUEUE_PAIRS] = (byte)pairs;
        netConfig[CONFIG_MAX_VIRTQUEUE_PAIRS + 1] = (byte)(pairs >>> 8);
        netConfig[CONFIG_MTU] = (byte)mtu;
        netConfig[CONFIG_MTU + 1] = (byte)(mtu >>> 8);
        this.configLength = mq && rss ? CONFIG_LENGTH_RSS : CONFIG_LENGTH;
        if (mq && rss)
        {
            netConfig[CONFIG_RSS_MAX_KEY_SIZE] = (byte)io.jrxe.driver.rss.ToeplitzHash.KEY_LENGTH;
            netConfig[CONFIG_RSS_MAX_INDIRECTION_TABLE_LENGTH] = (byte)EmulatedSteering.MAX_TABLE_LENGTH;
            netConfig[CONFIG_SUPPORTED_HASH_TYPES] = (byte)io.jrxe.driver.rss.RssHashTypes.SUPPORTED;
        }
        resetState();
    }

    /** Back to the state after reset (§2.4): called with the device agent quiesced. */
    void resetState()
    {
        status.set(0);
        isr.set(0);
        deviceFeatureSelect = 0;
        driverFeatureSelect = 0;
        driverFeatures = 0;
        driverFeaturesBeyond64 = false;
        msixConfig = NO_VECTOR;
        queueSelect = 0;
        for (int i = 0; i < queueCount; i++)
        {
            kicks.set(i, 0);
            queues[i].reset();
        }
        mac(configuredMac); // QEMU's reset takes back a MAC set with VIRTIO_NET_CTRL_MAC_ADDR_SET
        lastError = null;
    }

    // ---- device side ----

    int status()
    {
        return status.get();
    }

    long driverFeatures()
    {
        return driverFeatures;
    }

    /** Queue {@code index}, or null if the device does not have it (controlq without CTRL_VQ). */
    VirtqueueRegisters queue(final int index)
    {
        return index < queueCount ? queues[index] : null;
    }

    /** Features the device offers. */
    long offeredFeatures()
    {
        return offeredFeatures;
    }

    /** num_queues: 2 * queue pairs, plus controlq. */
    int queueCount()
    {
        return queueCount;
    }

    /**
     * The MAC in the device config, as VIRTIO_NET_CTRL_MAC_ADDR_SET changes it (§5.1.6.5.2.1: before the command is
     * used). QEMU changes it without a config change notification, and so does this.
     */
    void mac(final long mac)
    {
        synchronized (this)
        {
            for (int i = 0; i < 6; i++)
            {
                netConfig[CONFIG_MAC + i] = (byte)(mac >>> (8 * (5 - i)));
            }
        }
    }

    /** Takes a pending notification of queue {@code index}; the CAS pairs with the driver's notify write. */
    boolean takeKick(final int index)
    {
        return index < queueCount && 0 != kicks.get(index) && 0 != kicks.getAndSet(index, 0);
    }

    /** Set-up: the line of the thread that runs the device model. */
    void deviceWakeup(final Wakeup wakeup)
    {
        deviceWakeup = wakeup;
    }

    /** @return MSI-X messages sent to routed targets, all vectors. */
    long msixMessages()
    {
        long sum = 0;
        for (int v = 0; v < msixMessages.length(); v++)
        {
            sum += msixMessages.get(v);
        }
        return sum;
    }

    /** @return MSI-X messages sent on {@code vector} to its routed target (0 outside the table). */
    long msixMessages(final int vector)
    {
        return vector < 0 || vector >= msixMessages.length() ? 0 : msixMessages.get(vector);
    }

    /** The MSI-X table size. */
    int msixVectors()
    {
        return vectorTargets.length();
    }

    /**
     * Routes MSI-X vector {@code vector} to {@code target} (null: unroute). The driver then maps queues and config
     * changes to it.
     *
     * @return false if the table has no such vector
     */
    boolean routeInterrupt(final int vector, final Wakeup target)
    {
        if (vector < 0 || vector >= vectorTargets.length())
        {
            return false;
        }
        vectorTargets.set(vector, target);
        return true;
    }

    /** Unroutes every vector: mapped queues and config changes then send nothing. */
    void unrouteInterrupts()
    {
        for (int v = 0; v < vectorTargets.length(); v++)
        {
            vectorTargets.set(v, null);
        }
    }

    /**
     * Used buffers were added to a queue whose driver did not suppress interrupts (§2.6.7 / §4.1.4.5): the ISR
     * bit, and the queue's MSI-X message if it has a vector.
     */
    void raiseQueueInterrupt(final int queue)
    {
        raiseIsr(ISR_QUEUE);
        sendMsix(queues[queue].msixVector);
    }

    private void raiseConfigInterrupt()
    {
        raiseIsr(ISR_CONFIG);
        sendMsix(msixConfig);
    }

    /** The message of {@code vector}, if the driver mapped the source to one and it is routed. */
    private void sendMsix(final int vector)
    {
        if (NO_VECTOR == vector)
        {
            return;
        }
        final Wakeup target = vectorTargets.get(vector);
        if (null != target)
        {
            msixMessages.incrementAndGet(vector);
            target.signal();
        }
    }

    /** Vectors outside the table or not routed fail and read back NO_VECTOR (§4.1.5.1.2.1). */
    private int mappable(final int vector)
    {
        return vector < vectorTargets.length() && null != vectorTargets.get(vector) ? vector : NO_VECTOR;
    }

    private void wakeDevice()
    {
        final Wakeup line = deviceWakeup;
        if (null != line)
        {
            line.signal();
        }
    }

    private void raiseIsr(final int bits)
    {
        int v;
        while (bits != ((v = isr.get()) & bits) && !isr.compareAndSet(v, v | bits))
        {
            Thread.onSpinWait();
        }
    }

    /**
     * §2.1.2: the device entered an error state; it sets DEVICE_NEEDS_RESET and, if DRIVER_OK was set, sends a
     * configuration change notification.
     */
    void needsReset(final String reason)
    {
        lastError = reason;
        int before;
        do
        {
            before = status.get();
        }
        while (0 != before && !status.compareAndSet(before, before | STATUS_DEVICE_NEEDS_RESET));
        if (0 != (before & STATUS_DRIVER_OK))
        {
            raiseConfigInterrupt();
        }
    }

    String lastError()
    {
        return lastError;
    }

    boolean linkUp()
    {
        return linkUp;
    }

    /** Changes the link status field; §4.1.4.3.1 config_generation changes and a config change is signalled. */
    synchronized void linkUp(final boolean up)
    {
        netConfig[CONFIG_STATUS] = (byte)(up ? S_LINK_UP : 0);
        linkUp = up;
        configGeneration = (configGeneration + 1) & 0xff;
        raiseConfigInterrupt();
    }

    // ---- MmioRegion: driver side ----

    @Override
    public long length()
    {
        return EmulatedConfigSpace.BAR_LENGTH;
    }

    @Override
    public int read8(final long offset)
    {
        return read(offset, 1);
    }

    @Override
    public int read16(final long offset)
    {
        return read(offset, 2);
    }

    @Override
    public int read32(final long offset)
    {
        return read(offset, 4);
    }

    @Override
    public long read64(final long offset)
    {
        if (offset >= COMMON_OFFSET && offset < COMMON_OFFSET + REGION_LENGTH)
        {
            final long low = read(offset, 4) & 0xffffffffL;
            return low | (long)read(offset + 4, 4) << 32;
        }
        return read(offset, 8) & 0xffffffffL;
    }

    @Override
    public void write8(final long offset, final int value)
    {
        write(offset, 1, value);
    }

    @Override
    public void write16(final long offset, final int value)
    {
        write(offset, 2, value);
    }

    @Override
    public void write32(final long offset, final int value)
    {
        write(offset, 4, value);
    }

    @Override
    public void write64(final long offset, final long value)
    {
        if (offset >= COMMON_OFFSET && offset < COMMON_OFFSET + REGION_LENGTH)
        {
            write(offset, 4, (int)value);
            write(offset + 4, 4, (int)(value >>> 32));
            return;
        }
        write(offset, 8, (int)value);
    }

    private int read(final long offset, final int width)
    {
        checkBounds(offset, width);
        final int region = (int)(offset & ~(REGION_LENGTH - 1));
        final int at = (int)(offset & (REGION_LENGTH - 1));
        switch (region)
        {
            case COMMON_OFFSET:
                return commonRead(at, width);
            case ISR_OFFSET:
                if (0 == at && 1 == width)
                {
                    return isr.getAndSet(0); // §4.1.4.5: reading ISR status clears it
                }
                return badAccess();
            case DEVICE_OFFSET:
                return deviceConfigRead(at, width);
            default:
                return 0; // notify region reads as zero
        }
    }

    private void write(final long offset, final int width, final int value)
    {
        checkBounds(offset, width);
        final int region = (int)(offset & ~(REGION_LENGTH - 1));
        final int at = (int)(offset & (REGION_LENGTH - 1));
        switch (region)
        {
            case COMMON_OFFSET:
                commonWrite(at, width, value);
                break;
            case NOTIFY_OFFSET:
                notifyWrite(at, width);
                break;
            default:
                badAccess(); // ISR and device config (without CTRL_MAC_ADDR) are read-only
                break;
        }
    }

    /** Width of the common cfg field at {@code at} (64-bit fields as 32-bit halves), 0 for no field. */
    private static int fieldWidth(final int at)
    {
        switch (at)
        {
            case COMMON_DEVICE_STATUS:
            case COMMON_CONFIG_GENERATION:
                return 1;
            case COMMON_MSIX_CONFIG:
            case COMMON_NUM_QUEUES:
            case COMMON_QUEUE_SELECT:
            case COMMON_QUEUE_SIZE:
            case COMMON_QUEUE_MSIX_VECTOR:
            case COMMON_QUEUE_ENABLE:
            case COMMON_QUEUE_NOTIFY_OFF:
                return 2;
            default:
                return at >= 0 && at < COMMON_QUEUE_DEVICE + 8 && 0 == (at & 3) &&
                    (at < COMMON_MSIX_CONFIG || at >= COMMON_QUEUE_DESC) ? 4 : 0;
        }
    }

    private int commonRead(final int at, final int width)
    {
        if (width != fieldWidth(at))
        {
            return badAccess(); // §4.1.3.1: fields are accessed with their natural width
        }
        final VirtqueueRegisters q = queueCount > queueSelect ? queues[queueSelect] : null;
        switch (at)
        {
            case COMMON_DEVICE_FEATURE_SELECT:
                return deviceFeatureSelect;
            case COMMON_DEVICE_FEATURE:
                return featureWord(offeredFeatures, deviceFeatureSelect);
            case COMMON_DRIVER_FEATURE_SELECT:
                return driverFeatureSelect;
            case COMMON_DRIVER_FEATURE:
                return featureWord(driverFeatures, driverFeatureSelect);
            case COMMON_MSIX_CONFIG:
                return msixConfig;
            case COMMON_NUM_QUEUES:
                return queueCount;
            case COMMON_DEVICE_STATUS:
                return status.get();
            case COMMON_CONFIG_GENERATION:
                return configGeneration;
            case COMMON_QUEUE_SELECT:
                return queueSelect;
            case COMMON_QUEUE_SIZE:
                return null == q ? 0 : q.size; // §4.1.4.3: 0 = no such queue
            case COMMON_QUEUE_MSIX_VECTOR:
                return null == q ? NO_VECTOR : q.msixVector;
            case COMMON_QUEUE_ENABLE:
                return null != q && q.enabled ? 1 : 0;
            case COMMON_QUEUE_NOTIFY_OFF:
                return null == q ? 0 : queueSelect;
            default:
                return null == q ? 0 : queueAddressHalf(q, at);
        }
    }

    private void commonWrite(final int at, final int width, final int value)
    {
        if (width != fieldWidth(at))
        {
            badAccess();
            return;
        }
        final VirtqueueRegisters q = queueCount > queueSelect ? queues[queueSelect] : null;
        switch (at)
        {
            case COMMON_DEVICE_FEATURE_SELECT:
                deviceFeatureSelect = value;
                break;
            case COMMON_DRIVER_FEATURE_SELECT:
                driverFeatureSelect = value;
                break;
            case COMMON_DRIVER_FEATURE:
                writeDriverFeatures(value);
                break;
            case COMMON_MSIX_CONFIG:
                msixConfig = mappable(value & 0xffff);
                break;
            case COMMON_DEVICE_STATUS:
                writeStatus(value & 0xff);
                break;
            case COMMON_QUEUE_SELECT:
                queueSelect = value & 0xffff;
                break;
            case COMMON_QUEUE_SIZE:
                writeQueueSize(q, value & 0xffff);
                break;
            case COMMON_QUEUE_MSIX_VECTOR:
                if (null != q)
                {
                    q.msixVector = mappable(value & 0xffff);
                }
                break;
            case COMMON_QUEUE_ENABLE:
                writeQueueEnable(q, value & 0xffff);
                break;
            case COMMON_DEVICE_FEATURE:
            case COMMON_NUM_QUEUES:
            case COMMON_CONFIG_GENERATION:
            case COMMON_QUEUE_NOTIFY_OFF:
                badAccess(); // read-only
                break;
            default:
                writeQueueAddressHalf(q, at, value);
                break;
        }
    }

    /**
     * §2.1.1 / §3.1.1: writing 0 resets the device. Bits are only ever added; FEATURES_OK sticks only if the
     * features the driver accepted are acceptable (§2.2.1: a subset of the offered ones; VERSION_1 for a
     * non-transitional device; ACCESS_PLATFORM because this device only reaches memory through an IOMMU, as
     * QEMU with iommu_platform=on refuses without it). DRIVER_OK sticks only after FEATURES_OK.
     * DEVICE_NEEDS_RESET is the device's to set, not the driver's.
     */
    private void writeStatus(final int value)
    {
        if (0 == value)
        {
            resetHandler.resetDevice();
            return;
        }
        while (true)
        {
            final int old = status.get();
            int next = old | (value & ~STATUS_DEVICE_NEEDS_RESET);
            if (0 != (next & STATUS_FEATURES_OK) && 0 == (old & STATUS_FEATURES_OK) && !featuresAcceptable())
            {
                next &= ~STATUS_FEATURES_OK;
            }
            if (0 == (next & STATUS_FEATURES_OK))
            {
                next &= ~STATUS_DRIVER_OK;
            }
            if (status.compareAndSet(old, next))
            {
                wakeDevice(); // e.g. DRIVER_OK: the device attaches its queues
                return;
            }
        }
    }

    private boolean featuresAcceptable()
    {
        // §5.1.3.1: MQ and RSS require CTRL_VQ (their commands travel on it)
        final boolean dependencies = 0 == (driverFeatures & MQ_FEATURES) || 0 != (driverFeatures & 1L << F_CTRL_VQ);
        return !driverFeaturesBeyond64 && 0 == (driverFeatures & ~offeredFeatures) && dependencies &&
            0 != (driverFeatures & 1L << F_VERSION_1) && 0 != (driverFeatures & 1L << F_ACCESS_PLATFORM);
    }

    /** Feature writes after FEATURES_OK are ignored: the negotiation is over (§3.1.1 step 5). */
    private void writeDriverFeatures(final int value)
    {
        if (0 != (status.get() & STATUS_FEATURES_OK))
        {
            badAccess();
            return;
        }
        switch (driverFeatureSelect)
        {
            case 0:
                driverFeatures = (driverFeatures & 0xffffffff00000000L) | (value & 0xffffffffL);
                break;
            case 1:
                driverFeatures = (driverFeatures & 0xffffffffL) | ((long)value << 32);
                break;
            default:
                driverFeaturesBeyond64 |= 0 != value;
                break;
        }
    }

    /**
     * §2.6 (1.1 §2.6): a split queue's size is a power of 2 no larger than the device's maximum; the driver may
     * lower it. An invalid size, or a write to an enabled queue, is ignored (as QEMU does) and reads back unchanged.
     */
    private void writeQueueSize(final VirtqueueRegisters q, final int size)
    {
        if (null == q || q.enabled || 0 == size || size > q.maxSize || 0 != (size & (size - 1)))
        {
            badAccess();
            return;
        }
        q.size = size;
    }

    /**
     * §4.1.4.3.2: the driver enables a configured queue by writing 1 (writing 0 is not allowed in 1.1 and is
     * ignored). Ring parts must be aligned (§2.6 table: desc 16, driver 2, device 4); a misaligned ring is a
     * driver error the device reports with DEVICE_NEEDS_RESET.
     */
    private void writeQueueEnable(final VirtqueueRegisters q, final int value)
    {
        if (null == q || 1 != value)
        {
            badAccess();
            return;
        }
        if (0 != (q.address[VirtqueueRegisters.DESC] & 15) || 0 != (q.address[VirtqueueRegisters.DRIVER] & 1) ||
            0 != (q.address[VirtqueueRegisters.DEVICE] & 3))
        {
            counters.incrementShared(EmulatedNicCounters.DEVICE_ERRORS);
            needsReset("queue " + queueSelect + " enabled with a misaligned ring (desc%16, driver%2, device%4)");
            return;
        }
        q.enabled = true;
    }

    private void writeQueueAddressHalf(final VirtqueueRegisters q, final int at, final int value)
    {
        if (null == q || q.enabled)
        {
            badAccess();
            return;
        }
        final int i = (at - COMMON_QUEUE_DESC) >> 3;
        final long v = value & 0xffffffffL;
        q.address[i] = 0 != (at & 4) ? (q.address[i] & 0xffffffffL) | v << 32 : (q.address[i] & ~0xffffffffL) | v;
    }

    private static int queueAddressHalf(final VirtqueueRegisters q, final int at)
    {
        final long address = q.address[(at - COMMON_QUEUE_DESC) >> 3];
        return (int)(0 != (at & 4) ? address >>> 32 : address);
    }

    /** §4.1.4.4: the queue is found from the address written; without NOTIFICATION_DATA the value is the index. */
    private void notifyWrite(final int at, final int width)
    {
        final int queue = at / NOTIFY_OFF_MULTIPLIER;
        if (0 != at % NOTIFY_OFF_MULTIPLIER || queue >= queueCount || (2 != width && 4 != width))
        {
            badAccess();
            return;
        }
        counters.incrementShared(EmulatedNicCounters.NOTIFICATIONS);
        kicks.set(queue, 1);
        wakeDevice();
    }

    private int deviceConfigRead(final int at, final int width)
    {
        if (at + width > configLength || width > 4)
        {
            return badAccess();
        }
        synchronized (this)
        {
            int value = 0;
            for (int i = width - 1; i >= 0; i--)
            {
                value = (value << 8) | (netConfig[at + i] & 0xff);
            }
            return value;
        }
    }

    private static int featureWord(final long features, final int select)
    {
        switch (select)
        {
            case 0:
                return (int)features;
            case 1:
                return (int)(features >>> 32);
            default:
                return 0;
        }
    }

    private int badAccess()
    {
        counters.incrementShared(EmulatedNicCounters.BAD_REGISTER_ACCESSES);
        return 0;
    }

    private static void checkBounds(final long offset, final int width)
    {
        if (offset < 0 || offset + width > EmulatedConfigSpace.BAR_LENGTH || 0 != (offset & (width - 1)))
        {
            throw new IllegalArgumentException("BAR4 access of " + width + " bytes at 0x" + Long.toHexString(offset) +
                " is outside the 16 KiB BAR or not naturally aligned");
        }
    }
}
