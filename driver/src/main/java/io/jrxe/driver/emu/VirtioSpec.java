package io.jrxe.driver.emu;

/**
 * Numbers from the virtio 1.x specification and the PCI header that the emulated device presents.
 * <p>
 * Public so tests (and drivers' tests) can name what they read; the device model is the only code that gives
 * them meaning here.
 */
public final class VirtioSpec
{
    // ---- PCI type 0 header (PCI Local Bus 3.0 §6.1) ----
    public static final int PCI_VENDOR_ID = 0x00;
    public static final int PCI_DEVICE_ID = 0x02;
    public static final int PCI_COMMAND = 0x04;
    public static final int PCI_STATUS = 0x06;
    public static final int PCI_REVISION_ID = 0x08;
    public static final int PCI_CLASS_PROG = 0x09;
    public static final int PCI_HEADER_TYPE = 0x0e;
    public static final int PCI_BAR0 = 0x10;
    public static final int PCI_SUBSYSTEM_VENDOR_ID = 0x2c;
    public static final int PCI_SUBSYSTEM_ID = 0x2e;
    public static final int PCI_CAPABILITY_LIST = 0x34;
    public static final int PCI_INTERRUPT_LINE = 0x3c;
    public static final int PCI_INTERRUPT_PIN = 0x3d;

    public static final int PCI_COMMAND_IO = 0x0001;
    public static final int PCI_COMMAND_MEMORY = 0x0002;
    public static final int PCI_COMMAND_MASTER = 0x0004;
    public static final int PCI_COMMAND_INTX_DISABLE = 0x0400;
    public static final int PCI_STATUS_CAP_LIST = 0x0010;

    public static final int PCI_CAP_ID_PM = 0x01;
    public static final int PCI_CAP_ID_VNDR = 0x09;

    // ---- virtio over PCI (virtio 1.1 §4.1) ----
    public static final int VENDOR_ID = 0x1af4;
    /** 0x1040 + virtio device id 1 (network), §4.1.2. */
    public static final int DEVICE_ID_NET = 0x1041;
    /** Non-transitional devices have revision 1 or higher, §4.1.2.1. */
    public static final int REVISION = 1;
    public static final int CLASS_CODE_ETHERNET = 0x020000;
    /** What QEMU puts in the subsystem id of a modern-only device (0x40 or higher, §4.1.2.1). */
    public static final int SUBSYSTEM_ID = 0x1100;

    /** struct virtio_pci_cap field offsets, §4.1.4. */
    public static final int CAP_VNDR = 0;
    public static final int CAP_NEXT = 1;
    public static final int CAP_LEN = 2;
    public static final int CAP_CFG_TYPE = 3;
    public static final int CAP_BAR = 4;
    public static final int CAP_ID = 5;
    public static final int CAP_OFFSET = 8;
    public static final int CAP_LENGTH = 12;
    /** struct virtio_pci_notify_cap: notify_off_multiplier after the generic part, §4.1.4.4. */
    public static final int CAP_NOTIFY_OFF_MULTIPLIER = 16;
    /** struct virtio_pci_cfg_cap: pci_cfg_data after the generic part, §4.1.4.7. */
    public static final int CAP_PCI_CFG_DATA = 16;
    public static final int CAP_GENERIC_LENGTH = 16;
    public static final int CAP_NOTIFY_LENGTH = 20;
    public static final int CAP_PCI_CFG_LENGTH = 20;

    public static final int PCI_CAP_COMMON_CFG = 1;
    public static final int PCI_CAP_NOTIFY_CFG = 2;
    public static final int PCI_CAP_ISR_CFG = 3;
    public static final int PCI_CAP_DEVICE_CFG = 4;
    public static final int PCI_CAP_PCI_CFG = 5;

