/**
 * Receive-side scaling: the Toeplitz hash of Microsoft's RSS specification (virtio 1.x §5.1.6.4.3.1 uses it as
 * is), the flow fields it covers per frame type, and the reverse question a sender asks: which UDP source port
 * steers a flow to a wanted receive queue of the peer.
 * <pre>
 *   frame ──RssFlow (hash types: IPv4/IPv6, UDP/TCP ports)──▶ 32-bit hash ──& mask──▶ indirection table ──▶ rx queue
 *                                                                                       (no hash: unclassified queue)
 * </pre>
 * Used by the emulated virtio-net device to steer frames, by the virtio driver to program the device, and by a
 * RoCEv2 sender to pick the UDP source port (IBA A17.3.2 lets it be any; rxe hashes the QPN into it) so that its
 * frames land on the peer's queue whose thread owns the destination QP. Everything here is allocation-free once
 * built; one instance per thread (none is thread safe).
 */
package io.jrxe.driver.rss;
