package io.jrxe.rxe.verbs;

/**
 * Logical port state, values of {@code enum ib_port_state}. rxe reports ACTIVE while the netdev has carrier
 * and DOWN otherwise.
 */
public enum PortState
{
    /** No state change. */
    NOP(0),
    /** Link down. */
    DOWN(1),
    /** Initialising. */
    INIT(2),
    /** Armed. */
    ARMED(3),
    /** Active: traffic may flow. */
    ACTIVE(4),
    /** Active, deferred. */
    ACTIVE_DEFER(5);

    private final int code;

    PortState(final int code)
    {
        this.code = code;
    }

    /** @return the {@code ib_port_state} value. */
    public int code()
    {
        return code;
    }
}
