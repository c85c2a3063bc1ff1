package io.jrxe.rxe.engine;

/**
 * Engine statistics: the rxe hw_counters (same meaning as {@code rxe_hw_counters.c}) and the receive drop reasons.
 * Written by the engine thread only, plain fields; read them from the same thread or accept stale values.
 */
public final class EngineCounters
{
    /** rxe sent_pkts. */
    public long sentPkts;
    /** rxe sent_bytes (UDP payload bytes). */
    public long sentBytes;
    /** rxe rcvd_pkts. */
    public long rcvdPkts;
    /** rxe rcvd_bytes. */
    public long rcvdBytes;
    /** rxe duplicate_request. */
    public long duplicateRequest;
    /** rxe out_of_seq_request. */
    public long outOfSeqRequest;
    /** rxe rcvd_rnr_err: RNR NAKs received by the requester. */
    public long rcvdRnrErr;
    /** rxe send_rnr_err: RNR NAKs sent by the responder. */
    public long sendRnrErr;
    /** rxe rcvd_seq_err: PSN sequence error NAKs received. */
    public long rcvdSeqErr;
    /** rxe ack_deferred. */
    public long ackDeferred;
    /** rxe retry_exceeded_err. */
    public long retryExceededErr;
    /** rxe retry_rnr_exceeded_err. */
    public long retryRnrExceededErr;
    /** rxe completer_retry_err: retransmissions started (timeouts and NAKs). */
    public long completerRetryErr;
    /** rxe send_err. */
    public long sendErr;
    /** rxe rdma_sends. */
    public long rdmaSends;
    /** rxe rdma_recvs. */
    public long rdmaRecvs;

    /** Dropped: packet too short or lengths inconsistent with the opcode. */
    public long dropMalformed;
    /** Dropped: ICRC mismatch. */
    public long dropIcrc;
    /** Dropped: TVer not 0. */
    public long dropTver;
    /** Dropped: invalid or unsupported opcode, or opcode not valid for the QP type. */
    public long dropOpcode;
    /** Dropped: P_Key mismatch. */
    public long dropPkey;
    /** Dropped: no such QP. */
    public long dropNoQp;
    /** Dropped: QP state does not accept the packet. */
    public long dropQpState;
    /** Dropped: UD Q_Key mismatch. */
    public long dropQkey;
    /** Dropped: UD/UC message with no receive WQE, or too long for it. */
    public long dropNoRecv;
    /** Dropped: response that matches no outstanding request (stale or duplicate). */
    public long dropStaleResponse;
    /** Dropped: an exception while processing (a bug): the packet was dropped and the engine kept going. */
    public long dropInternalError;
    /** tx buffer allocation failed (back-pressure). */
    public long txBufferStalls;
    /** prepare() refused (unresolved neighbour): treated as lost. */
    public long unreachable;
    /** Congestion notification packets received. */
    public long rcvdCnp;

    void sentPackets(final int udpPayloadLength)
    {
        sentPkts++;
        sentBytes += udpPayloadLength;
    }
}
