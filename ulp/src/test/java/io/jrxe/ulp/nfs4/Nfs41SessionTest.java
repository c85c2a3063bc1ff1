package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.LoopbackRpcClient;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The session end to end against {@link TestNfsServer} through an RPC client whose calls stay in flight together
 * and complete newest first ({@link QueuedRpcClient}).
 */
class Nfs41SessionTest
{
    private static final int CHUNK = 64 * 1024;

    @TempDir
    Path dir;

    private final TestNfsServer server = new TestNfsServer();
    private final Nfs4CallbackProgram callback = new Nfs4CallbackProgram(Nfs4CallbackProgram.DEFAULT_PROGRAM);
    private final RpcDispatcher dispatcher = new RpcDispatcher(null).register(server);
    private final QueuedRpcClient client = new QueuedRpcClient(dispatcher, 16, 2 * CHUNK);
    private final TestClock clock = new TestClock();
    private final Nfs41Options options = new Nfs41Options().exportPath("/export").rsize(CHUNK).wsize(CHUNK)
        .outstanding(4).readdirMaxCount(8192).clock(clock).idle(new NoOpIdleStrategy());
    private Nfs41Session session;

    @BeforeEach
    void tree()
    {
        server.fs.mkdirs("/export/dir");
    }

    @AfterEach
    void checks()
    {
        assertEquals(List.of(), client.replyLimitViolations, "every reply fits the call's reply limit");
    }

    private Nfs41Session connect()
    {
        session = Nfs41Session.connect(client, callback, options);
        return session;
    }

