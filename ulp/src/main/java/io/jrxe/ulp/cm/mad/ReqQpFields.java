package io.jrxe.ulp.cm.mad;

/**
 * The QP and transport parameters of a REQ, data offsets 28 to 51 (IBA Table 106; see the diagram in
 * {@link ReqMessage}). Split out of {@link ReqMessage} to keep files short; only {@link ReqMessage} extends it.
 */
abstract class ReqQpFields extends ReqPathFields
{
    ReqQpFields(final int attributeId, final int privateDataOffset, final int privateDataLength)
    {
        super(attributeId, privateDataOffset, privateDataLength);
    }

    /** @return Local Q_Key (32 bits; UD/RD only, 0 for RC) */
    public int localQkey()
    {
        return field32(28, 32);
    }

    /**
     * @param localQkey Local Q_Key (32 bits; UD/RD only, 0 for RC)
     * @return this for chaining
     */
    public ReqMessage localQkey(final int localQkey)
    {
        field32(28, 32, localQkey);
        return self();
    }

    /** @return Local QPN (24 bits): the requester's QP */
    public int localQpn()
    {
        return field32(32, 24);
    }

    /**
     * @param localQpn Local QPN (24 bits): the requester's QP
     * @return this for chaining
     */
    public ReqMessage localQpn(final int localQpn)
    {
        field32(32, 24, localQpn);
        return self();
    }

    /** @return Responder Resources (8 bits): RDMA READ/atomic requests the requester accepts */
    public int responderResources()
    {
        return field8(35, 8);
    }

    /**
     * @param responderResources Responder Resources (8 bits): RDMA READ/atomic requests the requester accepts
     * @return this for chaining
     */
    public ReqMessage responderResources(final int responderResources)
    {
        field8(35, 8, responderResources);
        return self();
    }

    /** @return Local EECN (24 bits; RD only) */
    public int localEecn()
    {
        return field32(36, 24);
    }

    /**
     * @param localEecn Local EECN (24 bits; RD only)
     * @return this for chaining
     */
    public ReqMessage localEecn(final int localEecn)
    {
        field32(36, 24, localEecn);
        return self();
    }

    /** @return Initiator Depth (8 bits): RDMA READ/atomic requests the requester sends */
    public int initiatorDepth()
    {
        return field8(39, 8);
    }

    /**
     * @param initiatorDepth Initiator Depth (8 bits): RDMA READ/atomic requests the requester sends
     * @return this for chaining
     */
    public ReqMessage initiatorDepth(final int initiatorDepth)
    {
        field8(39, 8, initiatorDepth);
        return self();
    }

    /** @return Remote EECN (24 bits; RD only) */
    public int remoteEecn()
    {
        return field32(40, 24);
    }

    /**
     * @param remoteEecn Remote EECN (24 bits; RD only)
     * @return this for chaining
     */
    public ReqMessage remoteEecn(final int remoteEecn)
    {
        field32(40, 24, remoteEecn);
        return self();
    }

    /** @return Remote CM Response Timeout (5 bits, 4.096 us * 2^value) */
    public int remoteCmResponseTimeout()
    {
        return field8(43, 5);
    }

    /**
     * @param remoteCmResponseTimeout Remote CM Response Timeout (5 bits, 4.096 us * 2^value)
     * @return this for chaining
     */
    public ReqMessage remoteCmResponseTimeout(final int remoteCmResponseTimeout)
    {
        field8(43, 5, remoteCmResponseTimeout);
        return self();
    }

    /** @return Transport Service Type (2 bits): {@link ReqMessage#TRANSPORT_RC} etc. */
    public int transportServiceType()
    {
        return bloc(43, 5, 2);
    }

    /**
     * @param transportServiceType Transport Service Type (2 bits): {@link ReqMessage#TRANSPORT_RC} etc.
     * @return this for chaining
     */
    public ReqMessage transportServiceType(final int transportServiceType)
    {
        bloc(43, 5, 2, transportServiceType);
        return self();
    }

    /** @return End-to-End Flow Control */
    public boolean endToEndFlowControl()
    {
        return flag(43, 7);
    }

