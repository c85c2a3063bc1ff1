package io.jrxe.driver.emu;

/**
 * What the emulated virtio-net device counts, as a NIC's hardware statistics would. Written by the device agent
 * (and, for register misuse, by the driver thread); readable from any thread.
 */
public final class EmulatedNicCounters extends SingleWriterCounters
{
    public static final int TX_FRAMES = 0;
    public static final int TX_BYTES = 1;
    /** Tx chains whose frame was shorter than an Ethernet header: completed, not sent. */
    public static final int TX_DROPPED_RUNT = 2;
    /** Tx frames longer than mtu + 18 or the wire's maximum: completed, not sent. */
    public static final int TX_DROPPED_OVERSIZE = 3;
    public static final int RX_FRAMES = 4;
    public static final int RX_BYTES = 5;
    /** Frames from the wire dropped because no rx buffer was posted. */
    public static final int RX_DROPPED_NO_BUFFER = 6;
    /** Frames from the wire larger than the posted rx buffer (the buffer stays posted, §5.1.6.3). */
    public static final int RX_DROPPED_OVERSIZE = 7;
    /** Frames from the wire dropped while the device was not live (no DRIVER_OK, bus master off, needs reset). */
    public static final int RX_DROPPED_NOT_READY = 8;
    /** Driver errors that put the device into DEVICE_NEEDS_RESET (malformed chain, bad index ...). */
    public static final int DEVICE_ERRORS = 9;
    /** DMA accesses the IOMMU refused; each also sets DEVICE_NEEDS_RESET. */
    public static final int IOMMU_FAULTS = 10;
    /** Register accesses with the wrong width or at no register (§4.1.3.1); ignored by the device. */
    public static final int BAD_REGISTER_ACCESSES = 11;
    public static final int NOTIFICATIONS = 12;
    public static final int RESETS = 13;
    /** Tx frames completed but not sent because the link was down. */
    public static final int TX_DROPPED_LINK_DOWN = 14;
    /**
     * Frames from the wire the receive filter dropped: promiscuous mode off and the destination neither the device's
     * MAC, broadcast, nor in its MAC table (nor multicast with all-multicast on), as QEMU's receive_filter().
     */
    public static final int RX_DROPPED_FILTERED = 15;
    /** Commands answered on controlq (VIRTIO_NET_OK or VIRTIO_NET_ERR). */
    public static final int CTRL_COMMANDS = 16;
    /** Commands on controlq answered VIRTIO_NET_ERR (unknown, or malformed data). */
    public static final int CTRL_ERRORS = 17;

    EmulatedNicCounters()
    {
        super("tx_frames", "tx_bytes", "tx_dropped_runt", "tx_dropped_oversize", "rx_frames", "rx_bytes",
            "rx_dropped_no_buffer", "rx_dropped_oversize", "rx_dropped_not_ready", "device_errors",
            "iommu_faults", "bad_register_accesses", "notifications", "resets",
            "tx_dropped_link_down", "rx_dropped_filtered", "ctrl_commands", "ctrl_errors");
    }
}
