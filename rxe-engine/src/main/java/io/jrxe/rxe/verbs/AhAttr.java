package io.jrxe.rxe.verbs;

/**
 * Address vector of a RoCE v2 path ({@code struct rdma_ah_attr} with its GRH): used by QP modify (IB_QP_AV) for
 * connected QPs and by address handles for UD. A reusable mutable object.
 * <pre>
 *   destination GID (16 bytes) as dgidHi (bytes 0..7) / dgidLo (bytes 8..15), big-endian halves
 *   IPv4 peer: dgidHi = 0, dgidLo = 0x0000_ffff_aabb_ccdd for a.b.c.d
 * </pre>
 */
public final class AhAttr
{
    private long dgidHi;
    private long dgidLo;
    private int sgidIndex;
    private int hopLimit = 64;
    private int trafficClass;
    private int flowLabel;
    private int sl;
    private int portNum = 1;
    private long dmac = -1L;
    private IbRate staticRate = IbRate.PORT_CURRENT;

    /** @return destination GID bytes 0..7. */
    public long dgidHi()
    {
        return dgidHi;
    }

    /** @return destination GID bytes 8..15. */
    public long dgidLo()
    {
        return dgidLo;
    }

    /**
     * @param hi bytes 0..7.
     * @param lo bytes 8..15.
     * @return this.
     */
    public AhAttr dgid(final long hi, final long lo)
    {
        dgidHi = hi;
        dgidLo = lo;
        return this;
    }

    /**
     * Destination as an IPv4 address (IPv4-mapped GID).
     *
     * @param ipv4 address, big-endian int.
     * @return this.
     */
    public AhAttr dgidIpv4(final int ipv4)
    {
        return dgid(0, GidTable.ipv4MappedLo(ipv4));
    }

    /** @return source GID index into the port GID table. */
    public int sgidIndex()
    {
        return sgidIndex;
    }

    /**
     * @param value source GID index.
     * @return this.
     */
    public AhAttr sgidIndex(final int value)
    {
        sgidIndex = value;
        return this;
    }

    /** @return IP TTL / hop limit (0..255). */
    public int hopLimit()
    {
        return hopLimit;
    }

    /**
     * @param value hop limit 0..255.
     * @return this.
     */
    public AhAttr hopLimit(final int value)
    {
        hopLimit = value;
        return this;
    }

    /** @return IP traffic class / TOS (0..255: DSCP and ECN). */
    public int trafficClass()
    {
        return trafficClass;
    }

    /**
     * @param value traffic class 0..255.
     * @return this.
     */
    public AhAttr trafficClass(final int value)
    {
        trafficClass = value;
        return this;
    }

    /** @return IPv6 flow label (20 bits); also seeds the UDP source port. */
    public int flowLabel()
    {
        return flowLabel;
    }

    /**
     * @param value flow label, 20 bits.
     * @return this.
     */
    public AhAttr flowLabel(final int value)
    {
        flowLabel = value;
        return this;
    }

    /** @return service level (0..15, carried but unused on RoCE). */
    public int sl()
    {
        return sl;
    }

    /**
     * @param value service level.
     * @return this.
     */
    public AhAttr sl(final int value)
    {
        sl = value;
        return this;
    }

    /** @return port number (1). */
    public int portNum()
    {
        return portNum;
    }

    /**
     * @param value port number (must be 1).
     * @return this.
     */
    public AhAttr portNum(final int value)
    {
        portNum = value;
        return this;
    }

    /** @return destination MAC in the low 48 bits, or -1 if to be resolved by the network layer. */
    public long dmac()
    {
        return dmac;
    }

    /**
     * @param value destination MAC (low 48 bits), or -1 to resolve.
     * @return this.
     */
    public AhAttr dmac(final long value)
    {
        dmac = value;
        return this;
    }

    /**
     * The static rate ({@code rdma_ah_attr.static_rate}): the requester sends no faster than this on the path
     * (a connected QP's AV) or to the AH's destination (UD); {@link IbRate#PORT_CURRENT}, the default, means no
     * limit. jrxe departs from rxe here: rxe drops the value (an AH queried on rxe reads back PORT_CURRENT) and
     * never paces; jrxe keeps it, reports it back and paces (issue 9).
     *
     * @return the static rate.
     */
    public IbRate staticRate()
    {
        return staticRate;
    }

    /**
     * @param value static rate, {@link IbRate#PORT_CURRENT} for none.
     * @return this.
     */
    public AhAttr staticRate(final IbRate value)
    {
        staticRate = value;
        return this;
    }

    /** @return true if the destination is an IPv4-mapped GID. */
    public boolean isIpv4()
    {
        return GidTable.isIpv4Mapped(dgidHi, dgidLo);
    }

    /**
     * Validate against the device (rxe {@code rxe_av_chk_attr}): port 1, source GID present, field ranges.
     *
     * @param gids the port GID table.
     * @return null if valid, else what is wrong.
     */
    public String check(final GidTable gids)
    {
        if (1 != portNum)
        {
            return "AH port " + portNum + " is invalid: rxe has one port, use 1";
        }
        if (!gids.isValid(sgidIndex))
        {
            return "AH source GID index " + sgidIndex + " has no GID in the port table (" + gids.length() +
                " entries); install a GID or pick a populated index";
        }
        if (0 == dgidHi && 0 == dgidLo)
        {
            return "AH destination GID is :: (unset); set dgid or dgidIpv4";
        }
        if (gids.networkType(sgidIndex) == NetworkType.IPV4 != isIpv4())
        {
            return "AH source GID and destination GID are of different IP versions";
        }
        if (hopLimit < 0 || hopLimit > 255)
        {
            return "AH hop limit " + hopLimit + " outside 0..255";
        }
        if (trafficClass < 0 || trafficClass > 255)
        {
            return "AH traffic class " + trafficClass + " outside 0..255";
        }
        if (flowLabel < 0 || flowLabel > 0xfffff)
        {
            return "AH flow label 0x" + Integer.toHexString(flowLabel) + " wider than 20 bits";
        }
        if (sl < 0 || sl > 15)
        {
            return "AH service level " + sl + " outside 0..15";
        }
        if (-1L != dmac && 0 != (dmac >>> 48))
        {
            return "AH destination MAC wider than 48 bits";
        }
        if (null == staticRate)
        {
            return "AH static rate is null: use IbRate.PORT_CURRENT for no rate limit";
        }
        return null;
    }

    /**
     * @param other source.
     * @return this.
     */
    public AhAttr copyFrom(final AhAttr other)
    {
        dgidHi = other.dgidHi;
        dgidLo = other.dgidLo;
        sgidIndex = other.sgidIndex;
        hopLimit = other.hopLimit;
        trafficClass = other.trafficClass;
        flowLabel = other.flowLabel;
        sl = other.sl;
        portNum = other.portNum;
        dmac = other.dmac;
        staticRate = other.staticRate;
        return this;
    }
}
