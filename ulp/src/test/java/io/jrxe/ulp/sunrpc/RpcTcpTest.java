package io.jrxe.ulp.sunrpc;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.xdr.XdrDecoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ONC RPC over TCP: {@link RpcTcpClient} against {@link RpcTcpServer} and against scripted peers. */
class RpcTcpTest
{
    private static final RpcAuth AUTH = RpcAuth.sys(1, "jrxe-test", 1000, 1000);

    private final EchoProgram echo = new EchoProgram();
    private RpcTcpServer server;
    private RpcTcpClient client;

    @BeforeEach
    void start() throws IOException
    {
        final RpcDispatcher dispatcher = new RpcDispatcher(new DuplicateReplyCache(64, 4096)).register(echo);
        // replies in 7-byte fragments, calls in 5-byte fragments: every record is reassembled from many
        server = RpcTcpServer.start(dispatcher, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            4 << 20, 7);
        client = RpcTcpClient.connect(server.localAddress(), AUTH,
            new RpcTcpOptions().maxFragment(5).callTimeoutMs(10_000).maxCalls(8));
    }

    @AfterEach
    void stop()
    {
        client.close();
        server.close();
    }

    @Test
    void echoesThroughManyFragmentsBothWays() throws IOException
    {
        final RpcCall call = new RpcCall();
        assertEquals(0, client.prepare(call, EchoProgram.PROGRAM, 1, EchoProgram.ECHO));
        final byte[] sent = new byte[1001];
        for (int i = 0; i < sent.length; i++)
        {
            sent[i] = (byte)(i * 31);
        }
        call.args().putOpaque(sent);
        assertEquals(0, client.execute(call));
        RpcException.check(call, "ECHO");
        final byte[] got = call.results().getOpaqueBytes(4096);
        assertEquals(0, call.results().remaining());
        org.junit.jupiter.api.Assertions.assertArrayEquals(sent, got);
        client.release(call);
    }

    @Test
    void aPayloadIsSentInlineBetweenHeadAndTail() throws IOException
    {
        final int length = 70_001;
        final UnsafeBuffer data = new UnsafeBuffer(BufferUtil.allocateDirectAligned(length + 64, 64));
        long sum = 0;
        for (int i = 0; i < length; i++)
        {
            data.putByte(i, (byte)(i ^ i >>> 8));
            sum += data.getByte(i) & 0xFF;
        }
        final RpcCall call = new RpcCall();
        client.prepare(call, EchoProgram.PROGRAM, 1, EchoProgram.SUM);
        call.args().putInt(length);
        call.payload(data.addressOffset(), length);
        call.args().putInt(0x7A11);
        client.execute(call);
        RpcException.check(call, "SUM");
        assertEquals(length, call.results().getInt());
        assertEquals(sum, call.results().getHyper());
        assertEquals(0x7A11, call.results().getInt(), "the tail follows the payload and its padding");
        client.release(call);
    }

    @Test
    void outstandingCallsCompleteAndTellTheirListeners() throws IOException
    {
        final int n = 8;
        final RpcCall[] calls = new RpcCall[n];
        final UnsafeBuffer[] dst = new UnsafeBuffer[n];
        final int[] done = new int[1];
        final RpcCallListener listener = call -> done[0]++;
        for (int i = 0; i < n; i++)
        {
            calls[i] = new RpcCall().listener(listener);
            dst[i] = new UnsafeBuffer(BufferUtil.allocateDirectAligned(200_000, 64));
            assertEquals(0, client.prepare(calls[i], EchoProgram.PROGRAM, 1, EchoProgram.PATTERN));
            calls[i].args().putInt(1000 + i * 20_001).putInt(i);
            calls[i].readPayloadTo(dst[i].addressOffset(), dst[i].capacity());
            assertEquals(0, client.submit(calls[i]));
        }
        assertEquals(-Errno.ENOMEM, client.prepare(new RpcCall(), EchoProgram.PROGRAM, 1, 0), "all 8 slots taken");
        while (done[0] < n)
        {
            assertTrue(client.progress() > 0);
        }
        assertEquals(0, client.progress(), "nothing in flight: progress returns at once");
        for (int i = 0; i < n; i++)
        {
            RpcException.check(calls[i], "PATTERN");
            final XdrDecoder results = calls[i].results();
            final int count = results.getInt();
            assertEquals(1000 + i * 20_001, count);
            calls[i].readPayload(count);
            assertEquals(0xC0DA, results.getInt());
            for (int j = 0; j < count; j += 997)
            {
                assertEquals(EchoProgram.patternByte(j, i), dst[i].getByte(j), "call " + i + " byte " + j);
            }
            assertEquals(EchoProgram.patternByte(count - 1, i), dst[i].getByte(count - 1));
            client.release(calls[i]);
        }
    }

