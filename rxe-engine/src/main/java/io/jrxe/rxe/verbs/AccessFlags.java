package io.jrxe.rxe.verbs;

/**
 * Memory and QP access flags, values of {@code enum ib_access_flags} (include/rdma/ib_verbs.h and
 * ib_user_ioctl_verbs.h).
 */
public final class AccessFlags
{
    /** The local HCA may write the memory (receives, read responses, atomics responses). */
    public static final int LOCAL_WRITE = 1;
    /** Remote peers may RDMA WRITE (and ATOMIC WRITE). */
    public static final int REMOTE_WRITE = 1 << 1;
    /** Remote peers may RDMA READ. */
    public static final int REMOTE_READ = 1 << 2;
    /** Remote peers may issue atomic operations. */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** Memory windows may be bound to the region. */
    public static final int MW_BIND = 1 << 4;
    /** The region (or window) is addressed from 0 rather than from its virtual address. */
    public static final int ZERO_BASED = 1 << 5;
    /** On-demand paging (not supported by this engine). */
    public static final int ON_DEMAND = 1 << 6;
    /** Huge-page backed hint (accepted, no effect). */
    public static final int HUGETLB = 1 << 7;
    /** Remote FLUSH with global visibility placement. */
    public static final int FLUSH_GLOBAL = 1 << 8;
    /** Remote FLUSH with persistence placement. */
    public static final int FLUSH_PERSISTENT = 1 << 9;
    /** Relaxed ordering hint (optional range, accepted, no effect). */
    public static final int RELAXED_ORDERING = 1 << 20;

    /** The remote rights: a region with any of them gets an rkey (rxe {@code IB_ACCESS_REMOTE}). */
    public static final int REMOTE = REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC | FLUSH_GLOBAL | FLUSH_PERSISTENT;

    /** Every flag this engine accepts on a memory region. */
    public static final int SUPPORTED_MR = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC | MW_BIND |
        ZERO_BASED | HUGETLB | FLUSH_GLOBAL | FLUSH_PERSISTENT | RELAXED_ORDERING;

    /** The flags meaningful as QP access flags ({@code IB_QP_ACCESS_FLAGS}). */
    public static final int SUPPORTED_QP = REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC | LOCAL_WRITE |
        FLUSH_GLOBAL | FLUSH_PERSISTENT;

    private AccessFlags()
    {
    }

    /**
     * The registration rule of {@code ib_check_mr_access()}: remote write or remote atomic access requires local
     * write, because the HCA writes the memory on behalf of the peer; unknown and unsupported flags are refused.
     *
     * @param flags requested access.
     * @return {@code null} if acceptable, else the reason.
     */
    public static String checkMrAccess(final int flags)
    {
        if (0 != (flags & (REMOTE_WRITE | REMOTE_ATOMIC)) && 0 == (flags & LOCAL_WRITE))
        {
            return "REMOTE_WRITE and REMOTE_ATOMIC require LOCAL_WRITE (ib_check_mr_access); add LOCAL_WRITE";
        }
        if (0 != (flags & ON_DEMAND))
        {
            return "ON_DEMAND (ODP) registration is not supported by this engine; register pinned memory";
        }
        final int unknown = flags & ~SUPPORTED_MR;
        if (0 != unknown)
        {
            return "unsupported access bits 0x" + Integer.toHexString(unknown);
        }
        return null;
    }

    /**
     * Human readable list of flags, e.g. {@code "LOCAL_WRITE|REMOTE_READ"}.
     *
     * @param flags access flags.
     * @return text form.
     */
    public static String toString(final int flags)
    {
        final StringBuilder sb = new StringBuilder();
        append(sb, flags, LOCAL_WRITE, "LOCAL_WRITE");
        append(sb, flags, REMOTE_WRITE, "REMOTE_WRITE");
        append(sb, flags, REMOTE_READ, "REMOTE_READ");
        append(sb, flags, REMOTE_ATOMIC, "REMOTE_ATOMIC");
        append(sb, flags, MW_BIND, "MW_BIND");
        append(sb, flags, ZERO_BASED, "ZERO_BASED");
        append(sb, flags, ON_DEMAND, "ON_DEMAND");
        append(sb, flags, HUGETLB, "HUGETLB");
        append(sb, flags, FLUSH_GLOBAL, "FLUSH_GLOBAL");
        append(sb, flags, FLUSH_PERSISTENT, "FLUSH_PERSISTENT");
        append(sb, flags, RELAXED_ORDERING, "RELAXED_ORDERING");
        return sb.length() == 0 ? "0" : sb.toString();
    }

    private static void append(final StringBuilder sb, final int flags, final int bit, final String name)
    {
        if (0 != (flags & bit))
        {
            if (sb.length() > 0)
            {
                sb.append('|');
            }
            sb.append(name);
        }
    }
}
