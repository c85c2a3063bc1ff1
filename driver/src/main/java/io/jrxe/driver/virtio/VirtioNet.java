package io.jrxe.driver.virtio;

/**
 * virtio-net device constants (virtio 1.1 §5.1).
 * <pre>
 * virtio_net_config at the DEVICE capability's bar + offset, §5.1.4 (fields valid only when negotiated):
 *
 *   0                      6            8                       10           12
 *   +----------------------+------------+-----------------------+------------+
 *   | mac[6]   (F_MAC)     | status le16| max_virtqueue_pairs   | mtu le16   |
 *   |                      | (F_STATUS) | (F_MQ, F_RSS)         | (F_MTU)    |
 *   +----------------------+------------+-----------------------+------------+
 *   12            16        17                  18                                  20                     24
 *   +-------------+---------+-------------------+-----------------------------------+----------------------+
 *   | speed le32  | duplex  | rss_max_key_size  | rss_max_indirection_table_length  | supported_hash_types |
 *   | (F_SPEED_DUPLEX)      | (F_RSS)           | le16 (F_RSS)                      | le32 (F_RSS)         |
 *   +-------------+---------+-------------------+-----------------------------------+----------------------+
 *
 * virtqueues (§5.1.2): receiveq1 0, transmitq1 1, ..., receiveqN 2(N-1), transmitqN 2(N-1)+1, controlq 2N, where
 * N = max_virtqueue_pairs with F_MQ (or F_RSS), else 1.
 *
 * virtio_net_hdr without MRG_RXBUF/CSUM/GSO negotiated (all zero on tx), §5.1.6: 12 bytes before each frame
 *
 *   0       1          2             4            6              8            10           12
 *   +-------+----------+-------------+------------+--------------+------------+------------+
 *   | flags | gso_type | hdr_len     | gso_size   | csum_start   | csum_offset| num_buffers|
 *   +-------+----------+-------------+------------+--------------+------------+------------+
 * </pre>
 */
public final class VirtioNet
{
    public static final int F_MTU = 3;
    public static final int F_MAC = 5;
    public static final int F_STATUS = 16;
    /** Control virtqueue available, §5.1.3. */
    public static final int F_CTRL_VQ = 17;
    /** Control channel RX mode and MAC filter table, §5.1.3; requires F_CTRL_VQ (§5.1.3.1). */
    public static final int F_CTRL_RX = 18;
    /** Multiqueue with automatic receive steering, §5.1.3; requires F_CTRL_VQ. */
    public static final int F_MQ = 22;
    /** Receive-side scaling (VIRTIO_NET_CTRL_MQ_RSS_CONFIG), §5.1.3; requires F_CTRL_VQ. */
    public static final int F_RSS = 60;

    public static final int CONFIG_MAC = 0;
    public static final int CONFIG_STATUS = 6;
    public static final int CONFIG_MAX_VIRTQUEUE_PAIRS = 8;
    public static final int CONFIG_MTU = 10;
    public static final int CONFIG_RSS_MAX_KEY_SIZE = 17;
    public static final int CONFIG_RSS_MAX_INDIRECTION_TABLE_LENGTH = 18;
    public static final int CONFIG_SUPPORTED_HASH_TYPES = 20;
    /** Bytes of virtio_net_config up to and including supported_hash_types. */
    public static final int CONFIG_LENGTH_RSS = 24;

    /** Link status bit of the config status field, §5.1.4. */
    public static final int S_LINK_UP = 1;

    /** virtio 1.x header length: num_buffers is always present with VERSION_1, §5.1.6. */
    public static final int HEADER_LENGTH = 12;

    public static final int RX_QUEUE = 0;
    public static final int TX_QUEUE = 1;
    /** controlq without VIRTIO_NET_F_MQ: queue 2N with N = 1, §5.1.2. */
    public static final int CTRL_QUEUE = 2;
    /** Most queue pairs a device may have (VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX, §5.1.6.5.5). */
    public static final int MAX_QUEUE_PAIRS = 0x8000;

    public static final int ETHERNET_HEADER_LENGTH = 14;
    public static final int DEFAULT_MTU = 1500;
    /** Smallest MTU a device may report, §5.1.4.1. */
    public static final int MIN_MTU = 68;

    private VirtioNet()
    {
    }

    /** Virtqueue index of receiveq{pair + 1}. */
    public static int rxQueue(final int pair)
    {
        return 2 * pair;
    }

    /** Virtqueue index of transmitq{pair + 1}. */
    public static int txQueue(final int pair)
    {
        return 2 * pair + 1;
    }

    /** Virtqueue index of controlq for a device of {@code maxPairs} queue pairs (1 without F_MQ / F_RSS). */
    public static int ctrlQueue(final int maxPairs)
    {
        return 2 * maxPairs;
    }
}
