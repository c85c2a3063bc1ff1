package io.jrxe.driver.virtio;

/**
 * virtio-net device constants (virtio 1.1 §5.1).
 * <pre>
 * virtio_net_config at the DEVICE capability's bar + offset, §5.1.4 (fields valid only when negotiated):
 *
 *   0                      6            8                       10           12
 *   +----------------------+------------+-----------------------+------------+
 *   | mac[6]   (F_MAC)     | status le16| max_virtqueue_pairs   | mtu le16   |
 *   |                      | (F_STATUS) | (F_MQ)                | (F_MTU)    |
 *   +----------------------+------------+-----------------------+------------+
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

    public static final int CONFIG_MAC = 0;
    public static final int CONFIG_STATUS = 6;
    public static final int CONFIG_MTU = 10;

    /** Link status bit of the config status field, §5.1.4. */
    public static final int S_LINK_UP = 1;

    /** virtio 1.x header length: num_buffers is always present with VERSION_1, §5.1.6. */
    public static final int HEADER_LENGTH = 12;

    public static final int RX_QUEUE = 0;
    public static final int TX_QUEUE = 1;
    /** controlq without VIRTIO_NET_F_MQ: queue 2N with N = 1, §5.1.2. */
    public static final int CTRL_QUEUE = 2;

    public static final int ETHERNET_HEADER_LENGTH = 14;
    public static final int DEFAULT_MTU = 1500;
    /** Smallest MTU a device may report, §5.1.4.1. */
    public static final int MIN_MTU = 68;

    private VirtioNet()
    {
    }
}
