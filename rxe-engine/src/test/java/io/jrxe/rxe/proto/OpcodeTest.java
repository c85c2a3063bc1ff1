package io.jrxe.rxe.proto;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;

import static io.jrxe.rxe.proto.Opcode.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpcodeTest
{
    /**
     * Every valid opcode: "opcode headerLength header:offset ..." written out from rxe_opcode.c, independent of the
     * derivation in OpcodeTable.
     */
    private static final String[] TABLE =
    {
        "0x00 12", "0x01 12", "0x02 12", "0x03 16 IMMDT:12", "0x04 12", "0x05 16 IMMDT:12",
        "0x06 28 RETH:12", "0x07 12", "0x08 12", "0x09 16 IMMDT:12", "0x0A 28 RETH:12",
        "0x0B 32 RETH:12 IMMDT:28", "0x0C 28 RETH:12",
        "0x0D 16 AETH:12", "0x0E 12", "0x0F 16 AETH:12", "0x10 16 AETH:12", "0x11 16 AETH:12",
        "0x12 24 AETH:12 ATMACK:16", "0x13 40 ATMETH:12", "0x14 40 ATMETH:12",
        "0x16 16 IETH:12", "0x17 16 IETH:12", "0x1C 32 FETH:12 RETH:16", "0x1D 28 RETH:12",
        "0x20 12", "0x21 12", "0x22 12", "0x23 16 IMMDT:12", "0x24 12", "0x25 16 IMMDT:12",
        "0x26 28 RETH:12", "0x27 12", "0x28 12", "0x29 16 IMMDT:12", "0x2A 28 RETH:12",
        "0x2B 32 RETH:12 IMMDT:28",
        "0x64 20 DETH:12", "0x65 24 DETH:12 IMMDT:20",
        "0xA0 16 XRCETH:12", "0xA1 16 XRCETH:12", "0xA2 16 XRCETH:12", "0xA3 20 XRCETH:12 IMMDT:16",
        "0xA4 16 XRCETH:12", "0xA5 20 XRCETH:12 IMMDT:16", "0xA6 32 XRCETH:12 RETH:16", "0xA7 16 XRCETH:12",
        "0xA8 16 XRCETH:12", "0xA9 20 XRCETH:12 IMMDT:16", "0xAA 32 XRCETH:12 RETH:16",
        "0xAB 36 XRCETH:12 RETH:16 IMMDT:32", "0xAC 32 XRCETH:12 RETH:16",
        "0xAD 16 AETH:12", "0xAE 12", "0xAF 16 AETH:12", "0xB0 16 AETH:12", "0xB1 16 AETH:12",
        "0xB2 24 AETH:12 ATMACK:16", "0xB3 44 XRCETH:12 ATMETH:16", "0xB4 44 XRCETH:12 ATMETH:16",
        "0xB6 20 XRCETH:12 IETH:16", "0xB7 20 XRCETH:12 IETH:16",
        "0x81 28"
    };

    private static final Map<String, Integer> HEADER_BITS = Map.of(
        "RETH", RETH_MASK, "AETH", AETH_MASK, "ATMETH", ATMETH_MASK, "ATMACK", ATMACK_MASK,
        "IMMDT", IMMDT_MASK, "IETH", IETH_MASK, "DETH", DETH_MASK, "FETH", FETH_MASK, "XRCETH", XRCETH_MASK);

    @Test
    void shouldHaveExactHeaderLengthsOffsetsAndMasksForEveryValidOpcode()
    {
        final Map<Integer, String> expected = new HashMap<>();
        for (final String row : TABLE)
        {
            expected.put(Integer.decode(row.split(" ")[0]), row);
        }
        for (int op = 0; op < 256; op++)
        {
            final String row = expected.get(op);
            if (null == row)
            {
                assertFalse(isValid(op), name(op) + " must be invalid");
                assertEquals(0, mask(op));
                assertEquals(0, headerLength(op));
                assertTrue(name(op).startsWith("INVALID_0x"));
                continue;
            }
            assertTrue(isValid(op), String.format("0x%02X must be valid", op));
            final String[] parts = row.split(" ");
            assertEquals(Integer.parseInt(parts[1]), headerLength(op), name(op));
            int headers = 0;
            for (int i = 2; i < parts.length; i++)
            {
                final String[] kv = parts[i].split(":");
                final int bit = HEADER_BITS.get(kv[0]);
                headers |= bit;
                assertEquals(Integer.parseInt(kv[1]), offset(op, bit), name(op) + " " + kv[0]);
            }
            assertEquals(headers, mask(op) & HEADER_MASKS, name(op) + " header mask");
            for (final int bit : HEADER_BITS.values())
            {
                if (0 == (headers & bit))
                {
                    assertEquals(-1, offset(op, bit), name(op));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0x15, 0x18, 0x19, 0x1A, 0x1B, 0x1E, 0x1F, 0x2C, 0x2D, 0x30, 0x36, 0x37, 0x3C, 0x40, 0x44,
        0x60, 0x63, 0x66, 0x80, 0x82, 0xFF, -1, 256, 0x104})
    void shouldRejectInvalidOpcodes(final int opcode)
    {
        assertFalse(isValid(opcode));
        assertFalse(isValidNext(NONE, opcode));
    }

    @Test
    void shouldNameOpcodesLikeRxe()
    {
        assertEquals("RC_SEND_FIRST", name(RC_SEND_FIRST));
        assertEquals("RC_RDMA_READ_RESPONSE_MIDDLE", name(RC_RDMA_READ_RESPONSE_MIDDLE));
        assertEquals("UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", name(UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE));
        assertEquals("UD_SEND_ONLY_WITH_IMMEDIATE", name(UD_SEND_ONLY_WITH_IMMEDIATE));
        assertEquals("RC_SEND_ONLY_WITH_INVALIDATE", name(RC_SEND_ONLY_WITH_INVALIDATE));
        assertEquals("RC_FLUSH", name(RC_FLUSH));
        assertEquals("RC_ATOMIC_WRITE", name(RC_ATOMIC_WRITE));
        assertEquals("CNP", name(CNP));
        assertEquals("INVALID_0x15", name(0x15));
    }

    @Test
    void shouldClassifyOpcodes()
    {
        assertEquals(QP_RC, qpType(RC_ACKNOWLEDGE));
        assertEquals(QP_UC, qpType(UC_SEND_ONLY));
        assertEquals(QP_UD, qpType(UD_SEND_ONLY));
        assertEquals(QP_CNP, qpType(CNP));

        assertTrue(isRequest(RC_SEND_FIRST) && !isResponse(RC_SEND_FIRST));
        assertTrue(isResponse(RC_RDMA_READ_RESPONSE_MIDDLE) && !isRequest(RC_RDMA_READ_RESPONSE_MIDDLE));
        assertTrue(isReadResponse(RC_RDMA_READ_RESPONSE_ONLY));
        assertTrue(isAck(RC_ACKNOWLEDGE) && isAck(RC_ATOMIC_ACKNOWLEDGE) && !isAck(RC_RDMA_READ_RESPONSE_ONLY));
        assertFalse(isRequest(CNP) || isResponse(CNP) || hasPayload(CNP));
        assertTrue(0 != (mask(CNP) & CNP_MASK));

        assertTrue(isFirst(RC_SEND_FIRST) && !isOnly(RC_SEND_FIRST));
        assertTrue(isMiddle(UC_RDMA_WRITE_MIDDLE));
        assertTrue(isLast(RC_SEND_LAST_WITH_INVALIDATE) && isEndOfMessage(RC_SEND_LAST_WITH_INVALIDATE));
        assertTrue(isOnly(RC_RDMA_READ_REQUEST) && isOnly(RC_ACKNOWLEDGE) && isOnly(UD_SEND_ONLY));
        assertTrue(isStartOfMessage(RC_RDMA_READ_RESPONSE_FIRST));

        assertTrue(requiresAck(RC_SEND_MIDDLE) && requiresAck(RC_FLUSH) && requiresAck(RC_COMPARE_SWAP));
        assertFalse(requiresAck(UC_SEND_ONLY) || requiresAck(UD_SEND_ONLY) || requiresAck(RC_ACKNOWLEDGE));

        assertTrue(isSend(UC_SEND_LAST_WITH_IMMEDIATE) && isSend(UD_SEND_ONLY));
        assertTrue(isWrite(RC_RDMA_WRITE_LAST_WITH_IMMEDIATE));
        assertTrue(isRead(RC_RDMA_READ_REQUEST) && !isRead(RC_RDMA_READ_RESPONSE_FIRST));
        assertTrue(isAtomic(RC_FETCH_ADD) && isAtomic(RC_COMPARE_SWAP) && !isAtomic(RC_ATOMIC_ACKNOWLEDGE));
        assertTrue(0 != (mask(RC_FLUSH) & FLUSH_MASK) && 0 != (mask(RC_ATOMIC_WRITE) & ATOMIC_WRITE_MASK));

        assertTrue(hasPayload(RC_ATOMIC_WRITE) && hasPayload(RC_RDMA_READ_RESPONSE_MIDDLE));
        assertFalse(hasPayload(RC_RDMA_READ_REQUEST) || hasPayload(RC_ACKNOWLEDGE) || hasPayload(RC_FLUSH));

        assertTrue(0 != (mask(RC_SEND_FIRST) & RWR_MASK) && 0 == (mask(RC_SEND_FIRST) & COMP_MASK));
        assertTrue(0 != (mask(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE) & (RWR_MASK | COMP_MASK)));
        assertEquals(0, mask(RC_RDMA_WRITE_ONLY) & (RWR_MASK | COMP_MASK));
    }

    @Test
    void shouldAcceptLegalRequestSequences()
    {
        assertSequence(true, NONE, RC_SEND_FIRST, RC_SEND_MIDDLE, RC_SEND_MIDDLE, RC_SEND_LAST_WITH_INVALIDATE,
            RC_RDMA_WRITE_FIRST, RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, RC_RDMA_READ_REQUEST, RC_FETCH_ADD,
            RC_SEND_ONLY, RC_RDMA_WRITE_FIRST, RC_RDMA_WRITE_LAST, RC_FLUSH, RC_ATOMIC_WRITE);
        assertSequence(true, NONE, UC_SEND_FIRST, UC_SEND_LAST_WITH_IMMEDIATE, UC_RDMA_WRITE_ONLY);
        assertSequence(true, NONE, UD_SEND_ONLY, UD_SEND_ONLY_WITH_IMMEDIATE, UD_SEND_ONLY);
        assertSequence(true, NONE, RC_RDMA_READ_RESPONSE_FIRST, RC_RDMA_READ_RESPONSE_MIDDLE,
            RC_RDMA_READ_RESPONSE_LAST, RC_ACKNOWLEDGE, RC_RDMA_READ_RESPONSE_ONLY, RC_ATOMIC_ACKNOWLEDGE);
    }

    @Test
    void shouldRejectIllegalSequences()
    {
        // a message in progress must continue with MIDDLE/LAST of the same operation
        assertFalse(isValidNext(RC_SEND_FIRST, RC_SEND_ONLY));
        assertFalse(isValidNext(RC_SEND_FIRST, RC_SEND_FIRST));
        assertFalse(isValidNext(RC_SEND_MIDDLE, RC_RDMA_WRITE_MIDDLE));
        assertFalse(isValidNext(RC_SEND_FIRST, RC_RDMA_WRITE_LAST));
        assertFalse(isValidNext(RC_RDMA_WRITE_FIRST, RC_SEND_LAST));
        assertFalse(isValidNext(RC_RDMA_WRITE_MIDDLE, RC_RDMA_READ_REQUEST));
        assertFalse(isValidNext(UC_SEND_FIRST, UC_RDMA_WRITE_ONLY));
        assertFalse(isValidNext(RC_RDMA_READ_RESPONSE_FIRST, RC_RDMA_READ_RESPONSE_ONLY));
        assertFalse(isValidNext(RC_RDMA_READ_RESPONSE_MIDDLE, RC_ACKNOWLEDGE));
        // no message in progress: MIDDLE and LAST are out of sequence
        assertFalse(isValidNext(NONE, RC_SEND_MIDDLE));
        assertFalse(isValidNext(RC_SEND_LAST, RC_SEND_LAST));
        assertFalse(isValidNext(RC_RDMA_WRITE_ONLY, RC_RDMA_WRITE_MIDDLE));
        assertFalse(isValidNext(UC_SEND_ONLY, UC_RDMA_WRITE_LAST_WITH_IMMEDIATE));
        assertFalse(isValidNext(NONE, RC_RDMA_READ_RESPONSE_LAST));
        // mixing transports on one QP
        assertFalse(isValidNext(RC_SEND_FIRST, UC_SEND_LAST));
        assertFalse(isValidNext(RC_SEND_ONLY, UC_SEND_ONLY));
        // invalid opcodes never follow anything
        assertFalse(isValidNext(RC_SEND_FIRST, 0x15));
        assertFalse(isValidNext(0x15, RC_SEND_ONLY));
    }

    @Test
    void shouldChooseRequestOpcodes()
    {
        assertEquals(RC_SEND_FIRST, requestOpcode(QP_RC, KIND_SEND_WITH_IMM, POS_FIRST));
        assertEquals(RC_SEND_MIDDLE, requestOpcode(QP_RC, KIND_SEND_WITH_INV, POS_MIDDLE));
        assertEquals(RC_SEND_LAST_WITH_IMMEDIATE, requestOpcode(QP_RC, KIND_SEND_WITH_IMM, POS_LAST));
        assertEquals(RC_SEND_ONLY_WITH_INVALIDATE, requestOpcode(QP_RC, KIND_SEND_WITH_INV, POS_ONLY));
        assertEquals(RC_RDMA_WRITE_LAST, requestOpcode(QP_RC, KIND_WRITE, POS_LAST));
        assertEquals(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, requestOpcode(QP_RC, KIND_WRITE_WITH_IMM, POS_ONLY));
        assertEquals(RC_RDMA_READ_REQUEST, requestOpcode(QP_RC, KIND_READ, POS_ONLY));
        assertEquals(RC_COMPARE_SWAP, requestOpcode(QP_RC, KIND_COMPARE_SWAP, POS_ONLY));
        assertEquals(RC_FETCH_ADD, requestOpcode(QP_RC, KIND_FETCH_ADD, POS_ONLY));
        assertEquals(RC_FLUSH, requestOpcode(QP_RC, KIND_FLUSH, POS_ONLY));
        assertEquals(RC_ATOMIC_WRITE, requestOpcode(QP_RC, KIND_ATOMIC_WRITE, POS_ONLY));
        assertEquals(UC_RDMA_WRITE_FIRST, requestOpcode(QP_UC, KIND_WRITE_WITH_IMM, POS_FIRST));
        assertEquals(UC_SEND_LAST, requestOpcode(QP_UC, KIND_SEND, POS_LAST));
        assertEquals(UD_SEND_ONLY, requestOpcode(QP_UD, KIND_SEND, POS_ONLY));
        assertEquals(UD_SEND_ONLY_WITH_IMMEDIATE, requestOpcode(QP_UD, KIND_SEND_WITH_IMM, POS_ONLY));

        assertEquals(INVALID, requestOpcode(QP_UC, KIND_READ, POS_ONLY));
        assertEquals(INVALID, requestOpcode(QP_UC, KIND_SEND_WITH_INV, POS_ONLY));
        assertEquals(INVALID, requestOpcode(QP_UC, KIND_SEND_WITH_INV, POS_FIRST));
        assertEquals(INVALID, requestOpcode(QP_UC, KIND_FETCH_ADD, POS_ONLY));
        assertEquals(INVALID, requestOpcode(QP_UD, KIND_SEND, POS_FIRST));
        assertEquals(INVALID, requestOpcode(QP_UD, KIND_WRITE, POS_ONLY));
        assertEquals(INVALID, requestOpcode(QP_RC, KIND_READ, POS_FIRST));
        assertEquals(INVALID, requestOpcode(QP_RD, KIND_SEND, POS_ONLY));
        assertEquals(INVALID, requestOpcode(QP_RC, 99, POS_ONLY));
        assertEquals(INVALID, requestOpcode(7, KIND_SEND, POS_ONLY));

        assertEquals(POS_FIRST, position(true, false));
        assertEquals(POS_MIDDLE, position(false, false));
        assertEquals(POS_LAST, position(false, true));
        assertEquals(POS_ONLY, position(true, true));
    }

    @Test
    void shouldProduceValidSequencesFromRequestOpcodes()
    {
        for (final int qp : new int[]{QP_RC, QP_UC})
        {
            for (int kind = KIND_SEND; kind <= KIND_WRITE_WITH_IMM; kind++)
            {
                final int first = requestOpcode(qp, kind, POS_FIRST);
                if (INVALID == first)
                {
                    continue;
                }
                assertSequence(true, NONE, first, requestOpcode(qp, kind, POS_MIDDLE),
                    requestOpcode(qp, kind, POS_LAST), requestOpcode(qp, kind, POS_ONLY));
            }
        }
    }

    private static void assertSequence(final boolean legal, final int start, final int... opcodes)
    {
        int prev = start;
        for (final int op : opcodes)
        {
            assertEquals(legal, isValidNext(prev, op), name(prev & 0xFF) + " -> " + name(op));
            prev = op;
        }
    }

    @Test
    void shouldLayOutXrcRequestsAsRcWithTheXrcethAfterTheBth()
    {
        // IBA Table 35: XRC opcode = 101 prefix | RC operation, SEND_FIRST 0xA0 .. SEND_ONLY_WITH_INVALIDATE 0xB7
        assertEquals("XRC_SEND_FIRST", name(0xA0));
        assertEquals("XRC_SEND_ONLY_WITH_INVALIDATE", name(0xB7));
        for (int operation = 0; operation < 32; operation++)
        {
            final int rc = operation;
            final int xrc = QP_XRC << 5 | operation;
            assertEquals(QP_XRC, qpType(xrc));
            if (!isValid(rc) || operation > SEND_ONLY_WITH_INVALIDATE)
            {
                assertFalse(isValid(xrc), name(xrc));
                continue;
            }
            assertTrue(isValid(xrc), name(rc));
            if (0 != (mask(rc) & REQ_MASK))
            {
                // | BTH 12 | XRCETH 4 | RETH/AtomicETH | ImmDt/IETH | payload |: every header 4 bytes later
                assertEquals(Bth.LENGTH, xrcethOffset(xrc), name(xrc));
                assertEquals(headerLength(rc) + Xrceth.LENGTH, headerLength(xrc), name(xrc));
                assertEquals(mask(rc) | XRCETH_MASK, mask(xrc), name(xrc));
                for (final int header : new int[] {RETH_MASK, ATMETH_MASK, IMMDT_MASK, IETH_MASK})
                {
                    final int at = offset(rc, header);
                    assertEquals(at < 0 ? -1 : at + Xrceth.LENGTH, offset(xrc, header), name(xrc));
                }
            }
            else
            {
                // responses carry no XRCETH
                assertEquals(-1, xrcethOffset(xrc), name(xrc));
                assertEquals(headerLength(rc), headerLength(xrc), name(xrc));
                assertEquals(mask(rc), mask(xrc), name(xrc));
            }
        }
        assertEquals(Bth.LENGTH + Xrceth.LENGTH + Reth.LENGTH, headerLength(0xA6), "XRC RDMA WRITE FIRST");
        assertEquals(Bth.LENGTH + Xrceth.LENGTH + AtomicEth.LENGTH, headerLength(0xB3), "XRC CmpSwap");
        assertEquals(0xA4, requestOpcode(QP_XRC, KIND_SEND, POS_ONLY));
        assertEquals(0xB7, requestOpcode(QP_XRC, KIND_SEND_WITH_INV, POS_ONLY));
        assertEquals(INVALID, requestOpcode(QP_XRC, KIND_FLUSH, POS_ONLY));
        assertEquals(-1, xrcethOffset(RC_SEND_ONLY));
    }
}
