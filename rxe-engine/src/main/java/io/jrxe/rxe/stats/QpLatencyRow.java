package io.jrxe.rxe.stats;

import javax.management.ConstructorParameters;

/**
 * One QP's latency summary for JMX ({@link QpLatencyMXBean}), nanoseconds: "wr" is send work request post to
 * completion, "rtt" is request to acknowledgement. A percentile of an empty histogram is 0.
 */
public final class QpLatencyRow
{
    private final int qpn;
    private final String type;
    private final long wrCount;
    private final long wrP50Ns;
    private final long wrP99Ns;
    private final long wrMaxNs;
    private final long rttCount;
    private final long rttP50Ns;
    private final long rttP99Ns;
    private final long rttMaxNs;

    @ConstructorParameters({"qpn", "type", "wrCount", "wrP50Ns", "wrP99Ns", "wrMaxNs", "rttCount", "rttP50Ns",
        "rttP99Ns", "rttMaxNs"})
    public QpLatencyRow(final int qpn, final String type, final long wrCount, final long wrP50Ns, final long wrP99Ns,
        final long wrMaxNs, final long rttCount, final long rttP50Ns, final long rttP99Ns, final long rttMaxNs)
    {
        this.qpn = qpn;
        this.type = type;
        this.wrCount = wrCount;
        this.wrP50Ns = wrP50Ns;
        this.wrP99Ns = wrP99Ns;
        this.wrMaxNs = wrMaxNs;
        this.rttCount = rttCount;
        this.rttP50Ns = rttP50Ns;
        this.rttP99Ns = rttP99Ns;
        this.rttMaxNs = rttMaxNs;
    }

    /**
     * @param snapshot a QP's histograms
     * @return its summary
     */
    public static QpLatencyRow of(final QpLatencySnapshot snapshot)
    {
        return new QpLatencyRow(snapshot.qpn(), RxeStat.qpTypeName(snapshot.qpType()),
            snapshot.completion().getTotalCount(), snapshot.completion().getValueAtPercentile(50),
            snapshot.completion().getValueAtPercentile(99), snapshot.completion().getMaxValue(),
            snapshot.roundTrip().getTotalCount(), snapshot.roundTrip().getValueAtPercentile(50),
            snapshot.roundTrip().getValueAtPercentile(99), snapshot.roundTrip().getMaxValue());
    }

    public int getQpn()
    {
        return qpn;
    }

    public String getType()
    {
        return type;
    }

    public long getWrCount()
    {
        return wrCount;
    }

    public long getWrP50Ns()
    {
        return wrP50Ns;
    }

    public long getWrP99Ns()
    {
        return wrP99Ns;
    }

    public long getWrMaxNs()
    {
        return wrMaxNs;
    }

    public long getRttCount()
    {
        return rttCount;
    }

    public long getRttP50Ns()
    {
        return rttP50Ns;
    }

    public long getRttP99Ns()
    {
        return rttP99Ns;
    }

    public long getRttMaxNs()
    {
        return rttMaxNs;
    }
}
