package io.jrxe.rxe.stats;

import org.agrona.concurrent.NanoClock;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A device's counters as JMX MBeans, for jconsole or any JMX client of the process: the port's hw_stats (the device
 * totals) as {@code io.jrxe:type=RxeDevice,name=<device>} and each live QP's as
 * {@code io.jrxe:type=QueuePair,device=<device>,qpn=<qpn>}, attributes named as the counters (see
 * {@link HwStatsMBean}). The MBeans read the counters file as {@code jrxe stat} does; nothing runs on the engine's
 * thread. QPs come and go on the engine's thread, so their MBeans follow on {@link #refresh()}, which
 * {@link #start(long)} runs periodically on a daemon thread of its own. {@link #close()} unregisters everything.
 */
public final class RxeMBeans implements AutoCloseable
{
    /** The ObjectName domain. */
    public static final String DOMAIN = "io.jrxe";

    private final MBeanServer server;
    private final CountersFileReader reader;
    private final String device;
    private final NanoClock clock;
    private final ObjectName deviceName;
    private final Map<Integer, QpBean> qps = new HashMap<>();
    private ScheduledExecutorService refresher;
    private boolean closed;
    private long refreshFailures;

    private static final class QpBean
    {
        final long generation;
        final ObjectName name;

        QpBean(final long generation, final ObjectName name)
        {
            this.generation = generation;
            this.name = name;
        }
    }

    /**
     * Registers the device MBean and those of the QPs live now.
     *
     * @param server where to register, e.g. {@code ManagementFactory.getPlatformMBeanServer()}
     * @param reader the device's counters file
     * @param clock  time source of the hw_stats lifespan
     * @throws IllegalStateException if MBeans of a device with this name are already registered
     */
    public RxeMBeans(final MBeanServer server, final CountersFileReader reader, final NanoClock clock)
    {
        this.server = server;
        this.reader = reader;
        this.device = reader.deviceName();
        this.clock = clock;
        this.deviceName = deviceObjectName(device);
        final Map<String, Object> fixed = new LinkedHashMap<>();
        fixed.put("device", device);
        fixed.put("port", 1);
        register(new HwStatsMBean(RdmaHwStats.forPort(reader, 1, clock), "hw_stats of " + device + " port 1",
            fixed), deviceName);
        try
        {
            refresh();
        }
        catch (final RuntimeException ex)
        {
            close(); // no MBean of this device stays registered
            throw ex;
        }
    }

    /**
     * @param device a device name
     * @return the ObjectName of its device MBean
     */
    public static ObjectName deviceObjectName(final String device)
    {
        return objectName(DOMAIN + ":type=RxeDevice,name=" + device);
    }

    /**
     * @param device a device name
     * @param qpn    a QP number
     * @return the ObjectName of that QP's MBean
     */
    public static ObjectName qpObjectName(final String device, final int qpn)
    {
        return objectName(DOMAIN + ":type=QueuePair,device=" + device + ",qpn=" + qpn);
    }

    private static ObjectName objectName(final String name)
    {
        try
        {
            return new ObjectName(name);
        }
        catch (final MalformedObjectNameException ex)
        {
            throw new IllegalArgumentException("not a JMX ObjectName: " + name, ex);
        }
    }

    /**
     * Refreshes the QP MBeans every {@code periodMs} on a daemon thread until {@link #close()}.
     *
     * @param periodMs time between refreshes
     * @return this
     */
    public synchronized RxeMBeans start(final long periodMs)
    {
        if (null == refresher && !closed)
        {
            refresher = Executors.newSingleThreadScheduledExecutor(task ->
            {
                final Thread thread = new Thread(task, "jrxe-jmx-" + device);
                thread.setDaemon(true);
                return thread;
            });
            refresher.scheduleWithFixedDelay(this::refreshQuietly, periodMs, periodMs, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /**
     * Registers an MBean for each QP that got counters since the last refresh and unregisters those of QPs that
     * are gone.
     */
    public synchronized void refresh()
    {
        if (closed)
        {
            return;
        }
        final Iterator<Map.Entry<Integer, QpBean>> it = qps.entrySet().iterator();
        while (it.hasNext())
        {
            final Map.Entry<Integer, QpBean> e = it.next();
            final int slot = e.getKey();
            if (!reader.isQpInUse(slot) || reader.qpGeneration(slot) != e.getValue().generation)
            {
                unregister(e.getValue().name);
                it.remove();
            }
        }
        for (int slot = 0; slot < reader.qpSlots(); slot++)
        {
            if (reader.isQpInUse(slot) && !qps.containsKey(slot))
            {
                registerQp(slot);
            }
        }
    }

    // an exception would cancel the schedule for good: count it and try again next period
    private void refreshQuietly()
    {
        try
        {
            refresh();
        }
        catch (final RuntimeException ex)
        {
            refreshFailures++;
        }
    }

    /**
     * @return refreshes on the refresher thread that failed (and were retried the next period)
     */
    public synchronized long refreshFailures()
    {
        return refreshFailures;
    }

    private void registerQp(final int slot)
    {
        final long generation = reader.qpGeneration(slot);
        final int qpn = reader.qpn(slot);
        final String type = RxeStat.qpTypeName(reader.qpType(slot));
        final RdmaHwStats stats = RdmaHwStats.forQpSlot(reader, slot, clock);
        if (!reader.isQpInUse(slot) || reader.qpGeneration(slot) != generation)
        {
            return; // the slot changed hands while being read: the next refresh sees the new QP
        }
        final Map<String, Object> fixed = new LinkedHashMap<>();
        fixed.put("device", device);
        fixed.put("qpn", qpn);
        fixed.put("qp_type", type);
        final ObjectName name = qpObjectName(device, qpn);
        // a QPN reused (QPN 1 always is) before the old QP's slot was freed: the newer QP takes the name
        final Iterator<Map.Entry<Integer, QpBean>> stale = qps.entrySet().iterator();
        while (stale.hasNext())
        {
            if (stale.next().getValue().name.equals(name))
            {
                unregister(name);
                stale.remove();
            }
        }
        register(new HwStatsMBean(stats, "hw_stats of QP " + qpn + " of " + device, fixed), name);
        qps.put(slot, new QpBean(generation, name));
    }

    /**
     * @return how many QP MBeans are registered
     */
    public synchronized int qpCount()
    {
        return qps.size();
    }

    /**
     * Stops the refresher and unregisters every MBean.
     */
    @Override
    public void close()
    {
        final ScheduledExecutorService stopping;
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            stopping = refresher;
            for (final QpBean qp : qps.values())
            {
                unregister(qp.name);
            }
            qps.clear();
            unregister(deviceName);
        }
        if (null != stopping)
        {
            stopping.shutdownNow();
        }
    }

    private void register(final HwStatsMBean bean, final ObjectName name)
    {
        try
        {
            server.registerMBean(bean, name);
        }
        catch (final InstanceAlreadyExistsException ex)
        {
            throw new IllegalStateException("JMX MBean " + name + " is already registered: another jrxe device " +
                "with the name " + device + " runs in this JVM", ex);
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException("cannot register JMX MBean " + name + ": " + ex.getMessage(), ex);
        }
    }

    private void unregister(final ObjectName name)
    {
        try
        {
            server.unregisterMBean(name);
        }
        catch (final InstanceNotFoundException ex)
        {
            // someone else unregistered it: nothing left to do
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException("cannot unregister JMX MBean " + name + ": " + ex.getMessage(), ex);
        }
    }
}
