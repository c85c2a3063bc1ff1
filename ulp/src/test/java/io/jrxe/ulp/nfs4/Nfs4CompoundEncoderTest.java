package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * COMPOUND4args byte for byte against the XDR of RFC 5662, built by hand.
 */
class Nfs4CompoundEncoderTest
{
    private static final long SESSION_HIGH = 0x0102030405060708L;
    private static final long SESSION_LOW = 0x1112131415161718L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8192]);
    private final XdrEncoder xdr = new XdrEncoder().wrap(buffer, 0, buffer.capacity());
    private final Nfs4CompoundEncoder enc = new Nfs4CompoundEncoder();
    private final Nfs4SessionId session = new Nfs4SessionId().set(SESSION_HIGH, SESSION_LOW);

    private byte[] written()
    {
        return Wire.copy(buffer, 0, xdr.length());
    }

    private void assertWire(final Wire expected)
    {
        final byte[] want = expected.bytes();
        final byte[] got = written();
        assertArrayEquals(want, got, "expected\n" + Wire.hex(want) + "\ngot\n" + Wire.hex(got));
    }

    @Test
    void sequencePutRootFhGetattrByHand()
    {
        enc.begin(xdr)
            .sequence(session, 7, 2, 3, false)
            .putRootFh()
            .getAttr(Nfs4Attr.mask(Nfs4Attr.TYPE, Nfs4Attr.CHANGE, Nfs4Attr.SIZE, Nfs4Attr.FILEID, Nfs4Attr.MODE));
        assertEquals(3, enc.end());
        assertWire(Wire.of()
            .i(0)                                   // tag: utf8str_cs, empty
            .i(1)                                   // minorversion
            .i(3)                                   // argarray<>: 3 operations
            .i(53)                                  // OP_SEQUENCE
            .i(0x01020304, 0x05060708, 0x11121314, 0x15161718) // sa_sessionid
            .i(7)                                   // sa_sequenceid
            .i(2)                                   // sa_slotid
            .i(3)                                   // sa_highest_slotid
            .i(0)                                   // sa_cachethis FALSE
            .i(24)                                  // OP_PUTROOTFH (no arguments)
            .i(9)                                   // OP_GETATTR
            .i(2, 0x0010_001A, 0x0000_0002));       // bitmap4: type 1, change 3, size 4, fileid 20 | mode 33
        // 24 RPC + 12 COMPOUND + SEQUENCE 44 + PUTROOTFH 8 + GETATTR 8 + bitmap 16 + length 4 + values 32
        assertEquals(24 + 12 + 44 + 8 + 8 + 16 + 4 + (4 + 8 + 8 + 8 + 4), enc.replyLimit());
    }

    @Test
    void bitmapOfOneWordAndOfNone()
    {
        enc.begin(xdr).getAttr(Nfs4Attr.mask(Nfs4Attr.LEASE_TIME)).getAttr(0);
        enc.end();
        assertWire(Wire.of().i(0, 1, 2).i(9, 1, 1 << 10).i(9, 0));
    }

    @Test
    void lookupAndOpenNoCreate()
    {
        final byte[] owner = "owner-1".getBytes(StandardCharsets.US_ASCII);
        final byte[] fh = {1, 2, 3, 4, 5};
        enc.begin(xdr).putFh(new Nfs4FileHandle().set(fh, 0, fh.length)).lookup("dir")
            .openNoCreate(Nfs4.SHARE_ACCESS_READ | Nfs4.SHARE_ACCESS_WANT_NO_DELEG, Nfs4.SHARE_DENY_NONE,
                0xAABBCCDD00112233L, owner, "file.bin")
            .getFh();
        enc.end();
        assertWire(Wire.of().i(0, 1, 4)
            .i(22).opaque(fh)                       // PUTFH nfs_fh4
            .i(15).str("dir")                       // LOOKUP component4
            .i(18)                                  // OP_OPEN
            .i(0)                                   // seqid (ignored in 4.1)
            .i(0x0401)                              // share_access READ | WANT_NO_DELEG
            .i(0)                                   // share_deny NONE
            .h(0xAABBCCDD00112233L).opaque(owner)   // open_owner4
            .i(0)                                   // openflag4: OPEN4_NOCREATE
            .i(0).str("file.bin")                   // open_claim4: CLAIM_NULL, file
            .i(10));                                // GETFH
        assertEquals(24 + 12 + 8 + 8 + Nfs4ReplySizes.OPEN + 140, enc.replyLimit());
    }

    @Test
    void openCreateUncheckedCarriesSizeAndMode()
    {
        final byte[] owner = {9};
        enc.begin(xdr).openCreate(Nfs4.SHARE_ACCESS_WRITE, Nfs4.SHARE_DENY_NONE, 5, owner, Nfs4.UNCHECKED4, 0, 0644,
            "new");
        enc.end();
        assertWire(Wire.of().i(0, 1, 1)
            .i(18, 0, 2, 0).h(5).opaque(owner)
            .i(1)                                   // OPEN4_CREATE
            .i(0)                                   // UNCHECKED4
            .i(2, 1 << 4, 1 << 1)                   // createattrs bitmap: size 4 | mode 33
            .i(12).h(0).i(0644)                     // attrlist4: size 0, mode
            .i(0).str("new"));
    }

    @Test
    void openCreateGuardedWithModeOnly()
    {
        enc.begin(xdr).openCreate(Nfs4.SHARE_ACCESS_WRITE, Nfs4.SHARE_DENY_NONE, 5, new byte[] {9}, Nfs4.GUARDED4,
            -1, 0600, "x");
        enc.end();
        assertWire(Wire.of().i(0, 1, 1)
            .i(18, 0, 2, 0).h(5).opaque(new byte[] {9})
            .i(1, 1)                                // OPEN4_CREATE, GUARDED4
            .i(2, 0, 2).i(4, 0600)                  // mode only: word0 empty, word1 bit 1
            .i(0).str("x"));
        assertThrows(IllegalArgumentException.class, () -> enc.openCreate(0, 0, 0, new byte[1], 2, -1, -1, "y"));
    }

    @Test
    void readCommitCloseRemoveReaddir()
    {
        final Nfs4Stateid stateid = new Nfs4Stateid().set(1, 0x1122334455667788L, 0x99AABBCC);
        enc.begin(xdr)
            .read(stateid, 1L << 32, 65536)
            .commit(0, 0)
            .close(stateid)
            .remove("gone")
            .readdir(0, 0, 8192, 8192, Nfs4Attr.mask(Nfs4Attr.TYPE, Nfs4Attr.SIZE));
        enc.end();
        assertWire(Wire.of().i(0, 1, 5)
            .i(25, 1, 0x11223344, 0x55667788, 0x99AABBCC).h(1L << 32).i(65536)   // READ stateid offset count
            .i(5).h(0).i(0)                                                      // COMMIT offset count
            .i(4, 0, 1, 0x11223344, 0x55667788, 0x99AABBCC)                      // CLOSE seqid stateid
            .i(28).str("gone")                                                   // REMOVE
            .i(26).h(0).h(0).i(8192, 8192).i(1, 0x12));                          // READDIR
        assertEquals(24 + 12 + 16 + 16 + 24 + 28 + (8 + 8192), enc.replyLimit());
    }

    @Test
    void writeLeavesItsDataToThePayloadAndGoesOnInTheTail()
    {
        final RpcCall call = new RpcCall();
        final UnsafeBuffer send = new UnsafeBuffer(new byte[4096]);
        call.attachSendBuffer(send, 0, send.capacity());
        call.begin(this, 0x1234, Nfs4.PROGRAM, Nfs4.VERSION, Nfs4.PROC_COMPOUND, RpcAuth.none());
        final int header = call.args().position();
        final ByteBuffer data = BufferUtil.allocateDirectAligned(1001, 64);
        final Nfs4Stateid stateid = new Nfs4Stateid().set(0, 7, 8);
        enc.begin(call.args()).sequence(session, 1, 0, 0, false)
            .write(call, stateid, 4096, Nfs4.UNSTABLE4, BufferUtil.address(data), 1001)
            .getAttr(Nfs4Attr.mask(Nfs4Attr.SIZE));
        enc.end();

        assertTrue(call.hasPayload());
        assertEquals(BufferUtil.address(data), call.payloadAddress());
        assertEquals(1001, call.payloadLength());
        final byte[] head = Wire.copy(send, header, call.headLength() - header);
        assertArrayEquals(Wire.of().i(0, 1, 3)
            .i(53, 0x01020304, 0x05060708, 0x11121314, 0x15161718, 1, 0, 0, 0)
            .i(38, 0, 0, 7, 8).h(4096).i(0)         // WRITE stateid (seqid 0, other) offset UNSTABLE4
            .i(1001)                                // the data's length word: last in the head
            .bytes(), head);
        final byte[] tail = Wire.copy(send, call.headLength(), call.tailLength());
        assertArrayEquals(Wire.of().i(9, 1, 0x10).bytes(), tail, "GETATTR after WRITE is the tail");
        assertEquals(call.headLength() + 1004 + 12, call.inlineLength(), "1001 bytes padded to 1004");
    }

    @Test
    void exchangeIdByHand()
    {
        final byte[] owner = "jrxe-test/host/1".getBytes(StandardCharsets.US_ASCII);
        enc.begin(xdr).exchangeId(0x0102030405060708L, owner, Nfs4.EXCHGID4_FLAG_USE_NON_PNFS, null, null);
        enc.end();
        assertWire(Wire.of().i(0, 1, 1)
            .i(42).h(0x0102030405060708L).opaque(owner)   // client_owner4: co_verifier, co_ownerid
            .i(0x0001_0000)                               // eia_flags: EXCHGID4_FLAG_USE_NON_PNFS
            .i(0)                                         // state_protect4_a: SP4_NONE
            .i(0));                                       // eia_client_impl_id<1>: none
        assertEquals(24 + 12 + 3408, enc.replyLimit());
    }

    @Test
    void exchangeIdWithAnImplementationId()
    {
        enc.begin(xdr).exchangeId(1, new byte[] {1}, Nfs4.EXCHGID4_FLAG_USE_NON_PNFS, "jrxe.io", "jrxe");
        enc.end();
        assertWire(Wire.of().i(0, 1, 1).i(42).h(1).opaque(new byte[] {1}).i(0x10000, 0)
            .i(1).str("jrxe.io").str("jrxe").h(0).i(0));  // nfs_impl_id4: domain, name, nfstime4 0
    }

    @Test
    void createSessionWithBackChannelAndAuthSys()
    {
        final Nfs4ChannelAttrs fore = new Nfs4ChannelAttrs().set(1049600, 1049600, 2048, 16, 16);
        final Nfs4ChannelAttrs back = new Nfs4ChannelAttrs().set(4096, 4096, 0, 4, 1);
        enc.begin(xdr).createSession(0xC0FFEEL, 1, Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN, fore, back,
            0x40000000, true, 77, "client1", 0, 0);
        enc.end();
        assertWire(Wire.of().i(0, 1, 1)
            .i(43).h(0xC0FFEEL).i(1)                      // csa_clientid, csa_sequence
            .i(2)                                         // csa_flags: CONN_BACK_CHAN
            .i(0, 1049600, 1049600, 2048, 16, 16, 0)      // fore channel_attrs4, no rdma_ird
            .i(0, 4096, 4096, 0, 4, 1, 0)                 // back channel_attrs4
            .i(0x40000000)                                // csa_cb_program
            .i(1)                                         // csa_sec_parms<>: one
            .i(1).i(77).str("client1").i(0, 0, 0));       // AUTH_SYS: authsys_parms stamp name uid gid gids<>
    }

    @Test
    void createSessionWithAuthNoneCallbacks()
    {
        final Nfs4ChannelAttrs attrs = new Nfs4ChannelAttrs().set(4096, 4096, 0, 2, 1);
        enc.begin(xdr).createSession(1, 2, 0, attrs, attrs, 99, false, 0, "", 0, 0);
        enc.end();
        assertWire(Wire.of().i(0, 1, 1).i(43).h(1).i(2, 0)
            .i(0, 4096, 4096, 0, 2, 1, 0).i(0, 4096, 4096, 0, 2, 1, 0).i(99, 1, 0));
    }

    @Test
    void sessionEndingOperations()
    {
        enc.begin(xdr).reclaimComplete(false).destroySession(session).destroyClientId(0x55L)
            .delegReturn(new Nfs4Stateid().set(3, 4, 5));
        enc.end();
        assertWire(Wire.of().i(0, 1, 4)
            .i(58, 0)
            .i(44, 0x01020304, 0x05060708, 0x11121314, 0x15161718)
            .i(57).h(0x55L)
            .i(8, 3).h(4).i(5));
    }

    @Test
    void namesOutsideAsciiAreUtf8()
    {
        enc.begin(xdr).lookup("caf\u00e9");
        enc.end();
        assertWire(Wire.of().i(0, 1, 1).i(15).opaque(new byte[] {'c', 'a', 'f', (byte)0xC3, (byte)0xA9}));
    }
}
