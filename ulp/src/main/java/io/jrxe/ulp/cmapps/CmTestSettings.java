package io.jrxe.ulp.cmapps;

import io.jrxe.ulp.rdmacm.PortSpace;

import java.net.InetAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The options {@link Cmatose} and {@link Udaddy} share, named after the C tools' flags: {@code -s} server address
 * (none: be the server), {@code -b} bind address, {@code -c} connections, {@code -C} message count, {@code -S}
 * message size, {@code -t} type of service, the port and port space; plus what the C tools do not have: an overall
 * timeout (every wait is bounded by it), payload verification (both sides jrxe), where the tools' progress lines
 * go, and a hook called once the server listens (so a caller can start its client without guessing).
 * Start from {@link Cmatose#settings()} or {@link Udaddy#settings()}, which set each tool's port and space.
 */
public final class CmTestSettings
{
    private InetAddress serverAddress;
    private InetAddress bindAddress;
    private int port;
    private PortSpace portSpace;
    private int connections = 1;
    private int messageCount = 10;
    private int messageSize = 100;
    private int tos = -1;
    private boolean verify;
    private long timeoutNs = TimeUnit.SECONDS.toNanos(60);
    private Consumer<String> log = line -> { };
    private Runnable listening = () -> { };

    CmTestSettings(final int port, final PortSpace portSpace)
    {
        this.port = port;
        this.portSpace = portSpace;
    }

    /** @return the server to connect to, or null to be the server */
    public InetAddress serverAddress()
    {
        return serverAddress;
    }

    /**
     * @param address the server ({@code -s}); null makes this side the server
     * @return this
     */
    public CmTestSettings serverAddress(final InetAddress address)
    {
        this.serverAddress = address;
        return this;
    }

    /** @return true when this side is the client */
    public boolean isClient()
    {
        return null != serverAddress;
    }

    /** @return the local address to bind or resolve from, or null for any */
    public InetAddress bindAddress()
    {
        return bindAddress;
    }

    /**
     * @param address the local address ({@code -b}), or null
     * @return this
     */
    public CmTestSettings bindAddress(final InetAddress address)
    {
        this.bindAddress = address;
        return this;
    }

    /** @return the port the server listens on */
    public int port()
    {
        return port;
    }

    /**
     * @param port 1..65535
     * @return this
     */
    public CmTestSettings port(final int port)
    {
        this.port = port;
        return this;
    }

    /** @return the rdma_cm port space */
    public PortSpace portSpace()
    {
        return portSpace;
    }

    /**
     * @param portSpace the port space ({@code -P})
     * @return this
     */
    public CmTestSettings portSpace(final PortSpace portSpace)
    {
        this.portSpace = Objects.requireNonNull(portSpace, "portSpace");
        return this;
    }

    /** @return connections to make (client) or accept (server) */
    public int connections()
    {
        return connections;
    }

    /**
     * @param connections {@code -c}, at least 1
     * @return this
     */
    public CmTestSettings connections(final int connections)
    {
        this.connections = connections;
        return this;
    }

    /** @return messages each side sends on each connection (0 when the size is 0, as the tools do) */
    public int messageCount()
    {
        return 0 == messageSize ? 0 : messageCount;
    }

    /**
     * @param count {@code -C}
     * @return this
     */
    public CmTestSettings messageCount(final int count)
    {
        this.messageCount = count;
        return this;
    }

    /** @return bytes per message */
    public int messageSize()
    {
        return messageSize;
    }

    /**
     * @param size {@code -S}
     * @return this
     */
    public CmTestSettings messageSize(final int size)
    {
        this.messageSize = size;
        return this;
    }

    /** @return the type of service to set on each id, or -1 for none */
    public int tos()
    {
        return tos;
    }

    /**
     * @param tos {@code -t}: 0..255, or -1 for none
     * @return this
     */
    public CmTestSettings tos(final int tos)
    {
        this.tos = tos;
        return this;
    }

    /** @return true to fill messages with a pattern and check it on receipt (both sides must be jrxe) */
    public boolean verify()
    {
        return verify;
    }

    /**
     * @param verify check payloads; the C tools send whatever their buffer holds, so only use it between jrxe sides
     * @return this
     */
    public CmTestSettings verify(final boolean verify)
    {
        this.verify = verify;
        return this;
    }

    /** @return how long the whole run may take */
    public long timeoutNs()
    {
        return timeoutNs;
    }

    /**
     * @param timeout how long the whole run may take
     * @param unit its unit
     * @return this
     */
    public CmTestSettings timeout(final long timeout, final TimeUnit unit)
    {
        this.timeoutNs = unit.toNanos(timeout);
        return this;
    }

    /** @return where the tools' progress lines go */
    public Consumer<String> log()
    {
        return log;
    }

    /**
     * @param log receives the C tool's progress lines ("cmatose: starting server", ...)
     * @return this
     */
    public CmTestSettings log(final Consumer<String> log)
    {
        this.log = Objects.requireNonNull(log, "log");
        return this;
    }

    /** @return called once the server listens */
    public Runnable listening()
    {
        return listening;
    }

    /**
     * @param listening called on the server's thread once it listens
     * @return this
     */
    public CmTestSettings listening(final Runnable listening)
    {
        this.listening = Objects.requireNonNull(listening, "listening");
        return this;
    }

    /**
     * Checks the options as the tools do before they start (the tools' constructors call it too).
     *
     * @param tool the tool's name, for messages
     * @return this
     * @throws IllegalArgumentException naming the first option out of range
     */
    public CmTestSettings check(final String tool)
    {
        require(connections >= 1, tool + ": connections (-c) must be at least 1, got " + connections);
        require(messageCount >= 0, tool + ": message count (-C) must not be negative, got " + messageCount);
        require(messageSize >= 0, tool + ": message size (-S) must not be negative, got " + messageSize);
        require(port >= 1 && port <= 65535, tool + ": port must be 1..65535, got " + port);
        require(tos >= -1 && tos <= 255, tool + ": type of service (-t) must be 0..255, got " + tos);
        require(timeoutNs > 0, tool + ": the timeout must be positive");
        return this;
    }

    private static void require(final boolean ok, final String message)
    {
        if (!ok)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
