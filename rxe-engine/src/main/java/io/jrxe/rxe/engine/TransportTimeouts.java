package io.jrxe.rxe.engine;

/**
 * Conversions from the 5-bit encodings of the QP attributes to nanoseconds.
 */
public final class TransportTimeouts
{
    /**
     * RNR NAK timer field values in microseconds, index = 5-bit code (IBA Vol 1 Table 45 "Encoding for RNR NAK
     * Timer Field"). Code 0 is the longest (655.36 ms). Code 25 is 61.44 ms as the spec says; rxe's table has the
     * typo 61410 µs.
     */
    private static final int[] RNR_TIMER_MICROS =
    {
        655_360, 10, 20, 30, 40, 60, 80, 120,
        160, 240, 320, 480, 640, 960, 1_280, 1_920,
        2_560, 3_840, 5_120, 7_680, 10_240, 15_360, 20_480, 30_720,
        40_960, 61_440, 81_920, 122_880, 163_840, 245_760, 327_680, 491_520,
    };

    private TransportTimeouts()
    {
    }

    /**
     * Local ACK timeout: 4.096 µs × 2^timeout (IBA 9.7.6.1.3, C9-141 "Local Ack Timeout").
     *
     * @param timeout the QP attribute, 0..31; 0 means the timer is disabled (infinite)
     * @return nanoseconds, or 0 when the timer is disabled
     */
    public static long localAckTimeoutNs(final int timeout)
    {
        if (0 == timeout)
        {
            return 0;
        }
        return 4096L << (timeout & 31);
    }

    /**
     * @param code 5-bit RNR timer code from an RNR NAK's AETH syndrome (or min_rnr_timer)
     * @return nanoseconds to wait before retrying
     */
    public static long rnrTimerNs(final int code)
    {
        return RNR_TIMER_MICROS[code & 31] * 1000L;
    }
}
