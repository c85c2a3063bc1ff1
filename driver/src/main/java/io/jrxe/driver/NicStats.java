package io.jrxe.driver;

/**
 * Per-device packet counters, written only by the thread that runs the device's rx/tx loop. Other threads may
 * read them for display (the values are plain longs; a torn read shows a stale count, never a wrong one).
 */
public final class NicStats
{
    public long rxPackets;
    public long rxBytes;
    public long txPackets;
    public long txBytes;
    /** Frames the device or driver dropped on receive (e.g. no rx buffer, device error). */
    public long rxDropped;
    /** Frames a txBatch could not take because the tx ring was full (the caller keeps them; NetStack retries). */
    public long txRingFull;
    /**
     * Interrupts that woke the thread driving the queue pair (its MSI-X vector's messages while it slept,
     * {@link NicDevice#wakeOnInterrupt(int, io.jrxe.driver.wake.Wakeup)}); the device's interrupt path counts them
     * and the driver copies the count in when the stats are read.
     */
    public long interrupts;

    public void reset()
    {
        rxPackets = 0;
        rxBytes = 0;
        txPackets = 0;
        txBytes = 0;
        rxDropped = 0;
        txRingFull = 0;
        interrupts = 0;
    }

    @Override
    public String toString()
    {
        return "rx_packets=" + rxPackets + " rx_bytes=" + rxBytes + " tx_packets=" + txPackets +
            " tx_bytes=" + txBytes + " rx_dropped=" + rxDropped + " tx_ring_full=" + txRingFull +
            " interrupts=" + interrupts;
    }
}
