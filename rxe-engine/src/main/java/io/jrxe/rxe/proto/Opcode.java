package io.jrxe.rxe.proto;

/**
 * The BTH opcode table for RC, UC, UD and XRC (IBA 9.2 Table 35, rxe_opcode.c; XRC is not in rxe) plus the CNP
 * (opcode 0x81, Annex A17
 * congestion notification), as primitive lookups indexed by the opcode byte so that the receive path does one
 * array load per question and allocates nothing.
 * <pre>
 *  opcode byte:  7 6 5 | 4 3 2 1 0
 *               +------+-----------+
 *               |  QP  | operation |   QP: 000 RC, 001 UC, 010 RD (unsupported), 011 UD, 100 CNP, 101 XRC
 *               +------+-----------+
 *
 *  packet from the BTH on:  BTH | XRCETH | DETH | FETH | RETH | AtomicETH | AETH | AtomicAckETH | ImmDt | IETH
 *                           | payload
 *                           (only the headers of the opcode's mask are present, always in this order)
 * </pre>
 * Offsets returned here are from the first byte of the BTH. Masks are {@code int} bit sets of the {@code *_MASK}
 * constants; the operation class masks ({@link #SEND_MASK}, {@link #WRITE_MASK}, {@link #READ_MASK},
 * {@link #ATOMIC_MASK}, {@link #FLUSH_MASK}, {@link #ATOMIC_WRITE_MASK}) are set on requests only, as in rxe.
 */
public final class Opcode
{
    /** "No opcode": no packet seen yet, or the previous message is complete. */
    public static final int NONE = -1;
    /** Returned by {@link #requestOpcode(int, int, int)} when the combination is not allowed. */
    public static final int INVALID = -1;

    /** QP type of an RC opcode, {@code opcode >>> 5}. */
    public static final int QP_RC = 0;
    /** QP type of a UC opcode. */
    public static final int QP_UC = 1;
    /** QP type of an RD opcode (not supported; no RD opcode is valid). */
    public static final int QP_RD = 2;
    /** QP type of a UD opcode. */
    public static final int QP_UD = 3;
    /** "QP type" of the CNP opcode. */
    public static final int QP_CNP = 4;
    /** QP type of an XRC opcode (IBA Table 35: transport prefix 101). */
    public static final int QP_XRC = 5;

    /** The operation bits of an opcode, below the 3-bit transport prefix. */
    public static final int OPERATION_MASK = 0x1F;

    // Operation codes, the low 5 bits (IBA Table 35).
    /** Operation SEND First. */
    public static final int SEND_FIRST = 0x00;
    /** Operation SEND Middle. */
    public static final int SEND_MIDDLE = 0x01;
    /** Operation SEND Last. */
    public static final int SEND_LAST = 0x02;
    /** Operation SEND Last with Immediate. */
    public static final int SEND_LAST_WITH_IMMEDIATE = 0x03;
    /** Operation SEND Only. */
    public static final int SEND_ONLY = 0x04;
    /** Operation SEND Only with Immediate. */
    public static final int SEND_ONLY_WITH_IMMEDIATE = 0x05;
    /** Operation RDMA WRITE First. */
    public static final int RDMA_WRITE_FIRST = 0x06;
    /** Operation RDMA WRITE Middle. */
    public static final int RDMA_WRITE_MIDDLE = 0x07;
    /** Operation RDMA WRITE Last. */
    public static final int RDMA_WRITE_LAST = 0x08;
    /** Operation RDMA WRITE Last with Immediate. */
    public static final int RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09;
    /** Operation RDMA WRITE Only. */
    public static final int RDMA_WRITE_ONLY = 0x0A;
    /** Operation RDMA WRITE Only with Immediate. */
    public static final int RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B;
    /** Operation RDMA READ Request. */
    public static final int RDMA_READ_REQUEST = 0x0C;
    /** Operation RDMA READ response First. */
    public static final int RDMA_READ_RESPONSE_FIRST = 0x0D;
    /** Operation RDMA READ response Middle. */
    public static final int RDMA_READ_RESPONSE_MIDDLE = 0x0E;
    /** Operation RDMA READ response Last. */
    public static final int RDMA_READ_RESPONSE_LAST = 0x0F;
    /** Operation RDMA READ response Only. */
    public static final int RDMA_READ_RESPONSE_ONLY = 0x10;
    /** Operation Acknowledge. */
    public static final int ACKNOWLEDGE = 0x11;
    /** Operation ATOMIC Acknowledge. */
    public static final int ATOMIC_ACKNOWLEDGE = 0x12;
    /** Operation CmpSwap. */
    public static final int COMPARE_SWAP = 0x13;
    /** Operation FetchAdd. */
    public static final int FETCH_ADD = 0x14;
    /** Operation SEND Last with Invalidate. */
    public static final int SEND_LAST_WITH_INVALIDATE = 0x16;
    /** Operation SEND Only with Invalidate. */
    public static final int SEND_ONLY_WITH_INVALIDATE = 0x17;
    /** Operation FLUSH (Annex A19). */
    public static final int FLUSH = 0x1C;
    /** Operation ATOMIC WRITE (Annex A19). */
    public static final int ATOMIC_WRITE = 0x1D;

