package io.jrxe.ulp.cm.mad;

/**
 * AttributeIDs of the Communication Management class: the CM messages (IBA Tables 106-120, Linux
 * {@code CM_*_ATTR_ID} in {@code include/rdma/ib_cm.h}) and ClassPortInfo (IBA 13.4.8.1).
 */
public final class CmAttributes
{
    /** ClassPortInfo (IBA 13.4.8.1). */
    public static final int CLASS_PORT_INFO = 0x0001;
    /** ConnectRequest (IBA Table 106). */
    public static final int REQ = 0x0010;
    /** MsgRcptAck (IBA Table 107). */
    public static final int MRA = 0x0011;
    /** ConnectReject (IBA Table 108). */
    public static final int REJ = 0x0012;
    /** ConnectReply (IBA Table 110). */
    public static final int REP = 0x0013;
    /** ReadyToUse (IBA Table 111). */
    public static final int RTU = 0x0014;
    /** DisconnectRequest (IBA Table 112). */
    public static final int DREQ = 0x0015;
    /** DisconnectReply (IBA Table 113). */
    public static final int DREP = 0x0016;
    /** ServiceIDResReq (IBA Table 119). */
    public static final int SIDR_REQ = 0x0017;
    /** ServiceIDResReqResp (IBA Table 120). */
    public static final int SIDR_REP = 0x0018;
    /** LoadAlternatePath (IBA Table 115). */
    public static final int LAP = 0x0019;
    /** AlternatePathResponse (IBA Table 116). */
    public static final int APR = 0x001A;

    private CmAttributes()
    {
    }

    /**
     * A short name for logs and counters; no allocation for the known attributes.
     *
     * @param attributeId an AttributeID
     * @return "REQ", "CLASS_PORT_INFO", ..., or the ID as four hex digits ("0x00ab") when unknown
     */
    public static String name(final int attributeId)
    {
        switch (attributeId)
        {
            case CLASS_PORT_INFO: return "CLASS_PORT_INFO";
            case REQ: return "REQ";
            case MRA: return "MRA";
            case REJ: return "REJ";
            case REP: return "REP";
            case RTU: return "RTU";
            case DREQ: return "DREQ";
            case DREP: return "DREP";
            case SIDR_REQ: return "SIDR_REQ";
            case SIDR_REP: return "SIDR_REP";
            case LAP: return "LAP";
            case APR: return "APR";
            default: return String.format("0x%04x", attributeId & 0xFFFF);
        }
    }
}
