package io.jrxe.rxe.proto;

import java.nio.ByteOrder;

/**
 * RoCEv2 encapsulation constants (IBA Annex A17) and the UDP source port / flow label conventions of
 * {@code include/rdma/ib_verbs.h}.
 * <pre>
 *  +----------+--------------+-----+-----+----------+---------------+-----+-------+
 *  | Ethernet | IPv4 (20) or | UDP | BTH | ext hdrs | payload       | pad | ICRC  |
 *  |   (14)   | IPv6 (40)    | (8) | (12)| (0..44)  | (0..PMTU)     |(0-3)| (4,LE)|
 *  +----------+--------------+-----+-----+----------+---------------+-----+-------+
 *  UDP destination port 4791; the source port carries flow entropy in 0xC000..0xFFFF.
 * </pre>
 */
public final class RoceV2
{
    /** Byte order of every multi-byte transport header field. */
    public static final ByteOrder NETWORK_ORDER = ByteOrder.BIG_ENDIAN;

    /** IANA UDP destination port for RoCEv2. */
    public static final int UDP_PORT = 4791;
    /** Lowest UDP source port a RoCEv2 sender uses (IB_ROCE_UDP_ENCAP_VALID_PORT_MIN). */
    public static final int UDP_SPORT_MIN = 0xC000;
    /** Highest UDP source port a RoCEv2 sender uses. */
    public static final int UDP_SPORT_MAX = 0xFFFF;

    /** Ethernet header without VLAN tag. */
    public static final int ETH_HEADER_LENGTH = 14;
    /** IPv4 header without options. */
    public static final int IPV4_HEADER_LENGTH = 20;
    /** IPv6 fixed header. */
    public static final int IPV6_HEADER_LENGTH = 40;
    /** UDP header. */
    public static final int UDP_HEADER_LENGTH = 8;
    /** Invariant CRC trailer. */
    public static final int ICRC_LENGTH = 4;
    /** Largest transport header: BTH + FETH + RETH (FLUSH) = 32; BTH + AtomicETH = 40; BTH + RETH + ImmDt = 32. */
    public static final int MAX_TRANSPORT_HEADER_LENGTH = Bth.LENGTH + AtomicEth.LENGTH;

    /** EtherType of IPv4. */
    public static final int ETHERTYPE_IPV4 = 0x0800;
    /** EtherType of IPv6. */
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    /** IP protocol / next header number of UDP. */
    public static final int IP_PROTO_UDP = 17;

    /** QP number of the General Services Interface (QP1), which carries CM MADs. */
    public static final int GSI_QPN = 1;
    /** Well-known Q_Key of QP1 (IBA 10.2.4.1.1). */
    public static final int GSI_QKEY = 0x8001_0000;
    /** Default (full-membership) partition key. */
    public static final int DEFAULT_PKEY = 0xFFFF;
    /** Partition key bit set for full membership. */
    public static final int PKEY_FULL_MEMBER = 0x8000;
    /** Mask of a P_Key's 15-bit partition number. */
    public static final int PKEY_NUMBER_MASK = 0x7FFF;
    /** Destination QPN of a multicast packet (IB_MULTICAST_QPN). */
    public static final int MULTICAST_QPN = 0xFF_FFFF;

    /** Mask of the 20-bit IPv6 flow label. */
    public static final int FLOW_LABEL_MASK = 0x000F_FFFF;

    private RoceV2()
    {
    }

    /**
     * Pad bytes after a payload of {@code payloadLength} bytes so that it ends on a 4-byte boundary (BTH PadCnt,
     * IBA 9.2).
     *
     * @param payloadLength payload bytes
     * @return pad bytes 0..3
     */
    public static int padCount(final int payloadLength)
    {
        return -payloadLength & 3;
    }

    /**
     * Symmetric flow label for a QP pair: both ends compute the same value (rdma_calc_flow_label).
     *
     * @param lqpn local QP number
     * @param rqpn remote QP number
     * @return a 20-bit flow label
     */
    public static int calcFlowLabel(final int lqpn, final int rqpn)
    {
        long v = (lqpn & 0xFFFF_FFFFL) * (rqpn & 0xFFFF_FFFFL);
        v ^= v >>> 20;
        v ^= v >>> 40;
        return (int)(v & FLOW_LABEL_MASK);
    }

    /**
     * Folds a 20-bit flow label into a UDP source port in 0xC000..0xFFFF (rdma_flow_label_to_udp_sport).
     *
     * @param flowLabel the flow label
     * @return the UDP source port
     */
    public static int flowLabelToUdpSport(final int flowLabel)
    {
        final int low = flowLabel & 0x3FFF;
        final int high = flowLabel & 0xFC000;
        return ((low ^ (high >>> 14)) | UDP_SPORT_MIN) & 0xFFFF;
    }

    /**
     * UDP source port of a QP pair: from the flow label if the address vector gives one, else from the QPNs
     * (rdma_get_udp_sport).
     *
     * @param flowLabel flow label from the address vector, 0 if none
     * @param lqpn      local QP number
     * @param rqpn      remote QP number
     * @return the UDP source port
     */
    public static int udpSourcePort(final int flowLabel, final int lqpn, final int rqpn)
    {
        return flowLabelToUdpSport(0 != flowLabel ? flowLabel : calcFlowLabel(lqpn, rqpn));
    }
}
