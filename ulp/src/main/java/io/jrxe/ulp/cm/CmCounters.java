package io.jrxe.ulp.cm;

import io.jrxe.ulp.cm.mad.CmAttributes;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The CM's counters, shaped like the kernel's {@code infiniband_cm} sysfs groups
 * ({@code /sys/class/infiniband/DEV/ports/1/cm_tx_msgs/req} ...): four groups of eleven message types, plus the
 * reasons jrxe drops a MAD (one counted reason per drop, as the engine's receiver counts packets). Written by the
 * CM thread, read by anyone ({@code jrxe stat}, tests).
 * <pre>
 *   group \ type      req mra rej rep rtu dreq drep sidr_req sidr_rep lap apr
 *   cm_tx_msgs         .   .   .   .   .   .    .     .        .     .   .
 *   cm_tx_retries      .                       (retransmissions after a timeout)
 *   cm_rx_msgs         .
 *   cm_rx_duplicates   .                       (a retransmission of a message already handled)
 * </pre>
 */
public final class CmCounters
{
    /** Counter groups, in the kernel's names and order. */
    public enum Group
    {
        /** MADs sent, retransmissions included. */
        CM_TX_MSGS("cm_tx_msgs"),
        /** Retransmissions. */
        CM_TX_RETRIES("cm_tx_retries"),
        /** MADs received and accepted for processing. */
        CM_RX_MSGS("cm_rx_msgs"),
        /** Duplicates received. */
        CM_RX_DUPLICATES("cm_rx_duplicates");

        private final String sysfsName;

        Group(final String sysfsName)
        {
            this.sysfsName = sysfsName;
        }

        /**
         * @return the sysfs directory name
         */
        public String sysfsName()
        {
            return sysfsName;
        }
    }

    /** Why a received MAD was dropped; stable order (IDs are the ordinals). */
    public enum Drop
    {
        /** Shorter than a MAD. */
        SHORT("cm_rx_drop_short"),
        /** Base version not 1, or class version not 2 (a Send cannot be answered; a Get is, with a status). */
        BAD_VERSION("cm_rx_drop_bad_version"),
        /** A method or attribute the CM class does not have. */
        UNKNOWN_ATTRIBUTE("cm_rx_drop_unknown_attribute"),
        /** Names a comm ID (or SIDR request) that does not exist. */
        UNKNOWN_COMM_ID("cm_rx_drop_unknown_comm_id"),
        /** Does not fit the connection's state. */
        BAD_STATE("cm_rx_drop_bad_state"),
        /** A DREQ naming a QPN that is not the connection's. */
        BAD_QPN("cm_rx_drop_bad_qpn"),
        /** A REQ or SIDR_REQ whose fields cannot be used (answered with REJ / SIDR_REP where one is due). */
        INVALID("cm_rx_drop_invalid"),
        /** A receive completed in error: a datagram longer than a MAD (LOC_LEN_ERR); its buffer is posted again. */
        RECV_ERROR("cm_rx_drop_recv_error");

        private final String counterName;

        Drop(final String counterName)
        {
            this.counterName = counterName;
        }

        /**
         * @return the counter's name
         */
        public String counterName()
        {
            return counterName;
        }
    }

    /** Message types in the kernel's order (sysfs file names). */
    private static final String[] TYPE_NAMES =
        {"req", "mra", "rej", "rep", "rtu", "dreq", "drep", "sidr_req", "sidr_rep", "lap", "apr"};
    /** Number of message types per group. */
    public static final int TYPES = TYPE_NAMES.length;

    /** Counters in all: the groups' types, then the drop reasons; their order is the stable ID. */
    public static final int COUNT = Group.values().length * TYPES + Drop.values().length;

    private final AtomicBuffer values;

    /** Counters in memory of their own. */
    public CmCounters()
    {
        this(new UnsafeBuffer(new byte[COUNT * BitUtil.SIZE_OF_LONG]));
    }

    /**
     * Counters over given memory (a mapped file, for {@code jrxe stat} in another process).
     *
     * @param values {@link #COUNT} longs, 8-byte aligned
     */
    public CmCounters(final AtomicBuffer values)
    {
        this.values = values;
    }

    /**
     * @param id a counter's stable ID (0..COUNT-1)
     * @return its name: {@code cm_tx_msgs/req} ... then the drop reasons
     */
    public static String name(final int id)
    {
        final int groups = Group.values().length * TYPES;
        return id < groups ? Group.values()[id / TYPES].sysfsName() + '/' + TYPE_NAMES[id % TYPES] :
            Drop.values()[id - groups].counterName();
    }

    /**
     * @param id a counter's stable ID
     * @return its value
     */
    public long value(final int id)
    {
        return values.getLongVolatile(id * BitUtil.SIZE_OF_LONG);
    }

    private void add(final int id)
    {
        // one writer, the CM thread: an ordered store is enough for readers in other threads and processes
        final int offset = id * BitUtil.SIZE_OF_LONG;
        values.putLongOrdered(offset, values.getLong(offset) + 1);
    }

    /**
     * @param attributeId a CM attribute ID
     * @return its type index (0..10), or -1 for ClassPortInfo and unknown IDs
     */
    public static int typeIndex(final int attributeId)
    {
        return attributeId >= CmAttributes.REQ && attributeId <= CmAttributes.APR ?
            attributeId - CmAttributes.REQ : -1;
    }

    /**
     * @param index a type index
     * @return its sysfs file name
     */
    public static String typeName(final int index)
    {
        return TYPE_NAMES[index];
    }

    void increment(final Group group, final int attributeId)
    {
        final int type = typeIndex(attributeId);
        if (type >= 0)
        {
            add(group.ordinal() * TYPES + type);
        }
    }

    void drop(final Drop reason)
    {
        add(Group.values().length * TYPES + reason.ordinal());
    }

    /**
     * @param group the group
     * @param attributeId the message's attribute ID
     * @return the count
     */
    public long get(final Group group, final int attributeId)
    {
        final int type = typeIndex(attributeId);
        return type < 0 ? 0 : value(group.ordinal() * TYPES + type);
    }

    /**
     * @param group the group
     * @return the sum over every message type
     */
    public long total(final Group group)
    {
        long sum = 0;
        for (int i = 0; i < TYPES; i++)
        {
            sum += value(group.ordinal() * TYPES + i);
        }
        return sum;
    }

    /**
     * @param reason the reason
     * @return MADs dropped for it
     */
    public long get(final Drop reason)
    {
        return value(Group.values().length * TYPES + reason.ordinal());
    }

    /**
     * Appends {@code group/type value} lines ({@code cm_tx_msgs/req 3}), then the drops.
     *
     * @param sb destination
     * @param nonZeroOnly skip zero counters
     * @return sb
     */
    public StringBuilder appendTo(final StringBuilder sb, final boolean nonZeroOnly)
    {
        for (int id = 0; id < COUNT; id++)
        {
            final long value = value(id);
            if (!nonZeroOnly || 0 != value)
            {
                sb.append(name(id)).append(' ').append(value).append('\n');
            }
        }
        return sb;
    }
}
