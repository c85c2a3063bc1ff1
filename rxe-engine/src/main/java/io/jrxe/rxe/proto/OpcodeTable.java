package io.jrxe.rxe.proto;

import static io.jrxe.rxe.proto.Opcode.*;

/**
 * Builds the arrays behind {@link Opcode} once, at class initialisation. Header lengths and offsets are derived
 * from each opcode's header mask in the fixed wire order, so a table entry cannot disagree with itself.
 */
final class OpcodeTable
{
    /** Extension headers in wire order after the BTH (IBA 9.2, rxe_opcode.c offsets; XRCETH first, IBA 9.3.4). */
    private static final int[] WIRE_ORDER = {XRCETH_MASK, DETH_MASK, FETH_MASK, RETH_MASK, ATMETH_MASK, AETH_MASK,
        ATMACK_MASK, IMMDT_MASK, IETH_MASK};
    private static final int[] WIRE_LENGTH = {Xrceth.LENGTH, Deth.LENGTH, Feth.LENGTH, Reth.LENGTH, AtomicEth.LENGTH,
        Aeth.LENGTH, AtomicAckEth.LENGTH, ImmDt.LENGTH, Ieth.LENGTH};

    private static final String[] OPERATION_NAMES = new String[32];

    static
    {
        OPERATION_NAMES[SEND_FIRST] = "SEND_FIRST";
        OPERATION_NAMES[SEND_MIDDLE] = "SEND_MIDDLE";
        OPERATION_NAMES[SEND_LAST] = "SEND_LAST";
        OPERATION_NAMES[SEND_LAST_WITH_IMMEDIATE] = "SEND_LAST_WITH_IMMEDIATE";
        OPERATION_NAMES[SEND_ONLY] = "SEND_ONLY";
        OPERATION_NAMES[SEND_ONLY_WITH_IMMEDIATE] = "SEND_ONLY_WITH_IMMEDIATE";
        OPERATION_NAMES[RDMA_WRITE_FIRST] = "RDMA_WRITE_FIRST";
        OPERATION_NAMES[RDMA_WRITE_MIDDLE] = "RDMA_WRITE_MIDDLE";
        OPERATION_NAMES[RDMA_WRITE_LAST] = "RDMA_WRITE_LAST";
        OPERATION_NAMES[RDMA_WRITE_LAST_WITH_IMMEDIATE] = "RDMA_WRITE_LAST_WITH_IMMEDIATE";
        OPERATION_NAMES[RDMA_WRITE_ONLY] = "RDMA_WRITE_ONLY";
        OPERATION_NAMES[RDMA_WRITE_ONLY_WITH_IMMEDIATE] = "RDMA_WRITE_ONLY_WITH_IMMEDIATE";
        OPERATION_NAMES[RDMA_READ_REQUEST] = "RDMA_READ_REQUEST";
        OPERATION_NAMES[RDMA_READ_RESPONSE_FIRST] = "RDMA_READ_RESPONSE_FIRST";
        OPERATION_NAMES[RDMA_READ_RESPONSE_MIDDLE] = "RDMA_READ_RESPONSE_MIDDLE";
        OPERATION_NAMES[RDMA_READ_RESPONSE_LAST] = "RDMA_READ_RESPONSE_LAST";
        OPERATION_NAMES[RDMA_READ_RESPONSE_ONLY] = "RDMA_READ_RESPONSE_ONLY";
        OPERATION_NAMES[ACKNOWLEDGE] = "ACKNOWLEDGE";
        OPERATION_NAMES[ATOMIC_ACKNOWLEDGE] = "ATOMIC_ACKNOWLEDGE";
        OPERATION_NAMES[COMPARE_SWAP] = "COMPARE_SWAP";
        OPERATION_NAMES[FETCH_ADD] = "FETCH_ADD";
        OPERATION_NAMES[SEND_LAST_WITH_INVALIDATE] = "SEND_LAST_WITH_INVALIDATE";
        OPERATION_NAMES[SEND_ONLY_WITH_INVALIDATE] = "SEND_ONLY_WITH_INVALIDATE";
        OPERATION_NAMES[FLUSH] = "FLUSH";
        OPERATION_NAMES[ATOMIC_WRITE] = "ATOMIC_WRITE";
    }

    private OpcodeTable()
    {
    }

