package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.DuplicateReplyCache;
import io.jrxe.ulp.sunrpc.PortmapProgram;
import io.jrxe.ulp.sunrpc.RpcAuth;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcTcpClient;
import io.jrxe.ulp.sunrpc.RpcTcpOptions;
import io.jrxe.ulp.sunrpc.RpcTcpServer;
import io.jrxe.ulp.sunrpc.Rpcbind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.MessageDigest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NFSv3 and MOUNT over TCP on localhost: the in-memory server, its MOUNT program and a port mapper behind one
 * {@link RpcTcpServer} (replies in 100000-byte fragments), the client found through the port mapper.
 */
class Nfs3TcpTest
{
    private static final String EXPORT = "/export";
    private static final InetAddress LO = InetAddress.getLoopbackAddress();

    private final MemoryNfsServer nfs = new MemoryNfsServer();
    private final MemoryMountProgram mount = new MemoryMountProgram(nfs, EXPORT);
    private final PortmapProgram portmap = new PortmapProgram();
    private RpcTcpServer server;
    private final RpcTcpOptions tcp = new RpcTcpOptions().maxCalls(9).callTimeoutMs(30_000).maxReply(2 << 20);

    @BeforeEach
    void start() throws IOException
    {
        final RpcDispatcher dispatcher = new RpcDispatcher(new DuplicateReplyCache(256, 1024))
            .register(nfs).register(mount).register(portmap);
        server = RpcTcpServer.start(dispatcher, new InetSocketAddress(LO, 0), 3 << 20, 100_000);
        portmap.map(Mount3.PROGRAM, Mount3.VERSION, Rpcbind.IPPROTO_TCP, server.port())
            .map(Nfs3.PROGRAM, Nfs3.VERSION, Rpcbind.IPPROTO_TCP, server.port());
    }

    @AfterEach
    void stop()
    {
        server.close();
    }

    @Test
    void aMultiMegabyteFileWrittenAndReadBackWithEightCallsOutstanding() throws Exception
    {
        final MountResult mounted;
        try (MountClient client = MountClient.connect(LO, server.port(), Nfs3ClientTest.AUTH, tcp))
        {
            client.nullProc();
            mounted = client.mnt(EXPORT);
        }
        assertEquals(nfs.rootHandle(), mounted.root());
        assertTrue(mounted.accepts(1), "AUTH_SYS");
        final CountingRpcClient rpc = new CountingRpcClient(
            RpcTcpClient.connect(new InetSocketAddress(LO, server.port()), Nfs3ClientTest.AUTH, tcp));
        final byte[] data = Nfs3SessionTest.content(6 * 1024 * 1024 + 777, 11);
        try (Nfs3Session s = new Nfs3Session(rpc, mounted.root(),
            new Nfs3SessionOptions().rsize(256 * 1024).wsize(128 * 1024).outstanding(8)))
        {
            final Nfs3SessionTest.Progress wrote = new Nfs3SessionTest.Progress();
            s.writeFile("big", TransferSources.from(new ByteArrayInputStream(data)), data.length, wrote);
            assertEquals(data.length, wrote.done);
            assertEquals(8, rpc.maxInFlight, "eight WRITEs on the wire at once");
            assertArrayEquals(data, nfs.content("big"));

            rpc.maxInFlight = 0;
            final Nfs3SessionTest.HashingSink sink = new Nfs3SessionTest.HashingSink();
            assertEquals(data.length, s.readFile("big", sink, TransferProgress.NONE));
            assertEquals(8, rpc.maxInFlight, "eight READs on the wire at once");
            assertArrayEquals(MessageDigest.getInstance("MD5").digest(data), sink.md5.digest());
            assertArrayEquals(data, sink.copy.toByteArray());
        }
    }

    @Test
    void mountOverTcpFindsMountdAndNfsThroughThePortMapperAndUnmountsOnClose() throws Exception
    {
        final byte[] data = Nfs3SessionTest.content(200_000, 12);
        try (Nfs3Session s = Nfs3Session.mountOverTcp(LO, EXPORT, Nfs3ClientTest.AUTH, tcp, 0, server.port(),
            new Nfs3SessionOptions().outstanding(4)))
        {
            assertEquals(64 * 1024, s.rsize(), "the server's rtpref");
            s.writeFile("small", TransferSources.from(new ByteArrayInputStream(data)), data.length,
                TransferProgress.NONE);
            final Nfs3SessionTest.HashingSink sink = new Nfs3SessionTest.HashingSink();
            s.readFile("small", sink, TransferProgress.NONE);
            assertArrayEquals(data, sink.copy.toByteArray());
            assertEquals(1, s.list("/").size());
            assertEquals(0, mount.unmounts);
        }
        assertEquals(1, mount.mounts);
        assertEquals(1, mount.unmounts, "UMNT on close");
    }

    @Test
    void mountErrorsSaySo() throws IOException
    {
        final MountException ex = assertThrows(MountException.class, () -> Nfs3Session.mountOverTcp(LO, "/nope",
            Nfs3ClientTest.AUTH, tcp, 0, server.port(), new Nfs3SessionOptions()));
        assertEquals("MOUNT3 MNT \"/nope\": MNT3ERR_NOENT (no such file or directory)", ex.getMessage());
        assertEquals(Mount3.MNT3ERR_NOENT, ex.status());

        final IOException flavor = assertThrows(IOException.class, () -> Nfs3Session.mountOverTcp(LO, EXPORT,
            RpcAuth.none(), tcp, 0, server.port(), new Nfs3SessionOptions()));
        assertTrue(flavor.getMessage().contains("accepts auth flavors [1], not AUTH_NONE"), flavor.getMessage());

        final PortmapProgram empty = new PortmapProgram();
        try (RpcTcpServer pmap = RpcTcpServer.start(new RpcDispatcher(null).register(empty),
            new InetSocketAddress(LO, 0), 65536, Integer.MAX_VALUE))
        {
            final IOException unregistered = assertThrows(IOException.class,
                () -> MountClient.connect(LO, pmap.port(), Nfs3ClientTest.AUTH, tcp));
            assertTrue(unregistered.getMessage().startsWith("program 100005 version 3 is not registered for TCP"),
                unregistered.getMessage());
        }
    }

    @Test
    void aStaleHandleOverTcpIsAnNfsError() throws IOException
    {
        try (Nfs3Session s = Nfs3Session.mountOverTcp(LO, EXPORT, Nfs3ClientTest.AUTH, tcp, server.port(),
            server.port(), new Nfs3SessionOptions()))
        {
            final FileHandle3 fh = s.create("gone", Nfs3.GUARDED, 0644);
            s.remove("gone");
            final NfsException ex = assertThrows(NfsException.class, () -> s.client().getattr(fh, new Fattr3()));
            assertEquals("NFS3 GETATTR: NFS3ERR_STALE (stale file handle)", ex.getMessage());
        }
    }
}
