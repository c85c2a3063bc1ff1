package io.jrxe.driver.emu;

import org.agrona.DirectBuffer;

/** Receives frames from a {@link WirePort}; the buffer is valid only during the call. */
@FunctionalInterface
public interface FrameHandler
{
    void onFrame(DirectBuffer buffer, int offset, int length);
}
