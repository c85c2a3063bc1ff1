package io.jrxe.rxe.stats;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.util.List;

/**
 * Registers a device's {@link QpLatencyMXBean} and answers it from the QP latency file: each attribute read maps
 * the slots afresh, so the MBean needs no refresh thread and never touches the engine's histograms. {@link #close()}
 * unregisters it.
 */
public final class QpLatencyMBean implements QpLatencyMXBean, AutoCloseable
{
    private final MBeanServer server;
    private final QpLatencyReader reader;
    private final ObjectName name;
    private boolean registered;

    /**
     * @param server where to register, e.g. {@code ManagementFactory.getPlatformMBeanServer()}
     * @param reader the device's QP latency file
     * @param device the device name
     * @throws IllegalStateException if an MBean of a device with this name is already registered
     */
    public QpLatencyMBean(final MBeanServer server, final QpLatencyReader reader, final String device)
    {
        this.server = server;
        this.reader = reader;
        this.name = objectName(device);
        try
        {
            server.registerMBean(this, name);
            registered = true;
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException("cannot register " + name + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @param device a device name
     * @return the ObjectName of its QP latency MBean
     */
    public static ObjectName objectName(final String device)
    {
        try
        {
            return new ObjectName(RxeMBeans.DOMAIN + ":type=QpLatency,name=" + device);
        }
        catch (final MalformedObjectNameException ex)
        {
            throw new IllegalArgumentException("not a JMX ObjectName for device " + device, ex);
        }
    }

    @Override
    public synchronized QpLatencyRow[] getQps()
    {
        final List<QpLatencySnapshot> all = reader.readAll();
        final QpLatencyRow[] rows = new QpLatencyRow[all.size()];
        for (int i = 0; i < rows.length; i++)
        {
            rows[i] = QpLatencyRow.of(all.get(i));
        }
        return rows;
    }

    @Override
    public long getQpsWithoutSlot()
    {
        return reader.qpsWithoutSlot();
    }

    /** Unregisters the MBean. */
    @Override
    public synchronized void close()
    {
        if (registered)
        {
            registered = false;
            try
            {
                server.unregisterMBean(name);
            }
            catch (final JMException ex)
            {
                // already gone (someone else unregistered it): nothing left to do
            }
        }
    }
}
