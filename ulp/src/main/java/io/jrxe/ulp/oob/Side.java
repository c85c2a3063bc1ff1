package io.jrxe.ulp.oob;

/**
 * Role in an out-of-band exchange. Every perftest exchange ({@code ctx_xchg_data}, {@code ctx_hand_shake}) is
 * ordered by role: the client (the side started with a server name) writes its message first and then reads, the
 * server reads first and then writes. ibv_rc_pingpong uses the same roles.
 */
public enum Side
{
    /** Listens; reads each message first, then writes its own. */
    SERVER,
    /** Connects; writes each message first, then reads the peer's. */
    CLIENT;

    /** @return the other role. */
    public Side peer()
    {
        return this == SERVER ? CLIENT : SERVER;
    }
}