    /** struct virtio_pci_common_cfg, §4.1.4.3. */
    public static final int COMMON_DEVICE_FEATURE_SELECT = 0x00;
    public static final int COMMON_DEVICE_FEATURE = 0x04;
    public static final int COMMON_DRIVER_FEATURE_SELECT = 0x08;
    public static final int COMMON_DRIVER_FEATURE = 0x0c;
    public static final int COMMON_MSIX_CONFIG = 0x10;
    public static final int COMMON_NUM_QUEUES = 0x12;
    public static final int COMMON_DEVICE_STATUS = 0x14;
    public static final int COMMON_CONFIG_GENERATION = 0x15;
    public static final int COMMON_QUEUE_SELECT = 0x16;
    public static final int COMMON_QUEUE_SIZE = 0x18;
    public static final int COMMON_QUEUE_MSIX_VECTOR = 0x1a;
    public static final int COMMON_QUEUE_ENABLE = 0x1c;
    public static final int COMMON_QUEUE_NOTIFY_OFF = 0x1e;
    public static final int COMMON_QUEUE_DESC = 0x20;
    public static final int COMMON_QUEUE_DRIVER = 0x28;
    public static final int COMMON_QUEUE_DEVICE = 0x30;

    public static final int NO_VECTOR = 0xffff;

    /** ISR status bits, §4.1.4.5. */
    public static final int ISR_QUEUE = 0x1;
    public static final int ISR_CONFIG = 0x2;

    /** Device status bits, §2.1. */
    public static final int STATUS_ACKNOWLEDGE = 1;
    public static final int STATUS_DRIVER = 2;
    public static final int STATUS_DRIVER_OK = 4;
    public static final int STATUS_FEATURES_OK = 8;
    public static final int STATUS_DEVICE_NEEDS_RESET = 64;
    public static final int STATUS_FAILED = 128;

    /** Feature bits, §5.1.3 and §6. */
    public static final int NET_F_MTU = 3;
    public static final int NET_F_MAC = 5;
    public static final int NET_F_STATUS = 16;
    public static final int F_VERSION_1 = 32;
    public static final int F_ACCESS_PLATFORM = 33;

    /** struct virtio_net_config, §5.1.4. */
    public static final int NET_CFG_MAC = 0;
    public static final int NET_CFG_STATUS = 6;
    public static final int NET_CFG_MAX_VIRTQUEUE_PAIRS = 8;
    public static final int NET_CFG_MTU = 10;
    public static final int NET_CFG_LENGTH = 12;
    public static final int NET_S_LINK_UP = 1;

    /** struct virtio_net_hdr with num_buffers (always present with VERSION_1), §5.1.6. */
    public static final int NET_HDR_LENGTH = 12;
    public static final int NET_HDR_NUM_BUFFERS = 10;

    public static final int NET_RX_QUEUE = 0;
    public static final int NET_TX_QUEUE = 1;

    /** Split virtqueue layout, §2.6 (1.1: §2.6.5 descriptor table, §2.6.6 avail ring, §2.6.8 used ring). */
    public static final int DESC_SIZE = 16;
    public static final int DESC_ADDR = 0;
    public static final int DESC_LEN = 8;
    public static final int DESC_FLAGS = 12;
    public static final int DESC_NEXT = 14;
    public static final int DESC_F_NEXT = 1;
    public static final int DESC_F_WRITE = 2;
    public static final int DESC_F_INDIRECT = 4;
    public static final int AVAIL_FLAGS = 0;
    public static final int AVAIL_IDX = 2;
    public static final int AVAIL_RING = 4;
    public static final int AVAIL_F_NO_INTERRUPT = 1;
    public static final int USED_FLAGS = 0;
    public static final int USED_IDX = 2;
    public static final int USED_RING = 4;
    public static final int USED_ELEM_SIZE = 8;
    public static final int USED_F_NO_NOTIFY = 1;
    public static final int MAX_QUEUE_SIZE = 32768;

    private VirtioSpec()
    {
    }

    /** Bytes of the descriptor table of a queue of {@code size} entries (table 2.7 in §2.6). */
    public static long descTableBytes(final int size)
    {
        return (long)DESC_SIZE * size;
    }

    /** Bytes of the avail ring: flags, idx, ring[size], used_event. */
    public static long availRingBytes(final int size)
    {
        return 6L + 2L * size;
    }

    /** Bytes of the used ring: flags, idx, ring[size] of {id, len}, avail_event. */
    public static long usedRingBytes(final int size)
    {
        return 6L + (long)USED_ELEM_SIZE * size;
    }
}
