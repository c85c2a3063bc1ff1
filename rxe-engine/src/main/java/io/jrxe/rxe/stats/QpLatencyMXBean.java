package io.jrxe.rxe.stats;

/**
 * JMX view of a device's QP latency histograms ({@code io.jrxe:type=QpLatency,name=<device>}), read from its QP
 * latency file as {@code jrxe stat --qp --latency} reads it. jconsole shows {@link #getQps()} as a table.
 */
public interface QpLatencyMXBean
{
    /** @return one row per QP with histograms: counts and p50/p99/max of both, in ns */
    QpLatencyRow[] getQps();

    /** @return QPs that got no histograms because every slot of the file was taken */
    long getQpsWithoutSlot();
}