    /** RC SEND First. */
    public static final int RC_SEND_FIRST = 0x00;
    /** RC SEND Middle. */
    public static final int RC_SEND_MIDDLE = 0x01;
    /** RC SEND Last. */
    public static final int RC_SEND_LAST = 0x02;
    /** RC SEND Last with Immediate. */
    public static final int RC_SEND_LAST_WITH_IMMEDIATE = 0x03;
    /** RC SEND Only. */
    public static final int RC_SEND_ONLY = 0x04;
    /** RC SEND Only with Immediate. */
    public static final int RC_SEND_ONLY_WITH_IMMEDIATE = 0x05;
    /** RC RDMA WRITE First. */
    public static final int RC_RDMA_WRITE_FIRST = 0x06;
    /** RC RDMA WRITE Middle. */
    public static final int RC_RDMA_WRITE_MIDDLE = 0x07;
    /** RC RDMA WRITE Last. */
    public static final int RC_RDMA_WRITE_LAST = 0x08;
    /** RC RDMA WRITE Last with Immediate. */
    public static final int RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09;
    /** RC RDMA WRITE Only. */
    public static final int RC_RDMA_WRITE_ONLY = 0x0A;
    /** RC RDMA WRITE Only with Immediate. */
    public static final int RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B;
    /** RC RDMA READ Request. */
    public static final int RC_RDMA_READ_REQUEST = 0x0C;
    /** RC RDMA READ response First. */
    public static final int RC_RDMA_READ_RESPONSE_FIRST = 0x0D;
    /** RC RDMA READ response Middle. */
    public static final int RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
    /** RC RDMA READ response Last. */
    public static final int RC_RDMA_READ_RESPONSE_LAST = 0x0F;
    /** RC RDMA READ response Only. */
    public static final int RC_RDMA_READ_RESPONSE_ONLY = 0x10;
    /** RC Acknowledge. */
    public static final int RC_ACKNOWLEDGE = 0x11;
    /** RC ATOMIC Acknowledge. */
    public static final int RC_ATOMIC_ACKNOWLEDGE = 0x12;
    /** RC CmpSwap. */
    public static final int RC_COMPARE_SWAP = 0x13;
    /** RC FetchAdd. */
    public static final int RC_FETCH_ADD = 0x14;
    /** RC SEND Last with Invalidate. */
    public static final int RC_SEND_LAST_WITH_INVALIDATE = 0x16;
    /** RC SEND Only with Invalidate. */
    public static final int RC_SEND_ONLY_WITH_INVALIDATE = 0x17;
    /** RC FLUSH. */
    public static final int RC_FLUSH = 0x1C;
    /** RC ATOMIC WRITE. */
    public static final int RC_ATOMIC_WRITE = 0x1D;

