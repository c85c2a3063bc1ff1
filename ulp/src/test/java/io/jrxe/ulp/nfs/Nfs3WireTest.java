package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcCall;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NFSv3 encodings byte for byte against RFC 1813's XDR, built by hand here. */
class Nfs3WireTest
{
    private static final byte[] FH = {1, 2, 3, 4, 5, 6, 7, 8};

    private final CapturingRpcClient rpc = new CapturingRpcClient();
    private final Nfs3Client nfs = new Nfs3Client(rpc);

    /** Big-endian XDR words and bytes, by hand. */
    private static final class Wire
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);

        Wire i(final int... words) throws IOException
        {
            for (final int w : words)
            {
                out.writeInt(w);
            }
            return this;
        }

        Wire h(final long hyper) throws IOException
        {
            out.writeLong(hyper);
            return this;
        }

        Wire b(final int... values)
        {
            for (final int v : values)
            {
                bytes.write(v);
            }
            return this;
        }

        byte[] done()
        {
            return bytes.toByteArray();
        }
    }

    /** RFC 5531 §9 call header, AUTH_NONE credential and verifier, for NFS v3. */
    private static Wire callHeader(final int xid, final int procedure) throws IOException
    {
        return new Wire().i(xid, 0 /* CALL */, 2 /* rpcvers */, 100003, 3, procedure, 0, 0, 0, 0);
    }

    /** An accepted SUCCESS reply header with an AUTH_NONE verifier. */
    private static Wire replyHeader(final int xid) throws IOException
    {
        return new Wire().i(xid, 1 /* REPLY */, 0 /* MSG_ACCEPTED */, 0, 0, 0 /* SUCCESS */);
    }

    private static void fattr3(final Wire w, final int type, final long size, final long fileid) throws IOException
    {
        // type mode nlink uid gid | size used | rdev | fsid fileid | atime mtime ctime
        w.i(type, 0644, 1, 1000, 100).h(size).h(size).i(0, 0).h(0x4A52).h(fileid).i(10, 1, 20, 2, 30, 3);
    }

    @Test
    void lookupCallIsDiropargs3() throws IOException
    {
        final byte[] expected = callHeader(0x0102_0304, 3)
            .i(8).b(1, 2, 3, 4, 5, 6, 7, 8)          // dir: nfs_fh3 = opaque<64>
            .i(3).b('f', 'o', 'o', 0)                // name: filename3 = string, padded to 4
            .done();
        final Wire reply = replyHeader(0x0102_0304).i(0 /* NFS3_OK */, 4).b(9, 9, 9, 9);
        reply.i(1);                                   // obj_attributes: post_op_attr TRUE
        fattr3(reply, Nfs3.NF3REG, 12, 77);
        reply.i(0);                                   // dir_attributes: FALSE
        rpc.reply(reply.done());
        final LookupResult out = new LookupResult();
        nfs.lookup(new FileHandle3(FH), "foo", out);
        assertArrayEquals(expected, rpc.sent);
        assertEquals(Nfs3Sizes.LOOKUP_REPLY, rpc.lastCall.replyLimit());
        assertEquals(272, Nfs3Sizes.LOOKUP_REPLY);
        assertEquals(new FileHandle3(new byte[]{9, 9, 9, 9}), out.handle());
        assertTrue(out.attributes().present());
        assertEquals(12, out.attributes().attributes().size());
        assertEquals(77, out.attributes().attributes().fileid());
        assertEquals(20, out.attributes().attributes().mtimeSeconds());
        assertEquals(2, out.attributes().attributes().mtimeNanos());
        assertFalse(out.dirAttributes().present());
    }

    @Test
    void readReplyPutsTheDataAtTheDestination() throws IOException
    {
        final Wire reply = replyHeader(0x0102_0304).i(0, 1);    // NFS3_OK, file_attributes TRUE
        fattr3(reply, Nfs3.NF3REG, 5, 42);
        reply.i(5, 1, 5).b('h', 'e', 'l', 'l', 'o', 0, 0, 0);  // count, eof TRUE, data<>: length, bytes, pad
        rpc.reply(reply.done());
        final UnsafeBuffer dst = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        final RpcCall call = new RpcCall();
        assertEquals(0, nfs.startRead(call, new FileHandle3(FH), 0x1_0000_0000L, 32, dst.addressOffset()));
        final byte[] expectedCall = callHeader(0x0102_0304, 6).i(8).b(1, 2, 3, 4, 5, 6, 7, 8)
            .h(0x1_0000_0000L).i(32).done();            // READ3args: file, offset (uint64), count
        assertArrayEquals(expectedCall, rpc.sent);
        assertEquals(32, call.readPayloadLength(), "the Write chunk may take the whole count");
        assertEquals(dst.addressOffset(), call.readPayloadAddress());
        assertEquals(128, call.replyLimit(), "READ reply without its data");
        final ReadResult out = new ReadResult();
        nfs.finishRead(call, out);
        assertEquals(5, out.count());
        assertTrue(out.eof());
        assertEquals(42, out.attributes().attributes().fileid());
        final byte[] data = new byte[5];
        dst.getBytes(0, data);
        assertArrayEquals("hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII), data);
        assertEquals(RpcCall.IDLE, call.state(), "finishRead released the call");
    }

    @Test
    void readReplyWhoseDataLengthIsNotItsCountIsMalformed() throws IOException
    {
        final Wire reply = replyHeader(0x0102_0304).i(0, 0 /* no attributes */, 4, 0, 3).b(1, 2, 3, 0);
        rpc.reply(reply.done());
        final UnsafeBuffer dst = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        final IOException ex = assertThrows(IOException.class,
            () -> nfs.read(new FileHandle3(FH), 0, 8, dst.addressOffset(), new ReadResult()));
        assertEquals("NFS3 READ: malformed reply: count 4, data of 3 bytes, asked for 8", ex.getMessage());
    }

    @Test
    void writeCallCarriesItsDataAsThePayload() throws IOException
    {
        final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        src.putBytes(0, new byte[]{10, 11, 12, 13, 14});
        final Wire reply = replyHeader(0x0102_0304).i(0, 0, 0);  // NFS3_OK, wcc_data: no before, no after
        reply.i(5, 0 /* UNSTABLE */).h(0xFEED_FACE_CAFE_BEEFL);    // count, committed, verf
        rpc.reply(reply.done());
        final RpcCall call = new RpcCall();
        nfs.startWrite(call, new FileHandle3(FH), 4096, 5, Nfs3.UNSTABLE, src.addressOffset());
        final byte[] expected = callHeader(0x0102_0304, 7).i(8).b(1, 2, 3, 4, 5, 6, 7, 8)
            .h(4096).i(5, 0 /* UNSTABLE */, 5).b(10, 11, 12, 13, 14, 0, 0, 0).done();
        assertArrayEquals(expected, rpc.sent);
        assertTrue(call.hasPayload());
        assertEquals(expected.length - 8, call.headLength(), "the Read chunk's position: after the length word");
        assertEquals(0, call.tailLength(), "nothing follows WRITE3args' data");
        assertEquals(160, call.replyLimit());
        final WriteResult out = new WriteResult();
        nfs.finishWrite(call, out);
        assertEquals(5, out.count());
        assertEquals(Nfs3.UNSTABLE, out.committed());
        assertEquals(0xFEED_FACE_CAFE_BEEFL, out.verifier());
        assertFalse(out.wcc().after().present());
    }

    @Test
    void createExclusiveSendsTheVerifierInsteadOfAttributes() throws IOException
    {
        final Wire reply = replyHeader(0x0102_0304).i(0, 1, 2).b(7, 7).b(0, 0).i(0, 0, 0);
        rpc.reply(reply.done());
        final CreateResult out = new CreateResult();
        nfs.create(new FileHandle3(FH), "f", Nfs3.EXCLUSIVE, new Sattr3(), 0x0011_2233_4455_6677L, out);
        final byte[] expected = callHeader(0x0102_0304, 8).i(8).b(1, 2, 3, 4, 5, 6, 7, 8).i(1).b('f', 0, 0, 0)
            .i(2 /* EXCLUSIVE */).h(0x0011_2233_4455_6677L).done();
        assertArrayEquals(expected, rpc.sent);
        assertEquals(new FileHandle3(new byte[]{7, 7}), out.handle());
        assertEquals(304, rpc.lastCall.replyLimit());
    }

    @Test
    void createUncheckedSendsSattr3() throws IOException
    {
        rpc.reply(replyHeader(0x0102_0304).i(0, 1, 1).b(5, 0, 0, 0).i(0, 0, 0).done());
        nfs.create(new FileHandle3(FH), "ab", Nfs3.UNCHECKED, new Sattr3().mode(0640).size(0), 0, new CreateResult());
        final byte[] expected = callHeader(0x0102_0304, 8).i(8).b(1, 2, 3, 4, 5, 6, 7, 8).i(2).b('a', 'b', 0, 0)
            .i(0 /* UNCHECKED */)
            .i(1, 0640, 0, 0, 1).h(0).i(0, 0) // mode set, uid no, gid no, size set 0, atime and mtime DONT_CHANGE
            .done();
        assertArrayEquals(expected, rpc.sent);
    }

    @Test
    void readdirplusArgsAndAPageOfEntries() throws IOException
    {
        final Wire reply = replyHeader(0x0102_0304).i(0, 0).h(0xABCDL);   // NFS3_OK, no dir attributes, verf
        reply.i(1).h(100).i(1).b('a', 0, 0, 0).h(1).i(0, 0);               // entry a: no attributes, no handle
        reply.i(1).h(101).i(5).b('b', 'c', 'd', 'e', 'f', 0, 0, 0).h(2).i(1);
        fattr3(reply, Nfs3.NF3DIR, 4096, 101);
        reply.i(1, 2).b(3, 3, 0, 0);
        reply.i(0, 0);                                                      // no more entries, eof FALSE
        rpc.reply(reply.done());
        final DirectoryPage page = new DirectoryPage();
        nfs.readdirplus(new FileHandle3(FH), 7, 0x1234, 512, 4096, page);
        final byte[] expected = callHeader(0x0102_0304, 17).i(8).b(1, 2, 3, 4, 5, 6, 7, 8)
            .h(7).h(0x1234).i(512, 4096).done();          // cookie, cookieverf, dircount, maxcount
        assertArrayEquals(expected, rpc.sent);
        assertEquals(24 + 4 + 4096, rpc.lastCall.replyLimit(), "maxcount bounds READDIRPLUS3resok");
        assertEquals(2, page.count());
        assertEquals(0xABCDL, page.cookieVerifier());
        assertFalse(page.eof());
        assertEquals("a", page.entry(0).name());
        assertFalse(page.entry(0).attributes().present());
        assertEquals("bcdef", page.entry(1).name());
        assertEquals(2, page.entry(1).cookie());
        assertEquals(Nfs3.NF3DIR, page.entry(1).attributes().attributes().type());
        assertEquals(new FileHandle3(new byte[]{3, 3}), page.entry(1).handle());
    }

    @Test
    void anNfsErrorIsAnExceptionNamingTheStatus() throws IOException
    {
        rpc.reply(replyHeader(0x0102_0304).i(70).done());   // NFS3ERR_STALE
        final NfsException ex = assertThrows(NfsException.class,
            () -> nfs.getattr(new FileHandle3(FH), new Fattr3()));
        assertEquals(Nfs3Status.NFS3ERR_STALE, ex.status());
        assertEquals("NFS3 GETATTR: NFS3ERR_STALE (stale file handle)", ex.getMessage());
    }

    @Test
    void aTruncatedReplyIsMalformedNotACrash() throws IOException
    {
        rpc.reply(replyHeader(0x0102_0304).i(0, 2, 0644).done());   // NFS3_OK, then a fattr3 cut short
        final IOException ex = assertThrows(IOException.class,
            () -> nfs.getattr(new FileHandle3(FH), new Fattr3()));
        assertTrue(ex.getMessage().startsWith("NFS3 GETATTR: malformed reply: "), ex.getMessage());
    }
}
