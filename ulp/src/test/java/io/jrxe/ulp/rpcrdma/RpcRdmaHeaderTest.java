package io.jrxe.ulp.rpcrdma;

import io.jrxe.ulp.xdr.XdrBytes;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.jrxe.ulp.xdr.XdrBytes.assertBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RpcRdmaHeader.decode on RPC-over-RDMA v1 transport headers written out by hand from RFC 8166 §4.2-4.3 and §5
 * (xid, vers, credit, proc, then for RDMA_MSG and RDMA_NOMSG the Read list of {1, position, segment}, the Write
 * list of {1, counted segments} and the optional Reply chunk), and the static encoders against the same bytes.
 */
class RpcRdmaHeaderTest
{
    private static final String MSG = "12345678 00000001 00000020 00000000 ";
    private static final String NOMSG = "12345678 00000001 00000020 00000001 ";
    private static final String ERROR = "12345678 00000001 00000020 00000004 ";

    private final RpcRdmaHeader header = new RpcRdmaHeader();
    private final XdrDecoder dec = new XdrDecoder();

    /** Decode the header at offset 12 of a buffer that starts and ends with other bytes. */
    private int decode(final String hex)
    {
        final byte[] bytes = XdrBytes.hex(hex);
        final byte[] framed = new byte[12 + bytes.length + 12];
        Arrays.fill(framed, (byte)0x5A);
        System.arraycopy(bytes, 0, framed, 12, bytes.length);
        final int verdict = header.decode(dec.wrap(new UnsafeBuffer(framed), 12, bytes.length));
        if (RpcRdmaHeader.OK == verdict)
        {
            assertNull(header.problem());
            assertEquals(12 + header.length(), dec.position(), "the decoder is left just past the header");
        }
        else
        {
            assertNotNull(header.problem());
        }
        return verdict;
    }

    private static String segment(final int handle, final int length, final long offset)
    {
        return String.format("%08x %08x %016x ", handle, length, offset);
    }

    private static String readSegment(final int position, final int handle, final int length, final long offset)
    {
        return String.format("00000001 %08x ", position) + segment(handle, length, offset);
    }

    // ---- RDMA_MSG / RDMA_NOMSG -----------------------------------------------------------------------------

    @Test
    void msgWithoutChunks()
    {
        assertEquals(RpcRdmaHeader.OK, decode(MSG + "00000000 00000000 00000000 | 0000abcd 00000000 00000002"));
        assertEquals(0x1234_5678, header.xid());
        assertEquals(RpcRdma.VERSION, header.version());
        assertEquals(32, header.credit());
        assertEquals(RpcRdma.RDMA_MSG, header.proc());
        assertEquals(RpcRdma.MIN_HEADER, header.length());
        final ChunkLists lists = header.lists();
        assertEquals(0, lists.readCount());
        assertEquals(0, lists.writeChunkCount());
        assertFalse(lists.hasReplyChunk());
        assertEquals(-1, lists.replySegments());
        assertEquals(0xabcd, dec.getInt(), "the RPC message follows");
    }

    @Test
    void msgWithAReadList()
    {
        // a chunk of two segments at XDR position 0x40, one of one segment at 0x80
        assertEquals(RpcRdmaHeader.OK, decode(MSG +
            readSegment(0x40, 0x1111_1111, 0x1000, 0xA000_0000L) +
            readSegment(0x40, 0x2222_2222, 0x0800, 0xB000_0000L) +
            readSegment(0x80, 0x3333_3333, 4, 0x1_0000_0000L) +
            "00000000 | 00000000 | 00000000"));
        assertEquals(28 + 3 * 24, header.length());
        final ChunkLists lists = header.lists();
        assertEquals(3, lists.readCount());
        assertEquals(0x40, lists.readPosition(0));
        assertEquals(0x1111_1111, lists.readHandle(0));
        assertEquals(0x1000, lists.readLength(0));
        assertEquals(0xA000_0000L, lists.readOffset(0));
        assertEquals(0x40, lists.readPosition(1));
        assertEquals(0x2222_2222, lists.readHandle(1));
        assertEquals(0x800, lists.readLength(1));
        assertEquals(0xB000_0000L, lists.readOffset(1));
        assertEquals(0x80, lists.readPosition(2));
        assertEquals(0x1_0000_0000L, lists.readOffset(2));
        assertEquals(2, lists.readChunkSegments(0));
        assertEquals(1, lists.readChunkSegments(1));
        assertEquals(1, lists.readChunkSegments(2));
        assertEquals(0, lists.writeChunkCount());
        assertFalse(lists.hasReplyChunk());
    }

