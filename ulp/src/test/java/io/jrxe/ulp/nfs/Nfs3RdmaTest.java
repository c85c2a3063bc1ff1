package io.jrxe.ulp.nfs;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.ulp.rpcrdma.RpcPair;
import io.jrxe.ulp.rpcrdma.RpcRdmaClient;
import io.jrxe.ulp.rpcrdma.RpcRdmaCounter;
import io.jrxe.ulp.rpcrdma.RpcRdmaCounters;
import io.jrxe.ulp.rpcrdma.RpcRdmaServerContext;
import io.jrxe.ulp.sunrpc.DuplicateReplyCache;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NFSv3 over RPC-over-RDMA between two jrxe nodes on the emulated wire: jrxe's NFS client against the in-memory
 * NFSv3 server behind jrxe's svcrdma-style server. READs come back through Write chunks, WRITEs go as Read chunks,
 * a large READDIRPLUS reply through a Reply chunk, and the file is byte-exact both ways.
 */
class Nfs3RdmaTest
{
    private final MemoryNfsServer nfs = new MemoryNfsServer();
    private final RpcPair pair = new RpcPair(WireFaults.none(), new RpcRdmaClient.Context(),
        new RpcRdmaServerContext(), new RpcDispatcher(new DuplicateReplyCache(256, 4096)).register(nfs));

    @AfterEach
    void close()
    {
        pair.close();
    }

    @Test
    void shouldWriteReadListAndRemoveAFileOverRdma() throws IOException
    {
        final Nfs3Session session = new Nfs3Session(pair.client(), nfs.rootHandle(),
            new Nfs3SessionOptions().rsize(256 * 1024).wsize(256 * 1024).outstanding(4));
        final byte[] content = Nfs3SessionTest.content(3 * 1024 * 1024 + 123, 7);
        session.writeFile("big.bin", TransferSources.from(new ByteArrayInputStream(content)), content.length,
            TransferProgress.NONE);
        final ByteArrayOutputStream back = new ByteArrayOutputStream();
        assertEquals(content.length, session.readFile("big.bin", TransferSinks.to(back), TransferProgress.NONE));
        assertArrayEquals(content, back.toByteArray());

        for (int i = 0; i < 200; i++)
        {
            session.create("dir-entry-with-a-long-name-" + i, Nfs3.UNCHECKED, 0644);
        }
        final List<Nfs3DirEntry> entries = session.list("");
        assertEquals(201, entries.size());
        session.remove("big.bin");
        assertEquals(200, session.list("").size());

        final RpcRdmaCounters c = pair.client().transport().counters();
        assertTrue(c.get(RpcRdmaCounter.WRITE_CHUNK_COUNT) >= 12, "READs of 256 KiB through Write chunks (the 123-byte tail inline): " + c.describe(true));
        assertTrue(c.get(RpcRdmaCounter.READ_CHUNK_COUNT) >= 12, "WRITEs of 256 KiB as Read chunks");
        assertTrue(c.get(RpcRdmaCounter.REPLY_CHUNK_COUNT) >= 1, "READDIRPLUS through a Reply chunk");
        assertEquals(0, c.get(RpcRdmaCounter.BAD_REPLY_COUNT));
    }
}