    /** Operation masks shared by RC and UC: SEND and RDMA WRITE families (rxe_opcode.c). */
    private static int sendWriteMask(final int operation)
    {
        switch (operation)
        {
            case SEND_FIRST:
                return PAYLOAD_MASK | REQ_MASK | SEND_MASK | RWR_MASK | START_MASK;
            case SEND_MIDDLE:
                return PAYLOAD_MASK | REQ_MASK | SEND_MASK | MIDDLE_MASK;
            case SEND_LAST:
                return PAYLOAD_MASK | REQ_MASK | SEND_MASK | COMP_MASK | END_MASK;
            case SEND_LAST_WITH_IMMEDIATE:
                return IMMDT_MASK | PAYLOAD_MASK | REQ_MASK | SEND_MASK | COMP_MASK | END_MASK;
            case SEND_ONLY:
                return PAYLOAD_MASK | REQ_MASK | SEND_MASK | RWR_MASK | COMP_MASK | START_MASK | END_MASK;
            case SEND_ONLY_WITH_IMMEDIATE:
                return IMMDT_MASK | PAYLOAD_MASK | REQ_MASK | SEND_MASK | RWR_MASK | COMP_MASK | START_MASK |
                    END_MASK;
            case RDMA_WRITE_FIRST:
                return RETH_MASK | PAYLOAD_MASK | REQ_MASK | WRITE_MASK | START_MASK;
            case RDMA_WRITE_MIDDLE:
                return PAYLOAD_MASK | REQ_MASK | WRITE_MASK | MIDDLE_MASK;
            case RDMA_WRITE_LAST:
                return PAYLOAD_MASK | REQ_MASK | WRITE_MASK | END_MASK;
            case RDMA_WRITE_LAST_WITH_IMMEDIATE:
                return IMMDT_MASK | PAYLOAD_MASK | REQ_MASK | WRITE_MASK | RWR_MASK | COMP_MASK | END_MASK;
            case RDMA_WRITE_ONLY:
                return RETH_MASK | PAYLOAD_MASK | REQ_MASK | WRITE_MASK | START_MASK | END_MASK;
            case RDMA_WRITE_ONLY_WITH_IMMEDIATE:
                return RETH_MASK | IMMDT_MASK | PAYLOAD_MASK | REQ_MASK | WRITE_MASK | RWR_MASK | COMP_MASK |
                    START_MASK | END_MASK;
            default:
                return 0;
        }
    }

    /** Masks of the RC-only operations. */
    private static int rcOnlyMask(final int operation)
    {
        switch (operation)
        {
            case RDMA_READ_REQUEST:
                return RETH_MASK | REQ_MASK | READ_MASK | START_MASK | END_MASK;
            case RDMA_READ_RESPONSE_FIRST:
                return AETH_MASK | PAYLOAD_MASK | RESP_MASK | READ_RESP_MASK | START_MASK;
            case RDMA_READ_RESPONSE_MIDDLE:
                return PAYLOAD_MASK | RESP_MASK | READ_RESP_MASK | MIDDLE_MASK;
            case RDMA_READ_RESPONSE_LAST:
                return AETH_MASK | PAYLOAD_MASK | RESP_MASK | READ_RESP_MASK | END_MASK;
            case RDMA_READ_RESPONSE_ONLY:
                return AETH_MASK | PAYLOAD_MASK | RESP_MASK | READ_RESP_MASK | START_MASK | END_MASK;
            case ACKNOWLEDGE:
                return AETH_MASK | RESP_MASK | ACK_MASK | START_MASK | END_MASK;
            case ATOMIC_ACKNOWLEDGE:
                return AETH_MASK | ATMACK_MASK | RESP_MASK | ACK_MASK | START_MASK | END_MASK;
            case COMPARE_SWAP:
            case FETCH_ADD:
                return ATMETH_MASK | REQ_MASK | ATOMIC_MASK | START_MASK | END_MASK;
            case SEND_LAST_WITH_INVALIDATE:
                return IETH_MASK | PAYLOAD_MASK | REQ_MASK | SEND_MASK | COMP_MASK | END_MASK;
            case SEND_ONLY_WITH_INVALIDATE:
                return IETH_MASK | PAYLOAD_MASK | REQ_MASK | SEND_MASK | RWR_MASK | COMP_MASK | START_MASK |
                    END_MASK;
            case FLUSH:
                return FETH_MASK | RETH_MASK | REQ_MASK | FLUSH_MASK | START_MASK | END_MASK;
            case ATOMIC_WRITE:
                // 8 bytes of payload, the value to write (Annex A19)
                return RETH_MASK | PAYLOAD_MASK | REQ_MASK | ATOMIC_WRITE_MASK | START_MASK | END_MASK;
            default:
                return 0;
        }
    }

