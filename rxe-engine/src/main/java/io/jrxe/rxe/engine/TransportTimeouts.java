package io.jrxe.rxe.engine;

/**
 * The local ACK timeout encoding of the QP attribute (the RNR timer table is {@code Aeth.rnrTimerMicros}).
 */
public final class TransportTimeouts
{
    private TransportTimeouts()
    {
    }

    /**
     * Local ACK timeout: 4.096 µs × 2^timeout (IBA Vol 1 ch. 9 "Local ACK Timeout"; rxe qp_timeout_jiffies).
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
}
