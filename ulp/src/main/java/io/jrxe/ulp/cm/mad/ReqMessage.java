package io.jrxe.ulp.cm.mad;

/**
 * ConnectRequest (REQ), IBA Table 106: the active side's request to connect a QP, attribute 0x0010.
 * Offsets are from the start of the MAD's data area (add {@link MadHeader#DATA_OFFSET} for the MAD); RCmRT and
 * LCmRT are the Remote/Local CM Response Timeouts, TS the Transport Service Type, E End-to-End Flow Control, R RDC
 * Exists, S SRQ, L Subnet Local.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        LocalCommID (32)                       |   0
 *  +---------------+-----------------------------------------------+
 *  |    reserved   |                 VendorID (24)                 |   4
 *  +---------------+-----------------------------------------------+
 *  |                         ServiceID (64)                        |   8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                        LocalCAGUID (64)                       |  16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                         reserved (32)                         |  24
 *  +---------------------------------------------------------------+
 *  |                         LocalQKey (32)                        |  28
 *  +-----------------------------------------------+---------------+
 *  |                 LocalQPN (24)                 |    RespRes    |  32
 *  +-----------------------------------------------+---------------+
 *  |                 LocalEECN (24)                |   InitDepth   |  36
 *  +-----------------------------------------------+---------+---+-+
 *  |                RemoteEECN (24)                |  RCmRT  | TS|E|  40
 *  +-----------------------------------------------+---------+---+-+
 *  |                StartingPSN (24)               |  LCmRT  |Retry|  44
 *  +-------------------------------+-------+-+-----+-------+-+-----+
 *  |       PartitionKey (16)       |  MTU  |R| RNR | MaxCm |S|ExtTT|  48
 *  +-------------------------------+-------+-+-----+-------+-+-----+
 *  |      PrimaryLocalLID (16)     |     PrimaryRemoteLID (16)     |  52
 *  +-------------------------------+-------------------------------+
 *  |                     PrimaryLocalGID (128)                     |  56
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     PrimaryRemoteGID (128)                    |  72
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------------------------------+-----------+-----------+
 *  |         PrimaryFlowLabel (20)         |    rsvd   |  PktRate  |  88
 *  +---------------+---------------+-------+-+-----+---+-----+-----+
 *  |  TrafficClass |    HopLimit   |   SL  |L| rsv |  AckTO  | rsv |  92
 *  +---------------+---------------+-------+-+-----+---------+-----+
 *  |       alternate path, 96..139: the same layout as 52..95      |  96
 *  +---------------------------------------------------------------+
 *  |                     PrivateData (92 bytes)                    | 140
 *  +---------------------------------------------------------------+
 * </pre>
 * The QP fields (28-51) are in {@link ReqQpFields}, the path fields (52-139) in {@link ReqPathFields}. rdma_cm puts
 * a {@link CmaHeader} at the start of PrivateData. Linux RoCE requests carry LIDs 0xFFFF and IPv4-mapped GIDs.
 */
public final class ReqMessage extends ReqQpFields
{
    /** AttributeID of a REQ. */
    public static final int ATTRIBUTE_ID = CmAttributes.REQ;
    /** Offset of PrivateData from the start of the data area. */
    public static final int PRIVATE_DATA_OFFSET = 140;
    /** Size of PrivateData in bytes. */
    public static final int PRIVATE_DATA_LENGTH = 92;

    /** Transport Service Type: Reliable Connection. */
    public static final int TRANSPORT_RC = 0;
    /** Transport Service Type: Unreliable Connection. */
    public static final int TRANSPORT_UC = 1;
    /** Transport Service Type: Reliable Datagram. */
    public static final int TRANSPORT_RD = 2;
    /** Transport Service Type 3: extended, see {@link #extendedTransportType()}. */
    public static final int TRANSPORT_EXTENDED = 3;
    /** Extended Transport Type of XRC, with {@link #TRANSPORT_EXTENDED}. */
    public static final int EXTENDED_TRANSPORT_XRC = 1;

    /** Creates a REQ flyweight over no buffer yet: {@link #wrap} it before use. */
    public ReqMessage()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /**
     * A REQ has no RemoteCommID: the responder has not chosen one yet.
     *
     * @return 0
     */
    @Override
    public int remoteCommId()
    {
        return 0;
    }

    /**
     * A REQ has no RemoteCommID: bytes 4..7 hold the VendorID.
     *
     * @param remoteCommId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public ReqMessage remoteCommId(final int remoteCommId)
    {
        throw noSuchField("REQ", "RemoteCommID");
    }

    /** @return VendorID (24 bits, bytes 5..7; Linux puts its ECE vendor ID here) */
    public int vendorId()
    {
        return field32(4, 32) & 0xFF_FFFF;
    }

    /**
     * @param vendorId VendorID (24 bits)
     * @return this for chaining
     */
    public ReqMessage vendorId(final int vendorId)
    {
        field32(4, 32, (field32(4, 32) & 0xFF00_0000) | (vendorId & 0xFF_FFFF));
        return this;
    }

    /** @return ServiceID (64 bits): rdma_cm's is 0x0000000001PPpppp, PP the port space, pppp the port */
    public long serviceId()
    {
        return field64(8);
    }

    /**
     * @param serviceId ServiceID (64 bits): what the requester connects to; rdma_cm's is 0x0000000001PPpppp,
     *                  PP the port space (0x06 TCP), pppp the destination port
     * @return this for chaining
     */
    public ReqMessage serviceId(final long serviceId)
    {
        field64(8, serviceId);
        return this;
    }

    /** @return Local CA GUID (64 bits): the requester's node GUID */
    public long localCaGuid()
    {
        return field64(16);
    }

    /**
     * @param localCaGuid Local CA GUID (64 bits): the requester's node GUID
     * @return this for chaining
     */
    public ReqMessage localCaGuid(final long localCaGuid)
    {
        field64(16, localCaGuid);
        return this;
    }
}
