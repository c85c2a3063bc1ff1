package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.LoopbackRpcClient;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcException;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Nfs3Client} against the in-memory server through {@link LoopbackRpcClient}: semantics and error paths. */
class Nfs3ClientTest
{
    static final RpcAuth AUTH = RpcAuth.sys(1, "jrxe-test", 1000, 100);

    private final MemoryNfsServer server = new MemoryNfsServer();
    private final RpcDispatcher dispatcher = new RpcDispatcher(null).register(server);
    private final LoopbackRpcClient rpc = new LoopbackRpcClient(dispatcher, AUTH, 8, 2 << 20);
    private final Nfs3Client nfs = new Nfs3Client(rpc);
    private final FileHandle3 root = server.rootHandle();
    private final UnsafeBuffer memory = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1 << 16, 64));

    private static byte[] bytes(final int n, final int seed)
    {
        final byte[] b = new byte[n];
        for (int i = 0; i < n; i++)
        {
            b[i] = (byte)(i * 13 + seed);
        }
        return b;
    }

    @Test
    void getattrOfTheRootAndFsinfo() throws IOException
    {
        nfs.nullProc();
        final Fattr3 attrs = new Fattr3();
        nfs.getattr(root, attrs);
        assertEquals(Nfs3.NF3DIR, attrs.type());
        assertEquals(0755, attrs.mode());
        assertEquals(server.root().fileid, attrs.fileid());
        final FsInfo info = new FsInfo();
        nfs.fsinfo(root, info);
        assertEquals(1 << 20, info.rtmax());
        assertEquals(64 * 1024, info.wtpref());
        assertEquals(Long.MAX_VALUE, info.maxFileSize());
        assertTrue(info.attributes().present());
        assertEquals(Nfs3.FSF3_CANSETTIME, info.properties() & Nfs3.FSF3_CANSETTIME);
    }

    @Test
    void lookupFindsAFileAndAMissingNameIsNoent() throws IOException
    {
        final MemoryFile f = server.createFile("hello.txt", bytes(300, 1));
        final LookupResult out = new LookupResult();
        nfs.lookup(root, "hello.txt", out);
        assertEquals(MemoryNfsServer.handle(f), out.handle());
        assertEquals(300, out.attributes().attributes().size());
        assertEquals(Nfs3.NF3REG, out.attributes().attributes().type());
        assertTrue(out.dirAttributes().present());

        final NfsException ex = assertThrows(NfsException.class, () -> nfs.lookup(root, "missing", out));
        assertEquals(Nfs3Status.NFS3ERR_NOENT, ex.status());
        assertEquals("NFS3 LOOKUP \"missing\": NFS3ERR_NOENT (no such file or directory)", ex.getMessage());
        assertTrue(out.dirAttributes().present(), "LOOKUP3resfail's dir attributes are decoded");

        nfs.lookup(root, "hello.txt", out);
        final FileHandle3 file = out.handle().copy();
        assertEquals(Nfs3Status.NFS3ERR_NOTDIR,
            assertThrows(NfsException.class, () -> nfs.lookup(file, "x", out)).status());
    }

    @Test
    void aRemovedFilesHandleIsStaleAndAForeignHandleIsBad() throws IOException
    {
        server.createFile("doomed", bytes(10, 2));
        final LookupResult found = new LookupResult();
        nfs.lookup(root, "doomed", found);
        final FileHandle3 handle = found.handle().copy();
        final WccData wcc = new WccData();
        nfs.remove(root, "doomed", wcc);
        assertTrue(wcc.beforePresent());
        assertTrue(wcc.after().present());
        final NfsException stale = assertThrows(NfsException.class, () -> nfs.getattr(handle, new Fattr3()));
        assertEquals("NFS3 GETATTR: NFS3ERR_STALE (stale file handle)", stale.getMessage());
        assertEquals(Nfs3Status.NFS3ERR_STALE, assertThrows(NfsException.class,
            () -> nfs.read(handle, 0, 10, memory.addressOffset(), new ReadResult())).status());
        assertEquals(Nfs3Status.NFS3ERR_NOENT,
            assertThrows(NfsException.class, () -> nfs.remove(root, "doomed", wcc)).status());
        assertEquals(Nfs3Status.NFS3ERR_BADHANDLE, assertThrows(NfsException.class,
            () -> nfs.getattr(new FileHandle3(new byte[]{1, 2, 3}), new Fattr3())).status());
    }

    @Test
    void accessGrantsWhatTheModeAllows() throws IOException
    {
        server.createFile("data", bytes(1, 0));
        final LookupResult found = new LookupResult();
        nfs.lookup(root, "data", found);
        final PostOpAttr attrs = new PostOpAttr();
        final int all = Nfs3.ACCESS3_READ | Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND | Nfs3.ACCESS3_EXECUTE;
        assertEquals(Nfs3.ACCESS3_READ | Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND,
            nfs.access(found.handle(), all, attrs), "0644: no execute");
        assertTrue(attrs.present());
        assertEquals(Nfs3.ACCESS3_LOOKUP | Nfs3.ACCESS3_DELETE,
            nfs.access(root, Nfs3.ACCESS3_LOOKUP | Nfs3.ACCESS3_DELETE | Nfs3.ACCESS3_EXECUTE, attrs),
            "a directory: LOOKUP and DELETE, EXECUTE is for files");
    }

    @Test
    void createModesFollowRfc1813Section338() throws IOException
    {
        final CreateResult out = new CreateResult();
        final Sattr3 attrs = new Sattr3().mode(0640);
        nfs.create(root, "u", Nfs3.UNCHECKED, attrs, 0, out);
        final FileHandle3 u = out.handle().copy();
        assertEquals(0640, out.attributes().attributes().mode());
        final WriteResult written = new WriteResult();
        memory.setMemory(0, 100, (byte)7);
        nfs.write(u, 0, 100, Nfs3.FILE_SYNC, memory.addressOffset(), written);
        assertEquals(Nfs3.FILE_SYNC, written.committed());

        nfs.create(root, "u", Nfs3.UNCHECKED, new Sattr3().size(0), 0, out);
        assertEquals(u, out.handle(), "UNCHECKED opens the existing file");
        assertEquals(0, out.attributes().attributes().size(), "and its size attribute truncates it");

        final NfsException exists = assertThrows(NfsException.class,
            () -> nfs.create(root, "u", Nfs3.GUARDED, attrs, 0, out));
        assertEquals("NFS3 CREATE \"u\": NFS3ERR_EXIST (file exists)", exists.getMessage());
        nfs.create(root, "g", Nfs3.GUARDED, attrs, 0, out);
        assertEquals(Nfs3.NF3REG, out.attributes().attributes().type());

        final int setattrs = server.callsByProcedure[Nfs3.NFSPROC3_SETATTR];
        nfs.create(root, "x", Nfs3.EXCLUSIVE, new Sattr3().mode(0600), 0xAAAAL, out);
        final FileHandle3 x = out.handle().copy();
        assertEquals(setattrs + 1, server.callsByProcedure[Nfs3.NFSPROC3_SETATTR], "EXCLUSIVE then SETATTR");
        assertEquals(0600, out.attributes().attributes().mode(), "the attributes SETATTR set");
        nfs.create(root, "x", Nfs3.EXCLUSIVE, new Sattr3(), 0xAAAAL, out);
        assertEquals(x, out.handle(), "a retransmitted EXCLUSIVE create (same verifier) succeeds on the same file");
        assertEquals(Nfs3Status.NFS3ERR_EXIST, assertThrows(NfsException.class,
            () -> nfs.create(root, "x", Nfs3.EXCLUSIVE, new Sattr3(), 0xBBBBL, out)).status());
        assertEquals(Nfs3Status.NFS3ERR_NAMETOOLONG, assertThrows(NfsException.class,
            () -> nfs.create(root, "n".repeat(256), Nfs3.GUARDED, attrs, 0, out)).status());
    }

    @Test
    void aCreateReplyWithoutAHandleIsFollowedByALookup() throws IOException
    {
        server.omitCreateHandle = true;
        final CreateResult out = new CreateResult();
        final int lookups = server.callsByProcedure[Nfs3.NFSPROC3_LOOKUP];
        nfs.create(root, "quiet", Nfs3.GUARDED, new Sattr3().mode(0600), 0, out);
        assertEquals(lookups + 1, server.callsByProcedure[Nfs3.NFSPROC3_LOOKUP]);
        assertEquals(MemoryNfsServer.handle(server.find("quiet")), out.handle());
    }

    @Test
    void writeThenReadBackWithShortReadsAndEof() throws IOException
    {
        final CreateResult created = new CreateResult();
        nfs.create(root, "rw", Nfs3.GUARDED, new Sattr3().mode(0644), 0, created);
        final FileHandle3 fh = created.handle().copy();
        final byte[] data = bytes(1000, 5);
        memory.putBytes(0, data);
        final WriteResult written = new WriteResult();
        nfs.write(fh, 24, 1000, Nfs3.FILE_SYNC, memory.addressOffset(), written);
        assertEquals(1000, written.count());
        assertEquals(1024, written.wcc().after().attributes().size());
        assertEquals(0, written.wcc().beforeSize());

        final ReadResult read = new ReadResult();
        memory.setMemory(0, 2048, (byte)0);
        nfs.read(fh, 24, 2000, memory.addressOffset(), read);
        assertEquals(1000, read.count());
        assertTrue(read.eof());
        final byte[] back = new byte[1000];
        memory.getBytes(0, back);
        assertArrayEquals(data, back);

        server.shortReads = 100;
        nfs.read(fh, 0, 500, memory.addressOffset(), read);
        assertEquals(100, read.count());
        assertFalse(read.eof(), "a short read is not the end of the file");
        nfs.read(fh, 2000, 10, memory.addressOffset(), read);
        assertEquals(0, read.count());
        assertTrue(read.eof());
    }

    @Test
    void aRestartBetweenUnstableWritesAndCommitChangesTheVerifier() throws IOException
    {
        final CreateResult created = new CreateResult();
        nfs.create(root, "u", Nfs3.GUARDED, new Sattr3(), 0, created);
        final FileHandle3 fh = created.handle().copy();
        memory.setMemory(0, 4096, (byte)0x5A);
        final WriteResult written = new WriteResult();
        final WriteVerifier verifier = new WriteVerifier();
        nfs.write(fh, 0, 4096, Nfs3.UNSTABLE, memory.addressOffset(), written);
        assertEquals(Nfs3.UNSTABLE, written.committed());
        verifier.written(written);
        nfs.write(fh, 4096, 4096, Nfs3.UNSTABLE, memory.addressOffset(), written);
        verifier.written(written);
        final CommitResult commit = new CommitResult();
        nfs.commit(fh, 0, 0, commit);
        verifier.committed(commit);
        assertEquals(8192, server.content("u").length);

        nfs.write(fh, 8192, 4096, Nfs3.UNSTABLE, memory.addressOffset(), written);
        verifier.reset();
        verifier.written(written);
        server.restart();
        assertEquals(8192, server.content("u").length, "the unstable write was lost");
        nfs.commit(fh, 0, 0, commit);
        assertNotEquals(verifier.verifier(), commit.verifier());
        final WriteVerifierChangedException ex =
            assertThrows(WriteVerifierChangedException.class, () -> verifier.committed(commit));
        assertTrue(ex.getMessage().startsWith("NFS3 COMMIT: write verifier changed from 1111222233334444 to "),
            ex.getMessage());
        assertTrue(ex.getMessage().endsWith("the server restarted and unstable writes since the last COMMIT " +
            "must be sent again"), ex.getMessage());
    }

    @Test
    void outstandingReadsOnCallersCalls() throws IOException
    {
        final byte[] data = bytes(8 * 1000, 9);
        server.createFile("many", data);
        final LookupResult found = new LookupResult();
        nfs.lookup(root, "many", found);
        final RpcCall[] calls = new RpcCall[8];
        for (int i = 0; i < calls.length; i++)
        {
            calls[i] = new RpcCall();
            assertEquals(0, nfs.startRead(calls[i], found.handle(), i * 1000L, 1000, memory.addressOffset() + i * 1000));
        }
        assertTrue(nfs.startRead(new RpcCall(), found.handle(), 0, 1, memory.addressOffset()) < 0,
            "no ninth transport slot: -ENOMEM, nothing sent");
        final ReadResult read = new ReadResult();
        for (int i = calls.length - 1; i >= 0; i--)
        {
            while (!calls[i].isDone())
            {
                nfs.progress();
            }
            nfs.finishRead(calls[i], read);
            assertEquals(1000, read.count());
            assertEquals(i == calls.length - 1, read.eof());
        }
        final byte[] back = new byte[data.length];
        memory.getBytes(0, back);
        assertArrayEquals(data, back);
    }

    @Test
    void readdirplusContinuesAcrossPagesWithTheCookieVerifier() throws IOException
    {
        final List<String> expected = new ArrayList<>(List.of(".", ".."));
        for (int i = 0; i < 40; i++)
        {
            final String name = String.format("file-%02d", i);
            server.createFile(name, bytes(i, i));
            expected.add(name);
        }
        final DirectoryPage page = new DirectoryPage();
        final List<String> names = new ArrayList<>();
        long cookie = 0;
        long verifier = 0;
        int pages = 0;
        do
        {
            nfs.readdirplus(root, cookie, verifier, 8192, 1200, page);
            pages++;
            for (int i = 0; i < page.count(); i++)
            {
                final DirEntryPlus e = page.entry(i);
                names.add(e.name());
                assertTrue(e.handlePresent());
                if (e.name().startsWith("file-"))
                {
                    assertEquals(Integer.parseInt(e.name().substring(5)), e.attributes().attributes().size());
                    assertEquals(e.fileid(), e.attributes().attributes().fileid());
                }
                cookie = e.cookie();
            }
            verifier = page.cookieVerifier();
        }
        while (!page.eof());
        assertEquals(expected, names);
        assertTrue(pages >= 4, "1200-byte pages hold a few entries each: " + pages);

        nfs.readdirplus(root, 0, 0, 8192, 1200, page);
        final long staleCookie = page.entry(page.count() - 1).cookie();
        final long staleVerifier = page.cookieVerifier();
        server.createFile("late", bytes(1, 1));
        final NfsException ex = assertThrows(NfsException.class,
            () -> nfs.readdirplus(root, staleCookie, staleVerifier, 8192, 1200, page));
        assertEquals(Nfs3Status.NFS3ERR_BAD_COOKIE, ex.status());
        assertEquals(Nfs3Status.NFS3ERR_TOOSMALL,
            assertThrows(NfsException.class, () -> nfs.readdirplus(root, 0, 0, 8192, 120, page)).status());
    }

    @Test
    void garbageArgumentsAreAnRpcFailure() throws IOException
    {
        final RpcCall call = new RpcCall();
        rpc.prepare(call, Nfs3.PROGRAM, Nfs3.VERSION, Nfs3.NFSPROC3_GETATTR);
        call.args().putInt(16).putInt(0x4A525845);    // a 16-byte handle cut after 4 bytes
        rpc.execute(call);
        final RpcException ex = assertThrows(RpcException.class, () -> RpcException.check(call, "NFS3 GETATTR"));
        assertEquals("NFS3 GETATTR: RPC GARBAGE_ARGS: the server could not decode the arguments", ex.getMessage());
        assertEquals(RpcMessage.GARBAGE_ARGS, ex.acceptStat());
        rpc.release(call);
        assertEquals(1, dispatcher.garbageArgs());
    }

    @Test
    void aServerWithoutVersion3IsProgMismatchAndWithoutNfsProgUnavail()
    {
        final RpcProgram v2only = new RpcProgram()
        {
            @Override
            public int program()
            {
                return Nfs3.PROGRAM;
            }

            @Override
            public int lowVersion()
            {
                return 2;
            }

            @Override
            public int highVersion()
            {
                return 2;
            }

            @Override
            public int call(final RpcServerCall call)
            {
                return RpcMessage.SUCCESS;
            }
        };
        final Nfs3Client old = new Nfs3Client(new LoopbackRpcClient(new RpcDispatcher(null).register(v2only),
            AUTH, 2, 4096));
        final RpcException mismatch = assertThrows(RpcException.class, () -> old.getattr(root, new Fattr3()));
        assertEquals("NFS3 GETATTR: RPC PROG_MISMATCH (server has versions 2..2): the server does not serve this " +
            "version of the program", mismatch.getMessage());
        final Nfs3Client none = new Nfs3Client(new LoopbackRpcClient(new RpcDispatcher(null), AUTH, 2, 4096));
        assertEquals(RpcMessage.PROG_UNAVAIL, assertThrows(RpcException.class, none::nullProc).acceptStat());
    }

    @Test
    void aClosedClientFailsWithEio()
    {
        rpc.close();
        final RpcException ex = assertThrows(RpcException.class, () -> nfs.getattr(root, new Fattr3()));
        assertEquals("NFS3 GETATTR: RPC failed: EIO (the client is closed or the reply was malformed)",
            ex.getMessage());
    }
}
