package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.LoopbackRpcClient;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Nfs3Session} over the loopback client: paths, listing, transfers with short replies and restarts. */
class Nfs3SessionTest
{
    private final MemoryNfsServer server = new MemoryNfsServer();
    private final CountingRpcClient rpc = new CountingRpcClient(
        new LoopbackRpcClient(new RpcDispatcher(null).register(server), Nfs3ClientTest.AUTH, 8, 1 << 20));

    static byte[] content(final int n, final int seed)
    {
        final byte[] b = new byte[n];
        long x = seed;
        for (int i = 0; i < n; i++)
        {
            x = x * 6364136223846793005L + 1442695040888963407L;
            b[i] = (byte)(x >>> 56);
        }
        return b;
    }

    private Nfs3Session session(final Nfs3SessionOptions options) throws IOException
    {
        return new Nfs3Session(rpc, server.rootHandle(), options);
    }

    /** Records progress calls and checks they only grow. */
    static final class Progress implements TransferProgress
    {
        long done = -1;
        long total;
        int calls;
        int restarts;
        String reason;

        @Override
        public void progress(final long done, final long total)
        {
            assertTrue(done > this.done || restarts > 0, "progress only grows: " + done + " after " + this.done);
            this.done = done;
            this.total = total;
            calls++;
        }

        @Override
        public void restarted(final String reason)
        {
            restarts++;
            this.reason = reason;
            done = -1;
        }
    }

    /** Hashes the bytes in the order given and checks the offsets are contiguous. */
    static class HashingSink implements TransferSink
    {
        final MessageDigest md5;
        final ByteArrayOutputStream copy = new ByteArrayOutputStream();
        long next;

        HashingSink() throws NoSuchAlgorithmException
        {
            md5 = MessageDigest.getInstance("MD5");
        }

        @Override
        public void accept(final long offset, final ByteBuffer data)
        {
            assertEquals(next, offset, "chunks in file order");
            next += data.remaining();
            final ByteBuffer dup = data.duplicate();
            md5.update(data);
            final byte[] b = new byte[dup.remaining()];
            dup.get(b);
            copy.write(b, 0, b.length);
        }
    }

    @Test
    void fsinfoChoosesTheTransferSizes() throws IOException
    {
        server.rtpref = 32768;
        server.wtmax = 16384;
        try (Nfs3Session s = session(new Nfs3SessionOptions().wsize(65536)))
        {
            assertEquals(32768, s.rsize(), "the server's preference");
            assertEquals(16384, s.wsize(), "asked for 64 KiB, capped by wtmax");
        }
        assertTrue(rpc.closed, "the session closes its RPC client");
    }

    @Test
    void writeThenReadAFileWithSeveralCallsOutstanding() throws Exception
    {
        final byte[] data = content(3 * 1024 * 1024 + 12345, 1);
        try (Nfs3Session s = session(new Nfs3SessionOptions().rsize(65536).wsize(32768).outstanding(6)))
        {
            final Progress wrote = new Progress();
            s.writeFile("big.bin", TransferSources.from(new ByteArrayInputStream(data)), data.length, wrote);
            assertEquals(data.length, wrote.done);
            assertEquals(data.length, wrote.total);
            assertEquals((data.length + 32767) / 32768, wrote.calls);
            assertArrayEquals(data, server.content("big.bin"));
            assertEquals(0644, server.find("big.bin").mode);
            assertEquals(1, server.callsByProcedure[Nfs3.NFSPROC3_COMMIT]);
            assertEquals(6, rpc.maxInFlight, "six WRITEs outstanding");

            rpc.maxInFlight = 0;
            final HashingSink sink = new HashingSink();
            final Progress read = new Progress();
            assertEquals(data.length, s.readFile("big.bin", sink, read));
            assertArrayEquals(data, sink.copy.toByteArray());
            assertArrayEquals(MessageDigest.getInstance("MD5").digest(data), sink.md5.digest());
            assertEquals(data.length, read.done);
            assertEquals(6, rpc.maxInFlight, "six READs outstanding");
        }
    }

    @Test
    void shortReadsAndShortWritesAreCompleted() throws Exception
    {
        final byte[] data = content(300_000, 2);
        server.shortReads = 10_000;
        server.shortWrites = 7_000;
        try (Nfs3Session s = session(new Nfs3SessionOptions().rsize(32768).wsize(32768).outstanding(4)))
        {
            s.writeFile("short", TransferSources.from(new ByteArrayInputStream(data)), data.length,
                TransferProgress.NONE);
            assertArrayEquals(data, server.content("short"));
            final HashingSink sink = new HashingSink();
            s.readFile("short", sink, TransferProgress.NONE);
            assertArrayEquals(data, sink.copy.toByteArray());
        }
    }

    @Test
    void aServerRestartDuringAWriteSendsTheFileAgain() throws Exception
    {
        final byte[] data = content(500_000, 3);
        server.restartAfterWrites = 5;
        final java.nio.file.Path local = java.nio.file.Files.createTempFile("jrxe-nfs", ".bin");
        try (Nfs3Session s = session(new Nfs3SessionOptions().wsize(16384).outstanding(4));
             java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(local,
                 java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.READ))
        {
            channel.write(ByteBuffer.wrap(data), 0);
            final Progress progress = new Progress();
            s.writeFile("again", TransferSources.from(channel), data.length, progress);
            assertEquals(1, server.restarts);
            assertEquals(1, progress.restarts);
            assertEquals(1, s.lastResends());
            assertTrue(progress.reason.contains("write verifier changed"), progress.reason);
            assertArrayEquals(data, server.content("again"), "everything lost in the restart was sent again");
            assertEquals(data.length, progress.done);
        }
        finally
        {
            java.nio.file.Files.delete(local);
        }
    }

