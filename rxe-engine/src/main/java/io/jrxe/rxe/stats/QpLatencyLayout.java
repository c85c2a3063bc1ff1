package io.jrxe.rxe.stats;

/**
 * Layout of a QP latency file ({@code <device>.qplat}, beside the counters file), written by {@link QpLatencyFile}
 * on the engine thread and read by {@link QpLatencyReader} in any process. All fields are little-endian (Agrona's
 * native order on x86/arm64); the histogram bytes are HdrHistogram's (uncompressed) encoding, which carries its own
 * byte order.
 * <pre>
 *  header (HEADER_LENGTH = 128 bytes)
 *   0 magic "JRXEQLAT" (long)        8 layout version (int)     12 state: 1 active, 2 closed (int)
 *  16 pid (long)                    24 slot count (int)        28 slot length (int)
 *  32 highest trackable ns (long)   40 significant digits (int) 44 histogram capacity (bytes per histogram, int)
 *  48 QPs without a slot (long)     56 publishes skipped, encoding larger than the capacity (long)
 *  64 publish interval ns (long)    72 .. 127 reserved
 *
 *  slot i at HEADER_LENGTH + i * slot length
 *   0 sequence (long): odd while the writer changes the slot, even when it is whole (a seqlock)
 *   8 state: 0 free, 1 claimed, 2 in use (int)    12 qpn (int)     16 QP type, Opcode.QP_* (int)
 *  20 completion encoding length (int)           24 round-trip encoding length (int)    28 reserved (int)
 *  32 clamped completions (long)                 40 clamped round trips (long)
 *  48 publications (long)                        56 reserved (long)
 *  64 completion histogram encoding  [histogram capacity bytes]
 *  64 + capacity: round-trip histogram encoding [histogram capacity bytes]
 * </pre>
 * A reader reads the sequence, copies the slot, and reads the sequence again: the copy is whole only if both reads
 * gave the same even value ({@link QpLatencyReader}).
 */
public final class QpLatencyLayout
{
    /** "JRXEQLAT" as a long. */
    public static final long MAGIC = 0x5441_4c51_4558_524aL;
    /** Version of this layout; a reader refuses others. */
    public static final int VERSION = 1;
    public static final int STATE_ACTIVE = 1;
    public static final int STATE_CLOSED = 2;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int STATE_OFFSET = 12;
    public static final int PID_OFFSET = 16;
    public static final int SLOT_COUNT_OFFSET = 24;
    public static final int SLOT_LENGTH_OFFSET = 28;
    public static final int HIGHEST_NS_OFFSET = 32;
    public static final int DIGITS_OFFSET = 40;
    public static final int CAPACITY_OFFSET = 44;
    public static final int NO_SLOT_OFFSET = 48;
    public static final int OVERSIZED_OFFSET = 56;
    public static final int INTERVAL_OFFSET = 64;
    public static final int HEADER_LENGTH = 128;

    public static final int SLOT_FREE = 0;
    public static final int SLOT_CLAIMED = 1;
    public static final int SLOT_IN_USE = 2;

    public static final int SEQUENCE_OFFSET = 0;
    public static final int SLOT_STATE_OFFSET = 8;
    public static final int QPN_OFFSET = 12;
    public static final int QP_TYPE_OFFSET = 16;
    public static final int COMPLETION_LENGTH_OFFSET = 20;
    public static final int ROUND_TRIP_LENGTH_OFFSET = 24;
    public static final int CLAMPED_COMPLETIONS_OFFSET = 32;
    public static final int CLAMPED_ROUND_TRIPS_OFFSET = 40;
    public static final int PUBLICATIONS_OFFSET = 48;
    public static final int SLOT_HEADER_LENGTH = 64;

    private QpLatencyLayout()
    {
    }

    /**
     * @param histogramCapacity bytes for each of the two encodings
     * @return the length of a slot, a multiple of 64
     */
    public static int slotLength(final int histogramCapacity)
    {
        return (SLOT_HEADER_LENGTH + 2 * histogramCapacity + 63) & ~63;
    }

    /**
     * @param slot a slot index
     * @param slotLength the slot length
     * @return the offset of that slot in the file
     */
    public static long slotOffset(final int slot, final int slotLength)
    {
        return HEADER_LENGTH + (long)slot * slotLength;
    }
}
