package io.jrxe.ulp.cm.mad;

/**
 * The two path descriptions of a REQ (IBA Table 106): primary at data offset 52, alternate at 96, 44 bytes each in
 * the same layout (see the diagram in {@link ReqMessage}). Split out of {@link ReqMessage} to keep files short; only
 * {@link ReqMessage} extends it. A zero alternate path (all 44 bytes) means none is offered.
 */
abstract class ReqPathFields extends CmMessage<ReqMessage>
{
    ReqPathFields(final int attributeId, final int privateDataOffset, final int privateDataLength)
    {
        super(attributeId, privateDataOffset, privateDataLength);
    }

    /** @return Primary Local Port LID (16 bits; 0xFFFF, permissive, on RoCE) */
    public int primaryLocalLid()
    {
        return field16(52, 16);
    }

    /**
     * @param primaryLocalLid Primary Local Port LID (16 bits; 0xFFFF, permissive, on RoCE)
     * @return this for chaining
     */
    public ReqMessage primaryLocalLid(final int primaryLocalLid)
    {
        field16(52, 16, primaryLocalLid);
        return self();
    }

    /** @return Primary Remote Port LID (16 bits) */
    public int primaryRemoteLid()
    {
        return field16(54, 16);
    }

    /**
     * @param primaryRemoteLid Primary Remote Port LID (16 bits)
     * @return this for chaining
     */
    public ReqMessage primaryRemoteLid(final int primaryRemoteLid)
    {
        field16(54, 16, primaryRemoteLid);
        return self();
    }

    /** @return bytes 0..7 of the primary Local Port GID (data offset 56), big-endian */
    public long primaryLocalGidHi()
    {
        return field64(56);
    }

    /** @return bytes 8..15 of the primary Local Port GID (data offset 64), big-endian */
    public long primaryLocalGidLo()
    {
        return field64(64);
    }

    /**
     * @param hi bytes 0..7 of the primary Local Port GID, big-endian
     * @param lo bytes 8..15, e.g. {@code 0x0000ffff0a090001L} for ::ffff:10.9.0.1
     * @return this for chaining
     */
    public ReqMessage primaryLocalGid(final long hi, final long lo)
    {
        field64(56, hi);
        field64(64, lo);
        return self();
    }

    /** @return bytes 0..7 of the primary Remote Port GID (data offset 72), big-endian */
    public long primaryRemoteGidHi()
    {
        return field64(72);
    }

    /** @return bytes 8..15 of the primary Remote Port GID (data offset 80), big-endian */
    public long primaryRemoteGidLo()
    {
        return field64(80);
    }

    /**
     * @param hi bytes 0..7 of the primary Remote Port GID, big-endian
     * @param lo bytes 8..15, e.g. {@code 0x0000ffff0a090001L} for ::ffff:10.9.0.1
     * @return this for chaining
     */
    public ReqMessage primaryRemoteGid(final long hi, final long lo)
    {
        field64(72, hi);
        field64(80, lo);
        return self();
    }

    /** @return Primary Flow Label (20 bits) */
    public int primaryFlowLabel()
    {
        return field32(88, 20);
    }

    /**
     * @param primaryFlowLabel Primary Flow Label (20 bits)
     * @return this for chaining
     */
    public ReqMessage primaryFlowLabel(final int primaryFlowLabel)
    {
        field32(88, 20, primaryFlowLabel);
        return self();
    }

    /** @return Primary Packet Rate (6 bits, an IBA static rate code) */
    public int primaryPacketRate()
    {
        return bloc(91, 2, 6);
    }

    /**
     * @param primaryPacketRate Primary Packet Rate (6 bits, an IBA static rate code)
     * @return this for chaining
     */
    public ReqMessage primaryPacketRate(final int primaryPacketRate)
    {
        bloc(91, 2, 6, primaryPacketRate);
        return self();
    }

    /** @return Primary Traffic Class (8 bits) */
    public int primaryTrafficClass()
    {
        return field8(92, 8);
    }

    /**
     * @param primaryTrafficClass Primary Traffic Class (8 bits)
     * @return this for chaining
     */
    public ReqMessage primaryTrafficClass(final int primaryTrafficClass)
    {
        field8(92, 8, primaryTrafficClass);
        return self();
    }

    /** @return Primary Hop Limit (8 bits) */
    public int primaryHopLimit()
    {
        return field8(93, 8);
    }

    /**
     * @param primaryHopLimit Primary Hop Limit (8 bits)
     * @return this for chaining
     */
    public ReqMessage primaryHopLimit(final int primaryHopLimit)
    {
        field8(93, 8, primaryHopLimit);
        return self();
    }

    /** @return Primary SL (4 bits) */
    public int primarySl()
    {
        return field8(94, 4);
    }

    /**
     * @param primarySl Primary SL (4 bits)
     * @return this for chaining
     */
    public ReqMessage primarySl(final int primarySl)
    {
        field8(94, 4, primarySl);
        return self();
    }

    /** @return Primary Subnet Local */
    public boolean primarySubnetLocal()
    {
        return flag(94, 4);
    }

    /**
     * @param primarySubnetLocal Primary Subnet Local: true when the path stays in the subnet (no GRH needed)
     * @return this for chaining
     */
    public ReqMessage primarySubnetLocal(final boolean primarySubnetLocal)
    {
        flag(94, 4, primarySubnetLocal);
        return self();
    }

    /** @return Primary Local ACK Timeout (5 bits, 4.096 us * 2^value) */
    public int primaryLocalAckTimeout()
    {
        return field8(95, 5);
    }

