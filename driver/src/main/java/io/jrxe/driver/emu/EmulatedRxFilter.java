package io.jrxe.driver.emu;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

import static io.jrxe.driver.virtio.VirtioNetCtrl.*;

/**
 * The emulated device's receive filter, as QEMU's virtio-net keeps it ({@code VirtIONet}: promisc, allmulti, alluni,
 * nomulti, nouni, nobcast and the 64-entry {@code mac_table}) and applies it ({@code receive_filter()} in
 * hw/net/virtio-net.c), in the same order:
 * <pre>
 *   promiscuous                                    -> accept
 *   destination multicast (group bit of byte 0):
 *     broadcast ff:ff:ff:ff:ff:ff                  -> accept unless nobcast
 *     nomulti                                      -> drop
 *     allmulti, or the multicast table overflowed  -> accept
 *     in the multicast part of the table           -> accept
 *   destination unicast:
 *     nouni                                        -> drop
 *     alluni, or the unicast table overflowed      -> accept
 *     the device's MAC, or in the unicast part     -> accept
 *   anything else                                  -> drop (counted as rx_dropped_filtered)
 * </pre>
 * QEMU's VLAN check is left out: without VIRTIO_NET_F_CTRL_VLAN (not offered) QEMU passes every VLAN. State after
 * reset, as QEMU's {@code virtio_net_reset()}: promiscuous on (so a driver that never sends a command gets every
 * frame), every other mode off, an empty table (virtio 1.1 §5.1.6.5.2.1), the MAC back to the configured one.
 * <p>
 * Threads: changed by the control queue's commands and read for every received frame, both on the device agent's
 * thread; reset while the agent is quiesced. The mode flags are volatile so other threads may look at them.
 */
final class EmulatedRxFilter
{
    /** QEMU's MAC_TABLE_ENTRIES: unicast and multicast entries together. */
    static final int TABLE_ENTRIES = 64;
    private static final long BROADCAST = 0xffff_ffff_ffffL;
    private static final long GROUP_BIT = 0x0100_0000_0000L;

    private final long configuredMac;
    private final long[] table = new long[TABLE_ENTRIES];
    private volatile long mac;
    private volatile boolean promiscuous;
    private volatile boolean allMulticast;
    private boolean allUnicast;
    private boolean noMulticast;
    private boolean noUnicast;
    private boolean noBroadcast;
    /** Entries [0, firstMulticast) are unicast, [firstMulticast, inUse) multicast. */
    private int firstMulticast;
    private volatile int inUse;
    private boolean unicastOverflow;
    private boolean multicastOverflow;

    EmulatedRxFilter(final long mac)
    {
        this.configuredMac = mac;
        reset();
    }

    /** The state after a device reset. */
    void reset()
    {
        mac = configuredMac;
        promiscuous = true;
        allMulticast = false;
        allUnicast = false;
        noMulticast = false;
        noUnicast = false;
        noBroadcast = false;
        firstMulticast = 0;
        inUse = 0;
        unicastOverflow = false;
        multicastOverflow = false;
    }

    /**
     * @return true if a frame with this destination is received; a frame too short to hold one passes (the filter
     * cannot judge it; the driver drops runts)
     */
    boolean accept(final DirectBuffer frame, final int offset, final int length)
    {
        if (promiscuous || length < 6)
        {
            return true;
        }
        final long dst = (frame.getInt(offset, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL) << 16 |
            (frame.getShort(offset + 4, ByteOrder.BIG_ENDIAN) & 0xffff);
        if (0 != (dst & GROUP_BIT))
        {
            if (BROADCAST == dst)
            {
                return !noBroadcast;
            }
            if (noMulticast)
            {
                return false;
            }
            return allMulticast || multicastOverflow || inTable(dst, firstMulticast, inUse);
        }
        if (noUnicast)
        {
            return false;
        }
        return allUnicast || unicastOverflow || dst == mac || inTable(dst, 0, firstMulticast);
    }

    private boolean inTable(final long dst, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            if (table[i] == dst)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A VIRTIO_NET_CTRL_RX command ({@code on} is QEMU's: any non-zero byte is on).
     *
     * @return false for a command number it does not know (QEMU answers VIRTIO_NET_ERR)
     */
    boolean rxMode(final int command, final boolean on)
    {
        switch (command)
        {
            case RX_PROMISC:
                promiscuous = on;
                return true;
            case RX_ALLMULTI:
                allMulticast = on;
                return true;
            case RX_ALLUNI:
                allUnicast = on;
                return true;
            case RX_NOMULTI:
                noMulticast = on;
                return true;
            case RX_NOUNI:
                noUnicast = on;
                return true;
            case RX_NOBCAST:
                noBroadcast = on;
                return true;
            default:
                return false;
        }
    }

    /**
     * Replaces the table, as QEMU's MAC_TABLE_SET does once both tables were read: {@code macs[0, unicast)} are the
     * unicast entries and the next {@code multicast} the multicast ones; an overflowing table is not stored, its
     * kind is let through instead.
     */
    void table(final long[] macs, final int unicast, final boolean unicastOverflow, final int multicast,
        final boolean multicastOverflow)
    {
        System.arraycopy(macs, 0, table, 0, unicast + multicast);
        firstMulticast = unicast;
        inUse = unicast + multicast;
        this.unicastOverflow = unicastOverflow;
        this.multicastOverflow = multicastOverflow;
    }

    /** VIRTIO_NET_CTRL_MAC_ADDR_SET: the MAC the filter takes as the device's own. */
    void mac(final long mac)
    {
        this.mac = mac;
    }

    long mac()
    {
        return mac;
    }

    boolean promiscuous()
    {
        return promiscuous;
    }

    boolean allMulticast()
    {
        return allMulticast;
    }

    /** Entries of the MAC table in use, unicast and multicast. */
    int tableEntries()
    {
        return inUse;
    }
}
