package io.jrxe.net;

/**
 * Counters of a {@link NetStack}, read with {@link NetStack#counter(NetCounter)}. The {@link #id()} of a counter
 * is stable across releases (new counters get new ids at the end) and {@link #label()} is the snake_case name
 * printed by tools. Counters whose label names a malformed or unwanted packet are drop reasons: each dropped frame
 * is counted under exactly one of them.
 */
public enum NetCounter
{
    RX_FRAMES(0, "rx_frames"),
    RX_BYTES(1, "rx_bytes"),
    TX_FRAMES(2, "tx_frames"),
    TX_BYTES(3, "tx_bytes"),

    ARP_REQUESTS_RCVD(4, "arp_requests_rcvd"),
    ARP_REPLIES_RCVD(5, "arp_replies_rcvd"),
    ARP_REQUESTS_SENT(6, "arp_requests_sent"),
    ARP_REPLIES_SENT(7, "arp_replies_sent"),
    ARP_ANNOUNCEMENTS_SENT(8, "arp_announcements_sent"),
    /** ARP for another host's address: normal on a shared LAN, not answered. */
    ARP_NOT_FOR_US(9, "arp_not_for_us"),
    /** Another station claims our IPv4 address (RFC 5227 §2.4). */
    ARP_ADDRESS_CONFLICT(10, "arp_address_conflict"),
    ARP_RESOLVE_FAILED(11, "arp_resolve_failed"),

    ICMP_ECHO_REQUESTS_RCVD(12, "icmp_echo_requests_rcvd"),
    ICMP_ECHO_REPLIES(13, "icmp_echo_replies"),
    ICMP_OTHER_RCVD(14, "icmp_other_rcvd"),
    /** Echo requests to a broadcast address are not answered (RFC 1122 §3.2.2.6 allows silence). */
    ICMP_BROADCAST_IGNORED(15, "icmp_broadcast_ignored"),
    ICMP_PORT_UNREACHABLE_SENT(16, "icmp_port_unreachable_sent"),

    ND_NS_RCVD(17, "nd_ns_rcvd"),
    ND_NA_RCVD(18, "nd_na_rcvd"),
    ND_NS_SENT(19, "nd_ns_sent"),
    ND_NA_SENT(20, "nd_na_sent"),
    ND_NS_NOT_FOR_US(21, "nd_ns_not_for_us"),
    ND_RESOLVE_FAILED(22, "nd_resolve_failed"),
    /** Router solicitations/advertisements and redirects: no routing support, counted and ignored. */
    ND_OTHER_RCVD(23, "nd_other_rcvd"),
    ICMPV6_ECHO_REQUESTS_RCVD(24, "icmpv6_echo_requests_rcvd"),
    ICMPV6_ECHO_REPLIES(25, "icmpv6_echo_replies"),
    ICMPV6_OTHER_RCVD(26, "icmpv6_other_rcvd"),

    UDP_DATAGRAMS_RCVD(27, "udp_datagrams_rcvd"),
    UDP_DATAGRAMS_SENT(28, "udp_datagrams_sent"),
    /** A registered {@link UdpHandler} threw; the frame was freed and the error passed to the error handler. */
    UDP_HANDLER_ERRORS(29, "udp_handler_errors"),
    /** prepareUdp4/6 found no link-layer address for the next hop and started resolution. */
    TX_UNRESOLVED(30, "tx_unresolved"),
    NEIGHBOR_TABLE_FULL(31, "neighbor_table_full"),

