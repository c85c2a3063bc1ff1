package io.jrxe.vfio;

import com.sun.jna.Structure;

/**
 * {@code struct rlimit} (sys/resource.h) on 64-bit Linux.
 * <pre>
 *   0              8              16
 *   +--------------+--------------+
 *   | rlim_cur u64 | rlim_max u64 |
 *   +--------------+--------------+
 * </pre>
 */
@Structure.FieldOrder({ "rlim_cur", "rlim_max" })
public final class Rlimit extends NativeStruct
{
    /** Soft limit; {@link LinuxConstants#RLIM_INFINITY} when unlimited. */
    public long rlim_cur;
    /** Hard limit. */
    public long rlim_max;
}
