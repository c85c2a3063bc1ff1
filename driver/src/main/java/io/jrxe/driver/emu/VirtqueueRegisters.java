package io.jrxe.driver.emu;

import io.jrxe.driver.virtio.VirtioPci;

/**
 * The per-queue part of the common configuration (virtio 1.1 §4.1.4.3) as the driver wrote it. Written by the
 * driver thread; the device reads it after it sees {@link #enabled} set (volatile, written last by the driver,
 * §4.1.5.1.3: the queue is configured before queue_enable = 1), so the other fields are visible by then.
 */
final class VirtqueueRegisters
{
    static final int DESC = 0;
    static final int DRIVER = 1;
    static final int DEVICE = 2;

    final int maxSize;
    int size;
    int msixVector;
    /** queue_desc, queue_driver, queue_device: index = (common cfg offset - 0x20) / 8. */
    final long[] address = new long[3];
    volatile boolean enabled;

    VirtqueueRegisters(final int maxSize)
    {
        this.maxSize = maxSize;
        reset();
    }

    void reset()
    {
        enabled = false;
        size = maxSize;
        msixVector = VirtioPci.NO_VECTOR;
        address[DESC] = 0;
        address[DRIVER] = 0;
        address[DEVICE] = 0;
    }
}