    /**
     * @param primaryLocalAckTimeout Primary Local ACK Timeout (5 bits, 4.096 us * 2^value)
     * @return this for chaining
     */
    public ReqMessage primaryLocalAckTimeout(final int primaryLocalAckTimeout)
    {
        field8(95, 5, primaryLocalAckTimeout);
        return self();
    }

    /** @return Alternate Local Port LID (16 bits; 0xFFFF, permissive, on RoCE) */
    public int alternateLocalLid()
    {
        return field16(96, 16);
    }

    /**
     * @param alternateLocalLid Alternate Local Port LID (16 bits; 0xFFFF, permissive, on RoCE)
     * @return this for chaining
     */
    public ReqMessage alternateLocalLid(final int alternateLocalLid)
    {
        field16(96, 16, alternateLocalLid);
        return self();
    }

    /** @return Alternate Remote Port LID (16 bits) */
    public int alternateRemoteLid()
    {
        return field16(98, 16);
    }

    /**
     * @param alternateRemoteLid Alternate Remote Port LID (16 bits)
     * @return this for chaining
     */
    public ReqMessage alternateRemoteLid(final int alternateRemoteLid)
    {
        field16(98, 16, alternateRemoteLid);
        return self();
    }

    /** @return bytes 0..7 of the alternate Local Port GID (data offset 100), big-endian */
    public long alternateLocalGidHi()
    {
        return field64(100);
    }

    /** @return bytes 8..15 of the alternate Local Port GID (data offset 108), big-endian */
    public long alternateLocalGidLo()
    {
        return field64(108);
    }

    /**
     * @param hi bytes 0..7 of the alternate Local Port GID, big-endian
     * @param lo bytes 8..15, e.g. {@code 0x0000ffff0a090001L} for ::ffff:10.9.0.1
     * @return this for chaining
     */
    public ReqMessage alternateLocalGid(final long hi, final long lo)
    {
        field64(100, hi);
        field64(108, lo);
        return self();
    }

    /** @return bytes 0..7 of the alternate Remote Port GID (data offset 116), big-endian */
    public long alternateRemoteGidHi()
    {
        return field64(116);
    }

    /** @return bytes 8..15 of the alternate Remote Port GID (data offset 124), big-endian */
    public long alternateRemoteGidLo()
    {
        return field64(124);
    }

    /**
     * @param hi bytes 0..7 of the alternate Remote Port GID, big-endian
     * @param lo bytes 8..15, e.g. {@code 0x0000ffff0a090001L} for ::ffff:10.9.0.1
     * @return this for chaining
     */
    public ReqMessage alternateRemoteGid(final long hi, final long lo)
    {
        field64(116, hi);
        field64(124, lo);
        return self();
    }

    /** @return Alternate Flow Label (20 bits) */
    public int alternateFlowLabel()
    {
        return field32(132, 20);
    }

    /**
     * @param alternateFlowLabel Alternate Flow Label (20 bits)
     * @return this for chaining
     */
    public ReqMessage alternateFlowLabel(final int alternateFlowLabel)
    {
        field32(132, 20, alternateFlowLabel);
        return self();
    }

    /** @return Alternate Packet Rate (6 bits, an IBA static rate code) */
    public int alternatePacketRate()
    {
        return bloc(135, 2, 6);
    }

    /**
     * @param alternatePacketRate Alternate Packet Rate (6 bits, an IBA static rate code)
     * @return this for chaining
     */
    public ReqMessage alternatePacketRate(final int alternatePacketRate)
    {
        bloc(135, 2, 6, alternatePacketRate);
        return self();
    }

    /** @return Alternate Traffic Class (8 bits) */
    public int alternateTrafficClass()
    {
        return field8(136, 8);
    }

    /**
     * @param alternateTrafficClass Alternate Traffic Class (8 bits)
     * @return this for chaining
     */
    public ReqMessage alternateTrafficClass(final int alternateTrafficClass)
    {
        field8(136, 8, alternateTrafficClass);
        return self();
    }

    /** @return Alternate Hop Limit (8 bits) */
    public int alternateHopLimit()
    {
        return field8(137, 8);
    }

    /**
     * @param alternateHopLimit Alternate Hop Limit (8 bits)
     * @return this for chaining
     */
    public ReqMessage alternateHopLimit(final int alternateHopLimit)
    {
        field8(137, 8, alternateHopLimit);
        return self();
    }

    /** @return Alternate SL (4 bits) */
    public int alternateSl()
    {
        return field8(138, 4);
    }

    /**
     * @param alternateSl Alternate SL (4 bits)
     * @return this for chaining
     */
    public ReqMessage alternateSl(final int alternateSl)
    {
        field8(138, 4, alternateSl);
        return self();
    }

    /** @return Alternate Subnet Local */
    public boolean alternateSubnetLocal()
    {
        return flag(138, 4);
    }

    /**
     * @param alternateSubnetLocal Alternate Subnet Local: true when the path stays in the subnet (no GRH needed)
     * @return this for chaining
     */
    public ReqMessage alternateSubnetLocal(final boolean alternateSubnetLocal)
    {
        flag(138, 4, alternateSubnetLocal);
        return self();
    }

    /** @return Alternate Local ACK Timeout (5 bits, 4.096 us * 2^value) */
    public int alternateLocalAckTimeout()
    {
        return field8(139, 5);
    }

    /**
     * @param alternateLocalAckTimeout Alternate Local ACK Timeout (5 bits, 4.096 us * 2^value)
     * @return this for chaining
     */
    public ReqMessage alternateLocalAckTimeout(final int alternateLocalAckTimeout)
    {
        field8(139, 5, alternateLocalAckTimeout);
        return self();
    }
}