    @Test
    void aVersionTheServerLacksIsProgMismatch()
    {
        final RpcCall call = new RpcCall();
        client.prepare(call, EchoProgram.PROGRAM, 2, 0);
        assertEquals(0, client.execute(call), "a reply came");
        final RpcException ex = assertThrows(RpcException.class, () -> RpcException.check(call, "ECHO NULL"));
        assertEquals("ECHO NULL: RPC PROG_MISMATCH (server has versions 1..1): the server does not serve this " +
            "version of the program", ex.getMessage());
        assertEquals(RpcMessage.PROG_MISMATCH, ex.acceptStat());
        client.release(call);
        client.prepare(call, 0x2000_0999, 1, 0);
        client.execute(call);
        assertEquals(RpcMessage.PROG_UNAVAIL,
            assertThrows(RpcException.class, () -> RpcException.check(call, "X")).acceptStat());
        client.release(call);
    }

    @Test
    void aCallWithoutAReplyTimesOutAndItsLateReplyIsDiscarded() throws Exception
    {
        try (RawServer raw = new RawServer(1, (i, socket, self) ->
        {
            final InputStream in = socket.getInputStream();
            final int first = self.readCallXid(in);
            final int second = self.readCallXid(in);   // sent after the first timed out
            RawServer.writeReply(socket.getOutputStream(), first, 1);   // too late: nobody waits for it
            RawServer.writeReply(socket.getOutputStream(), second, 2);
            in.read();                                  // until the client closes
        }))
        {
            try (RpcTcpClient slow = RpcTcpClient.connect(raw.address(), AUTH, new RpcTcpOptions().callTimeoutMs(150)))
            {
                final RpcCall call = new RpcCall();
                slow.prepare(call, EchoProgram.PROGRAM, 1, 0);
                final long start = System.nanoTime();
                assertEquals(-Errno.ETIMEDOUT, slow.execute(call));
                assertTrue(System.nanoTime() - start >= 150_000_000L, "waited for the timeout");
                final RpcException ex = assertThrows(RpcException.class, () -> RpcException.check(call, "NULL"));
                assertEquals("NULL: RPC failed: ETIMEDOUT (no reply in time)", ex.getMessage());
                slow.release(call);
                assertEquals(1, slow.timeouts());

                slow.prepare(call, EchoProgram.PROGRAM, 1, 0);
                assertEquals(0, slow.execute(call));
                RpcException.check(call, "NULL");
                assertEquals(2, call.results().getInt(), "the second call's own reply, not the stale one");
                assertEquals(1, slow.discardedReplies(), "the first call's late reply had an unknown xid");
                slow.release(call);
            }
            raw.await();
        }
    }

    @Test
    void aStrayReplyIsDiscardedAndTheCallGetsItsOwn() throws Exception
    {
        try (RawServer raw = new RawServer(1, (i, socket, self) ->
        {
            final int xid = self.readCallXid(socket.getInputStream());
            RawServer.writeReply(socket.getOutputStream(), xid ^ 0x5555, 66);
            RawServer.writeReply(socket.getOutputStream(), xid, 77);
            socket.getInputStream().read();
        }))
        {
            try (RpcTcpClient c = RpcTcpClient.connect(raw.address(), AUTH, new RpcTcpOptions()))
            {
                final RpcCall call = new RpcCall();
                c.prepare(call, EchoProgram.PROGRAM, 1, 0);
                assertEquals(0, c.execute(call));
                assertEquals(77, call.results().getInt());
                assertEquals(1, c.discardedReplies());
                c.release(call);
            }
            raw.await();
        }
    }

