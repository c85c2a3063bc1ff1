/**
 * Engine counters: {@link io.jrxe.rxe.stats.RxeCounter} (rxe's hw_counters first, then jrxe's), a memory-mapped
 * {@link io.jrxe.rxe.stats.CountersFile} that other processes read with
 * {@link io.jrxe.rxe.stats.CountersFileReader}, {@link io.jrxe.rxe.stats.RdmaHwStats} (the seed's
 * {@code struct rdma_hw_stats}: names, lifespan-cached values per port and per QP) and the
 * {@link io.jrxe.rxe.stats.RxeStat} printer behind {@code jrxe stat}.
 */
package io.jrxe.rxe.stats;
