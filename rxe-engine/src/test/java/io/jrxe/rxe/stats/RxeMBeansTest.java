package io.jrxe.rxe.stats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RxeMBeansTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int QP_RC = 0;

    @TempDir
    Path dir;

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private long now = 1_000_000_000L;

    private CountersFile counters(final String name)
    {
        return CountersFile.create(new CountersFile.Context().deviceName(name).directory(dir));
    }

    @Test
    void shouldPublishTheDevicesCountersNamedAsRxes() throws Exception
    {
        try (CountersFile file = counters("jmx0"))
        {
            final ObjectName device = RxeMBeans.deviceObjectName("jmx0");
            try (RxeMBeans beans = new RxeMBeans(server, new CountersFileReader(file.buffer()), () -> now))
            {
                assertEquals("io.jrxe:type=RxeDevice,name=jmx0", device.toString());
                assertTrue(server.isRegistered(device));
                final Set<String> names = new HashSet<>();
                for (final MBeanAttributeInfo a : server.getMBeanInfo(device).getAttributes())
                {
                    names.add(a.getName());
                    assertTrue(a.isReadable());
                    assertEquals("lifespan".equals(a.getName()), a.isWritable(), a.getName());
                }
                assertTrue(names.containsAll(List.of(RxeCounter.names())), names.toString());
                assertTrue(names.contains("link_downed"));
                assertEquals(10L, server.getAttribute(device, "lifespan"));
                assertEquals("jmx0", server.getAttribute(device, "device"));

                file.deviceSet(0).add(RxeCounter.SENT_PKTS, 3);
                assertEquals(3L, server.getAttribute(device, "sent_pkts"));
                file.deviceSet(0).add(RxeCounter.SENT_PKTS, 2);
                file.deviceSet(0).add(RxeCounter.RCVD_PKTS, 4);
                now += 10 * MS;
                final AttributeList both = server.getAttributes(device, new String[]{"sent_pkts", "rcvd_pkts"});
                assertEquals(List.of(new Attribute("sent_pkts", 3L), new Attribute("rcvd_pkts", 0L)), both.asList(),
                    "one snapshot, still within its lifespan");
                now += 1;
                assertEquals(5L, server.getAttribute(device, "sent_pkts"), "values follow the counters");
                assertEquals(4L, server.getAttribute(device, "rcvd_pkts"));

                server.setAttribute(device, new Attribute("lifespan", 0L));
                file.deviceSet(0).add(RxeCounter.SENT_PKTS, 1);
                now += 1;
                assertEquals(6L, server.getAttribute(device, "sent_pkts"));
                assertThrows(AttributeNotFoundException.class,
                    () -> server.setAttribute(device, new Attribute("sent_pkts", 0L)), "counters are read-only");
                assertThrows(AttributeNotFoundException.class, () -> server.getAttribute(device, "no_such"));
                assertEquals(0, beans.qpCount());
            }
            assertFalse(server.isRegistered(device), "unregistered on close");
        }
    }

    @Test
    void shouldFollowQpsAsTheyComeAndGo() throws Exception
    {
        try (CountersFile file = counters("jmx1"))
        {
            final CounterSet qp17 = file.allocateQp(17, QP_RC, file.deviceSet(0));
            final ObjectName name17 = RxeMBeans.qpObjectName("jmx1", 17);
            final ObjectName name18 = RxeMBeans.qpObjectName("jmx1", 18);
            final RxeMBeans beans = new RxeMBeans(server, new CountersFileReader(file.buffer()), () -> now);
            try
            {
                assertEquals("io.jrxe:type=QueuePair,device=jmx1,qpn=17", name17.toString());
                assertTrue(server.isRegistered(name17), "a QP live at registration");
                qp17.add(RxeCounter.RDMA_SENDS, 2);
                assertEquals(2L, server.getAttribute(name17, "rdma_sends"));
                assertEquals("rc", server.getAttribute(name17, "qp_type"));
                assertEquals(17, server.getAttribute(name17, "qpn"));

                file.freeQp(qp17);
                final CounterSet qp18 = file.allocateQp(18, QP_RC, file.deviceSet(0));
                qp18.add(RxeCounter.RDMA_SENDS, 9);
                beans.refresh();
                assertFalse(server.isRegistered(name17), "a destroyed QP's MBean goes");
                assertTrue(server.isRegistered(name18), "a new QP's MBean comes");
                assertEquals(9L, server.getAttribute(name18, "rdma_sends"));
                assertEquals(1, beans.qpCount());
            }
            finally
            {
                beans.close();
            }
            assertFalse(server.isRegistered(name18));
            assertTrue(server.queryNames(new ObjectName("io.jrxe:device=jmx1,*"), null).isEmpty());
        }
    }

    @Test
    void shouldRegisterNewQpsOnItsOwnWhenStarted() throws Exception
    {
        try (CountersFile file = counters("jmx2");
            RxeMBeans beans = new RxeMBeans(server, new CountersFileReader(file.buffer()), () -> now).start(1))
        {
            file.allocateQp(40, QP_RC, file.deviceSet(0));
            final ObjectName name = RxeMBeans.qpObjectName("jmx2", 40);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!server.isRegistered(name))
            {
                assertTrue(System.nanoTime() - deadline < 0, "the refresher did not register QP 40 in 10 s");
                Thread.yield();
            }
            assertEquals(1, beans.qpCount());
        }
    }

    @Test
    void shouldRefuseASecondDeviceOfTheSameName()
    {
        try (CountersFile file = counters("jmx3");
            RxeMBeans beans = new RxeMBeans(server, new CountersFileReader(file.buffer()), () -> now))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> new RxeMBeans(server, new CountersFileReader(file.buffer()), () -> now));
            assertTrue(ex.getMessage().contains("already registered"), ex.getMessage());
            assertTrue(server.isRegistered(RxeMBeans.deviceObjectName("jmx3")), "the first stays");
        }
    }
}