    static void fill(
        final boolean[] valid,
        final String[] names,
        final int[] masks,
        final int[] headerLengths,
        final byte[] offsets,
        final int headerTypes)
    {
        for (int op = 0; op < 256; op++)
        {
            names[op] = String.format("INVALID_0x%02X", op);
        }
        for (int operation = 0; operation < 32; operation++)
        {
            final int sendWrite = sendWriteMask(operation);
            final int rcMask = 0 != sendWrite ? sendWrite : rcOnlyMask(operation);
            define(QP_RC << 5 | operation, "RC_", rcMask | (0 != (rcMask & REQ_MASK) ? REQUIRES_ACK_MASK : 0),
                valid, names, masks, headerLengths, offsets, headerTypes);
            define(QP_UC << 5 | operation, "UC_", sendWrite, valid, names, masks, headerLengths, offsets,
                headerTypes);
            // IBA Table 35 XRC rows: the RC operations up to SEND with invalidate (0xA0-0xB7); requests carry the
            // XRCETH right after the BTH, responses (ACK, READ responses, atomic ACK) do not
            if (operation <= SEND_ONLY_WITH_INVALIDATE)
            {
                define(QP_XRC << 5 | operation, "XRC_", 0 == (rcMask & REQ_MASK) ? rcMask :
                    rcMask | REQUIRES_ACK_MASK | XRCETH_MASK, valid, names, masks, headerLengths, offsets,
                    headerTypes);
            }
        }
        define(UD_SEND_ONLY, "UD_", DETH_MASK | sendWriteMask(SEND_ONLY), valid, names, masks, headerLengths,
            offsets, headerTypes);
        define(UD_SEND_ONLY_WITH_IMMEDIATE, "UD_", DETH_MASK | sendWriteMask(SEND_ONLY_WITH_IMMEDIATE), valid,
            names, masks, headerLengths, offsets, headerTypes);

        valid[CNP] = true;
        names[CNP] = "CNP";
        masks[CNP] = CNP_MASK | START_MASK | END_MASK;
        headerLengths[CNP] = Bth.LENGTH + CNP_RESERVED_LENGTH;
    }

    private static void define(
        final int opcode,
        final String prefix,
        final int mask,
        final boolean[] valid,
        final String[] names,
        final int[] masks,
        final int[] headerLengths,
        final byte[] offsets,
        final int headerTypes)
    {
        if (0 == mask)
        {
            return;
        }
        valid[opcode] = true;
        names[opcode] = prefix + OPERATION_NAMES[opcode & 0x1F];
        masks[opcode] = mask;
        int length = Bth.LENGTH;
        for (int i = 0; i < WIRE_ORDER.length; i++)
        {
            if (0 != (mask & WIRE_ORDER[i]))
            {
                offsets[opcode * headerTypes + Integer.numberOfTrailingZeros(WIRE_ORDER[i])] = (byte)length;
                length += WIRE_LENGTH[i];
            }
        }
        headerLengths[opcode] = length;
    }

    static void fillRequestOpcodes(
        final int[] table, final boolean[] valid, final int qpTypes, final int kinds, final int positions)
    {
        for (int qpType = 0; qpType < qpTypes; qpType++)
        {
            for (int kind = 0; kind < kinds; kind++)
            {
                // a kind exists on a QP type only if its ONLY packet does: UC has SEND_FIRST but no SEND with
                // invalidate, so even the FIRST of a UC SEND-with-invalidate is refused
                final boolean kindAllowed = valid[qpType << 5 | operation(kind, POS_ONLY)];
                for (int position = 0; position < positions; position++)
                {
                    final int operation = operation(kind, position);
                    final int opcode = qpType << 5 | operation;
                    final boolean allowed = kindAllowed && operation >= 0 && valid[opcode] &&
                        (QP_UD != qpType || POS_ONLY == position);
                    table[(qpType * kinds + kind) * positions + position] = allowed ? opcode : INVALID;
                }
            }
        }
    }

    /** Operation code of packet {@code position} of a message of {@code kind}, -1 if there is none. */
    private static int operation(final int kind, final int position)
    {
        switch (kind)
        {
            case KIND_SEND:
                return pick(position, SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY);
            case KIND_SEND_WITH_IMM:
                return pick(position, SEND_FIRST, SEND_MIDDLE, SEND_LAST_WITH_IMMEDIATE, SEND_ONLY_WITH_IMMEDIATE);
            case KIND_SEND_WITH_INV:
                return pick(position, SEND_FIRST, SEND_MIDDLE, SEND_LAST_WITH_INVALIDATE, SEND_ONLY_WITH_INVALIDATE);
            case KIND_WRITE:
                return pick(position, RDMA_WRITE_FIRST, RDMA_WRITE_MIDDLE, RDMA_WRITE_LAST, RDMA_WRITE_ONLY);
            case KIND_WRITE_WITH_IMM:
                return pick(position, RDMA_WRITE_FIRST, RDMA_WRITE_MIDDLE, RDMA_WRITE_LAST_WITH_IMMEDIATE,
                    RDMA_WRITE_ONLY_WITH_IMMEDIATE);
            case KIND_READ:
                return POS_ONLY == position ? RDMA_READ_REQUEST : -1;
            case KIND_COMPARE_SWAP:
                return POS_ONLY == position ? COMPARE_SWAP : -1;
            case KIND_FETCH_ADD:
                return POS_ONLY == position ? FETCH_ADD : -1;
            case KIND_FLUSH:
                return POS_ONLY == position ? FLUSH : -1;
            case KIND_ATOMIC_WRITE:
                return POS_ONLY == position ? ATOMIC_WRITE : -1;
            default:
                return -1;
        }
    }

    private static int pick(final int position, final int first, final int middle, final int last, final int only)
    {
        switch (position)
        {
            case POS_FIRST:
                return first;
            case POS_MIDDLE:
                return middle;
            case POS_LAST:
                return last;
            default:
                return only;
        }
    }
}
