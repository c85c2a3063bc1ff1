package io.jrxe.driver.virtio;

import io.jrxe.driver.pci.MmioRegion;
import io.jrxe.driver.pci.PciFunction;
import org.agrona.concurrent.NanoClock;

import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * The virtio 1.x PCI transport of one function: finds the virtio structures through the PCI capability list
 * (virtio 1.1 §4.1.4) and gives typed access to the common configuration, the notification area and the
 * device-specific configuration. Setup-time code only, except {@link #notifyBar()}/{@link #notifyOffset(int)}
 * which a queue resolves once and then writes directly.
 * <p>
 * The driver walks the list itself and assumes nothing about the BAR layout: QEMU puts all structures in BAR 4,
 * other devices need not.
 */
public final class VirtioPciTransport
{
    /** A 256-byte configuration space cannot hold more capabilities than this; bounds a looping list. */
    private static final int MAX_CAPABILITIES = 48;
    private static final int FIRST_CAPABILITY_OFFSET = 0x40;
    private static final int MAX_BAR = 5;

    private final PciFunction function;
    private final VirtioPciCapability commonCap;
    private final VirtioPciCapability notifyCap;
    private final VirtioPciCapability isrCap;
    private final VirtioPciCapability deviceCap;
    private final MmioRegion common;
    private final long commonOffset;
    private final MmioRegion notify;
    private final MmioRegion device;
    private final long deviceOffset;

    private VirtioPciTransport(
        final PciFunction function,
        final VirtioPciCapability commonCap,
        final VirtioPciCapability notifyCap,
        final VirtioPciCapability isrCap,
        final VirtioPciCapability deviceCap)
    {
        this.function = function;
        this.commonCap = commonCap;
        this.notifyCap = notifyCap;
        this.isrCap = isrCap;
        this.deviceCap = deviceCap;
        this.common = mapStructure(function, commonCap, "COMMON");
        this.commonOffset = commonCap.offset();
        this.notify = mapStructure(function, notifyCap, "NOTIFY");
        this.device = null == deviceCap ? null : mapStructure(function, deviceCap, "DEVICE");
        this.deviceOffset = null == deviceCap ? 0 : deviceCap.offset();
    }

    /**
     * Walks the capability list of {@code function} and maps the BARs of the virtio structures.
     *
     * @throws IllegalStateException if the function is not a virtio 1.x PCI device, naming what is missing
     */
    public static VirtioPciTransport attach(final PciFunction function)
    {
        final VirtioPciCapability[] caps = findCapabilities(function);
        if (null == caps[CFG_TYPE_COMMON])
        {
            throw new IllegalStateException(missing(function, "COMMON", CFG_TYPE_COMMON));
        }
        if (null == caps[CFG_TYPE_NOTIFY])
        {
            throw new IllegalStateException(missing(function, "NOTIFY", CFG_TYPE_NOTIFY));
        }
        if (caps[CFG_TYPE_COMMON].length() < COMMON_CFG_LENGTH)
        {
            throw new IllegalStateException("virtio device " + function.address() + ": COMMON structure is only " +
                caps[CFG_TYPE_COMMON].length() + " bytes, virtio 1.x needs " + COMMON_CFG_LENGTH);
        }
        return new VirtioPciTransport(
            function, caps[CFG_TYPE_COMMON], caps[CFG_TYPE_NOTIFY], caps[CFG_TYPE_ISR], caps[CFG_TYPE_DEVICE]);
    }

    /**
     * The first usable capability of each cfg_type, indexed by cfg_type (index 0 unused). Capabilities with a
     * reserved cfg_type or bar are ignored, as virtio 1.1 §4.1.4 requires of the driver, and so are ones too short
     * to hold their fields.
     */
    static VirtioPciCapability[] findCapabilities(final PciFunction function)
    {
        final VirtioPciCapability[] found = new VirtioPciCapability[CFG_TYPE_PCI + 1];
        if (0 == (function.configRead16(PCI_STATUS) & PCI_STATUS_CAP_LIST))
        {
            throw new IllegalStateException("PCI function " + function.address() +
                " has no capability list (status bit 4 clear): not a virtio 1.x device");
        }
        int pointer = function.configRead8(PCI_CAPABILITY_POINTER) & 0xfc;
        int count = 0;
        while (0 != pointer)
        {
            if (pointer < FIRST_CAPABILITY_OFFSET || ++count > MAX_CAPABILITIES)
            {
                throw new IllegalStateException("PCI function " + function.address() +
                    ": malformed capability list (pointer 0x" + Integer.toHexString(pointer) + " after " +
                    count + " capabilities)");
            }
            if (PCI_CAP_ID_VENDOR == function.configRead8(pointer + CAP_VNDR))
            {
                final VirtioPciCapability cap = readCapability(function, pointer);
                if (null != cap && null == found[cap.cfgType()])
                {
                    found[cap.cfgType()] = cap;
                }
            }
            pointer = function.configRead8(pointer + CAP_NEXT) & 0xfc;
        }
        return found;
    }

    private static VirtioPciCapability readCapability(final PciFunction function, final int pointer)
    {
        final int capLen = function.configRead8(pointer + CAP_LEN);
        final int cfgType = function.configRead8(pointer + CAP_CFG_TYPE);
        final int bar = function.configRead8(pointer + CAP_BAR);
        if (cfgType < CFG_TYPE_COMMON || cfgType > CFG_TYPE_PCI || bar > MAX_BAR || capLen < CAP_MIN_LEN ||
            (CFG_TYPE_NOTIFY == cfgType && capLen < NOTIFY_CAP_MIN_LEN))
        {
            return null;
        }
        final long offset = function.configRead32(pointer + CAP_OFFSET) & 0xffff_ffffL;
        final long length = function.configRead32(pointer + CAP_LENGTH) & 0xffff_ffffL;
        final int multiplier = CFG_TYPE_NOTIFY == cfgType ?
            function.configRead32(pointer + CAP_NOTIFY_OFF_MULTIPLIER) : 0;
        return new VirtioPciCapability(cfgType, bar, offset, length, multiplier, pointer);
    }

    private static String missing(final PciFunction function, final String what, final int cfgType)
    {
        return "virtio device " + function.address() + " (" + hex4(function.vendorId()) + ":" +
            hex4(function.deviceId()) + ") has no usable " + what + " capability (vendor cap 0x09, cfg_type " +
            cfgType + "): it is not a virtio 1.x modern PCI device (QEMU: use disable-legacy=on)";
    }

    private static MmioRegion mapStructure(
        final PciFunction function, final VirtioPciCapability cap, final String what)
    {
        final MmioRegion bar;
        try
        {
            bar = function.bar(cap.bar());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("virtio device " + function.address() + ": " + what + " structure (" +
                cap + ") is in a BAR that cannot be mapped: " + ex.getMessage(), ex);
        }
        if (cap.offset() + cap.length() > bar.length())
        {
            throw new IllegalStateException("virtio device " + function.address() + ": " + what + " structure (" +
                cap + ") extends past the end of BAR " + cap.bar() + " (length 0x" +
                Long.toHexString(bar.length()) + ")");
        }
        return bar;
    }

    static String hex4(final int value)
    {
        return String.format("%04x", value);
    }

    public PciFunction function()
    {
        return function;
    }

    public VirtioPciCapability commonCapability()
    {
        return commonCap;
    }

    public VirtioPciCapability notifyCapability()
    {
        return notifyCap;
    }

    /** The ISR structure, unused because jrxe polls; null if the device has none. */
    public VirtioPciCapability isrCapability()
    {
        return isrCap;
    }

    /** The device-specific configuration, or null if the device has none. */
    public VirtioPciCapability deviceCapability()
    {
        return deviceCap;
    }

    public int deviceStatus()
    {
        return common.read8(commonOffset + COMMON_DEVICE_STATUS);
    }

    public void deviceStatus(final int status)
    {
        common.write8(commonOffset + COMMON_DEVICE_STATUS, status);
    }

    /**
     * Resets the device and waits for the reset to complete, virtio 1.1 §4.1.4.3.2: "After writing 0 to
     * device_status, the driver MUST wait for a read of device_status to return 0 before reinitializing".
     *
     * @throws IllegalStateException if the device still reports a non-zero status after {@code timeoutNs}
     */
    public void reset(final NanoClock clock, final long timeoutNs)
    {
        deviceStatus(0);
        final long deadline = clock.nanoTime() + timeoutNs;
        int status;
        while (0 != (status = deviceStatus()))
        {
            if (clock.nanoTime() - deadline >= 0)
            {
                throw new IllegalStateException("virtio device " + function.address() +
                    " did not complete reset within " + timeoutNs / 1_000_000 + " ms (device_status 0x" +
                    Integer.toHexString(status) + ")");
            }
            Thread.onSpinWait();
        }
    }

    /** All 64 feature bits the device offers, read through device_feature_select 0 and 1, §4.1.4.3. */
    public long deviceFeatures()
    {
        common.write32(commonOffset + COMMON_DEVICE_FEATURE_SELECT, 0);
        final long low = common.read32(commonOffset + COMMON_DEVICE_FEATURE) & 0xffff_ffffL;
        common.write32(commonOffset + COMMON_DEVICE_FEATURE_SELECT, 1);
        final long high = common.read32(commonOffset + COMMON_DEVICE_FEATURE) & 0xffff_ffffL;
        return high << 32 | low;
    }

    public void driverFeatures(final long features)
    {
        common.write32(commonOffset + COMMON_DRIVER_FEATURE_SELECT, 0);
        common.write32(commonOffset + COMMON_DRIVER_FEATURE, (int)features);
        common.write32(commonOffset + COMMON_DRIVER_FEATURE_SELECT, 1);
        common.write32(commonOffset + COMMON_DRIVER_FEATURE, (int)(features >>> 32));
    }

    public int numQueues()
    {
        return common.read16(commonOffset + COMMON_NUM_QUEUES);
    }

    /** Selects the queue that the queue* accessors below address. */
    public void selectQueue(final int queueIndex)
    {
        common.write16(commonOffset + COMMON_QUEUE_SELECT, queueIndex);
    }

    /** Size of the selected queue: the device maximum after reset, 0 if the queue does not exist. */
    public int queueSize()
    {
        return common.read16(commonOffset + COMMON_QUEUE_SIZE);
    }

    public void queueSize(final int size)
    {
        common.write16(commonOffset + COMMON_QUEUE_SIZE, size);
    }

    /**
     * Maps the selected queue's used-buffer notifications to an MSI-X vector, or to none ({@code NO_VECTOR}: we
     * poll). §4.1.5.1.2.1: the device reads back NO_VECTOR when it could not map the vector.
     *
     * @return the vector the device kept
     */
    public int queueVector(final int vector)
    {
        common.write16(commonOffset + COMMON_QUEUE_MSIX_VECTOR, vector);
        return common.read16(commonOffset + COMMON_QUEUE_MSIX_VECTOR);
    }

    /**
     * Maps configuration-change notifications (link status, DEVICE_NEEDS_RESET) to an MSI-X vector or none.
     *
     * @return the vector the device kept
     */
    public int configVector(final int vector)
    {
        common.write16(commonOffset + COMMON_MSIX_CONFIG, vector);
        return common.read16(commonOffset + COMMON_MSIX_CONFIG);
    }

    /**
     * Ring addresses of the selected queue. 64-bit fields are written as two 32-bit halves, low first, which
     * virtio 1.1 §4.1.3.1 allows and every device handles.
     */
    public void queueAddresses(final long descIova, final long driverIova, final long deviceIova)
    {
        write64AsHalves(COMMON_QUEUE_DESC, descIova);
        write64AsHalves(COMMON_QUEUE_DRIVER, driverIova);
        write64AsHalves(COMMON_QUEUE_DEVICE, deviceIova);
    }

    private void write64AsHalves(final int field, final long value)
    {
        common.write32(commonOffset + field, (int)value);
        common.write32(commonOffset + field + 4, (int)(value >>> 32));
    }

    public void queueEnable()
    {
        common.write16(commonOffset + COMMON_QUEUE_ENABLE, 1);
    }

    public boolean queueEnabled()
    {
        return 1 == common.read16(commonOffset + COMMON_QUEUE_ENABLE);
    }

    /** BAR mapping that holds the notification area. */
    public MmioRegion notifyBar()
    {
        return notify;
    }

    /**
     * BAR offset of the selected queue's notification register: cap.offset + queue_notify_off *
     * notify_off_multiplier, §4.1.4.4.
     */
    public long notifyOffset(final int queueIndex)
    {
        final int notifyOff = common.read16(commonOffset + COMMON_QUEUE_NOTIFY_OFF);
        final long within = (long)notifyOff * (notifyCap.notifyOffMultiplier() & 0xffff_ffffL);
        if (within + 2 > notifyCap.length())
        {
            throw new IllegalStateException("virtio device " + function.address() + ": notify register of queue " +
                queueIndex + " (queue_notify_off " + notifyOff + ") lies outside the NOTIFY structure (" +
                notifyCap + ")");
        }
        return notifyCap.offset() + within;
    }

    public int configGeneration()
    {
        return common.read8(commonOffset + COMMON_CONFIG_GENERATION);
    }

    /** Bytes of device-specific configuration, 0 if the device has none. */
    public long deviceConfigLength()
    {
        return null == deviceCap ? 0 : deviceCap.length();
    }

    public int deviceConfig8(final int offset)
    {
        checkDeviceConfig(offset, 1);
        return device.read8(deviceOffset + offset);
    }

    public int deviceConfig16(final int offset)
    {
        checkDeviceConfig(offset, 2);
        return device.read16(deviceOffset + offset);
    }

    private void checkDeviceConfig(final int offset, final int width)
    {
        if (offset < 0 || offset + width > deviceConfigLength())
        {
            throw new IllegalStateException("virtio device " + function.address() + ": device config field at " +
                offset + " is outside its DEVICE structure (length " + deviceConfigLength() + ")");
        }
    }
}
