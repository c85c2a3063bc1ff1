package io.jrxe.rxe.stats;

import io.jrxe.rxe.proto.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The QP latency MBean: a JMX client sees each QP's counts and percentiles as open data (what jconsole shows), an
 * MXBean proxy gets the same rows, QPs come and go without a refresh, and close unregisters it.
 */
class QpLatencyMBeanTest
{
    @TempDir
    Path dir;

    @Test
    void shouldShowEachQpsLatencyAsOpenDataAndUnregisterOnClose() throws Exception
    {
        final MBeanServer server = MBeanServerFactory.newMBeanServer();
        try (QpLatencyFile file = QpLatencyFile.create(new QpLatencyFile.Context().path(dir.resolve("m.qplat"))))
        {
            final QpLatency qp = file.allocate(21, Opcode.QP_RC);
            for (int i = 0; i < 100; i++)
            {
                qp.recordCompletion(i < 99 ? 2048 : 65536); // p50 and p99 2048 ns, max 64 us
                qp.recordRoundTrip(1024);
            }
            file.publish(qp);
            final ObjectName name = QpLatencyMBean.objectName("m");
            assertEquals("io.jrxe:type=QpLatency,name=m", name.toString());
            try (QpLatencyMBean bean = new QpLatencyMBean(server, new QpLatencyReader(file.buffer()), "m"))
            {
                final CompositeData[] rows = (CompositeData[])server.getAttribute(name, "Qps");
                assertEquals(1, rows.length);
                assertEquals(21, rows[0].get("qpn"));
                assertEquals("rc", rows[0].get("type"));
                assertEquals(100L, rows[0].get("wrCount"));
                assertTrue(qp.completion().valuesAreEquivalent(2048, (Long)rows[0].get("wrP50Ns")));
                assertTrue(qp.completion().valuesAreEquivalent(2048, (Long)rows[0].get("wrP99Ns")));
                assertTrue(qp.completion().valuesAreEquivalent(65536, (Long)rows[0].get("wrMaxNs")));
                assertEquals(100L, rows[0].get("rttCount"));
                assertTrue(qp.roundTrip().valuesAreEquivalent(1024, (Long)rows[0].get("rttP99Ns")));

                final QpLatencyMXBean proxy = JMX.newMXBeanProxy(server, name, QpLatencyMXBean.class);
                file.allocate(22, Opcode.QP_UD);
                assertEquals(2, proxy.getQps().length, "a new QP shows without a refresh");
                assertEquals(22, proxy.getQps()[1].getQpn());
                assertEquals(0, proxy.getQpsWithoutSlot());
                assertThrows(IllegalStateException.class,
                    () -> new QpLatencyMBean(server, new QpLatencyReader(file.buffer()), "m"), "one per device name");
            }
            assertFalse(server.isRegistered(name));
        }
    }
}
