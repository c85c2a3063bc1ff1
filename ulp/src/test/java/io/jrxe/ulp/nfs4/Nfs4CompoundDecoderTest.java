package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * COMPOUND4res decoding from replies built by hand the way knfsd (fs/nfsd/nfs4xdr.c) writes them.
 */
class Nfs4CompoundDecoderTest
{
    private static final long SH = 0x5A5A5A5A00000001L;
    private static final long SL = 0x0000000200000003L;
    private static final byte[] FH = {1, 0, 1, 0, 7, 0, 0, 0, 0x11, 0x22, 0x33, 0x44};

    private final RpcCall call = new RpcCall();
    private final Nfs4CompoundDecoder dec = new Nfs4CompoundDecoder();
    private final Nfs4SequenceResult seq = new Nfs4SequenceResult();

    /** The accepted RPC reply header, then COMPOUND4res's status, empty tag and count. */
    private static Wire reply(final int status, final int count)
    {
        return Wire.of().i(0x4A520000, 1, 0, 0, 0, 0).i(status, 0, count);
    }

    private static Wire sequenceOk(final Wire w, final int seqid, final int slot)
    {
        return w.i(53, 0).h(SH).h(SL).i(seqid, slot, 15, 15, 0);
    }

    /** Give the call a reply as a transport would: the results decoder positioned after the RPC header. */
    private void received(final Wire w)
    {
        final UnsafeBuffer send = new UnsafeBuffer(new byte[1024]);
        call.attachSendBuffer(send, 0, send.capacity());
        call.begin(this, 0x4A520000, Nfs4.PROGRAM, Nfs4.VERSION, Nfs4.PROC_COMPOUND, RpcAuth.none());
        received(w, call);
    }

    private static void received(final Wire w, final RpcCall rpc)
    {
        final byte[] bytes = w.bytes();
        rpc.replyReceived(new UnsafeBuffer(bytes), 0, bytes.length, -1);
        assertTrue(rpc.accepted());
    }

    private void decodeSequence()
    {
        dec.wrap(call.results());
        assertEquals(Nfs4Status.OK, dec.next(Nfs4.OP_SEQUENCE));
        dec.sequence(seq);
    }

    @Test
    void sequenceResultFields()
    {
        received(sequenceOk(reply(0, 1), 9, 3));
        decodeSequence();
        assertTrue(seq.session().matches(SH, SL));
        assertEquals(9, seq.sequenceId());
        assertEquals(3, seq.slot());
        assertEquals(15, seq.highestSlot());
        assertEquals(15, seq.targetHighestSlot());
        assertEquals(0, seq.statusFlags());
        assertEquals(0, call.results().remaining());
    }

    @Test
    void readWithInlineDataLandsInTheReadPayload()
    {
        final byte[] data = "hello, world!".getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer dst = BufferUtil.allocateDirectAligned(64, 64);
        final UnsafeBuffer send = new UnsafeBuffer(new byte[1024]);
        call.attachSendBuffer(send, 0, send.capacity());
        call.begin(this, 1, Nfs4.PROGRAM, Nfs4.VERSION, Nfs4.PROC_COMPOUND, RpcAuth.none());
        final Nfs4IoRequests.Read read = new Nfs4IoRequests.Read();
        read.offset = 4096;
        read.count = 64;
        call.readPayloadTo(BufferUtil.address(dst), 64);
        received(sequenceOk(reply(0, 3), 1, 0).i(22, 0).i(25, 0).b(true).opaque(data), call);

        decodeSequence();
        read.decode(dec, call);
        assertEquals(13, read.bytes);
        assertTrue(read.eof);
        final byte[] got = new byte[13];
        dst.get(0, got);
        assertArrayEquals(data, got);
        assertEquals(0, call.results().remaining(), "the 13 bytes and their 3 of padding consumed");
    }

