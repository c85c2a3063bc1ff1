/**
 * An in-process virtio-net 1.x device and a faulty wire, so the real driver and the whole stack run without QEMU.
 * <pre>
 *   VirtioNetDriver ──PciFunction──▶ EmulatedVirtioNet ──(agent: tx/rx)──▶ WirePort ─┐
 *        │ config space, BAR4 registers          │ DMA                             │ EmulatedWire (hub):
 *        │ DmaMapper                             ▼                                 │ per-link faults from a seed,
 *        └──────────────────────────────▶ EmulatedIommu (map/translate/fault)      │ SPSC rings, no allocation
 *                                                                                  ▼
 *   VirtioNetDriver ◀── ... ◀── EmulatedVirtioNet ◀── WirePort ◀────────────────────┘
 * </pre>
 * The device has QEMU's controlq and receive filter (promiscuous after reset; the driver turns it off and names the
 * multicast MACs it wants, {@link io.jrxe.driver.emu.DeviceControlQueue}), so on the hub wire a NIC drops frames for
 * other NICs as QEMU's NICs on a hub do.
 * With {@code Context.maxQueuePairs(N)} above 1 the device offers VIRTIO_NET_F_MQ and F_RSS and steers each
 * received frame to a receive queue by the Toeplitz hash and indirection table the driver programmed
 * ({@link io.jrxe.driver.emu.EmulatedSteering}); it serves every enabled transmit queue.
 * The wire is lossless unless faults say otherwise: a device whose link is full keeps its transmit queue until the
 * receiver drains it (802.3x PAUSE / PFC, {@link io.jrxe.driver.emu.WirePort#mayTransmit}; a watchdog ends a pause
 * after 100 ms), as a RoCE fabric is set up.
 * A port may sit behind a switch egress queue ({@link io.jrxe.driver.emu.WireQueue}: a drain rate, RED ECN marking
 * and tail drop), the bottleneck of an incast.
 * {@link io.jrxe.driver.emu.EmulatedNetwork} builds K NICs (MACs 52:54:00:00:00:01..) on one wire. Devices run on
 * their own threads ({@code start()}) or are stepped deterministically by an {@code AgentInvoker}.
 */
package io.jrxe.driver.emu;
