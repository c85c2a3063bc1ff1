package io.jrxe.ulp.rdmacm;

/**
 * The events of an {@link EventChannel}, with librdmacm's {@code enum rdma_cm_event_type} values.
 */
public enum CmEventType
{
    /** {@link CmId#resolveAddr} succeeded. */
    ADDR_RESOLVED,
    /** Address resolution failed (status: -ETIMEDOUT, -EHOSTUNREACH). */
    ADDR_ERROR,
    /** {@link CmId#resolveRoute} succeeded. */
    ROUTE_RESOLVED,
    /** Route resolution failed. */
    ROUTE_ERROR,
    /** A listener got a connection request: the event's id is the new one. */
    CONNECT_REQUEST,
    /** REP received on an id without a QP: call {@link CmId#establish()}. */
    CONNECT_RESPONSE,
    /** Setting the connection up failed (status: the errno). */
    CONNECT_ERROR,
    /** The peer did not answer (status: -ETIMEDOUT), or a SIDR reply refused us (status: the SIDR status). */
    UNREACHABLE,
    /** The peer refused (status: the REJ reason, e.g. 8 for no listener). */
    REJECTED,
    /** Connected. */
    ESTABLISHED,
    /** The connection ended (the peer's DREQ, our DREQ answered, or our DREQ timed out). */
    DISCONNECTED,
    /** The device went away: destroy the id. */
    DEVICE_REMOVAL,
    /** A multicast join completed: the event carries the group's address vector, QPN 0xFFFFFF and Q_Key. */
    MULTICAST_JOIN,
    /** Multicast error (not raised by jrxe: a RoCE join is local and completes or throws). */
    MULTICAST_ERROR,
    /** The address changed (not used yet). */
    ADDR_CHANGE,
    /** The connection left time-wait: its QP may be reused. */
    TIMEWAIT_EXIT;

    /** @return the librdmacm value */
    public int value()
    {
        return ordinal();
    }

    /** @return librdmacm's {@code rdma_event_str} text */
    public String str()
    {
        return "RDMA_CM_EVENT_" + name();
    }
}