    @Test
    void aVerifierThatKeepsChangingFailsTheWrite() throws IOException
    {
        final byte[] data = content(100_000, 4);
        server.restartEvery = 3;
        try (Nfs3Session s = session(new Nfs3SessionOptions().wsize(8192).outstanding(2).maxResends(2)))
        {
            final byte[] bytes = data;
            final java.nio.file.Path local = java.nio.file.Files.createTempFile("jrxe-nfs", ".bin");
            try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(local,
                java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.READ))
            {
                channel.write(ByteBuffer.wrap(bytes), 0);
                final WriteVerifierChangedException ex = assertThrows(WriteVerifierChangedException.class,
                    () -> s.writeFile("flaky", TransferSources.from(channel), bytes.length, TransferProgress.NONE));
                assertTrue(ex.getMessage().contains("the server restarted"), ex.getMessage());
                assertEquals(2, s.lastResends());
            }
            finally
            {
                java.nio.file.Files.delete(local);
            }
        }
    }

    @Test
    void aStreamSourceCannotBeSentAgain() throws IOException
    {
        final byte[] data = content(100_000, 5);
        server.restartAfterWrites = 4;
        try (Nfs3Session s = session(new Nfs3SessionOptions().wsize(8192).outstanding(2)))
        {
            final IOException ex = assertThrows(IOException.class, () -> s.writeFile("once",
                TransferSources.from(new ByteArrayInputStream(data)), data.length, TransferProgress.NONE));
            assertTrue(ex.getMessage().startsWith("a stream cannot go back"), ex.getMessage());
        }
    }

    @Test
    void pathsListingAndErrorsNameThePath() throws IOException
    {
        final MemoryFile dir = server.mkdir(server.root(), "dir");
        try (Nfs3Session s = session(new Nfs3SessionOptions().readdirSizes(8192, 1024)))
        {
            for (int i = 0; i < 30; i++)
            {
                s.create("dir/f" + i, Nfs3.GUARDED, 0600);
            }
            final FileHandle3 f7 = s.lookup("/dir//f7");
            assertEquals(MemoryNfsServer.handle(dir.children.get("f7")), f7);
            assertEquals(s.root(), s.lookup("dir/.."), "the server resolves ..");
            assertEquals(s.root(), s.lookup(""));
            assertEquals(Nfs3.NF3DIR, s.getattr("dir").type());

            final List<Nfs3DirEntry> entries = s.list("dir");
            assertEquals(30, entries.size());
            assertEquals("f0", entries.get(0).name());
            assertEquals(Nfs3.NF3REG, entries.get(5).type());
            assertEquals(0, entries.get(5).size());
            assertEquals(0600, entries.get(5).mode());
            assertTrue(server.callsByProcedure[Nfs3.NFSPROC3_READDIRPLUS] >= 3, "several pages");

            final NfsException missing = assertThrows(NfsException.class, () -> s.lookup("dir/nope/deeper"));
            assertEquals("NFS3 LOOKUP \"dir/nope\": NFS3ERR_NOENT (no such file or directory)", missing.getMessage());
            final NfsException exists = assertThrows(NfsException.class, () -> s.create("dir/f3", Nfs3.GUARDED, 0));
            assertEquals("NFS3 CREATE \"dir/f3\": NFS3ERR_EXIST (file exists)", exists.getMessage());
            final NfsException isdir = assertThrows(NfsException.class,
                () -> s.readFile("dir", TransferSinks.to(new ByteArrayOutputStream()), TransferProgress.NONE));
            assertEquals("NFS3 READ \"dir\": NFS3ERR_ISDIR (is a directory)", isdir.getMessage());
            assertEquals(Nfs3Status.NFS3ERR_NOTDIR,
                assertThrows(NfsException.class, () -> s.list("dir/f1")).status());

            s.remove("dir/f3");
            assertNull(dir.children.get("f3"));
            assertEquals(29, s.list("dir").size());
            assertEquals(Nfs3Status.NFS3ERR_NOENT, assertThrows(NfsException.class, () -> s.remove("dir/f3")).status());
            assertThrows(IllegalArgumentException.class, () -> s.remove("/"));
        }
    }

    @Test
    void anEmptyFileAndAFileThatShrinksWhileRead() throws Exception
    {
        try (Nfs3Session s = session(new Nfs3SessionOptions().rsize(4096).outstanding(3)))
        {
            s.writeFile("empty", TransferSources.from(new ByteArrayInputStream(new byte[0])), 0, TransferProgress.NONE);
            assertEquals(0, server.content("empty").length);
            assertEquals(0, server.callsByProcedure[Nfs3.NFSPROC3_COMMIT], "nothing to commit");
            final HashingSink sink = new HashingSink();
            assertEquals(0, s.readFile("empty", sink, TransferProgress.NONE));

            final byte[] data = content(10 * 4096, 6);
            server.createFile("shrinks", data);
            final HashingSink shrinking = new HashingSink()
            {
                @Override
                public void accept(final long offset, final ByteBuffer bytes)
                {
                    if (0 == offset)
                    {
                        server.find("shrinks").truncate(5 * 4096 + 100); // another client truncates it
                    }
                    super.accept(offset, bytes);
                }
            };
            assertEquals(5 * 4096 + 100, s.readFile("shrinks", shrinking, TransferProgress.NONE),
                "the READ that met the new end of file ends the transfer");
            assertArrayEquals(java.util.Arrays.copyOf(data, 5 * 4096 + 100), shrinking.copy.toByteArray());
        }
    }
}
