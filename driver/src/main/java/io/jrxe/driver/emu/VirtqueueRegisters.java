package io.jrxe.driver.emu;

/**
 * The per-queue part of the common configuration (virtio 1.1 §4.1.4.3) as the driver wrote it. Written by the
 * driver thread; the device reads it after it sees {@link #enabled} set (volatile, written last by the driver,
 * §4.1.5.1.3: the queue is configured before queue_enable = 1), so the other fields are visible by then.
 */
final class VirtqueueRegisters
{
    final int maxSize;
    int size;
    int msixVector;
    long desc;
    long driver;
    long device;
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
        msixVector = VirtioSpec.NO_VECTOR;
        desc = 0;
        driver = 0;
        device = 0;
    }
}
