package io.jrxe.rxe.stats;

/**
 * The engine's hardware-style counters. Ids are stable and dense (the id is the slot index in a counters file);
 * new counters are only ever appended. Ids 0..16 are rxe's counters with rxe's names in rxe's order
 * (rxe_hw_counters.c), so tooling and habits written for {@code /sys/class/infiniband/rxe0/ports/1/hw_counters}
 * carry over; the rest are jrxe's own: drop reasons of the receive path and protocol events that rxe does not
 * count.
 */
public enum RxeCounter
{
    /** Packets handed to the NIC. */
    SENT_PKTS(0, "sent_pkts", "packets transmitted"),
    /** Packets accepted by the receive path (after the ICRC and header checks). */
    RCVD_PKTS(1, "rcvd_pkts", "packets received and accepted"),
    /** Duplicate requests seen by the responder (PSN before the expected PSN). */
    DUPLICATE_REQUEST(2, "duplicate_request", "duplicate request packets received by the responder"),
    /** Requests with a PSN after the expected PSN (a gap): answered with a PSN sequence error NAK. */
    OUT_OF_SEQ_REQUEST(3, "out_of_seq_request", "requests received after a PSN gap"),
    /** RNR NAKs received by the requester. */
    RCVD_RNR_ERR(4, "rcvd_rnr_err", "RNR NAKs received"),
    /** RNR NAKs sent by the responder (no receive WQE). */
    SEND_RNR_ERR(5, "send_rnr_err", "RNR NAKs sent"),
    /** PSN sequence error NAKs received by the requester. */
    RCVD_SEQ_ERR(6, "rcvd_seq_err", "PSN sequence error NAKs received"),
    /** Times the sender work was deferred (rxe RXE_CNT_SENDER_SCHED, whose string stayed "ack_deferred"). */
    ACK_DEFERRED(7, "ack_deferred", "sender work deferred to a later pass"),
    /** Transport retry counter exhausted: work completed with retry exceeded error, QP to error. */
    RETRY_EXCEEDED_ERR(8, "retry_exceeded_err", "transport retries exhausted"),
    /** RNR retry counter exhausted. */
    RETRY_RNR_EXCEEDED_ERR(9, "retry_rnr_exceeded_err", "RNR retries exhausted"),
    /** Retries started by the completer (timeout or sequence NAK). */
    COMPLETER_RETRY_ERR(10, "completer_retry_err", "retries started by the completer"),
    /** Packets the NIC could not take. */
    SEND_ERR(11, "send_err", "transmit failures"),
    /**
     * The NIC's link went down (rxe_port_down): counted by the node when it sees the link status fall, which it
     * checks every {@code linkCheckInterval} of its duty cycle; a link that comes back up within one interval is
     * not seen.
     */
    LINK_DOWNED(12, "link_downed", "link down events"),
    /** RDMA operation requests sent (rxe counts requests of RDMA READ/WRITE messages). */
    RDMA_SENDS(13, "rdma_sends", "RDMA operation requests sent"),
    /** RDMA operation requests received. */
    RDMA_RECVS(14, "rdma_recvs", "RDMA operation requests received"),
    /** Bytes of transmitted packets (rxe_mad.c PortXmitData source). */
    SENT_BYTES(15, "sent_bytes", "bytes transmitted"),
    /** Bytes of received packets. */
    RCVD_BYTES(16, "rcvd_bytes", "bytes received"),

    /** Dropped: ICRC mismatch. */
    ICRC_ERR(17, "icrc_err", "dropped: ICRC mismatch"),
    /** Dropped: opcode unknown or not supported. */
    BAD_OPCODE(18, "bad_opcode", "dropped: unknown or unsupported opcode"),
    /** Dropped: P_Key does not match the QP's partition. */
    BAD_PKEY(19, "bad_pkey", "dropped: P_Key mismatch"),
    /** Dropped: destination QP does not exist. */
    BAD_QPN(20, "bad_qpn", "dropped: no such destination QP"),
    /** Dropped: QP state does not accept packets (RESET, INIT, ERROR ...). */
    QP_NOT_READY(21, "qp_not_ready", "dropped: QP not in a receiving state"),
    /** Dropped: UD Q_Key mismatch. */
    BAD_QKEY(22, "bad_qkey", "dropped: Q_Key mismatch"),
    /** Dropped: packet shorter than its opcode's headers. */
    BAD_HEADER_LENGTH(23, "bad_header_length", "dropped: shorter than the opcode's headers"),
    /** Dropped: PadCnt larger than the payload or payload not 4-byte aligned. */
    BAD_PAD(24, "bad_pad", "dropped: inconsistent PadCnt"),
    /** Dropped: frame shorter than the IP/UDP lengths claim. */
    TRUNCATED(25, "truncated", "dropped: truncated frame"),
    /** Dropped: BTH TVer is not 0. */
    BAD_TVER(26, "bad_tver", "dropped: unsupported transport version"),
    /** Dropped: opcode's transport does not match the QP type. */
    BAD_QP_TYPE(27, "bad_qp_type", "dropped: opcode transport does not match the QP type"),
    /** Dropped: IP/UDP header malformed or not RoCEv2. */
    BAD_IP_HEADER(28, "bad_ip_header", "dropped: malformed IP/UDP header"),
    /** Opcode out of sequence (RC: NAK invalid request; UC: message dropped). */
    OPCODE_SEQ_ERR(29, "opcode_seq_err", "opcode out of sequence"),