    /** UC SEND First. */
    public static final int UC_SEND_FIRST = 0x20;
    /** UC SEND Middle. */
    public static final int UC_SEND_MIDDLE = 0x21;
    /** UC SEND Last. */
    public static final int UC_SEND_LAST = 0x22;
    /** UC SEND Last with Immediate. */
    public static final int UC_SEND_LAST_WITH_IMMEDIATE = 0x23;
    /** UC SEND Only. */
    public static final int UC_SEND_ONLY = 0x24;
    /** UC SEND Only with Immediate. */
    public static final int UC_SEND_ONLY_WITH_IMMEDIATE = 0x25;
    /** UC RDMA WRITE First. */
    public static final int UC_RDMA_WRITE_FIRST = 0x26;
    /** UC RDMA WRITE Middle. */
    public static final int UC_RDMA_WRITE_MIDDLE = 0x27;
    /** UC RDMA WRITE Last. */
    public static final int UC_RDMA_WRITE_LAST = 0x28;
    /** UC RDMA WRITE Last with Immediate. */
    public static final int UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x29;
    /** UC RDMA WRITE Only. */
    public static final int UC_RDMA_WRITE_ONLY = 0x2A;
    /** UC RDMA WRITE Only with Immediate. */
    public static final int UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x2B;

    /** UD SEND Only. */
    public static final int UD_SEND_ONLY = 0x64;
    /** UD SEND Only with Immediate. */
    public static final int UD_SEND_ONLY_WITH_IMMEDIATE = 0x65;

    /** Congestion Notification Packet (RoCEv2 Annex A17.9.3, DCQCN). */
    public static final int CNP = 0x81;
    /** Reserved bytes after the BTH of a CNP; counted as header, so a CNP has no payload. */
    public static final int CNP_RESERVED_LENGTH = 16;

    /** Header mask: RETH present. */
    public static final int RETH_MASK = 1;
    /** Header mask: AETH present. */
    public static final int AETH_MASK = 1 << 1;
    /** Header mask: AtomicETH present. */
    public static final int ATMETH_MASK = 1 << 2;
    /** Header mask: AtomicAckETH present. */
    public static final int ATMACK_MASK = 1 << 3;
    /** Header mask: ImmDt present. */
    public static final int IMMDT_MASK = 1 << 4;
    /** Header mask: IETH present. */
    public static final int IETH_MASK = 1 << 5;
    /** Header mask: DETH present. */
    public static final int DETH_MASK = 1 << 6;
    /** Header mask: FETH present. */
    public static final int FETH_MASK = 1 << 7;
    /** The packet carries a payload (possibly of zero length). */
    /** Header mask: XRCETH present (XRC requests, right after the BTH). */
    public static final int XRCETH_MASK = 1 << 8;
    public static final int PAYLOAD_MASK = 1 << 9;
    /** A request: handled by the responder (rxe RXE_REQ_MASK). */
    public static final int REQ_MASK = 1 << 10;
    /** A response (read response, ACK, atomic ACK): handled by the completer (rxe RXE_ACK_MASK). */
    public static final int RESP_MASK = 1 << 11;
    /** Request of a SEND message. */
    public static final int SEND_MASK = 1 << 12;
    /** Request of an RDMA WRITE message. */
    public static final int WRITE_MASK = 1 << 13;
    /** RDMA READ request. */
    public static final int READ_MASK = 1 << 14;
    /** CmpSwap or FetchAdd request. */
    public static final int ATOMIC_MASK = 1 << 15;
    /** FLUSH request. */
    public static final int FLUSH_MASK = 1 << 16;
    /** ATOMIC WRITE request. */
    public static final int ATOMIC_WRITE_MASK = 1 << 17;
    /** Consumes a receive WQE at the responder (first packet of a SEND, WRITE with immediate). */
    public static final int RWR_MASK = 1 << 18;
    /** Completes a receive WQE at the responder (last packet of a SEND, WRITE with immediate). */
    public static final int COMP_MASK = 1 << 19;
    /** First packet of a message (FIRST or ONLY). */
    public static final int START_MASK = 1 << 20;
    /** Middle packet of a message. */
    public static final int MIDDLE_MASK = 1 << 21;
    /** Last packet of a message (LAST or ONLY). */
    public static final int END_MASK = 1 << 22;
    /** Acknowledge or Atomic Acknowledge: an AETH-carrying response without payload data. */
    public static final int ACK_MASK = 1 << 23;
    /** RC request: the responder must acknowledge its PSN, explicitly or by a later ACK / response (9.7.5.1). */
    public static final int REQUIRES_ACK_MASK = 1 << 24;
    /** RDMA READ response (FIRST, MIDDLE, LAST or ONLY). */
    public static final int READ_RESP_MASK = 1 << 25;
    /** Congestion notification packet. */
    public static final int CNP_MASK = 1 << 26;

