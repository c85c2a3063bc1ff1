package io.jrxe.tools;

import java.lang.management.ManagementFactory;

/**
 * CPU time and bytes allocated by the calling thread, from the JVM's per-thread counters
 * ({@code com.sun.management.ThreadMXBean}), so a benchmark can report work per core and allocation per packet.
 */
final class ThreadMeter
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private long cpuStartNs;
    private long allocStart;
    private long wallStartNs;
    long cpuNs;
    long allocatedBytes;
    long wallNs;

    ThreadMeter()
    {
        if (!THREADS.isCurrentThreadCpuTimeSupported() || !THREADS.isThreadAllocatedMemorySupported())
        {
            throw new IllegalStateException("this JVM does not report per-thread CPU time and allocation");
        }
        THREADS.setThreadCpuTimeEnabled(true);
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    void start()
    {
        final long id = Thread.currentThread().getId();
        wallStartNs = System.nanoTime();
        cpuStartNs = THREADS.getCurrentThreadCpuTime();
        allocStart = THREADS.getThreadAllocatedBytes(id);
    }

    void stop()
    {
        final long id = Thread.currentThread().getId();
        allocatedBytes = THREADS.getThreadAllocatedBytes(id) - allocStart;
        cpuNs = THREADS.getCurrentThreadCpuTime() - cpuStartNs;
        wallNs = System.nanoTime() - wallStartNs;
    }
}
