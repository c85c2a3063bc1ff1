package io.jrxe.tools;

import java.lang.management.ManagementFactory;

/**
 * CPU time and bytes allocated by one thread (by default the calling one), from the JVM's per-thread counters
 * ({@code com.sun.management.ThreadMXBean}), so a benchmark can report work per core and allocation per packet.
 * Another thread's counters may be read from any thread: the allocation count then includes its current TLAB's
 * used part as last published, close enough over millions of packets.
 */
final class ThreadMeter
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private final Thread thread;
    private long cpuStartNs;
    private long allocStart;
    private long wallStartNs;
    long cpuNs;
    long allocatedBytes;
    long wallNs;

    /** Meters the calling thread. */
    ThreadMeter()
    {
        this(Thread.currentThread());
    }

    /** Meters {@code thread}; {@link #start()} and {@link #stop()} may be called from any thread. */
    ThreadMeter(final Thread thread)
    {
        if (!THREADS.isThreadCpuTimeSupported() || !THREADS.isThreadAllocatedMemorySupported())
        {
            throw new IllegalStateException("this JVM does not report per-thread CPU time and allocation");
        }
        THREADS.setThreadCpuTimeEnabled(true);
        THREADS.setThreadAllocatedMemoryEnabled(true);
        this.thread = thread;
    }

    String threadName()
    {
        return thread.getName();
    }

    void start()
    {
        final long id = thread.getId();
        wallStartNs = System.nanoTime();
        cpuStartNs = THREADS.getThreadCpuTime(id);
        allocStart = THREADS.getThreadAllocatedBytes(id);
    }

    void stop()
    {
        final long id = thread.getId();
        allocatedBytes = THREADS.getThreadAllocatedBytes(id) - allocStart;
        cpuNs = THREADS.getThreadCpuTime(id) - cpuStartNs;
        wallNs = System.nanoTime() - wallStartNs;
    }
}
