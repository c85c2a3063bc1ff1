package io.jrxe.ulp.cm.mad;

/**
 * ConnectReply (REP), IBA Table 110: the passive side's acceptance of a REQ, attribute 0x0013. TAD is the Target
 * ACK Delay, FA Failover Accepted, E End-to-End Flow Control, S SRQ. Offsets are from the start of the MAD's data
 * area.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------------------------------------------------------+
 *  |                       RemoteCommID (32)                       |   4
 *  +---------------------------------------------------------------+
 *  |                         LocalQKey (32)                        |   8
 *  +-----------------------------------------------+---------------+
 *  |                 LocalQPN (24)                 |    reserved   |  12
 *  +-----------------------------------------------+---------------+
 *  |                 LocalEECN (24)                |    reserved   |  16
 *  +-----------------------------------------------+---------------+
 *  |                StartingPSN (24)               |    reserved   |  20
 *  +---------------+---------------+---------+---+-+-----+-+-------+
 *  |    RespRes    |   InitDepth   |   TAD   | FA|E| RNR |S|  rsv  |  24
 *  +---------------+---------------+---------+---+-+-----+-+-------+
 *  |                        LocalCAGUID (64)                       |  28
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (196 bytes)                    |  36
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RepMessage extends CmMessage<RepMessage>
{
    /** AttributeID of a REP. */
    public static final int ATTRIBUTE_ID = CmAttributes.REP;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 36;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 196;

    /** Creates a REP flyweight over no buffer yet: {@link #wrap} it before use. */
    public RepMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return Local Q_Key (32 bits; UD/RD only) */
    public int localQkey()
    {
        return field32(8, 32);
    }

    /**
     * @param localQkey Local Q_Key (32 bits; UD/RD only)
     * @return this for chaining
     */
    public RepMessage localQkey(final int localQkey)
    {
        field32(8, 32, localQkey);
        return this;
    }

    /** @return Local QPN (24 bits): the responder's QP */
    public int localQpn()
    {
        return field32(12, 24);
    }

    /**
     * @param localQpn Local QPN (24 bits): the responder's QP
     * @return this for chaining
     */
    public RepMessage localQpn(final int localQpn)
    {
        field32(12, 24, localQpn);
        return this;
    }

    /** @return Local EECN (24 bits; RD only) */
    public int localEecn()
    {
        return field32(16, 24);
    }

    /**
     * @param localEecn Local EECN (24 bits; RD only)
     * @return this for chaining
     */
    public RepMessage localEecn(final int localEecn)
    {
        field32(16, 24, localEecn);
        return this;
    }

    /** @return Starting PSN (24 bits): the responder's send PSN */
    public int startingPsn()
    {
        return field32(20, 24);
    }

    /**
     * @param startingPsn Starting PSN (24 bits): the responder's send PSN
     * @return this for chaining
     */
    public RepMessage startingPsn(final int startingPsn)
    {
        field32(20, 24, startingPsn);
        return this;
    }

    /** @return Responder Resources (8 bits) */
    public int responderResources()
    {
        return field8(24, 8);
    }

    /**
     * @param responderResources Responder Resources (8 bits)
     * @return this for chaining
     */
    public RepMessage responderResources(final int responderResources)
    {
        field8(24, 8, responderResources);
        return this;
    }

    /** @return Initiator Depth (8 bits) */
    public int initiatorDepth()
    {
        return field8(25, 8);
    }

    /**
     * @param initiatorDepth Initiator Depth (8 bits)
     * @return this for chaining
     */
    public RepMessage initiatorDepth(final int initiatorDepth)
    {
        field8(25, 8, initiatorDepth);
        return this;
    }

    /** @return Target ACK Delay (5 bits, 4.096 us * 2^value) */
    public int targetAckDelay()
    {
        return field8(26, 5);
    }

    /**
     * @param targetAckDelay Target ACK Delay (5 bits, 4.096 us * 2^value)
     * @return this for chaining
     */
    public RepMessage targetAckDelay(final int targetAckDelay)
    {
        field8(26, 5, targetAckDelay);
        return this;
    }

    /** @return Failover Accepted (2 bits; 0 when no alternate path was requested) */
    public int failoverAccepted()
    {
        return bloc(26, 5, 2);
    }

    /**
     * @param failoverAccepted Failover Accepted (2 bits; 0 when no alternate path was requested)
     * @return this for chaining
     */
    public RepMessage failoverAccepted(final int failoverAccepted)
    {
        bloc(26, 5, 2, failoverAccepted);
        return this;
    }

    /** @return End-to-End Flow Control */
    public boolean endToEndFlowControl()
    {
        return flag(26, 7);
    }

    /**
     * @param endToEndFlowControl End-to-End Flow Control
     * @return this for chaining
     */
    public RepMessage endToEndFlowControl(final boolean endToEndFlowControl)
    {
        flag(26, 7, endToEndFlowControl);
        return this;
    }

    /** @return RNR Retry Count (3 bits, 7 = infinite) */
    public int rnrRetryCount()
    {
        return field8(27, 3);
    }

    /**
     * @param rnrRetryCount RNR Retry Count (3 bits, 7 = infinite)
     * @return this for chaining
     */
    public RepMessage rnrRetryCount(final int rnrRetryCount)
    {
        field8(27, 3, rnrRetryCount);
        return this;
    }

    /** @return SRQ */
    public boolean srq()
    {
        return flag(27, 3);
    }

    /**
     * @param srq SRQ: the responder's QP uses a shared receive queue
     * @return this for chaining
     */
    public RepMessage srq(final boolean srq)
    {
        flag(27, 3, srq);
        return this;
    }

    /** @return Local CA GUID (64 bits): the responder's node GUID */
    public long localCaGuid()
    {
        return field64(28);
    }

    /**
     * @param localCaGuid Local CA GUID (64 bits): the responder's node GUID
     * @return this for chaining
     */
    public RepMessage localCaGuid(final long localCaGuid)
    {
        field64(28, localCaGuid);
        return this;
    }
}