    /** PSN sequence error NAKs sent (RNR NAKs sent are rxe's send_rnr_err). */
    SEQ_NAK_SENT(30, "seq_nak_sent", "PSN sequence error NAKs sent"),
    /** Other NAKs sent: invalid request, remote access, remote operational error. */
    NAK_SENT(31, "nak_sent", "invalid request / access / operational NAKs sent"),
    /** Other NAKs received. */
    NAK_RCVD(32, "nak_rcvd", "invalid request / access / operational NAKs received"),
    /** ACK packets sent: Acknowledge with an ACK syndrome and Atomic Acknowledge. */
    ACKS_SENT(33, "acks_sent", "ACK packets sent"),
    /** ACK packets (Acknowledge with an ACK syndrome, Atomic Acknowledge) received for something outstanding. */
    ACKS_RCVD(34, "acks_rcvd", "ACK packets received"),
    /** RDMA READ requests sent. */
    READ_REQ_SENT(35, "read_req_sent", "RDMA READ requests sent"),
    /** RDMA READ requests received. */
    READ_REQ_RCVD(36, "read_req_rcvd", "RDMA READ requests received"),
    /** RDMA READ response packets sent. */
    READ_RESP_SENT(37, "read_resp_sent", "RDMA READ response packets sent"),
    /** RDMA READ response packets received. */
    READ_RESP_RCVD(38, "read_resp_rcvd", "RDMA READ response packets received"),
    /** Atomic requests (CmpSwap, FetchAdd) sent. */
    ATOMIC_REQ_SENT(39, "atomic_req_sent", "atomic requests sent"),
    /** Atomic requests received and executed. */
    ATOMIC_REQ_RCVD(40, "atomic_req_rcvd", "atomic requests received"),
    /** READ responses / atomic ACKs replayed for a duplicate request from the responder's resource cache. */
    DUPLICATE_RESP_REPLAYED(41, "duplicate_resp_replayed", "responses replayed for duplicate READ/atomic"),
    /** Request packets sent again (go-back-N after timeout or NAK): PSNs below the highest PSN sent. */
    RETRANSMITTED_PKTS(42, "retransmitted_pkts", "request packets retransmitted"),
    /** Retransmit timer expiries (mlx5 local_ack_timeout_err). */
    LOCAL_ACK_TIMEOUT_ERR(43, "local_ack_timeout_err", "retransmit timer expiries"),
    /** ACKs whose PSN implied a lost READ/atomic response (mlx5 implied_nak_seq_err). */
    IMPLIED_NAK_SEQ_ERR(44, "implied_nak_seq_err", "ACKs implying a lost READ/atomic response"),
    /**
     * Congestion notification packets sent by the DCQCN notification point (mlx5's np_cnp_sent; rxe has no such
     * counter): at most one per QP per np min_time_between_cnps while CE-marked packets arrive.
     */
    CNP_SENT(45, "cnp_sent", "CNPs sent"),
    /**
     * Well-formed congestion notification packets received for a known QP (then counted again as
     * {@link #CNP_HANDLED} or {@link #CNP_IGNORED}); malformed ones are counted under their drop reason only.
     */
    CNP_RCVD(46, "cnp_rcvd", "CNPs received"),
    /** Received packets with ECN CE marked (mlx5 np_ecn_marked_roce_packets). */
    ECN_MARKED_PKTS(47, "ecn_marked_pkts", "received packets with ECN CE"),
    /** Requests refused by the responder for an R_Key / bounds / access violation. */
    RKEY_VIOLATION(48, "rkey_violation", "remote access violations detected"),
    /** Transmit packets not sent because the packet pool was empty. */
    TX_NO_BUFFER(49, "tx_no_buffer", "transmit deferred: packet pool empty"),
    /** Completion queue overflows. */
    CQ_OVERFLOW(50, "cq_overflow", "completion queue overflows"),
    /** Transmissions held back while the next hop's MAC was being resolved (ARP/ND), retried shortly. */
    TX_WAIT_NEIGHBOR(51, "tx_wait_neighbor", "transmit deferred: next hop's MAC being resolved"),
    /**
     * The requester stopped because its QP had the high mark of packets handed to the NIC and not yet sent (rxe sets
     * {@code qp->need_req_skb} there and counts nothing): counted when it stops after having sent, not again for
     * each run that finds it still stopped.
     */
    NEED_REQ_SKB(52, "need_req_skb", "requester stopped at the QP's in-flight packet limit"),
    /**
     * Packets whose payload the NIC read straight from a DMA-mapped MR (a descriptor chain: headers, payload,
     * ICRC) instead of from a copy in a packet buffer.
     */
    TX_ZERO_COPY(53, "tx_zero_copy", "packets sent with the payload gathered from the MR"),
    /** CNPs the DCQCN reaction point acted on: a rate cut or an alpha raise (mlx5 rp_cnp_handled). */
    CNP_HANDLED(54, "cnp_handled", "CNPs handled by the reaction point"),
    /** CNPs received and ignored: DCQCN off, a datagram QP or one not sending (mlx5 rp_cnp_ignored). */
    CNP_IGNORED(55, "cnp_ignored", "CNPs ignored by the reaction point"),
    /**
     * XRC requests whose XRCETH names no XRC SRQ of the target QP's XRC domain (none, a basic SRQ, another
     * domain's, or another SRQ than the message in progress took its receive from); answered with NAK invalid
     * request. jrxe's own name: rxe has no XRC.
     */
    XRC_BAD_SRQN(56, "xrc_bad_srqn", "XRC requests naming no XRC SRQ of the target's domain"),
    /**
     * Packets that arrived on an engine shard's NIC queue pair for a QP of another shard (the sender's UDP source
     * port did not steer them by the peer's RSS) and were handed to the owner shard. jrxe's own: rxe has no shards.
     */
    SHARD_FORWARDED(57, "shard_forwarded", "packets handed to the engine shard that owns their QP"),
    /** Packets for another shard dropped because its forward ring was full (RC recovers by retransmission). */
    SHARD_FORWARD_DROPS(58, "shard_forward_drops", "packets dropped because a shard's forward ring was full");