    TOO_SHORT(32, "too_short"),
    /** The device reported a frame length beyond the buffer's data capacity. */
    BAD_FRAME_LENGTH(33, "bad_frame_length"),
    BAD_ETHERTYPE(34, "bad_ethertype"),
    VLAN(35, "vlan"),
    NOT_OUR_MAC(36, "not_our_mac"),
    BAD_SRC_MAC(37, "bad_src_mac"),
    BAD_ARP(38, "bad_arp"),
    BAD_IP_VERSION(39, "bad_ip_version"),
    BAD_IP_HEADER_LENGTH(40, "bad_ip_header_length"),
    BAD_IP_TOTAL_LENGTH(41, "bad_ip_total_length"),
    BAD_IP_CHECKSUM(42, "bad_ip_checksum"),
    BAD_IP_SOURCE(43, "bad_ip_source"),
    IP_FRAGMENT(44, "ip_fragment"),
    IPV6_EXTENSION_HEADER(45, "ipv6_extension_header"),
    NOT_FOR_US(46, "not_for_us"),
    UNKNOWN_IP_PROTOCOL(47, "unknown_ip_protocol"),
    BAD_UDP_LENGTH(48, "bad_udp_length"),
    BAD_UDP_CHECKSUM(49, "bad_udp_checksum"),
    BAD_ICMP_LENGTH(50, "bad_icmp_length"),
    BAD_ICMP_CHECKSUM(51, "bad_icmp_checksum"),
    /** A Neighbor Solicitation or Advertisement failing the validity checks of RFC 4861 §7.1. */
    BAD_ND(52, "bad_nd"),
    NO_UDP_LISTENER(53, "no_udp_listener"),
    /** Frames dropped because the transmit queue was full even after a flush: a sender ignored txRoom(). */
    TX_RING_FULL(54, "tx_ring_full"),
    NO_TX_BUFFER(55, "no_tx_buffer"),
    ICMP_ECHO_REQUESTS_SENT(56, "icmp_echo_requests_sent"),
    ICMP_ECHO_REPLIES_RCVD(57, "icmp_echo_replies_rcvd"),
    /** Frames a flush left queued because the device's transmit ring was full (sent by a later flush). */
    TX_DEFERRED(58, "tx_deferred"),
    /** Receive filter requests the NIC took (the stack asks at its first poll): see {@link NetStack#rxFilterStatus()}. */
    RX_FILTER_UPDATES(59, "rx_filter_updates"),
    /** Receive filter requests the NIC refused or did not answer; the NIC then takes more frames than needed. */
    RX_FILTER_ERRORS(60, "rx_filter_errors"),
    /** IGMPv2 Membership Reports sent: on a group's first join and in answer to Queries ({@link MulticastGroups}). */
    IGMP_REPORTS_SENT(61, "igmp_reports_sent"),
    /** IGMPv2 Leave Group messages sent, on a group's last leave. */
    IGMP_LEAVES_SENT(62, "igmp_leaves_sent"),
    /** MLDv2 reports sent, on a group's first join and last leave. */
    MLD_REPORTS_SENT(63, "mld_reports_sent"),
    IGMP_QUERIES_RCVD(64, "igmp_queries_rcvd"),
    /** IGMP messages other than Queries (other hosts' reports and leaves): nothing to do. */
    IGMP_OTHER_RCVD(65, "igmp_other_rcvd"),
    /** IGMP messages too short or failing their checksum. */
    BAD_IGMP(66, "bad_igmp"),
    /** MLD Queries (RFC 3810 §5.1, behind a Hop-by-Hop Router Alert) for us: answered with a report per group. */
    MLD_QUERIES_RCVD(67, "mld_queries_rcvd"),
    /**
     * Neighbour entries the primary stack could not pass to a lane because the lane's relay ring was full
     * ({@link NeighborRelay}); the lane resolves the address again. Counted on the primary.
     */
    NEIGHBOR_RELAY_FULL(68, "neighbor_relay_full");

    private static final NetCounter[] BY_ID;

    static
    {
        final NetCounter[] values = values();
        BY_ID = new NetCounter[values.length];
        for (final NetCounter counter : values)
        {
            if (counter.id < 0 || counter.id >= values.length || null != BY_ID[counter.id])
            {
                throw new IllegalStateException("NetCounter ids must be unique and dense: " + counter);
            }
            BY_ID[counter.id] = counter;
        }
    }

    final int id;
    private final String label;

    NetCounter(final int id, final String label)
    {
        this.id = id;
        this.label = label;
    }

    /** Stable numeric id, also the index into the counter array. */
    public int id()
    {
        return id;
    }

    /** snake_case name, e.g. {@code bad_ip_checksum}. */
    public String label()
    {
        return label;
    }

    /** Number of counters; ids are {@code 0 .. count() - 1}. */
    public static int count()
    {
        return BY_ID.length;
    }

    /** @throws IllegalArgumentException if no counter has the id */
    public static NetCounter ofId(final int id)
    {
        if (id < 0 || id >= BY_ID.length)
        {
            throw new IllegalArgumentException("no NetCounter with id " + id);
        }
        return BY_ID[id];
    }
}