    @Test
    void aLostConnectionFailsTheCallsInFlightAndTheNextCallReconnects() throws Exception
    {
        try (RawServer raw = new RawServer(2, (i, socket, self) ->
        {
            final int xid = self.readCallXid(socket.getInputStream());
            if (1 == i)
            {
                RawServer.writeReply(socket.getOutputStream(), xid, 5);
                socket.getInputStream().read();
            }
            // connection 0: closed without a reply
        }))
        {
            try (RpcTcpClient c = RpcTcpClient.connect(raw.address(), AUTH, new RpcTcpOptions()))
            {
                final RpcCall call = new RpcCall();
                c.prepare(call, EchoProgram.PROGRAM, 1, 0);
                assertEquals(-Errno.ECONNRESET, c.execute(call));
                assertTrue(assertThrows(RpcException.class, () -> RpcException.check(call, "NULL")).getMessage()
                    .contains("ECONNRESET (the connection was lost)"));
                c.release(call);
                assertEquals(-1, c.localPort(), "disconnected");
                c.prepare(call, EchoProgram.PROGRAM, 1, 0);
                assertEquals(0, c.execute(call));
                assertEquals(5, call.results().getInt());
                assertEquals(2, c.connects());
                c.release(call);
            }
            raw.await();
        }
    }

    @Test
    void aRefusedConnectionSaysSo() throws IOException
    {
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            port = s.getLocalPort();
        }
        final IOException ex = assertThrows(IOException.class, () -> RpcTcpClient.connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port), AUTH, new RpcTcpOptions()));
        assertTrue(ex.getMessage().contains("ECONNREFUSED"), ex.getMessage());
    }

    @Test
    void aConnectionThatIsNeverAcceptedTimesOut() throws IOException
    {
        // a listener that never accepts, its backlog filled: Linux drops further SYNs and the connect waits
        try (ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            final java.util.List<java.net.Socket> queued = new java.util.ArrayList<>();
            try
            {
                for (int i = 0; i < 4; i++)
                {
                    final java.net.Socket s = new java.net.Socket();
                    queued.add(s);
                    s.connect(deaf.getLocalSocketAddress(), 200);
                }
            }
            catch (final java.net.SocketTimeoutException full)
            {
                // the queue is full
            }
            final long start = System.nanoTime();
            final IOException ex = assertThrows(IOException.class, () -> RpcTcpClient.connect(
                (InetSocketAddress)deaf.getLocalSocketAddress(), AUTH, new RpcTcpOptions().connectTimeoutMs(300)));
            assertTrue(ex.getMessage().contains("ETIMEDOUT"), ex.getMessage());
            assertTrue(System.nanoTime() - start >= 300_000_000L);
            for (final java.net.Socket s : queued)
            {
                s.close();
            }
        }
    }

    @Test
    void aReservedSourcePortWhenPrivileged() throws IOException
    {
        try (RpcTcpClient c = RpcTcpClient.connect(server.localAddress(), AUTH,
            new RpcTcpOptions().reservedPort(true)))
        {
            final RpcCall call = new RpcCall();
            c.prepare(call, EchoProgram.PROGRAM, 1, 0);
            assertEquals(0, c.execute(call));
            c.release(call);
            if ("root".equals(System.getProperty("user.name")))
            {
                assertTrue(c.localPort() < 1024 && c.localPort() >= 665, "port " + c.localPort());
            }
            else
            {
                assertTrue(c.localPort() > 0);
            }
        }
        assertTrue(client.localPort() >= 1024, "without the option: an ephemeral port");
    }

    @Test
    void closingFailsNewCallsWithEio()
    {
        client.close();
        final RpcCall call = new RpcCall();
        assertEquals(-Errno.EIO, client.prepare(call, EchoProgram.PROGRAM, 1, 0));
        assertFalse(call.isDone());
    }

    @Test
    void rpcbindGetPortAnswersRegisteredAndUnregisteredPrograms() throws IOException
    {
        final PortmapProgram portmap = new PortmapProgram().map(100005, 3, Rpcbind.IPPROTO_TCP, 20048);
        try (RpcTcpServer pmap = RpcTcpServer.start(new RpcDispatcher(null).register(portmap),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 65536, RpcRecordWriter.MAX_FRAGMENT))
        {
            final InetAddress lo = InetAddress.getLoopbackAddress();
            assertEquals(20048, Rpcbind.getTcpPort(lo, pmap.port(), 100005, 3, new RpcTcpOptions()));
            final IOException ex = assertThrows(IOException.class,
                () -> Rpcbind.getTcpPort(lo, pmap.port(), 100005, 1, new RpcTcpOptions()));
            assertTrue(ex.getMessage().contains("program 100005 version 1 is not registered"), ex.getMessage());
        }
    }
}
