package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.devinfo.DeviceInfoFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.stats.RxeMBeans;
import io.jrxe.rxe.verbs.AsyncEvent;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.RxeDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.MBeanServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node follows the emulated NIC's link (the device's status field and config change, as a real virtio-net device
 * shows a cable pulled): link_downed counts, the port state and its async events follow, and the published device
 * attributes and the JMX MBeans show it.
 */
class RoceNodeLinkTest
{
    private static final long INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    private long now = 5_000_000_000L;
    private final List<String> events = new ArrayList<>();

    private RoceNode node(final NicDevice nic)
    {
        final RoceNode node = new RoceNode(new RoceNode.Context().nic(nic).deviceName("link0")
            .net(new NetStackContext().ipv4Address(0x0a09_0001).ipv4PrefixLength(24))
            .countersDirectory(dir).nanoClock(() -> now).linkCheckIntervalNs(INTERVAL_NS).jmx(true));
        node.device().asyncEventHandler((event, element) -> events.add(event + "/" + element));
        return node;
    }

    private static NicDevice open(final EmulatedNetwork network)
    {
        return NicDevices.open(network.nic(0), new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new));
    }

    private static PortState portState(final RxeDevice device)
    {
        return device.queryPort(RxeDevice.PORT, new PortAttr()).state();
    }

    private long linkDownedInFile(final RoceNode node)
    {
        return new CountersFileReader(node.counters().buffer()).deviceValue(RxeCounter.LINK_DOWNED);
    }

    private static long publishedState(final RoceNode node)
    {
        return DeviceInfoFile.read(node.deviceInfo().path()).port("state");
    }

    @Test
    void shouldCountLinkDownEventsAndMoveThePort() throws Exception
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            NicDevice nic = open(network);
            RoceNode node = node(nic))
        {
            assertEquals(PortState.ACTIVE, portState(node.device()), "the link is up: rxe_port_up at start");
            assertEquals(PortState.ACTIVE.code(), publishedState(node));

            network.nic(0).linkUp(false);
            node.progress();
            assertEquals(PortState.ACTIVE, portState(node.device()), "not looked at before the interval");
            now += INTERVAL_NS;
            assertTrue(node.progress() > 0, "the link change is work");
            assertEquals(PortState.DOWN, portState(node.device()));
            assertEquals(List.of(AsyncEvent.PORT_ERR + "/1"), events);
            assertEquals(1, node.engine().counters().get(RxeCounter.LINK_DOWNED));
            assertEquals(1, linkDownedInFile(node), "what jrxe stat shows");
            assertEquals(PortState.DOWN.code(), publishedState(node), "what jrxe devinfo shows");

            now += INTERVAL_NS;
            node.progress();
            assertEquals(1, events.size(), "still down: no new event");

            network.nic(0).linkUp(true);
            now += INTERVAL_NS;
            node.progress();
            assertEquals(PortState.ACTIVE, portState(node.device()));
            assertEquals(List.of(AsyncEvent.PORT_ERR + "/1", AsyncEvent.PORT_ACTIVE + "/1"), events);
            assertEquals(1, linkDownedInFile(node), "coming up is not counted");
            assertEquals(PortState.ACTIVE.code(), publishedState(node));

            network.nic(0).linkUp(false);
            now += INTERVAL_NS;
            node.progress();
            assertEquals(2, linkDownedInFile(node));
            assertEquals(2L, SERVER.getAttribute(RxeMBeans.deviceObjectName("link0"), "link_downed"), "and JMX");
        }
        assertFalse(SERVER.isRegistered(RxeMBeans.deviceObjectName("link0")), "unregistered when the node closes");
    }

    @Test
    void shouldStartDownWithoutCountingAndComeUpWithTheLink()
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.nic().linkUp(false);
        try (EmulatedNetwork network = new EmulatedNetwork(ctx);
            NicDevice nic = open(network))
        {
            final RoceNode node = node(nic);
            final Path published = node.deviceInfo().path();
            assertEquals(PortState.DOWN, portState(node.device()));
            assertEquals(0, linkDownedInFile(node), "a link that starts down went down in no event");

            network.nic(0).linkUp(true);
            now += INTERVAL_NS;
            node.progress();
            assertEquals(PortState.ACTIVE, portState(node.device()));
            assertEquals(List.of(AsyncEvent.PORT_ACTIVE + "/1"), events);

            assertTrue(Files.exists(published));
            node.close();
            assertFalse(Files.exists(published), "a closed node publishes no device");
        }
    }
}
