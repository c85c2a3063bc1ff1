package io.jrxe.ulp.oob;

/**
 * The system data perftest's {@code check_sys_data} exchanges (each side sends its value as a 4-byte big-endian int,
 * cycle buffer first) and then takes the maximum of: the cycle buffer (default {@code sysconf(_SC_PAGESIZE)}, 4096 on
 * x86-64) and the cache line size (sysfs {@code coherency_line_size}, default 64). The peer writes to, or reads from,
 * the advertised {@code vaddr} within {@code max(message size, cycleBuffer)} bytes, stepping by the cache line size for
 * messages up to half the cycle buffer, so the buffer behind the advertised rkey must be at least that large.
 *
 * @param cycleBuffer   bytes of the cyclic buffer.
 * @param cacheLineSize bytes of a cache line.
 */
public record PerftestSysData(int cycleBuffer, int cacheLineSize)
{
    /** perftest's {@code DEF_CACHE_LINE_SIZE}. */
    public static final int DEFAULT_CACHE_LINE_SIZE = 64;
    /** The page size of x86-64 Linux, perftest's default cycle buffer. */
    public static final int DEFAULT_CYCLE_BUFFER = 4096;
    /** Defaults of perftest on x86-64 Linux. */
    public static final PerftestSysData DEFAULT = new PerftestSysData(DEFAULT_CYCLE_BUFFER, DEFAULT_CACHE_LINE_SIZE);

    /**
     * @param cycleBuffer   bytes of the cyclic buffer, positive.
     * @param cacheLineSize bytes of a cache line, positive.
     */
    public PerftestSysData
    {
        if (cycleBuffer <= 0 || cacheLineSize <= 0)
        {
            throw new IllegalArgumentException("cycleBuffer and cacheLineSize must be positive: " + cycleBuffer +
                ", " + cacheLineSize);
        }
    }

    /**
     * perftest's {@code BUFF_SIZE(size, cycle_buffer)}: bytes the peer may touch behind one advertised address.
     *
     * @param messageSize the test's message size.
     * @return {@code max(messageSize, cycleBuffer)}.
     */
    public long bufferSize(final long messageSize)
    {
        return Math.max(messageSize, cycleBuffer);
    }
}
