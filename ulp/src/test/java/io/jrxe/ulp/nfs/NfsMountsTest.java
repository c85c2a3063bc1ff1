package io.jrxe.ulp.nfs;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.NodeThreads;
import io.jrxe.ulp.nfsmount.NfsEntry;
import io.jrxe.ulp.nfsmount.NfsError;
import io.jrxe.ulp.nfsmount.NfsMount;
import io.jrxe.ulp.nfsmount.NfsMountOptions;
import io.jrxe.ulp.nfsmount.NfsMounts;
import io.jrxe.ulp.nfsmount.NfsProgress;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rpcrdma.RpcRdmaCounter;
import io.jrxe.ulp.rpcrdma.RpcRdmaServer;
import io.jrxe.ulp.rpcrdma.RpcRdmaServerContext;
import io.jrxe.ulp.sunrpc.DuplicateReplyCache;
import io.jrxe.ulp.sunrpc.PortmapProgram;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcTcpServer;
import io.jrxe.ulp.sunrpc.Rpcbind;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The path {@code jrxe nfs --vers 3} takes, with real threads: node engines on their own threads, rdma_cm on its
 * thread, jrxe's RPC-over-RDMA server on one more, MOUNT and the port mapper over TCP on localhost, and
 * {@link NfsMounts} on the test thread waiting with its idle strategy as the tool does.
 */
class NfsMountsTest
{
    private static final String EXPORT = "/export";

    private final MemoryNfsServer nfs = new MemoryNfsServer();
    private final PortmapProgram portmap = new PortmapProgram();
    private final NodePair nodes = new NodePair(new NodePairContext());
    private NodeThreads threads;
    private RdmaCm cmA;
    private RdmaCm cmB;
    private RpcRdmaServer server;
    private RpcTcpServer tcp;
    private Thread serverThread;
    private volatile boolean running = true;

    private void start() throws IOException
    {
        nodes.resolve(5_000_000_000L);
        threads = NodeThreads.start(NodeThreads.Layout.NODE, NodeThreads.Idle.BACKOFF::create, nodes);
        cmA = RdmaCm.open(nodes.a());
        cmB = RdmaCm.open(nodes.b());
        server = RpcRdmaServer.start(cmB, new RpcDispatcher(new DuplicateReplyCache(256, 4096)).register(nfs),
            new RpcRdmaServerContext().bind(new InetSocketAddress(20049)));
        serverThread = new Thread(() ->
        {
            final IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 100_000);
            while (running)
            {
                idle.idle(server.doWork());
            }
        }, "rpcrdma-server");
        serverThread.start();
        tcp = RpcTcpServer.start(new RpcDispatcher(null).register(new MemoryMountProgram(nfs, EXPORT))
            .register(portmap), new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1 << 20, 1 << 20);
        portmap.map(Mount3.PROGRAM, Mount3.VERSION, Rpcbind.IPPROTO_TCP, tcp.port());
    }

    @AfterEach
    void stop() throws InterruptedException
    {
        running = false;
        if (null != serverThread)
        {
            serverThread.join(10_000);
        }
        if (null != tcp)
        {
            tcp.close();
        }
        if (null != server)
        {
            server.close();
        }
        if (null != cmA)
        {
            cmA.close();
            cmB.close();
        }
        if (null != threads)
        {
            threads.close();
        }
        nodes.close();
    }

    private NfsMountOptions options()
    {
        return new NfsMountOptions().server(ip(NodePair.IP_B), EXPORT)
            .mountVia(InetAddress.getLoopbackAddress(), tcp.port()).sizes(128 * 1024, 128 * 1024).outstanding(4)
            .connectTimeoutNs(20_000_000_000L);
    }

    static InetAddress ip(final int ip)
    {
        try
        {
            return InetAddress.getByAddress(new byte[]{(byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8),
                (byte)ip});
        }
        catch (final java.net.UnknownHostException e)
        {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldMountWriteReadListAndUnmountOverRdmaWithThreads() throws IOException
    {
        start();
        final byte[] content = Nfs3SessionTest.content(2 * 1024 * 1024 + 5, 3);
        final Path local = Files.createTempFile("jrxe-nfs", ".bin");
        try
        {
            Files.write(local, content);
            try (NfsMount mount = NfsMounts.mount(cmA, options()))
            {
                assertEquals("3", mount.version());
                assertEquals(128 * 1024, mount.rsize());
                try (FileChannel in = FileChannel.open(local, StandardOpenOption.READ))
                {
                    assertEquals(content.length, mount.write("copy.bin", in, NfsProgress.NONE));
                }
                assertArrayEquals(content, nfs.content("copy.bin"));
                final ByteArrayOutputStream back = new ByteArrayOutputStream();
                assertEquals(content.length, mount.read("copy.bin", back, NfsProgress.NONE));
                assertArrayEquals(content, back.toByteArray());
                mount.create("empty");
                final List<NfsEntry> entries = mount.list("");
                assertTrue(entries.contains(new NfsEntry("copy.bin", 'f', content.length)), entries.toString());
                assertTrue(entries.contains(new NfsEntry("empty", 'f', 0)), entries.toString());
                mount.remove("empty");
                final NfsError missing = assertThrows(NfsError.class, () -> mount.remove("empty"));
                assertEquals("NFS3ERR_NOENT", missing.status());
                assertTrue(mount.transport().counters().get(RpcRdmaCounter.WRITE_CHUNK_COUNT) >= 16);
                assertEquals(4096, mount.transport().inlineSend(), "RFC 8797 private data both ways");
            }
        }
        finally
        {
            Files.deleteIfExists(local);
        }
    }

    @Test
    void shouldSayWhoRefusedAMountOfAnUnknownExport() throws IOException
    {
        start();
        final NfsError refused = assertThrows(NfsError.class,
            () -> NfsMounts.mount(cmA, options().server(ip(NodePair.IP_B), "/nope")));
        assertEquals("MNT3ERR_NOENT", refused.status(), refused.getMessage());
        assertTrue(refused.getMessage().contains("/nope"), refused.getMessage());
    }

}
