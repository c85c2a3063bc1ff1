/**
 * Polled virtio-net 1.x driver for modern PCI devices (virtio 1.1 §4.1 PCI transport, §2.6 split virtqueues,
 * §5.1 network device): {@link io.jrxe.driver.virtio.VirtioNetDriver} on top of
 * {@link io.jrxe.driver.virtio.VirtioPciTransport} and {@link io.jrxe.driver.virtio.SplitVirtqueue}. It runs on any
 * {@link io.jrxe.driver.pci.PciFunction}: a VFIO-bound QEMU virtio-net-pci ({@code disable-legacy=on,
 * iommu_platform=on}) or the in-process emulated device.
 */
package io.jrxe.driver.virtio;