    /** All extension header bits. */
    public static final int HEADER_MASKS = RETH_MASK | AETH_MASK | ATMETH_MASK | ATMACK_MASK | IMMDT_MASK |
        IETH_MASK | DETH_MASK | FETH_MASK | XRCETH_MASK;

    /** Request positions for {@link #requestOpcode(int, int, int)}: first packet of a multi-packet message. */
    public static final int POS_FIRST = 0;
    /** Middle packet of a multi-packet message. */
    public static final int POS_MIDDLE = 1;
    /** Last packet of a multi-packet message. */
    public static final int POS_LAST = 2;
    /** The only packet of a message. */
    public static final int POS_ONLY = 3;

    /** Message kind for {@link #requestOpcode(int, int, int)}: SEND. */
    public static final int KIND_SEND = 0;
    /** SEND with immediate. */
    public static final int KIND_SEND_WITH_IMM = 1;
    /** SEND with invalidate (RC only). */
    public static final int KIND_SEND_WITH_INV = 2;
    /** RDMA WRITE. */
    public static final int KIND_WRITE = 3;
    /** RDMA WRITE with immediate. */
    public static final int KIND_WRITE_WITH_IMM = 4;
    /** RDMA READ (RC only, one request packet). */
    public static final int KIND_READ = 5;
    /** CmpSwap (RC only). */
    public static final int KIND_COMPARE_SWAP = 6;
    /** FetchAdd (RC only). */
    public static final int KIND_FETCH_ADD = 7;
    /** FLUSH (RC only). */
    public static final int KIND_FLUSH = 8;
    /** ATOMIC WRITE (RC only). */
    public static final int KIND_ATOMIC_WRITE = 9;

    private static final int KINDS = 10;
    private static final int POSITIONS = 4;
    private static final int QP_TYPES = 6;
    private static final int HEADER_TYPES = 9;

    private static final boolean[] VALID = new boolean[256];
    private static final String[] NAMES = new String[256];
    private static final int[] MASKS = new int[256];
    private static final int[] HEADER_LENGTHS = new int[256];
    private static final byte[] OFFSETS = new byte[256 * HEADER_TYPES];
    private static final int[] REQUEST_OPCODES = new int[QP_TYPES * KINDS * POSITIONS];

    static
    {
        OpcodeTable.fill(VALID, NAMES, MASKS, HEADER_LENGTHS, OFFSETS, HEADER_TYPES);
        OpcodeTable.fillRequestOpcodes(REQUEST_OPCODES, VALID, QP_TYPES, KINDS, POSITIONS);
    }

    private Opcode()
    {
    }

    /**
     * @param opcode opcode byte 0..255 (other values are invalid)
     * @return true if the table knows this opcode (RC, UC, UD, XRC or CNP)
     */
    public static boolean isValid(final int opcode)
    {
        return 0 == (opcode & ~0xFF) && VALID[opcode];
    }

    /**
     * @param opcode opcode byte 0..255
     * @return the rxe-style name without the IB_OPCODE_ prefix, e.g. "RC_SEND_FIRST", or "INVALID_0x15"
     */
    public static String name(final int opcode)
    {
        return NAMES[opcode & 0xFF];
    }

    /**
     * @param opcode opcode byte 0..255
     * @return the QP type bits, {@link #QP_RC}, {@link #QP_UC}, {@link #QP_RD}, {@link #QP_UD}, {@link #QP_CNP}, ...
     */
    public static int qpType(final int opcode)
    {
        return (opcode & 0xFF) >>> 5;
    }

