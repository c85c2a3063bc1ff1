package io.jrxe.ulp.rpcrdma;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.jrxe.ulp.xdr.XdrBytes.assertBytes;
import static io.jrxe.ulp.xdr.XdrBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The RPC-over-RDMA private data of RFC 8797 §5 (Linux {@code struct rpcrdma_connect_private}): magic 0xf6ab0e18,
 * version 1, the I flag (bit 0 of the flags byte: the sender accepts Send With Invalidate), then the send and
 * receive inline thresholds as (bytes &gt;&gt; 10) - 1.
 */
class ConnectPrivateTest
{
    /** The Linux client's REQ private data (xprtrdma, 4 KiB inline both ways, Send With Invalidate accepted). */
    private static final String LINUX_CLIENT_REQ = "f6ab0e18 01 01 03 03";
    /** knfsd's REP private data (svcrdma: 4 KiB both ways, no I flag). */
    private static final String KNFSD_REP = "f6ab0e18 01 00 03 03";

    @Test
    void linuxClientRequest()
    {
        final UnsafeBuffer b = buffer(LINUX_CLIENT_REQ);
        assertTrue(ConnectPrivate.present(b, 0, 8));
        assertTrue(ConnectPrivate.acceptsSendWithInvalidate(b, 0));
        assertEquals(4096, ConnectPrivate.sendSize(b, 0));
        assertEquals(4096, ConnectPrivate.recvSize(b, 0));
    }

    @Test
    void knfsdReply()
    {
        final UnsafeBuffer b = buffer(KNFSD_REP);
        assertTrue(ConnectPrivate.present(b, 0, 8));
        assertFalse(ConnectPrivate.acceptsSendWithInvalidate(b, 0));
        assertEquals(4096, ConnectPrivate.sendSize(b, 0));
        assertEquals(4096, ConnectPrivate.recvSize(b, 0));
    }

    @Test
    void encodeWritesTheSameBytes()
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[20]);
        Arrays.fill(out.byteArray(), (byte)0xEE);
        ConnectPrivate.encode(out, 4, true, 4096, 4096);
        assertBytes(LINUX_CLIENT_REQ, out, 4, 8);
        ConnectPrivate.encode(out, 4, false, RpcRdma.DEFAULT_INLINE, RpcRdma.DEFAULT_INLINE);
        assertBytes(KNFSD_REP, out, 4, 8);
        assertBytes("eeeeeeee", out, 0, 4);
        assertBytes("eeeeeeee", out, 12, 4);
        ConnectPrivate.encode(out, 0, false, 1024, 256 * 1024);
        assertBytes("f6ab0e18 01 00 00 ff", out, 0, 8);
        ConnectPrivate.encode(out, 12, true, 8192, 2048);
        assertBytes("f6ab0e18 01 01 07 01", out, 12, 8);
        assertTrue(ConnectPrivate.present(out, 12, 8));
        assertEquals(8192, ConnectPrivate.sendSize(out, 12));
        assertEquals(2048, ConnectPrivate.recvSize(out, 12));
    }

    @Test
    void sizesAreKibMinusOneClampedToOneByte()
    {
        assertEquals(0, ConnectPrivate.encodeSize(1024));
        assertEquals(1, ConnectPrivate.encodeSize(2048));
        assertEquals(2, ConnectPrivate.encodeSize(4095), "rounded down to whole KiB");
        assertEquals(3, ConnectPrivate.encodeSize(4096));
        assertEquals(255, ConnectPrivate.encodeSize(256 * 1024));
        // clamped: below 1 KiB is 1 KiB, above 256 KiB is 256 KiB
        assertEquals(0, ConnectPrivate.encodeSize(1023));
        assertEquals(0, ConnectPrivate.encodeSize(0));
        assertEquals(0, ConnectPrivate.encodeSize(-1));
        assertEquals(0, ConnectPrivate.encodeSize(Integer.MIN_VALUE));
        assertEquals(255, ConnectPrivate.encodeSize(256 * 1024 + 1024));
        assertEquals(255, ConnectPrivate.encodeSize(Integer.MAX_VALUE));

        assertEquals(1024, ConnectPrivate.decodeSize(0));
        assertEquals(4096, ConnectPrivate.decodeSize(3));
        assertEquals(RpcRdma.MAX_INLINE, ConnectPrivate.decodeSize(255));
        assertEquals(RpcRdma.MAX_INLINE, ConnectPrivate.decodeSize((byte)0xFF), "a byte read signed");
        assertEquals(129 * 1024, ConnectPrivate.decodeSize((byte)0x80));
        final UnsafeBuffer b = buffer("f6ab0e18 01 00 ff 80");
        assertEquals(256 * 1024, ConnectPrivate.sendSize(b, 0));
        assertEquals(129 * 1024, ConnectPrivate.recvSize(b, 0));
    }

    @Test
    void onlyTheIBitIsTheFlag()
    {
        assertFalse(ConnectPrivate.acceptsSendWithInvalidate(buffer("f6ab0e18 01 fe 03 03"), 0),
            "reserved bits set, I clear");
        assertTrue(ConnectPrivate.acceptsSendWithInvalidate(buffer("f6ab0e18 01 ff 03 03"), 0));
    }

    @Test
    void notPresentWithoutTheMagicVersionOneOrEightBytes()
    {
        assertFalse(ConnectPrivate.present(buffer("f6ab0e19 01 01 03 03"), 0, 8));
        assertFalse(ConnectPrivate.present(buffer("180eabf6 01 01 03 03"), 0, 8), "little-endian magic");
        assertFalse(ConnectPrivate.present(buffer("f6ab0e18 02 01 03 03"), 0, 8));
        assertFalse(ConnectPrivate.present(buffer("f6ab0e18 00 01 03 03"), 0, 8));
        assertFalse(ConnectPrivate.present(buffer("f6ab0e18 01 01 03 03"), 0, 7));
        assertFalse(ConnectPrivate.present(buffer("00000000 00000000"), 0, 8), "a REQ with zeroed private data");
        // rdma_cm's private data is 56 bytes for a REQ: the structure is at its start, the rest is zero
        final UnsafeBuffer req = new UnsafeBuffer(new byte[56]);
        req.putBytes(0, io.jrxe.ulp.xdr.XdrBytes.hex(LINUX_CLIENT_REQ));
        assertTrue(ConnectPrivate.present(req, 0, 56));
        final UnsafeBuffer shifted = buffer("00000000 " + KNFSD_REP);
        assertTrue(ConnectPrivate.present(shifted, 4, 8));
        assertFalse(ConnectPrivate.acceptsSendWithInvalidate(shifted, 4));
    }
}
