package io.jrxe.ulp.sunrpc;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scripted TCP peer for client tests: accepts connections one after another and runs a script on each, with
 * helpers to read a call record and write a reply record.
 */
final class RawServer implements AutoCloseable
{
    /** What to do with one connection. */
    interface Script
    {
        void run(int connection, Socket socket, RawServer server) throws IOException;
    }

    private final ServerSocket listener;
    private final Thread thread;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final RpcRecordReader reader = new RpcRecordReader(1024, 1 << 20);

    RawServer(final int connections, final Script script) throws IOException
    {
        listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        thread = new Thread(() ->
        {
            try
            {
                for (int i = 0; i < connections; i++)
                {
                    try (Socket s = listener.accept())
                    {
                        script.run(i, s, this);
                    }
                }
                done.complete(null);
            }
            catch (final IOException | RuntimeException ex)
            {
                done.completeExceptionally(ex);
            }
        }, "raw-rpc-server");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address()
    {
        return (InetSocketAddress)listener.getLocalSocketAddress();
    }

    /** @return the xid of the next call on the socket */
    int readCallXid(final InputStream in) throws IOException
    {
        reader.read(in);
        return reader.buffer().getInt(0, ByteOrder.BIG_ENDIAN);
    }

    /** Write an accepted SUCCESS reply with one int result. */
    static void writeReply(final OutputStream out, final int xid, final int result) throws IOException
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[32]);
        final io.jrxe.ulp.xdr.XdrEncoder xdr = new io.jrxe.ulp.xdr.XdrEncoder().wrap(b, 4, 28);
        RpcReplyHeader.encodeAccepted(xdr, xid, RpcMessage.SUCCESS);
        xdr.putInt(result);
        b.putInt(0, 0x8000_0000 | xdr.length(), ByteOrder.BIG_ENDIAN);
        out.write(b.byteArray(), 0, 4 + xdr.length());
        out.flush();
    }

    /** Wait for the script to finish and rethrow its failure. */
    void await() throws Exception
    {
        done.get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException
    {
        listener.close();
    }
}