    /**
     * @param endToEndFlowControl End-to-End Flow Control: the requester's receive queue issues credits
     * @return this for chaining
     */
    public ReqMessage endToEndFlowControl(final boolean endToEndFlowControl)
    {
        flag(43, 7, endToEndFlowControl);
        return self();
    }

    /** @return Starting PSN (24 bits): the requester's send PSN */
    public int startingPsn()
    {
        return field32(44, 24);
    }

    /**
     * @param startingPsn Starting PSN (24 bits): the requester's send PSN
     * @return this for chaining
     */
    public ReqMessage startingPsn(final int startingPsn)
    {
        field32(44, 24, startingPsn);
        return self();
    }

    /** @return Local CM Response Timeout (5 bits, 4.096 us * 2^value) */
    public int localCmResponseTimeout()
    {
        return field8(47, 5);
    }

    /**
     * @param localCmResponseTimeout Local CM Response Timeout (5 bits, 4.096 us * 2^value)
     * @return this for chaining
     */
    public ReqMessage localCmResponseTimeout(final int localCmResponseTimeout)
    {
        field8(47, 5, localCmResponseTimeout);
        return self();
    }

    /** @return Retry Count (3 bits): transport retries */
    public int retryCount()
    {
        return bloc(47, 5, 3);
    }

    /**
     * @param retryCount Retry Count (3 bits): transport retries
     * @return this for chaining
     */
    public ReqMessage retryCount(final int retryCount)
    {
        bloc(47, 5, 3, retryCount);
        return self();
    }

    /** @return Partition Key (16 bits) */
    public int partitionKey()
    {
        return field16(48, 16);
    }

    /**
     * @param partitionKey Partition Key (16 bits)
     * @return this for chaining
     */
    public ReqMessage partitionKey(final int partitionKey)
    {
        field16(48, 16, partitionKey);
        return self();
    }

    /** @return Path Packet Payload MTU (4 bits: 1 = 256 .. 5 = 4096) */
    public int pathMtu()
    {
        return field8(50, 4);
    }

    /**
     * @param pathMtu Path Packet Payload MTU (4 bits: 1 = 256 .. 5 = 4096)
     * @return this for chaining
     */
    public ReqMessage pathMtu(final int pathMtu)
    {
        field8(50, 4, pathMtu);
        return self();
    }

    /** @return RDC Exists */
    public boolean rdcExists()
    {
        return flag(50, 4);
    }

    /**
     * @param rdcExists RDC Exists (RD only)
     * @return this for chaining
     */
    public ReqMessage rdcExists(final boolean rdcExists)
    {
        flag(50, 4, rdcExists);
        return self();
    }

    /** @return RNR Retry Count (3 bits, 7 = infinite) */
    public int rnrRetryCount()
    {
        return bloc(50, 5, 3);
    }

    /**
     * @param rnrRetryCount RNR Retry Count (3 bits, 7 = infinite)
     * @return this for chaining
     */
    public ReqMessage rnrRetryCount(final int rnrRetryCount)
    {
        bloc(50, 5, 3, rnrRetryCount);
        return self();
    }

    /** @return Max CM Retries (4 bits) */
    public int maxCmRetries()
    {
        return field8(51, 4);
    }

    /**
     * @param maxCmRetries Max CM Retries (4 bits)
     * @return this for chaining
     */
    public ReqMessage maxCmRetries(final int maxCmRetries)
    {
        field8(51, 4, maxCmRetries);
        return self();
    }

    /** @return SRQ */
    public boolean srq()
    {
        return flag(51, 4);
    }

    /**
     * @param srq SRQ: the requester's QP uses a shared receive queue
     * @return this for chaining
     */
    public ReqMessage srq(final boolean srq)
    {
        flag(51, 4, srq);
        return self();
    }

    /** @return Extended Transport Type (3 bits): {@link ReqMessage#EXTENDED_TRANSPORT_XRC} with transport type 3 */
    public int extendedTransportType()
    {
        return bloc(51, 5, 3);
    }

    /**
     * @param extendedTransportType Extended Transport Type (3 bits): {@link ReqMessage#EXTENDED_TRANSPORT_XRC} with
     *                              transport type 3
     * @return this for chaining
     */
    public ReqMessage extendedTransportType(final int extendedTransportType)
    {
        bloc(51, 5, 3, extendedTransportType);
        return self();
    }
}
