package io.jrxe.rxe.verbs;

import java.util.Objects;

/**
 * The signature attributes of an integrity region ({@code struct ib_sig_attrs}): the byte check mask and the memory
 * and wire domains. The consumer sets them on the region ({@link MemoryRegion#sigAttrs(SigAttrs)}, the kernel's
 * {@code mr->sig_attrs}) before posting {@link WrOpcode#REG_MR_INTEGRITY}, which takes a snapshot. Immutable.
 * <pre>
 *   T10-DIF tuple, 8 bytes after every pi_interval bytes of data, big-endian:
 *     byte   0      1      2      3      4      5      6      7
 *          +------+------+------+------+------+------+------+------+
 *          | guard (CRC/  | application | reference tag             |
 *          |  CSUM)       | tag         |                           |
 *          +------+------+------+------+------+------+------+------+
 *   check_mask bit 7 - i selects byte i:  GUARD 0xC0 | APPTAG 0x30 | REFTAG 0x0F
 * </pre>
 * Domains: memory T10-DIF and wire T10-DIF = pass-through (checked, copied or converted); memory NONE and wire
 * T10-DIF = insert on send, strip on receive; memory T10-DIF and wire NONE = strip on send, insert on receive.
 */
public final class SigAttrs
{
    /** Check both guard bytes ({@code IB_SIG_CHECK_GUARD}). */
    public static final int CHECK_GUARD = 0xc0;
    /** Check both application tag bytes ({@code IB_SIG_CHECK_APPTAG}). */
    public static final int CHECK_APPTAG = 0x30;
    /** Check the four reference tag bytes ({@code IB_SIG_CHECK_REFTAG}). */
    public static final int CHECK_REFTAG = 0x0f;
    /** Bytes of one T10-DIF tuple. */
    public static final int PI_SIZE = 8;

    private final int checkMask;
    private final SigDomain mem;
    private final SigDomain wire;

    /**
     * @param checkMask which tuple bytes are checked ({@link #CHECK_GUARD} | ...)
     * @param mem       memory domain
     * @param wire      wire domain
     */
    public SigAttrs(final int checkMask, final SigDomain mem, final SigDomain wire)
    {
        this.checkMask = checkMask;
        this.mem = Objects.requireNonNull(mem, "mem");
        this.wire = Objects.requireNonNull(wire, "wire");
    }

    /** @return the byte check mask ({@code check_mask}). */
    public int checkMask()
    {
        return checkMask;
    }

    /** @return the memory domain ({@code mem}). */
    public SigDomain mem()
    {
        return mem;
    }

    /** @return the wire domain ({@code wire}). */
    public SigDomain wire()
    {
        return wire;
    }

    /** @return the protection interval (of whichever domain has protection information). */
    public int piInterval()
    {
        return (wire.hasPi() ? wire : mem).dif().piInterval();
    }

    /**
     * @param dataLength data bytes (a multiple of the interval)
     * @return bytes of the region as the wire sees it: the data, plus 8 per block if the wire carries PI
     */
    public long wireLength(final long dataLength)
    {
        return wire.hasPi() ? dataLength + dataLength / piInterval() * PI_SIZE : dataLength;
    }

    /**
     * What a registration refuses with EINVAL (mlx5 {@code mlx5_set_bsf} refuses what its BSF cannot express;
     * jrxe's rules are stated here): at least one domain with protection information; T10-DIF parameters in range
     * (interval a power of two in [512, 4096], 16-bit seed, app tag and mask); the same interval in both domains;
     * an 8-bit check mask.
     *
     * @param attrs attributes, may be null
     * @return why they cannot be used, or null if they can
     */
    public static String problem(final SigAttrs attrs)
    {
        if (null == attrs)
        {
            return "REG_MR_INTEGRITY without signature attributes (set them with MemoryRegion.sigAttrs)";
        }
        if (0 != (attrs.checkMask & ~0xff))
        {
            return "check_mask 0x" + Integer.toHexString(attrs.checkMask) + " wider than the 8 tuple bytes";
        }
        if (!attrs.mem.hasPi() && !attrs.wire.hasPi())
        {
            return "neither the memory nor the wire domain carries protection information (both NONE)";
        }
        final String memProblem = problem("memory", attrs.mem.dif());
        if (null != memProblem)
        {
            return memProblem;
        }
        final String wireProblem = problem("wire", attrs.wire.dif());
        if (null != wireProblem)
        {
            return wireProblem;
        }
        if (attrs.mem.hasPi() && attrs.wire.hasPi() && attrs.mem.dif().piInterval() != attrs.wire.dif().piInterval())
        {
            return "memory and wire pi_interval differ (" + attrs.mem.dif().piInterval() + " vs " +
                attrs.wire.dif().piInterval() + "): both domains use one block structure";
        }
        return null;
    }

    /**
     * Whether the attributes fit a mapping (checked at post, again at execution).
     *
     * @param attrs      attributes without a {@link #problem}
     * @param dataLength mapped data bytes
     * @param metaLength mapped protection bytes
     * @return why they do not, or null
     */
    public static String layoutProblem(final SigAttrs attrs, final long dataLength, final long metaLength)
    {
        final int interval = attrs.piInterval();
        if (dataLength <= 0 || 0 != dataLength % interval)
        {
            return "data length " + dataLength + " is not a positive multiple of pi_interval " + interval;
        }
        final long needed = dataLength / interval * PI_SIZE;
        if (attrs.mem.hasPi() && metaLength < needed)
        {
            return "the memory domain has PI but only " + metaLength + " protection bytes are mapped, " + needed +
                " needed";
        }
        return null;
    }

    private static String problem(final String which, final T10DifDomain dif)
    {
        if (null == dif)
        {
            return null;
        }
        final int interval = dif.piInterval();
        if (Integer.bitCount(interval) != 1 || interval < T10DifDomain.MIN_PI_INTERVAL ||
            interval > T10DifDomain.MAX_PI_INTERVAL)
        {
            return which + " pi_interval " + interval + " is not a power of two in [512, 4096]";
        }
        if (0 != ((dif.bg() | dif.appTag() | dif.apptagCheckMask()) & ~0xffff))
        {
            return which + " bg, app_tag or apptag_check_mask wider than 16 bits";
        }
        return null;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "SigAttrs{checkMask=0x" + Integer.toHexString(checkMask) + ", mem=" + mem + ", wire=" + wire + '}';
    }
}
