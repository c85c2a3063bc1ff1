package io.jrxe.ulp.cmapps;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * What {@link RdmaServerClient} runs: the role, rdma_client's {@code -s server_address}, both tools' {@code -p},
 * the bound on each blocking step, and the client's 16-byte message.
 */
public final class RdmaServerClientSettings
{
    private boolean server;
    private String serverName;
    private int port = RdmaServerClient.DEFAULT_PORT;
    private long timeoutNs = TimeUnit.SECONDS.toNanos(60);
    private byte[] message = new byte[RdmaServerClient.MESSAGE_SIZE];
    private PrintStream out = System.out;
    private Runnable listening = () -> { };

    /** @return true for rdma_server, false for rdma_client */
    public boolean server()
    {
        return server;
    }

    /**
     * @param value true for rdma_server, false for rdma_client
     * @return this
     */
    public RdmaServerClientSettings server(final boolean value)
    {
        this.server = value;
        return this;
    }

    /** @return rdma_client's {@code -s}: the server's name or address */
    public String serverName()
    {
        return serverName;
    }

    /**
     * @param value rdma_client's {@code -s}: a host name or IPv4 address (resolved by rdma_getaddrinfo)
     * @return this
     */
    public RdmaServerClientSettings serverName(final String value)
    {
        this.serverName = value;
        return this;
    }

    /** @return {@code -p} */
    public int port()
    {
        return port;
    }

    /**
     * @param value {@code -p}
     * @return this
     */
    public RdmaServerClientSettings port(final int value)
    {
        this.port = value;
        return this;
    }

    /** @return the bound on each blocking step, in nanoseconds */
    public long timeoutNs()
    {
        return timeoutNs;
    }

    /**
     * @param value the bound on each blocking step (request, connection, each completion, DISCONNECTED)
     * @param unit its unit
     * @return this
     */
    public RdmaServerClientSettings timeout(final long value, final TimeUnit unit)
    {
        this.timeoutNs = unit.toNanos(value);
        return this;
    }

    /** @return a copy of the client's message */
    public byte[] message()
    {
        return message.clone();
    }

    /**
     * @param value the client's 16 bytes (the C client sends zeros, the default)
     * @return this
     */
    public RdmaServerClientSettings message(final byte[] value)
    {
        if (RdmaServerClient.MESSAGE_SIZE != value.length)
        {
            throw new IllegalArgumentException("the message is " + RdmaServerClient.MESSAGE_SIZE + " bytes, got " +
                value.length);
        }
        this.message = value.clone();
        return this;
    }

    /** @return where the tools' notes go */
    public PrintStream out()
    {
        return out;
    }

    /**
     * @param value where the tools' notes go ("device doesn't support IBV_SEND_INLINE ...")
     * @return this
     */
    public RdmaServerClientSettings out(final PrintStream value)
    {
        this.out = value;
        return this;
    }

    /** @return called once the server listens */
    public Runnable listening()
    {
        return listening;
    }

    /**
     * @param value called once the server's id listens (a script's or a test's cue to start the client)
     * @return this
     */
    public RdmaServerClientSettings listening(final Runnable value)
    {
        this.listening = value;
        return this;
    }

    /**
     * @return this
     * @throws IllegalArgumentException for a client without a server, a bad port or timeout
     */
    public RdmaServerClientSettings check()
    {
        if (!server && null == serverName)
        {
            throw new IllegalArgumentException("rdma_client needs -s, the server's address");
        }
        if (port < 0 || port > 0xFFFF)
        {
            throw new IllegalArgumentException("-p must be a port 0..65535, got " + port);
        }
        if (timeoutNs <= 0)
        {
            throw new IllegalArgumentException("the timeout must be positive");
        }
        return this;
    }
}