    /**
     * @param opcode opcode byte 0..255
     * @return the mask of {@code *_MASK} bits, 0 for an invalid opcode
     */
    public static int mask(final int opcode)
    {
        return MASKS[opcode & 0xFF];
    }

    /**
     * @param opcode opcode byte 0..255
     * @return BTH plus extension headers in bytes, i.e. the offset of the payload from the BTH; 0 if invalid
     */
    public static int headerLength(final int opcode)
    {
        return HEADER_LENGTHS[opcode & 0xFF];
    }

    /**
     * @param opcode     opcode byte 0..255
     * @param headerMask one header bit: {@link #RETH_MASK}, {@link #AETH_MASK}, ... {@link #FETH_MASK}
     * @return offset of that header from the first byte of the BTH, or -1 if the opcode does not carry it
     */
    public static int offset(final int opcode, final int headerMask)
    {
        if (0 == (MASKS[opcode & 0xFF] & headerMask))
        {
            return -1;
        }
        return OFFSETS[(opcode & 0xFF) * HEADER_TYPES + Integer.numberOfTrailingZeros(headerMask)];
    }

    /**
     * @param opcode opcode byte
     * @return RETH offset from the BTH, -1 if absent
     */
    public static int rethOffset(final int opcode)
    {
        return offset(opcode, RETH_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return AETH offset from the BTH, -1 if absent
     */
    public static int aethOffset(final int opcode)
    {
        return offset(opcode, AETH_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return AtomicETH offset from the BTH, -1 if absent
     */
    public static int atomicEthOffset(final int opcode)
    {
        return offset(opcode, ATMETH_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return AtomicAckETH offset from the BTH, -1 if absent
     */
    public static int atomicAckEthOffset(final int opcode)
    {
        return offset(opcode, ATMACK_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return ImmDt offset from the BTH, -1 if absent
     */
    public static int immDtOffset(final int opcode)
    {
        return offset(opcode, IMMDT_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return IETH offset from the BTH, -1 if absent
     */
    public static int iethOffset(final int opcode)
    {
        return offset(opcode, IETH_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return XRCETH offset from the BTH ({@link Bth#LENGTH} on every XRC request), -1 if absent
     */
    public static int xrcethOffset(final int opcode)
    {
        return offset(opcode, XRCETH_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return DETH offset from the BTH, -1 if absent
     */
    public static int dethOffset(final int opcode)
    {
        return offset(opcode, DETH_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return FETH offset from the BTH, -1 if absent
     */
    public static int fethOffset(final int opcode)
    {
        return offset(opcode, FETH_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true if the packet has a payload field (possibly empty)
     */
    public static boolean hasPayload(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & PAYLOAD_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for a request (goes to the responder)
     */
    public static boolean isRequest(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & REQ_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for a response: read response, ACK, atomic ACK (goes to the completer)
     */
    public static boolean isResponse(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & RESP_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for Acknowledge and Atomic Acknowledge
     */
    public static boolean isAck(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & ACK_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for an RDMA READ response packet
     */
    public static boolean isReadResponse(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & READ_RESP_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for a FIRST packet (starts but does not end a message)
     */
    public static boolean isFirst(final int opcode)
    {
        return START_MASK == (MASKS[opcode & 0xFF] & (START_MASK | END_MASK));
    }

    /**
     * @param opcode opcode byte
     * @return true for a MIDDLE packet
     */
    public static boolean isMiddle(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & MIDDLE_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for a LAST packet (ends but does not start a message)
     */
    public static boolean isLast(final int opcode)
    {
        return END_MASK == (MASKS[opcode & 0xFF] & (START_MASK | END_MASK));
    }

    /**
     * @param opcode opcode byte
     * @return true for an ONLY packet (starts and ends a message; includes ACKs and READ requests)
     */
    public static boolean isOnly(final int opcode)
    {
        return (START_MASK | END_MASK) == (MASKS[opcode & 0xFF] & (START_MASK | END_MASK));
    }

    /**
     * @param opcode opcode byte
     * @return true if the packet starts a message (FIRST or ONLY)
     */
    public static boolean isStartOfMessage(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & START_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true if the packet ends a message (LAST or ONLY)
     */
    public static boolean isEndOfMessage(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & END_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for an RC request, whose PSN the responder must acknowledge
     */
    public static boolean requiresAck(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & REQUIRES_ACK_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for a SEND request packet
     */
    public static boolean isSend(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & SEND_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for an RDMA WRITE request packet
     */
    public static boolean isWrite(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & WRITE_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for an RDMA READ request
     */
    public static boolean isRead(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & READ_MASK);
    }

    /**
     * @param opcode opcode byte
     * @return true for a CmpSwap or FetchAdd request
     */
    public static boolean isAtomic(final int opcode)
    {
        return 0 != (MASKS[opcode & 0xFF] & ATOMIC_MASK);
    }

    /**
     * Whether {@code opcode} may follow {@code prevOpcode} on the same QP, for requests at the responder and for
     * read responses at the requester (IBA 9.8.3 / rxe check_op_seq): inside a message (after a FIRST or MIDDLE)
     * only a MIDDLE or LAST of the same operation and QP type may come; between messages only a FIRST or ONLY
     * (ACKs, READ and atomic requests are ONLY). An RC responder answers a violation with NAK invalid request; a
     * UC responder silently drops packets until the next FIRST/ONLY. Retries that restart a
     * read response at FIRST are the completer's business, not this table's.
     *
     * @param prevOpcode the previous accepted opcode of this direction, or {@link #NONE}
     * @param opcode     the received opcode
     * @return true if the sequence is legal
     */
    public static boolean isValidNext(final int prevOpcode, final int opcode)
    {
        if (!isValid(opcode))
        {
            return false;
        }
        final int mask = MASKS[opcode];
        if (prevOpcode < 0)
        {
            return 0 != (mask & START_MASK);
        }
        if (!isValid(prevOpcode) || qpType(prevOpcode) != qpType(opcode))
        {
            return false;
        }
        final int prevMask = MASKS[prevOpcode];
        if (0 != (prevMask & END_MASK))
        {
            return 0 != (mask & START_MASK);
        }
        final int sequenceClass = SEND_MASK | WRITE_MASK | READ_RESP_MASK;
        return 0 == (mask & START_MASK) && 0 != (mask & (MIDDLE_MASK | END_MASK)) &&
            (mask & sequenceClass) == (prevMask & sequenceClass);
    }

    /**
     * The opcode of one request packet of a work request (rxe next_opcode_rc/uc/ud).
     *
     * @param qpType   {@link #QP_RC}, {@link #QP_UC} or {@link #QP_UD}
     * @param kind     {@link #KIND_SEND} ... {@link #KIND_ATOMIC_WRITE}
     * @param position {@link #POS_FIRST}, {@link #POS_MIDDLE}, {@link #POS_LAST} or {@link #POS_ONLY}
     * @return the opcode, or {@link #INVALID} if the QP type does not allow it (e.g. READ on UC, a multi-packet
     * UD message, a READ that is not ONLY)
     */
    public static int requestOpcode(final int qpType, final int kind, final int position)
    {
        if (qpType < 0 || qpType >= QP_TYPES || kind < 0 || kind >= KINDS || position < 0 || position >= POSITIONS)
        {
            return INVALID;
        }
        return REQUEST_OPCODES[(qpType * KINDS + kind) * POSITIONS + position];
    }

    /**
     * @param firstPacket the packet carries the first byte of the message
     * @param lastPacket  the packet carries the last byte of the message
     * @return {@link #POS_FIRST}, {@link #POS_MIDDLE}, {@link #POS_LAST} or {@link #POS_ONLY}
     */
    public static int position(final boolean firstPacket, final boolean lastPacket)
    {
        if (firstPacket)
        {
            return lastPacket ? POS_ONLY : POS_FIRST;
        }
        return lastPacket ? POS_LAST : POS_MIDDLE;
    }
}
