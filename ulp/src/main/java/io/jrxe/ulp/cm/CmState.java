package io.jrxe.ulp.cm;

/**
 * Connection states of the IB CM (IBA 12.9, the communication state machine of Figures 164-167), with the names
 * Linux's {@code enum ib_cm_state} gives them. A passive connection begins in {@link #REQ_RCVD}, an active one in
 * {@link #REQ_SENT}; both pass through {@link #ESTABLISHED}, leave it through DREQ and wait in {@link #TIMEWAIT}
 * before {@link #IDLE}. SIDR requests have two states of their own.
 * <pre>
 *   active:  IDLE -REQ-> REQ_SENT -MRA-> MRA_REQ_RCVD -REP-> REP_RCVD -RTU-> ESTABLISHED
 *   passive: IDLE <-REQ- REQ_RCVD -MRA-> MRA_REQ_SENT -REP-> REP_SENT (<-MRA- MRA_REP_RCVD) <-RTU- ESTABLISHED
 *   both:    ESTABLISHED -DREQ-> DREQ_SENT -DREP-> TIMEWAIT -(timer)-> IDLE
 *            ESTABLISHED <-DREQ- DREQ_RCVD -DREP-> TIMEWAIT
 *   REJ in any state before ESTABLISHED -> IDLE (the rejecting side through TIMEWAIT if it had sent a REP)
 * </pre>
 */
public enum CmState
{
    /** No exchange (new, or ended). */
    IDLE,
    /** A listener for a service ID. */
    LISTEN,
    /** Active: REQ sent, waiting for REP, MRA or REJ. */
    REQ_SENT,
    /** Passive: REQ received, the consumer has not answered yet. */
    REQ_RCVD,
    /** Passive: MRA sent for the REQ (the consumer is slow to accept). */
    MRA_REQ_SENT,
    /** Active: MRA received for our REQ; waiting longer for the REP. */
    MRA_REQ_RCVD,
    /** Passive: REP sent, waiting for RTU. */
    REP_SENT,
    /** Active: REP received, the consumer has not sent the RTU yet (connect without a QP). */
    REP_RCVD,
    /** Active: MRA sent for the REP. */
    MRA_REP_SENT,
    /** Passive: MRA received for our REP. */
    MRA_REP_RCVD,
    /** Connected. */
    ESTABLISHED,
    /** DREQ sent, waiting for DREP (or the peer's DREQ). */
    DREQ_SENT,
    /** DREQ received, the consumer has not sent the DREP yet. */
    DREQ_RCVD,
    /** Disconnected; the comm ID and the QP wait here so stale packets die first (IBA 12.9.7). */
    TIMEWAIT,
    /** SIDR_REQ sent, waiting for the SIDR_REP. */
    SIDR_REQ_SENT,
    /** SIDR_REQ received, the consumer has not answered yet. */
    SIDR_REQ_RCVD;

    /**
     * @return true while a REQ exchange is under way (REJ may still end it).
     */
    public boolean isConnecting()
    {
        switch (this)
        {
            case REQ_SENT:
            case REQ_RCVD:
            case MRA_REQ_SENT:
            case MRA_REQ_RCVD:
            case REP_SENT:
            case REP_RCVD:
            case MRA_REP_SENT:
            case MRA_REP_RCVD:
                return true;
            default:
                return false;
        }
    }
}
