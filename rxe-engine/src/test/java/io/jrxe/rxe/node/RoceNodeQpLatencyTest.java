package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.stats.QpLatencyFile;
import io.jrxe.rxe.stats.QpLatencyMBean;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.MBeanServer;
import javax.management.openmbean.CompositeData;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node with QP latency on: the file beside the counters file, the MXBean with a row per QP the engine knows, both
 * gone when the node closes; and off by default.
 */
class RoceNodeQpLatencyTest
{
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    private RoceNode.Context ctx(final NicDevice nic, final String name)
    {
        return new RoceNode.Context().nic(nic).deviceName(name)
            .net(new NetStackContext().ipv4Address(0x0a09_0001).ipv4PrefixLength(24)).countersDirectory(dir);
    }

    @Test
    void shouldPublishQpLatencyBesideTheCountersAndOverJmx() throws Exception
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            NicDevice nic = NicDevices.open(network.nic(0), new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new)))
        {
            final Path file;
            try (RoceNode node = new RoceNode(ctx(nic, "lat0").qpLatency(true).jmx(true)))
            {
                file = node.qpLatency().path();
                assertEquals(dir.resolve("lat0" + QpLatencyFile.SUFFIX), file);
                assertTrue(Files.exists(file));
                final ProtectionDomain pd = node.device().allocPd();
                final CompletionQueue cq = node.device().createCq(4, null);
                final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
                init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
                final QueuePair qp = node.device().createQp(pd, init);
                node.device().modifyQp(qp, new QpAttr().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
                    .qpAccessFlags(0), QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT |
                    QpAttrMask.ACCESS_FLAGS);
                node.progress();
                final CompositeData[] rows = (CompositeData[])SERVER.getAttribute(QpLatencyMBean.objectName("lat0"),
                    "Qps");
                assertEquals(1, rows.length);
                assertEquals(qp.qpn(), rows[0].get("qpn"));
                assertEquals(0L, rows[0].get("wrCount"));
            }
            assertFalse(SERVER.isRegistered(QpLatencyMBean.objectName("lat0")), "unregistered on close");
            assertFalse(Files.exists(file), "removed with the counters file");

            try (RoceNode plain = new RoceNode(ctx(nic, "lat1")))
            {
                assertNull(plain.qpLatency(), "off by default");
                assertFalse(Files.exists(dir.resolve("lat1" + QpLatencyFile.SUFFIX)));
            }
            assertThrows(IllegalArgumentException.class,
                () -> new RoceNode(ctx(nic, "lat2").countersFile(false).qpLatency(true)));
        }
    }
}
