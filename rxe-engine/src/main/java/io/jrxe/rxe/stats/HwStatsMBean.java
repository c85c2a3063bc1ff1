package io.jrxe.rxe.stats;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InvalidAttributeValueException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.ReflectionException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One {@link RdmaHwStats} (a device's port or one QP) as a JMX MBean: a read-only {@code long} attribute per counter,
 * named as the counter ({@code sent_pkts}, {@code rcvd_pkts} ...), the {@code lifespan} in ms (writable, as a driver
 * may set it) and fixed descriptive attributes ({@code device}, {@code qpn} ...). Reading several attributes at once
 * ({@code getAttributes}, what jconsole does) serves them from one snapshot. Called from JMX threads, never the
 * engine's: the stats are read under this MBean's lock.
 */
final class HwStatsMBean implements DynamicMBean
{
    static final String LIFESPAN = "lifespan";

    private final RdmaHwStats stats;
    private final Map<String, Object> fixed;
    private final MBeanInfo info;

    /**
     * @param stats       the counters
     * @param description what the MBean is
     * @param fixed       descriptive attributes (String or Integer values), in display order
     */
    HwStatsMBean(final RdmaHwStats stats, final String description, final Map<String, Object> fixed)
    {
        this.stats = stats;
        this.fixed = new LinkedHashMap<>(fixed);
        final MBeanAttributeInfo[] attributes = new MBeanAttributeInfo[fixed.size() + 1 + stats.numCounters()];
        int n = 0;
        for (final Map.Entry<String, Object> e : this.fixed.entrySet())
        {
            attributes[n++] = new MBeanAttributeInfo(e.getKey(), e.getValue().getClass().getName(), e.getKey(),
                true, false, false);
        }
        attributes[n++] = new MBeanAttributeInfo(LIFESPAN, "long",
            "ms a snapshot of the counters is served before they are read again (rdma_hw_stats lifespan)",
            true, true, false);
        for (int i = 0; i < stats.numCounters(); i++)
        {
            final String name = stats.name(i);
            final String text = isRxeName(i, name) ? RxeCounter.byId(i).description() : name;
            attributes[n++] = new MBeanAttributeInfo(name, "long", text, true, false, false);
        }
        this.info = new MBeanInfo(HwStatsMBean.class.getName(), description, attributes, null,
            new MBeanOperationInfo[0], null);
    }

    private static boolean isRxeName(final int index, final String name)
    {
        return index < RxeCounter.count() && RxeCounter.byId(index).label().equals(name);
    }

    @Override
    public synchronized Object getAttribute(final String attribute) throws AttributeNotFoundException
    {
        final Object fixedValue = fixed.get(attribute);
        if (null != fixedValue)
        {
            return fixedValue;
        }
        if (LIFESPAN.equals(attribute))
        {
            return stats.lifespan();
        }
        final int index = stats.indexOf(attribute);
        if (index < 0)
        {
            throw new AttributeNotFoundException("no counter " + attribute);
        }
        return stats.value(index);
    }

    @Override
    public synchronized void setAttribute(final Attribute attribute)
        throws AttributeNotFoundException, InvalidAttributeValueException
    {
        if (!LIFESPAN.equals(attribute.getName()))
        {
            throw new AttributeNotFoundException(attribute.getName() + " is read-only or unknown; only " + LIFESPAN +
                " can be set");
        }
        if (!(attribute.getValue() instanceof Long) || (Long)attribute.getValue() < 0)
        {
            throw new InvalidAttributeValueException(LIFESPAN + " is a long of ms, at least 0: " +
                attribute.getValue());
        }
        stats.lifespan((Long)attribute.getValue());
    }

    @Override
    public synchronized AttributeList getAttributes(final String[] attributes)
    {
        final AttributeList list = new AttributeList();
        stats.update();
        for (final String name : attributes)
        {
            try
            {
                list.add(new Attribute(name, getAttribute(name)));
            }
            catch (final AttributeNotFoundException ex)
            {
                // DynamicMBean contract: attributes that cannot be read are left out of the list
            }
        }
        return list;
    }

    @Override
    public synchronized AttributeList setAttributes(final AttributeList attributes)
    {
        final AttributeList set = new AttributeList();
        for (final Attribute attribute : attributes.asList())
        {
            try
            {
                setAttribute(attribute);
                set.add(attribute);
            }
            catch (final AttributeNotFoundException | InvalidAttributeValueException ex)
            {
                // left out of the result, as the contract says
            }
        }
        return set;
    }

    @Override
    public Object invoke(final String actionName, final Object[] params, final String[] signature)
        throws ReflectionException
    {
        throw new ReflectionException(new NoSuchMethodException(actionName), "no operations on hw_stats MBeans");
    }

    @Override
    public MBeanInfo getMBeanInfo()
    {
        return info;
    }
}
