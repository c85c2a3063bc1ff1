package io.jrxe.rxe.stats;

import org.agrona.BitUtil;

/**
 * Layout of a counters file, shared by the writer ({@link CountersFile}) and readers
 * ({@link CountersFileReader}), in the style of Aeron's CnC file. Fields are in native byte order (little-endian
 * on x86-64 and aarch64; reader and writer share the machine) and every section starts on a 64-byte cache line.
 * <pre>
 * Header (256 bytes)
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 magic "JRXECNT1" (8)                          |   0
 *  +-------------------------------+-------------------------------+
 *  |  layout version               |  state 0 init/1 active/2 closed   8
 *  +-------------------------------+-------------------------------+
 *  |                 pid of the writer (8)                         |  16
 *  +---------------------------------------------------------------+
 *  |                 start time, epoch ms (8)                      |  24
 *  +---------------------------------------------------------------+
 *  |                 heartbeat, epoch ms (8)                       |  32
 *  +-------------------------------+-------------------------------+
 *  |  counter slots N              |  device sets W                |  40
 *  +-------------------------------+-------------------------------+
 *  |  QP slots Q                   |  QP slot length               |  48
 *  +-------------------------------+-------------------------------+
 *  |  labels offset                |  device section offset        |  56
 *  +-------------------------------+-------------------------------+
 *  |  QP section offset            |  device name length           |  64
 *  +-------------------------------+-------------------------------+
 *  |                 QP slot allocation failures (8)               |  72
 *  +---------------------------------------------------------------+
 *  |                 device name, ASCII (up to 64)                 |  80
 *  +---------------------------------------------------------------+
 *
 * Labels: N x 64 bytes                   Device section: W sets       QP section: Q slots
 *  +--------+--------+--------------+    +-----------------------+    +---------------------------------+
 *  | id (4) | len (4)| ASCII (56)   |    | N x 8-byte values,    |    | slot header (64):               |
 *  +--------+--------+--------------+    | padded to 64          |    |  state 0 free/1 claimed/2 in use|
 *                                        +-----------------------+    |  qpn (4), generation (8),       |
 *                                                                     |  qp type (4)                    |
 *                                                                     | N x 8-byte values, padded to 64 |
 *                                                                     +---------------------------------+
 * </pre>
 * Each values block has exactly one writer thread (the engine agent that owns the device set or the QP), which
 * stores with release semantics; readers load with acquire (volatile) semantics.
 */
public final class CountersDescriptor
{
    /** "JRXECNT1" little-endian. */
    public static final long MAGIC = 0x31544E434558524AL;
    /** Version of this layout; a reader refuses other versions. */
    public static final int LAYOUT_VERSION = 1;

    /** Header length; the labels section follows. */
    public static final int HEADER_LENGTH = 256;
    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the layout version. */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the file state. */
    public static final int STATE_OFFSET = 12;
    /** Offset of the writer's pid. */
    public static final int PID_OFFSET = 16;
    /** Offset of the start time. */
    public static final int START_TIME_OFFSET = 24;
    /** Offset of the heartbeat. */
    public static final int HEARTBEAT_OFFSET = 32;
    /** Offset of the number of counter slots per values block. */
    public static final int COUNTER_SLOTS_OFFSET = 40;
    /** Offset of the number of device sets. */
    public static final int DEVICE_SETS_OFFSET = 44;
    /** Offset of the number of QP slots. */
    public static final int QP_SLOTS_OFFSET = 48;
    /** Offset of the QP slot length. */
    public static final int QP_SLOT_LENGTH_OFFSET = 52;
    /** Offset of the labels section offset. */
    public static final int LABELS_OFFSET_OFFSET = 56;
    /** Offset of the device section offset. */
    public static final int DEVICE_SECTION_OFFSET_OFFSET = 60;
    /** Offset of the QP section offset. */
    public static final int QP_SECTION_OFFSET_OFFSET = 64;
    /** Offset of the device name length. */
    public static final int DEVICE_NAME_LENGTH_OFFSET = 68;
    /** Offset of the count of failed QP slot allocations. */
    public static final int QP_ALLOC_FAILURES_OFFSET = 72;
    /** Offset of the device name. */
    public static final int DEVICE_NAME_OFFSET = 80;
    /** Longest device name. */
    public static final int MAX_DEVICE_NAME_LENGTH = 64;

    /** File state: being initialised. */
    public static final int STATE_INIT = 0;
    /** File state: the writer is running. */
    public static final int STATE_ACTIVE = 1;
    /** File state: the writer closed it. */
    public static final int STATE_CLOSED = 2;

    /** Length of one label record. */
    public static final int LABEL_RECORD_LENGTH = 64;
    /** Longest label. */
    public static final int MAX_LABEL_LENGTH = LABEL_RECORD_LENGTH - 8;

    /** Length of a QP slot's header. */
    public static final int QP_SLOT_HEADER_LENGTH = 64;
    /** Offset of the slot state in a QP slot. */
    public static final int QP_STATE_OFFSET = 0;
    /** Offset of the QPN in a QP slot. */
    public static final int QP_QPN_OFFSET = 4;
    /** Offset of the allocation generation in a QP slot. */
    public static final int QP_GENERATION_OFFSET = 8;
    /** Offset of the QP type in a QP slot. */
    public static final int QP_TYPE_OFFSET = 16;

    /** QP slot state: free. */
    public static final int QP_FREE = 0;
    /** QP slot state: claimed, being initialised. */
    public static final int QP_CLAIMED = 1;
    /** QP slot state: in use by a QP. */
    public static final int QP_IN_USE = 2;

    /** Size of one counter value. */
    public static final int VALUE_LENGTH = 8;

    private CountersDescriptor()
    {
    }

    /**
     * @param counterSlots counters per values block
     * @return bytes of one values block, a multiple of the cache line
     */
    public static int valuesLength(final int counterSlots)
    {
        return BitUtil.align(counterSlots * VALUE_LENGTH, BitUtil.CACHE_LINE_LENGTH);
    }

    /**
     * @param counterSlots counters per values block
     * @return bytes of one QP slot
     */
    public static int qpSlotLength(final int counterSlots)
    {
        return QP_SLOT_HEADER_LENGTH + valuesLength(counterSlots);
    }

    /**
     * @param counterSlots counters per values block
     * @return offset of the device section
     */
    public static int deviceSectionOffset(final int counterSlots)
    {
        return HEADER_LENGTH + counterSlots * LABEL_RECORD_LENGTH;
    }

    /**
     * @param counterSlots counters per values block
     * @param deviceSets   device sets
     * @return offset of the QP section
     */
    public static int qpSectionOffset(final int counterSlots, final int deviceSets)
    {
        return deviceSectionOffset(counterSlots) + deviceSets * valuesLength(counterSlots);
    }

    /**
     * @param counterSlots counters per values block
     * @param deviceSets   device sets
     * @param qpSlots      QP slots
     * @return total file length
     */
    public static long fileLength(final int counterSlots, final int deviceSets, final int qpSlots)
    {
        return qpSectionOffset(counterSlots, deviceSets) + (long)qpSlots * qpSlotLength(counterSlots);
    }
}
