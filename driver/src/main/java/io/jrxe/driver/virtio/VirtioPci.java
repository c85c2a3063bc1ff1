package io.jrxe.driver.virtio;

/**
 * Register layout of the virtio 1.x PCI transport (virtio 1.1 §4.1) and the device-independent status and feature
 * bits (§2.1, §6).
 * <pre>
 * virtio_pci_cap in PCI configuration space (vendor-specific capability, cap id 0x09), §4.1.4:
 *
 *   0          1          2          3          4          5          6          8
 *   +----------+----------+----------+----------+----------+----------+----------+
 *   | cap_vndr | cap_next | cap_len  | cfg_type | bar      | id       | padding  |
 *   +----------+----------+----------+----------+----------+----------+----------+
 *   8                                          12                               16
 *   +-------------------------------------------+-------------------------------+
 *   | offset within bar (le32)                  | length (le32)                 |
 *   +-------------------------------------------+-------------------------------+
 *   16 (NOTIFY only)                            20
 *   +-------------------------------------------+
 *   | notify_off_multiplier (le32)              |
 *   +-------------------------------------------+
 *
 * virtio_pci_common_cfg at the COMMON capability's bar + offset, §4.1.4.3:
 *
 *   0x00 device_feature_select le32     0x16 queue_select      le16
 *   0x04 device_feature        le32 RO  0x18 queue_size        le16
 *   0x08 driver_feature_select le32     0x1a queue_msix_vector le16
 *   0x0c driver_feature        le32     0x1c queue_enable      le16
 *   0x10 msix_config           le16     0x1e queue_notify_off  le16 RO
 *   0x12 num_queues            le16 RO  0x20 queue_desc        le64
 *   0x14 device_status         u8       0x28 queue_driver      le64 (avail ring)
 *   0x15 config_generation     u8 RO    0x30 queue_device      le64 (used ring)
 * </pre>
 */
public final class VirtioPci
{
    public static final int VENDOR_ID = 0x1af4;
    /** Modern (virtio 1.x only) network device: 0x1040 + device type 1, §4.1.2. */
    public static final int DEVICE_ID_NET_MODERN = 0x1041;
    /** Transitional network device, which also speaks the legacy interface. */
    public static final int DEVICE_ID_NET_TRANSITIONAL = 0x1000;

    public static final int PCI_STATUS = 0x06;
    public static final int PCI_STATUS_CAP_LIST = 0x10;
    public static final int PCI_CAPABILITY_POINTER = 0x34;
    public static final int PCI_CAP_ID_VENDOR = 0x09;

    public static final int CAP_VNDR = 0;
    public static final int CAP_NEXT = 1;
    public static final int CAP_LEN = 2;
    public static final int CAP_CFG_TYPE = 3;
    public static final int CAP_BAR = 4;
    public static final int CAP_OFFSET = 8;
    public static final int CAP_LENGTH = 12;
    public static final int CAP_NOTIFY_OFF_MULTIPLIER = 16;
    public static final int CAP_MIN_LEN = 16;
    public static final int NOTIFY_CAP_MIN_LEN = 20;

    public static final int CFG_TYPE_COMMON = 1;
    public static final int CFG_TYPE_NOTIFY = 2;
    public static final int CFG_TYPE_ISR = 3;
    public static final int CFG_TYPE_DEVICE = 4;
    public static final int CFG_TYPE_PCI = 5;

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
    /** Bytes of common configuration a virtio 1.0 device has at least. */
    public static final int COMMON_CFG_LENGTH = 0x38;

    /** MSI-X vector value meaning "no vector": we poll, §4.1.4.3. */
    public static final int NO_VECTOR = 0xffff;

    /** Device status bits, §2.1. */
    public static final int STATUS_ACKNOWLEDGE = 1;
    public static final int STATUS_DRIVER = 2;
    public static final int STATUS_DRIVER_OK = 4;
    public static final int STATUS_FEATURES_OK = 8;
    public static final int STATUS_DEVICE_NEEDS_RESET = 0x40;
    public static final int STATUS_FAILED = 0x80;

    /** Device-independent feature bits, §6. */
    public static final int F_VERSION_1 = 32;
    public static final int F_ACCESS_PLATFORM = 33;

    private VirtioPci()
    {
    }

    /** {@code 1L << bit}, for readability at the call site. */
    public static long featureMask(final int bit)
    {
        return 1L << bit;
    }
}