    private static byte[] random(final int size, final long seed)
    {
        final byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private Path local(final String name, final byte[] content) throws IOException
    {
        return Files.write(dir.resolve(name), content);
    }

    private byte[] readToFile(final String path) throws IOException
    {
        final Path out = dir.resolve("got-" + path.replace('/', '_'));
        try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING))
        {
            final long n = session.read(path, ch, null);
            assertEquals(n, ch.position());
        }
        return Files.readAllBytes(out);
    }

    private long writeFromFile(final byte[] content, final String path, final Nfs4Progress progress)
        throws IOException
    {
        try (FileChannel ch = FileChannel.open(local("up.bin", content), StandardOpenOption.READ))
        {
            return session.write(ch, path, 0644, progress);
        }
    }

    @Test
    void connectRunsTheSessionSequenceAndCloseUndoesIt()
    {
        connect();
        assertEquals(List.of("EXCHANGE_ID", "CREATE_SESSION", "SEQUENCE RECLAIM_COMPLETE",
            "SEQUENCE PUTROOTFH LOOKUP GETFH GETATTR"), server.compounds);
        assertEquals(Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN, server.createSessionFlags);
        assertEquals(Nfs4CallbackProgram.DEFAULT_PROGRAM, server.cbProgram);
        assertEquals(RpcMessage.AUTH_SYS, server.cbFlavor);
        assertEquals(16, server.foreSlotsAsked);
        assertEquals(8, session.slots(), "the server granted 8 of the 16 slots asked for");
        assertTrue(session.backChannelBound());
        assertTrue(callback.bound());
        assertEquals(90, session.leaseSeconds());
        assertEquals(CHUNK, session.rsize());
        assertTrue(server.clients.get(session.clientId()).reclaimComplete);

        session.close();
        assertEquals(List.of("DESTROY_SESSION", "DESTROY_CLIENTID"),
            server.compounds.subList(server.compounds.size() - 2, server.compounds.size()));
        assertTrue(server.sessions.isEmpty());
        assertTrue(server.clients.isEmpty());
        assertFalse(callback.bound());
        session.close(); // idempotent
        assertEquals(6, server.compounds.size());
    }

    @Test
    void aMultiMegabyteFileWrittenAndReadBackWithCallsInFlightTogether() throws IOException
    {
        connect();
        final byte[] content = random(3 * 1024 * 1024 + 12345, 42);
        final long[] last = new long[2];
        final long written = writeFromFile(content, "dir/big.bin", new Nfs4Progress()
        {
            @Override
            public void progress(final long done, final long total)
            {
                assertTrue(done > last[0] && total == content.length);
                last[0] = done;
                last[1] = total;
            }
        });
        assertEquals(content.length, written);
        assertEquals(content.length, last[0]);
        assertArrayEquals(content, server.fs.at("/export/dir/big.bin").content());
        assertEquals((content.length + CHUNK - 1) / CHUNK, server.writes);
        assertEquals(1, server.commits, "UNSTABLE writes, one COMMIT");
        assertEquals(4, client.maxInFlight.get(), "four WRITEs in flight at once");
        assertEquals(0b1111, server.slotsUsed, "each on its own slot");

        client.maxInFlight.set(0);
        assertArrayEquals(content, readToFile("dir/big.bin"));
        assertEquals(4, client.maxInFlight.get(), "four READs in flight at once");
        final ByteArrayOutputStream stream = new ByteArrayOutputStream();
        assertEquals(content.length, session.read("/dir/big.bin", stream, null));
        assertArrayEquals(content, stream.toByteArray());
        assertEquals(server.opens, server.closes, "every OPEN closed");
        assertEquals(0, session.rewrites());
    }

    @Test
    void shortReadsAndWritesAreContinued() throws IOException
    {
        connect();
        server.readCap = 10_001;
        server.writeCap = 30_000;
        final byte[] content = random(500_000, 7);
        assertEquals(content.length, writeFromFile(content, "dir/short.bin", null));
        assertArrayEquals(content, server.fs.at("/export/dir/short.bin").content());
        assertArrayEquals(content, readToFile("dir/short.bin"));
        assertTrue(server.reads >= content.length / 10_001);
    }

    @Test
    void emptyAndTinyFiles() throws IOException
    {
        connect();
        server.fs.file("/export/empty", new byte[0]);
        server.fs.file("/export/tiny", new byte[] {1, 2, 3});
        assertArrayEquals(new byte[0], readToFile("empty"));
        assertArrayEquals(new byte[] {1, 2, 3}, readToFile("tiny"));
        assertEquals(0, writeFromFile(new byte[0], "new-empty", null));
        assertEquals(0, server.fs.at("/export/new-empty").size);
        assertEquals(0, server.commits, "nothing written, nothing to commit");
    }

    @Test
    void writingOverALongerFileTruncatesIt() throws IOException
    {
        connect();
        server.fs.file("/export/old", random(200_000, 1));
        final byte[] content = random(1000, 2);
        writeFromFile(content, "old", null);
        assertArrayEquals(content, server.fs.at("/export/old").content());
    }

    @Test
    void graceIsWaitedOutWithoutSleeping() throws IOException
    {
        connect();
        server.fs.file("/export/g", random(100, 3));
        server.graceOpens = 3;
        assertArrayEquals(server.fs.at("/export/g").content(), readToFile("g"));
        assertEquals(3, session.graceRetries());
    }

    @Test
    void graceThatNeverEndsSurfacesAfterTheRetryLimit()
    {
        options.retry(5_000_000_000L, 100_000_000L, 1_000_000_000L);
        connect();
        server.fs.file("/export/g", random(100, 3));
        server.graceOpens = Integer.MAX_VALUE;
        final Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, () -> readToFile("g"));
        assertEquals(Nfs4.OP_OPEN, ex.op());
        assertEquals(Nfs4Status.GRACE, ex.status());
        assertTrue(ex.getMessage().startsWith("OPEN: NFS4ERR_GRACE (10013): still refused after"), ex.getMessage());
        assertTrue(session.graceRetries() >= 5 && session.graceRetries() < 50, "bounded: " + session.graceRetries());
    }

    @Test
    void delayOnSequenceIsRetriedOnTheSameSlotAndSequenceId()
    {
        connect();
        server.delaySequences = 2;
        assertEquals(Nfs4.NF4DIR, session.getattr("dir").type());
        assertEquals(2, session.delayRetries());
    }

    @Test
    void errorsNameTheOperationTheStatusAndThePath()
    {
        connect();
        Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, () -> readToFile("dir/nope.bin"));
        assertEquals("OPEN: NFS4ERR_NOENT (2): \"nope.bin\" in /export/dir", ex.getMessage());
        ex = assertThrows(Nfs4StatusException.class, () -> session.getattr("a/b/c"));
        assertEquals("LOOKUP: NFS4ERR_NOENT (2): \"a\" in /export", ex.getMessage());
        ex = assertThrows(Nfs4StatusException.class, () -> session.list("dir/missing"));
        assertEquals(Nfs4Status.NOENT, ex.status());
        ex = assertThrows(Nfs4StatusException.class, () -> readToFile("dir"));
        assertEquals(Nfs4Status.ISDIR, ex.status());
        assertThrows(IllegalArgumentException.class, () -> session.remove("../etc"));
        assertEquals(0, server.openStates.size());
    }

    @Test
    void aHandleThatGoesStaleDuringAReadFailsItCleanly()
    {
        connect();
        server.fs.file("/export/dir/vanishing", random(20 * CHUNK, 5));
        server.staleAfterReads = 2;
        final Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, () -> readToFile("dir/vanishing"));
        assertEquals(Nfs4Status.STALE, ex.status());
        assertTrue(ex.getMessage().contains(": NFS4ERR_STALE (70): offset "), ex.getMessage());
        assertEquals(1, ex.getSuppressed().length, "CLOSE of the stale file failed too, and is attached");
        assertEquals("PUTFH: NFS4ERR_STALE (70): /export/dir/vanishing", ex.getSuppressed()[0].getMessage());
        assertEquals(0, session.slotsInUse(), "no slot left held by the failed pipeline");
        assertEquals(Nfs4.NF4DIR, session.getattr("dir").type(), "the session goes on");
    }

    @Test
    void listingFollowsCookiesAcrossPages()
    {
        options.readdirMaxCount(1024);
        connect();
        for (int i = 0; i < 40; i++)
        {
            server.fs.file(String.format("/export/dir/file-with-a-long-name-%03d", i), new byte[i]);
        }
        server.fs.mkdirs("/export/dir/zsub");
        final List<Nfs4DirEntry> entries = session.list("dir");
        assertEquals(41, entries.size());
        for (int i = 0; i < 40; i++)
        {
            assertEquals(String.format("file-with-a-long-name-%03d", i), entries.get(i).name());
            assertEquals(Nfs4.NF4REG, entries.get(i).type());
            assertEquals(i, entries.get(i).size());
        }
        assertTrue(entries.get(40).isDirectory());
        final long pages = server.compounds.stream().filter(c -> c.endsWith("READDIR")).count();
        assertTrue(pages > 3, "several pages: " + pages);
        assertTrue(server.compounds.contains("SEQUENCE PUTFH READDIR"));
        assertEquals(0, session.list("dir/zsub").size());
    }

    @Test
    void createListAndRemove()
    {
        connect();
        session.create("dir/new.txt", 0600, false);
        final TestFs.Node created = server.fs.at("/export/dir/new.txt");
        assertEquals(0600, created.mode);
        assertEquals(0, created.size);
        session.create("dir/new.txt", 0600, false); // UNCHECKED4: fine
        final Nfs4StatusException exists = assertThrows(Nfs4StatusException.class,
            () -> session.create("dir/new.txt", 0600, true));
        assertEquals(Nfs4Status.EXIST, exists.status());
        assertEquals("new.txt", session.list("dir").get(0).name());
        assertEquals(0600, session.getattr("dir/new.txt").mode());

        session.remove("dir/new.txt");
        assertNull(server.fs.at("/export/dir/new.txt"));
        assertEquals(0, session.list("dir").size());
        final Nfs4StatusException gone = assertThrows(Nfs4StatusException.class, () -> session.remove("dir/new.txt"));
        assertEquals("REMOVE: NFS4ERR_NOENT (2): \"new.txt\" in /export/dir", gone.getMessage());
        assertEquals(server.opens - 1, server.closes, "the GUARDED4 OPEN that failed opened nothing");
    }

    @Test
    void aChangedWriteVerifierMakesTheFileBeWrittenAgain() throws IOException
    {
        connect();
        server.verifierChangesAtCommit = 1;
        final byte[] content = random(5 * CHUNK + 1, 9);
        writeFromFile(content, "dir/v.bin", null);
        assertEquals(1, session.rewrites());
        assertEquals(2, server.commits);
        assertEquals(2L * 6, server.writes);
        assertArrayEquals(content, server.fs.at("/export/dir/v.bin").content());
    }

    @Test
    void fileSyncWritesNeedNoCommit() throws IOException
    {
        options.stableHow(Nfs4.FILE_SYNC4);
        connect();
        final byte[] content = random(3 * CHUNK, 10);
        writeFromFile(content, "dir/sync.bin", null);
        assertEquals(0, server.commits);
        assertArrayEquals(content, server.fs.at("/export/dir/sync.bin").content());
    }

    @Test
    void aSlotTheServerResetIsResynchronised()
    {
        connect();
        server.sessions.values().iterator().next().slotSeq[0] = 0; // the server's slot 0 starts over
        assertEquals(Nfs4.NF4DIR, session.getattr("dir").type());
        assertEquals(1, session.misorderedRetries());
        assertEquals(Nfs4.NF4DIR, session.getattr("dir").type());
    }

    @Test
    void fewerSlotsThanGrantedAreFoundByBadSlot() throws IOException
    {
        connect();
        server.shrinkAfter = server.sequences + 1; // after the OPEN: the first WRITEs are in flight on 4 slots
        server.shrinkTo = 2;
        final byte[] content = random(12 * CHUNK, 11);
        writeFromFile(content, "dir/slots.bin", null);
        assertArrayEquals(content, server.fs.at("/export/dir/slots.bin").content());
        assertEquals(2, session.badSlotRetries(), "slots 3 and 2 refused");
        assertEquals(2, session.slots());
    }

    @Test
    void theServersTargetHighestSlotBoundsTheCallsInFlight() throws IOException
    {
        connect();
        server.targetHighest = 1;
        server.fs.file("/export/t.bin", random(10 * CHUNK, 12));
        session.getattr("t.bin");
        assertEquals(2, session.slots());
        client.maxInFlight.set(0);
        assertArrayEquals(server.fs.at("/export/t.bin").content(), readToFile("t.bin"));
        assertEquals(2, client.maxInFlight.get());
    }

    @Test
    void theLeaseIsRenewedWhenHalfOfItPassed()
    {
        connect();
        final long before = server.sequences;
        assertFalse(session.renewIfDue());
        clock.advance(46_000_000_000L);
        assertTrue(session.renewIfDue());
        assertEquals(before + 1, server.sequences);
        assertEquals("SEQUENCE", server.compounds.get(server.compounds.size() - 1));
        assertFalse(session.renewIfDue());
        session.renewLease();
        assertEquals(before + 2, server.sequences);
    }

    @Test
    void aPathLongerThanACompoundIsWalkedInSeveral()
    {
        options.foreMaxOps(6).exportPath("/e");
        server.fs.file("/e/a/b/c/d/e/f/g/file", new byte[77]);
        connect();
        assertEquals(77, session.getattr("a/b/c/d/e/f/g/file").size());
        for (final String c : server.compounds)
        {
            assertTrue(c.split(" ").length <= 6, c);
        }
        assertTrue(server.compounds.contains("SEQUENCE PUTFH LOOKUP LOOKUP GETFH GETATTR"));
    }

    @Test
    void theFewestOperationsPerCompoundThatWork() throws IOException
    {
        server.serverMaxOps = 5;
        connect();
        assertEquals(5, session.maxOperations());
        final byte[] content = random(3 * CHUNK, 15);
        writeFromFile(content, "dir/five.bin", null);
        assertArrayEquals(content, readToFile("dir/five.bin"));
        session.remove("dir/five.bin");
        for (final String c : server.compounds)
        {
            assertTrue(c.split(" ").length <= 5, c);
        }
        session.close();

        server.serverMaxOps = 4;
        final Nfs4Exception ex = assertThrows(Nfs4Exception.class, this::connect);
        assertEquals("CREATE_SESSION: the server allows 4 operations per COMPOUND, at least 5 are needed",
            ex.getMessage());
        assertTrue(server.sessions.isEmpty() && server.clients.isEmpty(), "what connect made is destroyed");
    }

    @Test
    void aServerSettingOpenConfirmIsNotAskedToConfirm() throws IOException
    {
        connect();
        server.setConfirmFlag = true;
        server.fs.file("/export/c", random(10, 4));
        assertArrayEquals(server.fs.at("/export/c").content(), readToFile("c"));
        assertFalse(server.compounds.stream().anyMatch(c -> c.contains("op 20")), "no OPEN_CONFIRM");
    }

    @Test
    void aMalformedReplyIsAnNfs4ExceptionAndTheSlotStaysUsable()
    {
        connect();
        server.wrongSlotEchoes = 1;
        final Nfs4Exception ex = assertThrows(Nfs4Exception.class, () -> session.getattr("dir"));
        assertTrue(ex.getMessage().startsWith("LOOKUP: malformed reply: SEQUENCE result for session"),
            ex.getMessage());
        assertEquals(Nfs4.NF4DIR, session.getattr("dir").type(), "the server ran it: the next seqid follows");
        assertEquals(0, session.misorderedRetries());
    }

    @Test
    void aClientThatCompletesCallsInsideSubmitWorksToo() throws IOException
    {
        final LoopbackRpcClient loopback = new LoopbackRpcClient(dispatcher, RpcAuth.none(), 8, 2 * CHUNK);
        session = Nfs41Session.connect(loopback, callback, options);
        final byte[] content = random(1024 * 1024 + 3, 14);
        assertEquals(content.length, writeFromFile(content, "dir/inline.bin", null));
        assertArrayEquals(content, server.fs.at("/export/dir/inline.bin").content());
        assertArrayEquals(content, readToFile("dir/inline.bin"));
    }

    @Test
    void theCallbackServiceAnswersForTheSessionMadeAndOnlyWhileItLasts()
    {
        connect();
        final RpcDispatcher backChannel = new RpcDispatcher(null).register(callback);
        final long high = session.sessionId().high();
        final long low = session.sessionId().low();
        assertEquals(Nfs4Status.OK, callBack(backChannel, high, low, 0));
        assertEquals(Nfs4Status.BADSLOT, callBack(backChannel, high, low, 1), "the back channel has one slot");
        assertEquals(Nfs4Status.BADSESSION, callBack(backChannel, high, low + 1, 0));
        session.close();
        assertEquals(Nfs4Status.BADSESSION, callBack(backChannel, high, low, 0));
        assertEquals(4, callback.cbSequence());
    }

    /** A CB_COMPOUND of CB_SEQUENCE (seqid 1) as the server would send it; returns the COMPOUND's status. */
    private static int callBack(final RpcDispatcher backChannel, final long high, final long low, final int slot)
    {
        final byte[] msg = Wire.of().i(77, 0, 2, Nfs4CallbackProgram.DEFAULT_PROGRAM, 1, 1, 0, 0, 0, 0)
            .str("").i(1, 0, 1).i(Nfs4.OP_CB_SEQUENCE).h(high).h(low).i(1, slot, 0).b(false).i(0).bytes();
        final UnsafeBuffer reply = new UnsafeBuffer(new byte[512]);
        final RpcServerCall call = new RpcServerCall();
        call.origin(new InetSocketAddress(InetAddress.getLoopbackAddress(), 2049), null);
        assertTrue(backChannel.dispatch(call, new UnsafeBuffer(msg), 0, msg.length, reply, 0, 512) > 0);
        return reply.getInt(24, java.nio.ByteOrder.BIG_ENDIAN);
    }

    @Test
    void connectFailingHalfWayDestroysWhatItMade()
    {
        options.exportPath("/not-there");
        final Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, this::connect);
        assertEquals("LOOKUP: NFS4ERR_NOENT (2): \"not-there\" in /", ex.getMessage());
        assertTrue(server.sessions.isEmpty());
        assertTrue(server.clients.isEmpty());
        assertFalse(callback.bound());
    }

    @Test
    void anRpcLevelRefusalIsAnRpcException()
    {
        final RpcDispatcher none = new RpcDispatcher(null);
        final QueuedRpcClient nowhere = new QueuedRpcClient(none, 4, 65536);
        final Nfs4RpcException ex = assertThrows(Nfs4RpcException.class,
            () -> Nfs41Session.connect(nowhere, null, options));
        assertEquals("EXCHANGE_ID: RPC reply PROG_UNAVAIL", ex.getMessage());
    }

    @Test
    void aSessionWithoutBackChannel()
    {
        session = Nfs41Session.connect(client, null, options);
        assertEquals(0, server.createSessionFlags);
        assertFalse(session.backChannelBound());
        assertEquals(Nfs4.NF4DIR, session.getattr("").type());
    }

    @Test
    void theReadBuffersAreDirectAndReused() throws IOException
    {
        connect();
        server.fs.file("/export/r1", random(3 * CHUNK, 13));
        readToFile("r1");
        final Nfs4ReadPipeline pipeline = session.reader();
        final ByteBuffer[] first = pipeline.buffers.clone();
        readToFile("r1");
        assertTrue(pipeline == session.reader());
        assertArrayEquals(first, pipeline.buffers);
        assertTrue(first[0].isDirect());
        assertEquals(4, first.length);
    }
}
