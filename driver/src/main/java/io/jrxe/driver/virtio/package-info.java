/**
 * Polled virtio-net 1.x driver for modern PCI devices (virtio 1.1 §4.1 PCI transport, §2.6 split virtqueues,
 * §5.1 network device): {@link io.jrxe.driver.virtio.VirtioNetDriver} on top of
 * {@link io.jrxe.driver.virtio.VirtioPciTransport} and {@link io.jrxe.driver.virtio.SplitVirtqueue}. It runs on any
 * {@link io.jrxe.driver.pci.PciFunction}: a VFIO-bound QEMU virtio-net-pci ({@code disable-legacy=on,
 * iommu_platform=on}) or the in-process emulated device.
 * <pre>
 *   VirtioNetDriver --- receiveq1 (0), transmitq1 (1): SplitVirtqueue, the data path (polled, allocation-free)
 *         |        \--- controlq (2): ControlVirtqueue &lt;- VirtioRxFilter   (control path, §5.1.6.5)
 *         |                 one command at a time: class | command | data -&gt; ack (VirtioNetCtrl)
 *         \--- VirtioNetFeatures (§3.1.1 negotiation, §5.1.4 config), VirtioPciTransport (§4.1 registers)
 * </pre>
 * controlq exists when the device offers VIRTIO_NET_F_CTRL_VQ and VIRTIO_NET_F_CTRL_RX (§5.1.3): then the driver
 * programs the device's receive filter (promiscuous, all-multicast, a MAC table); without them the device receives
 * every frame, as QEMU's does after reset.
 */
package io.jrxe.driver.virtio;
