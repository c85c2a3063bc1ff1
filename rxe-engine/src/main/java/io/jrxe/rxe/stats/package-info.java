/**
 * Engine counters: {@link io.jrxe.rxe.stats.RxeCounter} (rxe's hw_counters first, then jrxe's), a memory-mapped
 * {@link io.jrxe.rxe.stats.CountersFile} that other processes read with
 * {@link io.jrxe.rxe.stats.CountersFileReader}, the {@link io.jrxe.rxe.stats.HwStats} lifespan-cached view and
 * the {@link io.jrxe.rxe.stats.RxeStat} printer behind {@code jrxe stat}.
 */
package io.jrxe.rxe.stats;
