package io.jrxe.driver.emu;

/**
 * Numbers of the PCI header and the virtio 1.x specification that only a device needs; the ones a driver needs
 * too come from {@link io.jrxe.driver.virtio.VirtioPci}, {@link io.jrxe.driver.virtio.VirtioNet} and
 * {@link io.jrxe.driver.virtio.SplitVirtqueue}, so device and driver share one copy.
 */
public final class VirtioSpec
{
    // ---- PCI type 0 header (PCI Local Bus 3.0 §6.1) ----
    public static final int PCI_VENDOR_ID = 0x00;
    public static final int PCI_DEVICE_ID = 0x02;
    public static final int PCI_COMMAND = 0x04;
    public static final int PCI_REVISION_ID = 0x08;
    public static final int PCI_CLASS_PROG = 0x09;
    public static final int PCI_HEADER_TYPE = 0x0e;
    public static final int PCI_BAR0 = 0x10;
    public static final int PCI_SUBSYSTEM_VENDOR_ID = 0x2c;
    public static final int PCI_SUBSYSTEM_ID = 0x2e;
    public static final int PCI_INTERRUPT_LINE = 0x3c;
    public static final int PCI_INTERRUPT_PIN = 0x3d;

    public static final int PCI_COMMAND_IO = 0x0001;
    public static final int PCI_COMMAND_MEMORY = 0x0002;
    public static final int PCI_COMMAND_MASTER = 0x0004;
    public static final int PCI_COMMAND_INTX_DISABLE = 0x0400;

    public static final int PCI_CAP_ID_PM = 0x01;

    // ---- virtio over PCI (virtio 1.1 §4.1) ----
    /** Non-transitional devices have revision 1 or higher, §4.1.2.1. */
    public static final int REVISION = 1;
    public static final int CLASS_CODE_ETHERNET = 0x020000;
    /** What QEMU puts in the subsystem id of a modern-only device (0x40 or higher, §4.1.2.1). */
    public static final int SUBSYSTEM_ID = 0x1100;

    /** struct virtio_pci_cap id field (virtio 1.2), after bar, §4.1.4. */
    public static final int CAP_ID = 5;
    /** struct virtio_pci_cfg_cap: pci_cfg_data after the generic part, §4.1.4.7. */
    public static final int CAP_PCI_CFG_DATA = 16;
    public static final int CAP_PCI_CFG_LENGTH = 20;

    /** ISR status bits, §4.1.4.5. */
    public static final int ISR_QUEUE = 0x1;
    public static final int ISR_CONFIG = 0x2;

    /** struct virtio_net_config up to mtu, §5.1.4 (up to supported_hash_types with F_RSS: VirtioNet). */
    public static final int CONFIG_LENGTH = 12;

    /** num_buffers in struct virtio_net_hdr, §5.1.6. */
    public static final int HEADER_NUM_BUFFERS = 10;

    /** Descriptor flag a device must recognise, §2.6.5 (VIRTQ_DESC_F_NEXT is the driver's: SplitVirtqueue). */
    public static final int DESC_F_INDIRECT = 4;

    private VirtioSpec()
    {
    }

    /** Bytes of the descriptor table of a queue of {@code size} entries (table in §2.6). */
    public static long descTableBytes(final int size)
    {
        return (long)io.jrxe.driver.virtio.SplitVirtqueue.DESC_SIZE * size;
    }

    /** Bytes of the avail ring: flags, idx, ring[size], used_event. */
    public static long availRingBytes(final int size)
    {
        return 6L + 2L * size;
    }

    /** Bytes of the used ring: flags, idx, ring[size] of {id, len}, avail_event. */
    public static long usedRingBytes(final int size)
    {
        return 6L + (long)io.jrxe.driver.virtio.SplitVirtqueue.USED_ENTRY_SIZE * size;
    }
}
