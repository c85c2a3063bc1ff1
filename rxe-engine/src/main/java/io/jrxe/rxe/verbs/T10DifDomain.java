package io.jrxe.rxe.verbs;

/**
 * The T10-DIF parameters of one signature domain ({@code struct ib_t10_dif_domain}), immutable. The T10 protection
 * types are combinations of these fields (as iSER's {@code iser_set_dif_domain} and the block layer's
 * {@code t10_pi_ref_tag} use them):
 * <pre>
 *   type 1: ref_tag = low 32 bits of the LBA, ref_remap (+1 per block), app_escape (app tag 0xFFFF: block unchecked)
 *   type 2: ref_tag = the CDB's expected initial LBA, ref_remap, app_escape
 *   type 3: ref tag opaque (no remap, usually not checked), ref_escape (app 0xFFFF and ref 0xFFFFFFFF: unchecked)
 * </pre>
 * Values are kept as given; {@link SigAttrs#problem} says which ones a registration refuses (EINVAL).
 */
public final class T10DifDomain
{
    /** Smallest protection interval (a 512-byte sector). */
    public static final int MIN_PI_INTERVAL = 512;
    /** Largest protection interval (a 4 KiB block). */
    public static final int MAX_PI_INTERVAL = 4096;

    private final T10DifBgType bgType;
    private final int piInterval;
    private final int bg;
    private final int appTag;
    private final int refTag;
    private final boolean refRemap;
    private final boolean appEscape;
    private final boolean refEscape;
    private final int apptagCheckMask;

    private T10DifDomain(final Builder b)
    {
        bgType = b.bgType;
        piInterval = b.piInterval;
        bg = b.bg;
        appTag = b.appTag;
        refTag = b.refTag;
        refRemap = b.refRemap;
        appEscape = b.appEscape;
        refEscape = b.refEscape;
        apptagCheckMask = b.apptagCheckMask;
    }

    /** @return a builder with CRC guard, 512-byte interval, seed 0, tags 0, no remap/escape, app tag mask 0xFFFF */
    public static Builder builder()
    {
        return new Builder();
    }

    /** @return a builder holding this domain's values. */
    public Builder toBuilder()
    {
        return builder().bgType(bgType).piInterval(piInterval).bg(bg).appTag(appTag).refTag(refTag)
            .refRemap(refRemap).appEscape(appEscape).refEscape(refEscape).apptagCheckMask(apptagCheckMask);
    }

    /** @return guard type ({@code bg_type}). */
    public T10DifBgType bgType()
    {
        return bgType;
    }

    /** @return data bytes per 8-byte tuple ({@code pi_interval}). */
    public int piInterval()
    {
        return piInterval;
    }

    /** @return seed of the guard computation ({@code bg}), 0 for standard T10-DIF. */
    public int bg()
    {
        return bg;
    }

    /** @return application tag of generated tuples and the expected one of checked tuples ({@code app_tag}). */
    public int appTag()
    {
        return appTag;
    }

    /** @return reference tag of the first block ({@code ref_tag}), unsigned 32 bits. */
    public int refTag()
    {
        return refTag;
    }

    /** @return whether the reference tag increments by one per block ({@code ref_remap}; types 1 and 2). */
    public boolean refRemap()
    {
        return refRemap;
    }

    /** @return whether a block whose app tag is 0xFFFF is not checked ({@code app_escape}). */
    public boolean appEscape()
    {
        return appEscape;
    }

    /** @return whether a block with app tag 0xFFFF and ref tag 0xFFFFFFFF is not checked ({@code ref_escape}). */
    public boolean refEscape()
    {
        return refEscape;
    }

    /** @return bits of the application tag that are compared ({@code apptag_check_mask}). */
    public int apptagCheckMask()
    {
        return apptagCheckMask;
    }

    /**
     * @param block block index from the start of the registration
     * @return the reference tag of that block: {@code ref_tag + block} with remap, else {@code ref_tag} (mod 2^32)
     */
    public int refTagOf(final long block)
    {
        return refRemap ? refTag + (int)block : refTag;
    }

    /** {@inheritDoc} */
    public boolean equals(final Object o)
    {
        if (!(o instanceof T10DifDomain))
        {
            return false;
        }
        final T10DifDomain d = (T10DifDomain)o;
        return bgType == d.bgType && piInterval == d.piInterval && bg == d.bg && appTag == d.appTag &&
            refTag == d.refTag && refRemap == d.refRemap && appEscape == d.appEscape && refEscape == d.refEscape &&
            apptagCheckMask == d.apptagCheckMask;
    }

    /** {@inheritDoc} */
    public int hashCode()
    {
        return ((bgType.hashCode() * 31 + piInterval) * 31 + appTag) * 31 + refTag;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "T10DifDomain{bgType=" + bgType + ", piInterval=" + piInterval + ", bg=0x" + Integer.toHexString(bg) +
            ", appTag=0x" + Integer.toHexString(appTag) + ", refTag=0x" + Integer.toHexString(refTag) +
            ", refRemap=" + refRemap + ", appEscape=" + appEscape + ", refEscape=" + refEscape +
            ", apptagCheckMask=0x" + Integer.toHexString(apptagCheckMask) + '}';
    }

    /** Fluent construction of a {@link T10DifDomain}. */
    public static final class Builder
    {
        private T10DifBgType bgType = T10DifBgType.CRC;
        private int piInterval = MIN_PI_INTERVAL;
        private int bg;
        private int appTag;
        private int refTag;
        private boolean refRemap;
        private boolean appEscape;
        private boolean refEscape;
        private int apptagCheckMask = 0xffff;

        private Builder()
        {
        }

        /** @param v guard type @return this */
        public Builder bgType(final T10DifBgType v)
        {
            bgType = v;
            return this;
        }

        /** @param v data bytes per tuple @return this */
        public Builder piInterval(final int v)
        {
            piInterval = v;
            return this;
        }

        /** @param v guard seed @return this */
        public Builder bg(final int v)
        {
            bg = v;
            return this;
        }

        /** @param v application tag @return this */
        public Builder appTag(final int v)
        {
            appTag = v;
            return this;
        }

        /** @param v reference tag of block 0 @return this */
        public Builder refTag(final int v)
        {
            refTag = v;
            return this;
        }

        /** @param v increment the ref tag per block @return this */
        public Builder refRemap(final boolean v)
        {
            refRemap = v;
            return this;
        }

        /** @param v skip blocks with app tag 0xFFFF @return this */
        public Builder appEscape(final boolean v)
        {
            appEscape = v;
            return this;
        }

        /** @param v skip blocks with app tag 0xFFFF and ref tag 0xFFFFFFFF @return this */
        public Builder refEscape(final boolean v)
        {
            refEscape = v;
            return this;
        }

        /** @param v compared bits of the app tag @return this */
        public Builder apptagCheckMask(final int v)
        {
            apptagCheckMask = v;
            return this;
        }

        /** @return the domain parameters (checked when a registration uses them). */
        public T10DifDomain build()
        {
            if (null == bgType)
            {
                throw new IllegalArgumentException("bgType is CRC or CSUM, not null");
            }
            return new T10DifDomain(this);
        }
    }
}