    @Test
    void readClaimingMoreThanAskedIsMalformed()
    {
        final ByteBuffer dst = BufferUtil.allocateDirectAligned(64, 64);
        final UnsafeBuffer send = new UnsafeBuffer(new byte[1024]);
        call.attachSendBuffer(send, 0, send.capacity());
        call.begin(this, 1, Nfs4.PROGRAM, Nfs4.VERSION, Nfs4.PROC_COMPOUND, RpcAuth.none());
        call.readPayloadTo(BufferUtil.address(dst), 8);
        received(sequenceOk(reply(0, 3), 1, 0).i(22, 0).i(25, 0).b(false).opaque(new byte[12]), call);
        decodeSequence();
        assertThrows(XdrException.class, () -> new Nfs4IoRequests.Read().decode(dec, call));
    }

    @Test
    void anErrorInTheMiddleEndsTheResults()
    {
        // SEQUENCE PUTROOTFH LOOKUP "a" LOOKUP "missing" GETFH GETATTR: knfsd stops at the failing LOOKUP
        received(sequenceOk(reply(Nfs4Status.NOENT, 4), 1, 0).i(24, 0).i(15, 0).i(15, Nfs4Status.NOENT));
        decodeSequence();
        final Nfs4PathRequests.Lookup lookup = new Nfs4PathRequests.Lookup();
        lookup.walk(new String[] {"a", "missing"}, new Nfs4FileHandle(), 0, 2);
        final Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, () -> lookup.decode(dec, call));
        assertEquals(Nfs4.OP_LOOKUP, ex.op());
        assertEquals(Nfs4Status.NOENT, ex.status());
        assertEquals("LOOKUP: NFS4ERR_NOENT (2): \"missing\" in /a", ex.getMessage());
        assertEquals(4, dec.index(), "every result was read, none invented");
        assertEquals(0, call.results().remaining());
    }

    @Test
    void staleHandleOnPutfh()
    {
        received(sequenceOk(reply(Nfs4Status.STALE, 2), 1, 0).i(22, Nfs4Status.STALE));
        decodeSequence();
        final Nfs4IoRequests.Read read = new Nfs4IoRequests.Read();
        read.offset = 1 << 20;
        final Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, () -> read.decode(dec, call));
        assertEquals("PUTFH: NFS4ERR_STALE (70): offset 1048576", ex.getMessage());
    }

    @Test
    void aCompoundRefusedAsAWholeHasNoResults()
    {
        received(reply(Nfs4Status.MINOR_VERS_MISMATCH, 0));
        dec.wrap(call.results());
        final Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, () -> dec.next(Nfs4.OP_SEQUENCE));
        assertEquals(Nfs4Status.MINOR_VERS_MISMATCH, ex.status());
        assertTrue(ex.getMessage().startsWith("SEQUENCE: NFS4ERR_MINOR_VERS_MISMATCH (10021)"), ex.getMessage());
    }

    @Test
    void aResultForAnotherOperationIsMalformed()
    {
        received(reply(0, 1).i(22, 0));
        dec.wrap(call.results());
        assertThrows(XdrException.class, () -> dec.next(Nfs4.OP_SEQUENCE));
    }

    @Test
    void fewerResultsThanOperationsWithStatusOkIsMalformed()
    {
        received(sequenceOk(reply(0, 1), 1, 0));
        decodeSequence();
        assertThrows(XdrException.class, () -> dec.next(Nfs4.OP_PUTFH));
    }

    @Test
    void illegalOperationResult()
    {
        received(sequenceOk(reply(Nfs4Status.OP_ILLEGAL, 2), 1, 0).i(Nfs4.OP_ILLEGAL, Nfs4Status.OP_ILLEGAL));
        decodeSequence();
        assertEquals(Nfs4Status.OP_ILLEGAL, dec.next(Nfs4.OP_PUTFH));
    }

    private static Wire fileAttrs(final Wire w, final long size)
    {
        // GETATTR of type change size fileid mode numlinks time_modify: bitmap [0x0010001A, 0x00200008]
        return w.i(9, 0).i(2, 0x0010_001A, 0x0020_000A).i(4 + 8 + 8 + 8 + 4 + 4 + 12)
            .i(Nfs4.NF4REG).h(0x1234_5678_9ABC_DEF0L).h(size).h(4242).i(0100644).i(1).h(1_700_000_000L).i(500);
    }

    private Nfs4PathRequests.Open openRequest()
    {
        final Nfs4PathRequests.Open open = new Nfs4PathRequests.Open();
        open.walk(new String[] {"dir"}, new Nfs4FileHandle(), 0, 1);
        open.name = "f";
        return open;
    }

    @Test
    void openAsKnfsdAnswersIt()
    {
        // OPEN4resok: stateid, cinfo, rflags LOCKTYPE_POSIX|MAY_NOTIFY_LOCK, attrset of 3 words, NONE_EXT NOT_WANTED
        final Wire w = sequenceOk(reply(0, 6), 1, 0).i(24, 0).i(15, 0)
            .i(18, 0).i(1, 0xA1A2A3A4, 0xB1B2B3B4, 0xC1C2C3C4).b(true).h(10).h(11).i(0x24).i(3, 0, 0, 0)
            .i(Nfs4.OPEN_DELEGATE_NONE_EXT, 0)
            .i(10, 0).opaque(FH);
        received(fileAttrs(w, 5_000_000));
        decodeSequence();
        final Nfs4PathRequests.Open open = openRequest();
        open.decode(dec, call);
        assertEquals("1:a1a2a3a4b1b2b3b4c1c2c3c4", open.result.stateid().toString());
        assertTrue(open.result.changeAtomic());
        assertEquals(10, open.result.changeBefore());
        assertEquals(11, open.result.changeAfter());
        assertFalse(open.result.confirmRequested());
        assertFalse(open.result.hasDelegation());
        assertEquals(0, open.result.whyNoDelegation());
        assertArrayEquals(FH, open.fh.toBytes());
        assertEquals(Nfs4.NF4REG, open.attrs.type());
        assertEquals(5_000_000, open.attrs.size());
        assertEquals(4242, open.attrs.fileid());
        assertEquals(0100644, open.attrs.mode());
        assertEquals(1, open.attrs.numlinks());
        assertEquals(0x1234_5678_9ABC_DEF0L, open.attrs.change());
        assertEquals(1_700_000_000L, open.attrs.mtimeSeconds());
        assertEquals(500, open.attrs.mtimeNanos());
        assertEquals(0, call.results().remaining());
    }

    @Test
    void openResultConfirmIsReportedNotActedOn()
    {
        final Wire w = sequenceOk(reply(0, 6), 1, 0).i(24, 0).i(15, 0)
            .i(18, 0).i(1, 1, 2, 3).b(false).h(0).h(0).i(Nfs4.OPEN4_RESULT_CONFIRM).i(0)
            .i(Nfs4.OPEN_DELEGATE_NONE)
            .i(10, 0).opaque(FH);
        received(fileAttrs(w, 0));
        decodeSequence();
        final Nfs4PathRequests.Open open = openRequest();
        open.decode(dec, call);
        assertTrue(open.result.confirmRequested());
        assertEquals(0, call.results().remaining(), "no OPEN_CONFIRM: the results end after GETATTR");
    }

    @Test
    void openWithDelegationsIsSkippedExactly()
    {
        // a read delegation: stateid, recall, nfsace4 with an empty who; then a write one with a size limit
        Wire w = sequenceOk(reply(0, 6), 1, 0).i(24, 0).i(15, 0)
            .i(18, 0).i(1, 1, 2, 3).b(false).h(0).h(0).i(4).i(0)
            .i(Nfs4.OPEN_DELEGATE_READ).i(1, 7, 7, 7).b(false).i(0, 0, 0).str("")
            .i(10, 0).opaque(FH);
        received(fileAttrs(w, 1));
        decodeSequence();
        Nfs4PathRequests.Open open = openRequest();
        open.decode(dec, call);
        assertTrue(open.result.hasDelegation());
        assertEquals("1:000000070000000700000007", open.result.delegationStateid().toString());

        w = sequenceOk(reply(0, 6), 1, 0).i(24, 0).i(15, 0)
            .i(18, 0).i(1, 1, 2, 3).b(false).h(0).h(0).i(4).i(0)
            .i(Nfs4.OPEN_DELEGATE_WRITE).i(1, 8, 8, 8).b(true).i(Nfs4.NFS_LIMIT_SIZE).h(1 << 30)
            .i(0, 0, 0).str("EVERYONE@")
            .i(10, 0).opaque(FH);
        received(fileAttrs(w, 2));
        decodeSequence();
        open = openRequest();
        open.decode(dec, call);
        assertEquals(Nfs4.OPEN_DELEGATE_WRITE, open.result.delegationType());
        assertEquals(2, open.attrs.size());
    }

    @Test
    void readdirPage()
    {
        final Wire w = sequenceOk(reply(0, 3), 1, 0).i(22, 0).i(26, 0).h(0xFEEDL)
            .b(true).h(3).str("a.txt").i(2, 0x0010_0012, 0).i(4 + 8 + 8).i(Nfs4.NF4REG).h(100).h(11)
            .b(true).h(7).str("sub").i(2, 0x0010_0012, 0).i(4 + 8 + 8).i(Nfs4.NF4DIR).h(4096).h(12)
            .b(false)
            .b(false);
        received(w);
        decodeSequence();
        final Nfs4PathRequests.Readdir readdir = new Nfs4PathRequests.Readdir();
        readdir.walk(new String[] {"d"}, new Nfs4FileHandle().set(FH, 0, FH.length), 1, 1);
        readdir.cookie = 2;
        readdir.dir.set(FH, 0, FH.length);
        readdir.decode(dec, call);
        assertFalse(readdir.eof);
        assertEquals(7, readdir.cookie, "continues after the last entry");
        assertEquals(0xFEEDL, readdir.verifier);
        final List<Nfs4DirEntry> e = readdir.entries;
        assertEquals(2, e.size());
        assertEquals("a.txt", e.get(0).name());
        assertEquals(Nfs4.NF4REG, e.get(0).type());
        assertEquals(100, e.get(0).size());
        assertEquals(11, e.get(0).fileid());
        assertEquals("sub", e.get(1).name());
        assertTrue(e.get(1).isDirectory());
    }

    @Test
    void exchangeIdAsKnfsdAnswersIt()
    {
        final Wire w = reply(0, 1).i(42, 0).h(0x6543_2100_0000_0001L).i(1)
            .i(Nfs4.EXCHGID4_FLAG_USE_NON_PNFS | 0x1)      // flags
            .i(Nfs4.SP4_NONE)
            .h(0).str("nfs-server")                        // server_owner4
            .str("nfs-server")                             // server_scope
            .i(0);                                         // no implementation id
        received(w);
        dec.wrap(call.results());
        final Nfs4SessionRequests.ExchangeId x = new Nfs4SessionRequests.ExchangeId();
        x.decode(dec, call);
        assertEquals(0x6543_2100_0000_0001L, x.result.clientId());
        assertEquals(1, x.result.sequenceId());
        assertArrayEquals("nfs-server".getBytes(StandardCharsets.US_ASCII), x.result.serverMajorId());
        assertEquals("", x.result.implName());
    }

    @Test
    void exchangeIdRefusesUnaskedStateProtection()
    {
        received(reply(0, 1).i(42, 0).h(1).i(1, Nfs4.EXCHGID4_FLAG_USE_NON_PNFS).i(1 /* SP4_MACH_CRED */));
        dec.wrap(call.results());
        assertThrows(XdrException.class, () -> new Nfs4SessionRequests.ExchangeId().decode(dec, call));
    }

    @Test
    void exchangeIdOfAPureDataServerIsRefused()
    {
        received(reply(0, 1).i(42, 0).h(1).i(1, Nfs4.EXCHGID4_FLAG_USE_PNFS_DS, 0).h(0).str("s").str("s").i(0));
        dec.wrap(call.results());
        assertThrows(Nfs4Exception.class, () -> new Nfs4SessionRequests.ExchangeId().decode(dec, call));
    }

    @Test
    void createSessionReply()
    {
        received(reply(0, 1).i(43, 0).h(SH).h(SL).i(1, 2)
            .i(0, 1049600, 1049600, 2128, 16, 12, 0)
            .i(0, 4096, 4096, 0, 4, 1, 0));
        dec.wrap(call.results());
        final Nfs4SessionRequests.CreateSession cs = new Nfs4SessionRequests.CreateSession();
        cs.sequence = 1;
        cs.decode(dec, call);
        assertTrue(cs.result.session().matches(SH, SL));
        assertEquals(Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN, cs.result.flags());
        assertEquals(12, cs.result.fore().maxRequests());
        assertEquals(2128, cs.result.fore().maxResponseSizeCached());
        assertEquals(1, cs.result.back().maxRequests());
        assertEquals(-1, cs.result.back().rdmaIrd());
    }

    @Test
    void createSessionWithAnotherSequenceIsRefused()
    {
        received(reply(0, 1).i(43, 0).h(SH).h(SL).i(5, 0).i(0, 1, 1, 0, 8, 1, 0).i(0, 1, 1, 0, 2, 1, 0));
        dec.wrap(call.results());
        final Nfs4SessionRequests.CreateSession cs = new Nfs4SessionRequests.CreateSession();
        cs.sequence = 1;
        assertThrows(Nfs4Exception.class, () -> cs.decode(dec, call));
    }

    @Test
    void reclaimCompleteAlreadyDoneIsDone()
    {
        received(sequenceOk(reply(Nfs4Status.COMPLETE_ALREADY, 2), 1, 0).i(58, Nfs4Status.COMPLETE_ALREADY));
        decodeSequence();
        final Nfs4SessionRequests.ReclaimComplete rc = new Nfs4SessionRequests.ReclaimComplete();
        rc.decode(dec, call);
        assertTrue(rc.alreadyComplete);
    }

    @Test
    void attributesStopAtAValueOfUnknownSizeAndSkipTheRest()
    {
        // size 4, acl 12 (variable), fileid 20: only size can be read; attr_vals' length finds the end
        received(reply(0, 1).i(9, 0).i(1, (1 << 4) | (1 << 12) | (1 << 20)).i(8 + 12 + 8)
            .h(77).i(1, 0, 0).h(5).i(0xCAFE));
        dec.wrap(call.results());
        dec.ok(Nfs4.OP_GETATTR, null);
        final Nfs4Attributes attrs = dec.attributes(new Nfs4Attributes());
        assertEquals(77, attrs.size());
        assertFalse(attrs.has(Nfs4Attr.FILEID));
        assertEquals(0xCAFE, call.results().getInt(), "positioned after attr_vals");
    }

    @Test
    void attributesOverrunningTheirLengthAreMalformed()
    {
        received(reply(0, 1).i(9, 0).i(1, 1 << 4).i(4).h(77));
        dec.wrap(call.results());
        dec.ok(Nfs4.OP_GETATTR, null);
        assertThrows(XdrException.class, () -> dec.attributes(new Nfs4Attributes()));
    }

    @Test
    void entriesOfAFailedPageAreNotKept()
    {
        final Wire w = sequenceOk(reply(0, 3), 1, 0).i(22, 0).i(26, 0).h(1)
            .b(true).h(3).str("a").i(1, 0x12).i(12).i(1).h(1)
            .b(true).h(4).str("b").i(1, 0x12).i(12);     // truncated
        received(w);
        decodeSequence();
        final Nfs4PathRequests.Readdir readdir = new Nfs4PathRequests.Readdir();
        readdir.walk(new String[0], new Nfs4FileHandle().set(FH, 0, FH.length), 0, 0);
        readdir.cookie = 2;
        readdir.dir.set(FH, 0, FH.length);
        final List<Nfs4DirEntry> before = new ArrayList<>(readdir.entries);
        assertThrows(XdrException.class, () -> readdir.decode(dec, call));
        assertEquals(before, readdir.entries);
        assertEquals(2, readdir.cookie);
    }
}
