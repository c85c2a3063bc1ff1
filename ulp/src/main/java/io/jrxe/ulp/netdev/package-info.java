/**
 * The kernel's {@code struct rdma_netdev} for jrxe: a packet interface whose frames ride on a UD QP, addressed by an
 * address handle and a QPN (IP over UD, the datagram mode of IPoIB, RFC 4391, on a RoCE port).
 * <ul>
 *   <li>{@link io.jrxe.ulp.netdev.RdmaNetdev}: the struct's operations (send to an AH and QPN, attach and detach
 *       multicast, set_id), plus {@code poll} for what the kernel hands its network stack;</li>
 *   <li>{@link io.jrxe.ulp.netdev.UdNetdev}: the implementation on one UD QP, with the 4-byte encapsulation header
 *       ({@link io.jrxe.ulp.netdev.IpoUdHeader}) and an MTU of the path MTU less that header;</li>
 *   <li>{@link io.jrxe.ulp.netdev.IpOverUd}: an IPv4 host on it that pings and answers pings.</li>
 * </ul>
 * Threads: one thread owns a netdev and the host on it; the engine runs beside it behind the verbs.
 */
package io.jrxe.ulp.netdev;
