package io.jrxe.ulp.sunrpc;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves an {@link RpcDispatcher} over TCP (RFC 5531 §11 record marking): an accepting thread and a thread per
 * connection, each reading whole records, dispatching them one at a time (the dispatcher and its programs are
 * single-threaded: dispatch is serialized on the dispatcher) and writing the reply as a record. For tests and small
 * servers (MOUNT, rpcbind), not for throughput.
 * <pre>
 *   accept thread ---- connection thread 1: read record -&gt; synchronized (dispatcher) dispatch -&gt; write reply
 *                 \--- connection thread 2: ...
 * </pre>
 * A call the dispatcher drops (not an RPC call) gets no reply; a record longer than the largest call closes its
 * connection.
 */
public final class RpcTcpServer implements AutoCloseable
{
    private final RpcDispatcher dispatcher;
    private final ServerSocket listener;
    private final int maxMessage;
    private final int maxFragment;
    private final Thread acceptor;
    private final List<Connection> connections = new ArrayList<>();
    private volatile boolean closed;
    private long accepted;

    private RpcTcpServer(
        final RpcDispatcher dispatcher, final ServerSocket listener, final int maxMessage, final int maxFragment)
    {
        this.dispatcher = dispatcher;
        this.listener = listener;
        this.maxMessage = maxMessage;
        this.maxFragment = maxFragment;
        this.acceptor = new Thread(this::acceptLoop, "rpc-tcp-accept-" + listener.getLocalPort());
        this.acceptor.setDaemon(true);
    }

    /**
     * Listen and serve.
     *
     * @param dispatcher the programs
     * @param bind local address and port (port 0: any free one, see {@link #port()})
     * @param maxMessage the largest call and reply, payloads included
     * @param maxFragment the largest fragment a reply is sent in ({@link RpcRecordWriter#MAX_FRAGMENT}: one per reply)
     * @return the running server
     * @throws IOException when the port cannot be bound
     */
    public static RpcTcpServer start(
        final RpcDispatcher dispatcher, final InetSocketAddress bind, final int maxMessage, final int maxFragment)
        throws IOException
    {
        final ServerSocket listener = new ServerSocket();
        try
        {
            listener.setReuseAddress(true);
            listener.bind(bind);
        }
        catch (final IOException ex)
        {
            listener.close();
            throw ex;
        }
        final RpcTcpServer server = new RpcTcpServer(dispatcher, listener, maxMessage, maxFragment);
        server.acceptor.start();
        return server;
    }

    /** @return the port listened on */
    public int port()
    {
        return listener.getLocalPort();
    }

    /** @return the address listened on */
    public InetSocketAddress localAddress()
    {
        return (InetSocketAddress)listener.getLocalSocketAddress();
    }

    /** @return connections accepted so far */
    public synchronized long accepted()
    {
        return accepted;
    }

    private void acceptLoop()
    {
        while (!closed)
        {
            final Socket socket;
            try
            {
                socket = listener.accept();
            }
            catch (final IOException ex)
            {
                return; // closed
            }
            final Connection connection = new Connection(socket);
            synchronized (this)
            {
                if (closed)
                {
                    connection.close();
                    return;
                }
                connections.add(connection);
                accepted++;
            }
            connection.thread.start();
        }
    }

    /** One client connection and its thread. */
    private final class Connection
    {
        final Socket socket;
        final Thread thread;
        final RpcServerCall call = new RpcServerCall();
        final RpcRecordReader reader = new RpcRecordReader(64 * 1024, maxMessage);
        final RpcRecordWriter writer = new RpcRecordWriter(64 * 1024, maxFragment);
        final UnsafeBuffer reply = new UnsafeBuffer(new byte[maxMessage]);

        Connection(final Socket socket)
        {
            this.socket = socket;
            this.thread = new Thread(this::serve, "rpc-tcp-" + socket.getRemoteSocketAddress());
            this.thread.setDaemon(true);
            call.origin((InetSocketAddress)socket.getRemoteSocketAddress(), this);
        }

        void serve()
        {
            try
            {
                socket.setTcpNoDelay(true);
                final java.io.InputStream in = socket.getInputStream();
                final java.io.OutputStream out = socket.getOutputStream();
                while (!closed)
                {
                    reader.read(in);
                    final int length;
                    synchronized (dispatcher)
                    {
                        length = dispatcher.dispatch(call, reader.buffer(), 0, reader.length(), reply, 0,
                            reply.capacity());
                    }
                    if (length >= 0)
                    {
                        writer.begin(out, length);
                        writer.put(reply, 0, length);
                        writer.end();
                    }
                }
            }
            catch (final EOFException ex)
            {
                // the client went away
            }
            catch (final IOException ex)
            {
                // reset, or a record too long: the connection ends
            }
            finally
            {
                close();
                synchronized (RpcTcpServer.this)
                {
                    connections.remove(this);
                }
            }
        }

        void close()
        {
            try
            {
                socket.close();
            }
            catch (final IOException ignored)
            {
                // closing
            }
        }
    }

    /** Stop accepting, close every connection and wait for the threads. */
    @Override
    public void close()
    {
        final List<Connection> open;
        synchronized (this)
        {
            closed = true;
            open = new ArrayList<>(connections);
        }
        try
        {
            listener.close();
        }
        catch (final IOException ignored)
        {
            // closing
        }
        for (final Connection connection : open)
        {
            connection.close();
        }
        try
        {
            acceptor.join(5000);
            for (final Connection connection : open)
            {
                connection.thread.join(5000);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
