package io.jrxe.ulp.netdev;

/**
 * A netdev's counters, named after the kernel's {@code struct rtnl_link_stats64} where one fits. Written by the
 * netdev's owner thread only.
 */
public final class NetdevStats
{
    long rxPackets;
    long rxBytes;
    long rxErrors;
    long rxLengthErrors;
    long rxRepostErrors;
    long txPackets;
    long txBytes;
    long txErrors;
    long txDropped;
    long txBusy;

    /** @return packets handed to the receiver ({@code rx_packets}) */
    public long rxPackets()
    {
        return rxPackets;
    }

    /** @return their bytes, from the network header on ({@code rx_bytes}) */
    public long rxBytes()
    {
        return rxBytes;
    }

    /** @return receives that completed in error ({@code rx_errors}) */
    public long rxErrors()
    {
        return rxErrors;
    }

    /** @return receives too short for the encapsulation header ({@code rx_length_errors}) */
    public long rxLengthErrors()
    {
        return rxLengthErrors;
    }

    /** @return receive slots that could not be posted again */
    public long rxRepostErrors()
    {
        return rxRepostErrors;
    }

    /** @return packets sent ({@code tx_packets}) */
    public long txPackets()
    {
        return txPackets;
    }

    /** @return their bytes ({@code tx_bytes}) */
    public long txBytes()
    {
        return txBytes;
    }

    /** @return sends refused by the QP or completed in error ({@code tx_errors}) */
    public long txErrors()
    {
        return txErrors;
    }

    /** @return packets refused for exceeding the MTU ({@code tx_dropped}) */
    public long txDropped()
    {
        return txDropped;
    }

    /** @return sends refused with EAGAIN because every transmit slot was in flight (NETDEV_TX_BUSY) */
    public long txBusy()
    {
        return txBusy;
    }

    @Override
    public String toString()
    {
        return "rx_packets=" + rxPackets + " rx_bytes=" + rxBytes + " rx_errors=" + rxErrors + " rx_length_errors=" +
            rxLengthErrors + " tx_packets=" + txPackets + " tx_bytes=" + txBytes + " tx_errors=" + txErrors +
            " tx_dropped=" + txDropped + " tx_busy=" + txBusy;
    }
}
