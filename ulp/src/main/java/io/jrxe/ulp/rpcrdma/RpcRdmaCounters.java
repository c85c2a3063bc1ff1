package io.jrxe.ulp.rpcrdma;

/**
 * A set of {@link RpcRdmaCounter}s: written by the transport's thread, read by anyone (plain longs read racily
 * for display, as the kernel's statistics are).
 */
public final class RpcRdmaCounters
{
    private final long[] values = new long[RpcRdmaCounter.SLOTS];

    void add(final RpcRdmaCounter counter, final long delta)
    {
        values[counter.id()] += delta;
    }

    void increment(final RpcRdmaCounter counter)
    {
        values[counter.id()]++;
    }

    /**
     * @param counter a counter
     * @return its value
     */
    public long get(final RpcRdmaCounter counter)
    {
        return values[counter.id()];
    }

    /**
     * @param clientSide true for the client's counters, false for the server's
     * @return the non-zero counters of that side as {@code name=value} words
     */
    public String describe(final boolean clientSide)
    {
        final StringBuilder sb = new StringBuilder();
        for (final RpcRdmaCounter c : RpcRdmaCounter.values())
        {
            if ((c.id() < 32) == clientSide && 0 != values[c.id()])
            {
                sb.append(sb.length() == 0 ? "" : " ").append(c.label()).append('=').append(values[c.id()]);
            }
        }
        return sb.toString();
    }
}
