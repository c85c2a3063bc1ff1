/**
 * Polled virtio-net 1.x driver for modern PCI devices (virtio 1.1 §4.1 PCI transport, §2.6 split virtqueues,
 * §5.1 network device): {@link io.jrxe.driver.virtio.VirtioNetDriver} on top of
 * {@link io.jrxe.driver.virtio.VirtioPciTransport} and {@link io.jrxe.driver.virtio.SplitVirtqueue}. It runs on any
 * {@link io.jrxe.driver.pci.PciFunction}: a VFIO-bound QEMU virtio-net-pci ({@code disable-legacy=on,
 * iommu_platform=on}) or the in-process emulated device.
 * <pre>
 *   VirtioNetDriver --- VirtioQueuePair p (one per queue pair, one owner thread each): receiveq(2p), transmitq(2p+1)
 *         |        |         SplitVirtqueues + its own PacketPool: the data path (polled, allocation-free)
 *         |        \--- VirtioControlPath: controlq (2, or 2 * max_virtqueue_pairs with F_MQ): ControlVirtqueue
 *         |                 &lt;- VirtioRxFilter (receive filter) and VirtioSteering (VQ_PAIRS_SET, RSS_CONFIG)
 *         |                 one command at a time: class | command | data -&gt; ack (VirtioNetCtrl)
 *         \--- VirtioNetFeatures (§3.1.1 negotiation, §5.1.4 config), VirtioPciTransport (§4.1 registers)
 * </pre>
 * controlq exists when the device offers VIRTIO_NET_F_CTRL_VQ and VIRTIO_NET_F_CTRL_RX (§5.1.3): then the driver
 * programs the device's receive filter (promiscuous, all-multicast, a MAC table); without them the device receives
 * every frame, as QEMU's does after reset. With {@link io.jrxe.driver.virtio.VirtioNetConfig#queuePairs(int)} above
 * 1 the driver also negotiates VIRTIO_NET_F_MQ (and F_RSS), enables the pairs and programs RSS so that each UDP
 * flow lands on the pair its indirection table names ({@link io.jrxe.driver.rss}); with 1, the default, it is the
 * single-queue driver it always was.
 */
package io.jrxe.driver.virtio;
