package io.jrxe.driver.emu;

import org.agrona.DirectBuffer;

/**
 * A test hook on the emulated wire: drops chosen frames (the third request, every ACK, everything while a peer is
 * "gone") so a test can drive one protocol path exactly, on top of or instead of the random {@link WireFaults}.
 * Called on the source port's thread for each frame offered to each directed link, before the random faults
 * are applied; the random draws happen either way, so a filter does not shift the seeded fault sequence.
 */
@FunctionalInterface
public interface WireFilter
{
    /**
     * @param source      port that sent the frame
     * @param destination port the copy is for
     * @param frame       the frame (Ethernet header on), valid only during the call
     * @param offset      where it starts in {@code frame}
     * @param length      its length
     * @return true to drop this copy (counted as {@link WireCounters#FILTERED})
     */
    boolean drop(int source, int destination, DirectBuffer frame, int offset, int length);
}
