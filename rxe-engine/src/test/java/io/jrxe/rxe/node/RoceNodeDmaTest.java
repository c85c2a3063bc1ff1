package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedIommu;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.verbs.CoherentBuffer;
import io.jrxe.rxe.verbs.DeviceDma;
import io.jrxe.rxe.verbs.DmaDirection;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A node's verbs device maps memory into the IOMMU of the node's NIC (here the emulated virtio-net's). */
class RoceNodeDmaTest
{
    @Test
    void shouldMapThroughTheNicsIommu()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none()))
        {
            network.invoker();
            final EmulatedIommu iommu = network.nic(0).iommu();
            try (NicDevice nic = NicDevices.open(network.nic(0),
                    new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new).queueSize(64).bufferCount(128));
                RoceNode node = new RoceNode(new RoceNode.Context().nic(nic).countersFile(false)
                    .net(new NetStackContext().ipv4Address(0x0a09_0001).ipv4PrefixLength(24))))
            {
                final DeviceDma dma = node.device().dma();
                final int driverMappings = iommu.mappingCount();

                final CoherentBuffer coherent = dma.allocCoherent(8192);
                final long handle = dma.mapSingle(coherent.cpuAddress() + 100, 200, DmaDirection.TO_DEVICE);
                assertEquals(coherent.cpuAddress() + 100, iommu.translate(handle, 200), "the NIC reaches it");
                assertEquals(driverMappings + 1, iommu.mappingCount());

                dma.unmapSingle(handle, 200, DmaDirection.TO_DEVICE);
                dma.freeCoherent(coherent);
                assertEquals(driverMappings, iommu.mappingCount(), "the driver's own mappings remain");
                assertEquals(EmulatedIommu.FAULT, iommu.translate(handle, 200));
            }
        }
    }
}