    @Test
    void msgWithAWriteListAndAReplyChunk()
    {
        assertEquals(RpcRdmaHeader.OK, decode(MSG + "00000000 | " +
            "00000001 00000002 " + segment(0xA1, 0x2000, 0x1000) + segment(0xA2, 0xFFFF_FFF0, 0x3000) +
            "00000001 00000001 " + segment(0xB1, 0x100, 0xFFFF_FFFF_FFFF_0000L) +
            "00000000 | " +
            "00000001 00000001 " + segment(0xC1, 0x4000, 0x7000)));
        assertEquals(16 + 4 + (8 + 32) + (8 + 16) + 4 + (8 + 16), header.length());
        final ChunkLists lists = header.lists();
        assertEquals(0, lists.readCount());
        assertEquals(2, lists.writeChunkCount());
        assertEquals(0, lists.writeFirst(0));
        assertEquals(2, lists.writeSegments(0));
        assertEquals(2, lists.writeFirst(1));
        assertEquals(1, lists.writeSegments(1));
        assertTrue(lists.hasReplyChunk());
        assertEquals(3, lists.replyFirst());
        assertEquals(1, lists.replySegments());
        assertEquals(0xA1, lists.segHandle(0));
        assertEquals(0x2000, lists.segLength(0));
        assertEquals(0x1000, lists.segOffset(0));
        assertEquals(0xA2, lists.segHandle(1));
        assertEquals(0xFFFF_FFF0, lists.segLength(1));
        assertEquals(0xB1, lists.segHandle(2));
        assertEquals(0xFFFF_FFFF_FFFF_0000L, lists.segOffset(2));
        assertEquals(0xC1, lists.segHandle(3));
        assertEquals(0x4000, lists.segLength(3));
        assertEquals(0x7000, lists.segOffset(3));
        assertEquals(0x2000L + 0xFFFF_FFF0L, lists.totalLength(0, 2), "segment lengths are unsigned");
        assertEquals(0x4000, lists.totalLength(lists.replyFirst(), lists.replySegments()));
    }

    @Test
    void nomsgWithAPositionZeroReadChunkAndAReplyChunk()
    {
        assertEquals(RpcRdmaHeader.OK, decode(NOMSG +
            readSegment(0, 7, 0x2000, 0x10_0000) + readSegment(0, 8, 0x10, 0x20_0000) + "00000000 | " +
            "00000000 | 00000001 00000002 " + segment(9, 0x1000, 0x30_0000) + segment(10, 0x1000, 0x40_0000)));
        assertEquals(RpcRdma.RDMA_NOMSG, header.proc());
        final ChunkLists lists = header.lists();
        assertEquals(2, lists.readCount());
        assertEquals(0, lists.readPosition(0));
        assertEquals(2, lists.readChunkSegments(0));
        assertEquals(0, lists.replyFirst());
        assertEquals(2, lists.replySegments());
        assertEquals(0x2000, lists.totalLength(0, 2));
    }

    @Test
    void aWriteChunkOrReplyChunkOfNoSegments()
    {
        assertEquals(RpcRdmaHeader.OK, decode(MSG + "00000000 | 00000001 00000000 00000000 | 00000001 00000000"));
        assertEquals(1, header.lists().writeChunkCount());
        assertEquals(0, header.lists().writeSegments(0));
        assertTrue(header.lists().hasReplyChunk());
        assertEquals(0, header.lists().replySegments());
        assertEquals(16 + 4 + 8 + 4 + 8, header.length());
    }

