/**
 * The verbs layer's service-provider interface: what the engine and the node see of a verbs device and its objects,
 * and what applications do not. {@link io.jrxe.rxe.spi.DevicePort} (claimed once per device) reaches QPs, CQs and
 * SRQs; the send and receive rings ({@link io.jrxe.rxe.spi.WqeRing}) hold validated copies of work requests
 * ({@link io.jrxe.rxe.spi.SendWqe}, {@link io.jrxe.rxe.spi.RecvWqe}); {@link io.jrxe.rxe.spi.MrTable} holds the memory
 * keys ({@link io.jrxe.rxe.spi.MrEntry}, {@link io.jrxe.rxe.spi.MwEntry}) that {@link io.jrxe.rxe.spi.MrAccess}
 * checks and copies through (an integrity region's {@link io.jrxe.rxe.spi.SigRegion} routes each byte to its data
 * or protection mapping and generates or checks T10-DIF on the way); the index allocators and tables are rxe's
 * pools.
 * <p>
 * Nothing here is an application API: {@code io.jrxe.rxe.verbs} is. An architecture test keeps API types from
 * exposing these.
 */
package io.jrxe.rxe.spi;
