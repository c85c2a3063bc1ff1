/**
 * Engine counters: {@link io.jrxe.rxe.stats.RxeCounter} (rxe's hw_counters first, then jrxe's), a memory-mapped
 * {@link io.jrxe.rxe.stats.CountersFile} that other processes read with
 * {@link io.jrxe.rxe.stats.CountersFileReader}, {@link io.jrxe.rxe.stats.RdmaHwStats} (the seed's
 * {@code struct rdma_hw_stats}: names, lifespan-cached values per port and per QP) and the
 * {@link io.jrxe.rxe.stats.RxeStat} printer behind {@code jrxe stat}. Per-QP latency histograms (beyond rxe):
 * {@link io.jrxe.rxe.stats.QpLatency} (recorded by the engine thread), published into a seqlocked
 * {@link io.jrxe.rxe.stats.QpLatencyFile} beside the counters file, read by {@link io.jrxe.rxe.stats.QpLatencyReader},
 * printed by {@link io.jrxe.rxe.stats.QpLatencyStat} ({@code jrxe stat --qp --latency}) and shown over JMX by
 * {@link io.jrxe.rxe.stats.QpLatencyMBean}.
 */
package io.jrxe.rxe.stats;