    private static final RxeCounter[] BY_ID;

    static
    {
        final RxeCounter[] values = values();
        BY_ID = new RxeCounter[values.length];
        for (final RxeCounter counter : values)
        {
            if (counter.id < 0 || counter.id >= values.length || null != BY_ID[counter.id])
            {
                throw new IllegalStateException("counter ids must be unique and dense: " + counter);
            }
            BY_ID[counter.id] = counter;
        }
    }

    private final int id;
    private final String label;
    private final String description;

    RxeCounter(final int id, final String label, final String description)
    {
        this.id = id;
        this.label = label;
        this.description = description;
    }

    /**
     * @return the stable id, also the counter's slot index in a counters file
     */
    public int id()
    {
        return id;
    }

    /**
     * @return the name as shown in hw_counters style output, rxe's exact string for rxe's counters
     */
    public String label()
    {
        return label;
    }

    /**
     * @return a one-line description
     */
    public String description()
    {
        return description;
    }

    /**
     * @return true for the counters rxe itself has (ids 0..16)
     */
    public boolean isRxeCounter()
    {
        return id <= RCVD_BYTES.id;
    }

    /**
     * @return number of counters, also one past the largest id
     */
    public static int count()
    {
        return BY_ID.length;
    }

    /**
     * The driver's names of {@code rdma_alloc_hw_stats_struct}: every label, index = id, rxe's first.
     *
     * @return a new array of {@link #count()} names
     */
    public static String[] names()
    {
        final String[] names = new String[BY_ID.length];
        for (int id = 0; id < names.length; id++)
        {
            names[id] = BY_ID[id].label;
        }
        return names;
    }

    /**
     * @param id a counter id
     * @return the counter
     * @throws IllegalArgumentException if no counter has that id
     */
    public static RxeCounter byId(final int id)
    {
        if (id < 0 || id >= BY_ID.length)
        {
            throw new IllegalArgumentException("no counter with id " + id + " (0.." + (BY_ID.length - 1) + ")");
        }
        return BY_ID[id];
    }
}