    @Test
    void aNewDecodeForgetsTheLastHeadersLists()
    {
        assertEquals(RpcRdmaHeader.OK, decode(MSG + readSegment(0, 1, 4, 0) + "00000000 | " +
            "00000001 00000001 " + segment(1, 1, 1) + "00000000 | 00000001 00000001 " + segment(2, 2, 2)));
        assertEquals(1, header.lists().readCount());
        assertEquals(RpcRdmaHeader.OK, decode(MSG + "00000000 00000000 00000000"));
        assertEquals(0, header.lists().readCount());
        assertEquals(0, header.lists().writeChunkCount());
        assertFalse(header.lists().hasReplyChunk());
        // and after a refused header too
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + readSegment(4, 1, 4, 0) + readSegment(0, 1, 4, 0)));
        assertEquals(RpcRdmaHeader.OK, decode(MSG + "00000000 00000000 00000000"));
        assertEquals(0, header.lists().readCount());
    }

    // ---- RDMA_ERROR ----------------------------------------------------------------------------------------

    @Test
    void errVersAndErrChunk()
    {
        assertEquals(RpcRdmaHeader.OK, decode(ERROR + "00000001 | 00000001 00000001"));
        assertEquals(RpcRdma.RDMA_ERROR, header.proc());
        assertEquals(RpcRdma.ERR_VERS, header.errCode());
        assertEquals(1, header.errLow());
        assertEquals(1, header.errHigh());
        assertEquals(RpcRdma.ERR_VERS_HEADER, header.length());

        assertEquals(RpcRdmaHeader.OK, decode(ERROR + "00000002"));
        assertEquals(RpcRdma.ERR_CHUNK, header.errCode());
        assertEquals(RpcRdma.ERR_CHUNK_HEADER, header.length());
    }

    @Test
    void malformedErrors()
    {
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(ERROR + "00000003"));
        assertTrue(header.problem().contains("RDMA_ERROR code 3"), header.problem());
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(ERROR)); // no code
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(ERROR + "00000001 00000001")); // ERR_VERS without high
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(ERROR + "00000000"));
    }

    // ---- the fixed part ------------------------------------------------------------------------------------

    @Test
    void otherVersionsAreBadVersionWithTheXid()
    {
        for (final String version : new String[] {"00000000", "00000002", "ffffffff", "01000000"})
        {
            assertEquals(RpcRdmaHeader.BAD_VERSION, decode("0000cafe " + version + " 00000001 00000000"));
            assertEquals(0xcafe, header.xid(), "ERR_VERS answers with the xid");
            assertEquals((int)Long.parseLong(version, 16), header.version());
        }
        // nothing after the version is looked at: a v2 header with anything after it
        assertEquals(RpcRdmaHeader.BAD_VERSION, decode("0000cafe 00000002 00000001 00000009 ffffffff"));
    }

    @Test
    void obsoleteAndUnknownProceduresAreBadChunk()
    {
        final String lists = " 00000000 00000000 00000000";
        for (final int proc : new int[] {RpcRdma.RDMA_MSGP, RpcRdma.RDMA_DONE, 5, -1, 0x100})
        {
            assertEquals(RpcRdmaHeader.BAD_CHUNK,
                decode(String.format("00000001 00000001 00000001 %08x", proc) + lists), "proc " + proc);
            assertTrue(header.problem().contains(RpcRdma.procName(proc)), header.problem());
        }
        assertEquals("RDMA_MSGP", RpcRdma.procName(2));
        assertEquals("RDMA_DONE", RpcRdma.procName(3));
    }

    @Test
    void shorterThanSixteenBytesIsDropped()
    {
        final byte[] fixed = XdrBytes.hex(MSG);
        for (int n = 0; n < 16; n++)
        {
            assertEquals(RpcRdmaHeader.DROP, header.decode(dec.wrap(new UnsafeBuffer(fixed), 0, n)), n + " bytes");
            assertEquals(0, dec.position(), "nothing read");
        }
        // sixteen bytes carry an xid: a MSG without its lists is answered ERR_CHUNK
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG));
        assertEquals(0x1234_5678, header.xid());
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 00000000"));
    }

    // ---- malformed lists -----------------------------------------------------------------------------------

    @Test
    void listsThatOverrunTheMessage()
    {
        final String read = readSegment(0, 1, 4, 0); // 24 bytes
        final byte[] full = XdrBytes.hex(MSG + read + "00000000 00000000 00000000");
        for (int n = 16; n < full.length; n++)
        {
            assertEquals(RpcRdmaHeader.BAD_CHUNK, header.decode(dec.wrap(new UnsafeBuffer(full), 0, n)), n + " bytes");
        }
        assertEquals(RpcRdmaHeader.OK, header.decode(dec.wrap(new UnsafeBuffer(full), 0, full.length)));

        // a Write chunk that says 3 segments and carries 2
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 | 00000001 00000003 " + segment(1, 1, 1) +
            segment(2, 2, 2)));
        assertTrue(header.problem().contains("overruns"), header.problem());
        // a Reply chunk that says 2 and carries 1 (and the bytes of a third after it do not help)
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 | 00000000 | 00000001 00000002 " +
            segment(1, 1, 1)));
        // a Write list not terminated
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 | 00000001 00000001 " + segment(1, 1, 1)));
    }

    @Test
    void discriminatorsOtherThanZeroOrOne()
    {
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000002 00000000 00000000"));
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 ffffffff 00000000"));
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 00000000 80000000"));
    }

    @Test
    void readPositionsMustBeAlignedAndNonDecreasing()
    {
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + readSegment(0x41, 1, 4, 0) + "00000000 00000000 00000000"));
        assertTrue(header.problem().contains("unaligned or out of order"), header.problem());
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + readSegment(2, 1, 4, 0) + "00000000 00000000 00000000"));
        assertEquals(RpcRdmaHeader.BAD_CHUNK,
            decode(MSG + readSegment(0x80, 1, 4, 0) + readSegment(0x40, 1, 4, 0) + "00000000 00000000 00000000"));
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + readSegment(0x8000_0000, 1, 4, 0) +
            "00000000 00000000 00000000"), "a position past 2^31");
        assertEquals(RpcRdmaHeader.OK,
            decode(MSG + readSegment(0x40, 1, 4, 0) + readSegment(0x40, 1, 4, 0) + readSegment(0x7FFF_FFFC, 1, 4, 0) +
            "00000000 00000000 00000000"));
        assertEquals(2, header.lists().readChunkSegments(0));
    }

    @Test
    void readSegmentLengthsPast2To31AreRefused()
    {
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + readSegment(0, 1, 0x8000_0000, 0) +
            "00000000 00000000 00000000"));
        assertTrue(header.problem().contains("2147483648"), header.problem());
        assertEquals(RpcRdmaHeader.OK, decode(MSG + readSegment(0, 1, 0x7FFF_FFFF, 0) + "00000000 00000000 00000000"));
    }

    @Test
    void readSegmentBound()
    {
        final StringBuilder list = new StringBuilder(MSG);
        for (int i = 0; i < ChunkLists.MAX_READ_SEGMENTS; i++)
        {
            list.append(readSegment(i * 4, i, 4, i));
        }
        assertEquals(RpcRdmaHeader.OK, decode(list + "00000000 00000000 00000000"));
        assertEquals(64, header.lists().readCount());
        assertEquals(63 * 4, header.lists().readPosition(63));
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(list + readSegment(64 * 4, 64, 4, 64) +
            "00000000 00000000 00000000"));
        assertTrue(header.problem().contains("more than 64 Read segments"), header.problem());
    }

    @Test
    void writeChunkBound()
    {
        final StringBuilder list = new StringBuilder(MSG + "00000000 ");
        for (int c = 0; c < ChunkLists.MAX_WRITE_CHUNKS; c++)
        {
            list.append("00000001 00000001 ").append(segment(c, 8, c));
        }
        assertEquals(RpcRdmaHeader.OK, decode(list + "00000000 00000000"));
        assertEquals(8, header.lists().writeChunkCount());
        assertEquals(7, header.lists().writeFirst(7));
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(list + "00000001 00000001 " + segment(8, 8, 8) +
            "00000000 00000000"));
        assertTrue(header.problem().contains("more than 8 Write chunks"), header.problem());
    }

    @Test
    void segmentBoundAcrossTheWriteChunksAndTheReplyChunk()
    {
        final StringBuilder segments64 = new StringBuilder("00000001 00000040 ");
        for (int s = 0; s < 64; s++)
        {
            segments64.append(segment(s, 4, s));
        }
        final String twoWriteChunks = MSG + "00000000 " + segments64 + segments64 + "00000000 ";
        assertEquals(RpcRdmaHeader.OK, decode(twoWriteChunks + "00000001 00000000"), "128 segments and an empty Reply chunk");
        assertEquals(128, header.lists().writeSegments(0) + header.lists().writeSegments(1));
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(twoWriteChunks + "00000001 00000001 " + segment(1, 1, 1)));
        assertTrue(header.problem().contains("room for 0"), header.problem());
        // one chunk over the bound by itself
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 00000000 00000001 00000081"));
        // counts that are negative as ints
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 00000001 ffffffff"));
        assertTrue(header.problem().contains("4294967295"), header.problem());
        assertEquals(RpcRdmaHeader.BAD_CHUNK, decode(MSG + "00000000 00000000 00000001 80000000"));
    }

    // ---- encoders ------------------------------------------------------------------------------------------

    @Test
    void encodersWriteRfc8166Layouts()
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
        final XdrEncoder enc = new XdrEncoder().wrap(out, 0, 256);

        RpcRdmaHeader.encodeNoChunks(enc, 0x0102_0304, 128, RpcRdma.RDMA_MSG);
        assertEquals(RpcRdma.MIN_HEADER, enc.length());
        assertBytes("01020304 00000001 00000080 00000000 | 00000000 00000000 00000000", out, 0, 28);

        enc.wrap(out, 0, 256);
        RpcRdmaHeader.encodeErrVers(enc, 5, 1);
        assertEquals(RpcRdma.ERR_VERS_HEADER, enc.length());
        assertBytes("00000005 00000001 00000001 00000004 | 00000001 | 00000001 00000001", out, 0, 28);

        enc.wrap(out, 0, 256);
        RpcRdmaHeader.encodeErrChunk(enc, 6, 2);
        assertEquals(RpcRdma.ERR_CHUNK_HEADER, enc.length());
        assertBytes("00000006 00000001 00000002 00000004 | 00000002", out, 0, 20);

        // an RDMA_NOMSG call: a position-zero Read chunk of two segments, no Write list, a Reply chunk of one
        enc.wrap(out, 0, 256);
        RpcRdmaHeader.encodeFixed(enc, 7, 32, RpcRdma.RDMA_NOMSG);
        RpcRdmaHeader.encodeReadSegment(enc, 0, 0x11, 0x2000, 0x0000_7F00_0000_1000L);
        RpcRdmaHeader.encodeReadSegment(enc, 0, 0x12, 0x0010, 0x0000_7F00_0000_3000L);
        RpcRdmaHeader.encodeEnd(enc);
        RpcRdmaHeader.encodeEnd(enc);
        RpcRdmaHeader.encodeChunkStart(enc, 1);
        RpcRdmaHeader.encodeSegment(enc, 0x21, 0x1000, 0xFFFF_8000_0000_0000L);
        final String expected = "00000007 00000001 00000020 00000001 |" +
            " 00000001 00000000 00000011 00002000 00007f00 00001000 |" +
            " 00000001 00000000 00000012 00000010 00007f00 00003000 | 00000000 |" +
            " 00000000 |" +
            " 00000001 00000001 00000021 00001000 ffff8000 00000000";
        assertBytes(expected, out, 0, enc.length());
        assertEquals(16 + 48 + 4 + 4 + 24, enc.length());

        // and it decodes to what was encoded
        assertEquals(RpcRdmaHeader.OK, decode(expected));
        assertEquals(enc.length(), header.length());
        assertEquals(2, header.lists().readCount());
        assertEquals(0x0000_7F00_0000_3000L, header.lists().readOffset(1));
        assertEquals(0xFFFF_8000_0000_0000L, header.lists().segOffset(header.lists().replyFirst()));
    }

    @Test
    void copyFromKeepsEveryList()
    {
        assertEquals(RpcRdmaHeader.OK, decode(MSG + readSegment(8, 1, 4, 0x10) + "00000000 | " +
            "00000001 00000002 " + segment(2, 20, 0x20) + segment(3, 30, 0x30) + "00000000 | " +
            "00000001 00000001 " + segment(4, 40, 0x40)));
        final ChunkLists copy = new ChunkLists();
        copy.copyFrom(header.lists());
        assertEquals(RpcRdmaHeader.OK, decode(MSG + "00000000 00000000 00000000")); // the original is reused
        assertEquals(1, copy.readCount());
        assertEquals(8, copy.readPosition(0));
        assertEquals(0x10, copy.readOffset(0));
        assertEquals(1, copy.writeChunkCount());
        assertEquals(2, copy.writeSegments(0));
        assertEquals(30, copy.segLength(1));
        assertEquals(2, copy.replyFirst());
        assertEquals(1, copy.replySegments());
        assertEquals(0x40, copy.segOffset(2));
        copy.clear();
        assertEquals(0, copy.readCount());
        assertFalse(copy.hasReplyChunk());
    }
}
