package io.jrxe.driver.virtio;

/**
 * The virtio-net control virtqueue's commands (virtio 1.1 §5.1.6.5), shared by the driver ({@link ControlVirtqueue},
 * {@link VirtioRxFilter}) and the emulated device, so both use one copy of the numbers.
 * <pre>
 * struct virtio_net_ctrl as one descriptor chain (§5.1.6.5; device-readable parts before device-writable, §2.6.4.2):
 *
 *   desc 0  device-readable    +---------+---------+
 *                              | class u8| cmd u8  |                          virtio_net_ctrl_hdr
 *                              +---------+---------+
 *   desc 1  device-readable    +-------------------------------------+
 *           (absent if empty)  | command-specific-data               |      see below
 *                              +-------------------------------------+
 *   desc 2  device-writable    +---------+
 *                              | ack u8  |   VIRTIO_NET_OK 0 / VIRTIO_NET_ERR 1, written by the device;
 *                              +---------+   used.len = 1 (bytes written)
 *
 * command-specific-data:
 *   class RX (0), cmd PROMISC (0) / ALLMULTI (1)          one byte: 0 off, 1 on          §5.1.6.5.1
 *   class MAC (1), cmd MAC_TABLE_SET (0)                                                 §5.1.6.5.2
 *     +--------------+------------------------+--------------+------------------------+
 *     | entries le32 | macs[entries][6]       | entries le32 | macs[entries][6]       |
 *     |   unicast table (no multicast MACs)   |   multicast table                     |
 *     +--------------+------------------------+--------------+------------------------+
 *   class MAC (1), cmd MAC_ADDR_SET (1)                   the 6-byte MAC
 *   class MQ (4), cmd VQ_PAIRS_SET (0)                    le16 virtqueue_pairs, 1..max_virtqueue_pairs  §5.1.6.5.5
 *   class MQ (4), cmd RSS_CONFIG (1), struct virtio_net_rss_config                                      §5.1.6.5.7
 *     0                4                        6                     8
 *     +----------------+------------------------+---------------------+-----------------------------------+
 *     | hash_types le32| indirection_table_mask | unclassified_queue  | indirection_table[mask + 1] le16  |
 *     |                | le16 (length - 1)      | le16 (receiveq no.) | (receiveq numbers, 0 = receiveq1) |
 *     +----------------+------------------------+---------------------+-----------------------------------+
 *     +----------------+-------------------+-------------------------------+
 *     | max_tx_vq le16 | hash_key_length u8| hash_key_data[hash_key_length]|
 *     +----------------+-------------------+-------------------------------+
 * </pre>
 * A device offering VIRTIO_NET_F_CTRL_RX filters received frames by destination MAC: promiscuous mode takes every
 * frame; otherwise broadcast, multicast to a table entry (or any with all-multicast on), and unicast to the device's
 * MAC or a table entry (§5.1.6.5.2.1: "SHOULD drop" the rest; best effort, §5.1.6.5.1). After reset the table is
 * empty (§5.1.6.5.2.1) and QEMU's device is promiscuous, so a driver that never sends a command gets every frame.
 */
public final class VirtioNetCtrl
{
    /** virtio_net_ctrl_hdr: class and command, one byte each. */
    public static final int CTRL_HEADER_LENGTH = 2;
    /** The ack the device writes. */
    public static final int ACK_LENGTH = 1;

    public static final int OK = 0;
    public static final int ERR = 1;

    public static final int CLASS_RX = 0;
    public static final int RX_PROMISC = 0;
    public static final int RX_ALLMULTI = 1;
    /** VIRTIO_NET_F_CTRL_RX_EXTRA commands: jrxe's driver sends none; the emulated device takes them as QEMU does. */
    public static final int RX_ALLUNI = 2;
    public static final int RX_NOMULTI = 3;
    public static final int RX_NOUNI = 4;
    public static final int RX_NOBCAST = 5;

    public static final int CLASS_MAC = 1;
    public static final int MAC_TABLE_SET = 0;
    public static final int MAC_ADDR_SET = 1;

    public static final int CLASS_MQ = 4;
    public static final int MQ_VQ_PAIRS_SET = 0;
    public static final int MQ_RSS_CONFIG = 1;
    /** VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MIN: the fewest pairs VQ_PAIRS_SET may ask for. */
    public static final int MQ_VQ_PAIRS_MIN = 1;
    /** Bytes of virtio_net_rss_config before the indirection table, and after it before the key. */
    public static final int RSS_HEADER_LENGTH = 8;
    public static final int RSS_TRAILER_LENGTH = 3;

    /** le32 entries before each MAC table. */
    public static final int TABLE_ENTRIES_LENGTH = 4;
    public static final int MAC_LENGTH = 6;

    private VirtioNetCtrl()
    {
    }

    /** Bytes of MAC_TABLE_SET data for tables of {@code unicast} and {@code multicast} entries. */
    public static int macTableLength(final int unicast, final int multicast)
    {
        return 2 * TABLE_ENTRIES_LENGTH + MAC_LENGTH * (unicast + multicast);
    }

    /** Bytes of RSS_CONFIG data with {@code tableLength} indirection entries and a {@code keyLength}-byte key. */
    public static int rssConfigLength(final int tableLength, final int keyLength)
    {
        return RSS_HEADER_LENGTH + 2 * tableLength + RSS_TRAILER_LENGTH + keyLength;
    }

    /** The command's name in the spec, for messages. */
    public static String name(final int commandClass, final int command)
    {
        if (CLASS_RX == commandClass && command >= RX_PROMISC && command <= RX_NOBCAST)
        {
            return "VIRTIO_NET_CTRL_RX_" + new String[]{"PROMISC", "ALLMULTI", "ALLUNI", "NOMULTI", "NOUNI",
                "NOBCAST"}[command];
        }
        if (CLASS_MAC == commandClass && (MAC_TABLE_SET == command || MAC_ADDR_SET == command))
        {
            return MAC_TABLE_SET == command ? "VIRTIO_NET_CTRL_MAC_TABLE_SET" : "VIRTIO_NET_CTRL_MAC_ADDR_SET";
        }
        if (CLASS_MQ == commandClass && (MQ_VQ_PAIRS_SET == command || MQ_RSS_CONFIG == command))
        {
            return MQ_VQ_PAIRS_SET == command ? "VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET" : "VIRTIO_NET_CTRL_MQ_RSS_CONFIG";
        }
        return "control command class " + commandClass + " command " + command;
    }
}
