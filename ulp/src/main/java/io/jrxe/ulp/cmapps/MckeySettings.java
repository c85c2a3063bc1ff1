package io.jrxe.ulp.cmapps;

import java.net.InetAddress;
import java.util.function.Consumer;

/**
 * The options of rdma-core's {@code mckey} (librdmacm/examples/mckey.c): {@code -m} the multicast address,
 * {@code -b} the local address to bind, {@code -s} send (else receive), {@code -C} messages (10), {@code -S} their
 * size (100). {@code -M} (an unmapped AF_IB address) and {@code -p} other than UDP have no meaning on RoCE and are
 * refused by the command.
 */
public final class MckeySettings
{
    /** mckey's message_count. */
    public static final int DEFAULT_COUNT = 10;
    /** mckey's message_size. */
    public static final int DEFAULT_SIZE = 100;

    private InetAddress group;
    private InetAddress bind;
    private boolean sender;
    private int count = DEFAULT_COUNT;
    private int size = DEFAULT_SIZE;
    private long timeoutMs = 30_000;
    private Consumer<String> log = line -> { };

    public InetAddress group()
    {
        return group;
    }

    /** @param value the multicast group to join ({@code -m}) */
    public MckeySettings group(final InetAddress value)
    {
        group = value;
        return this;
    }

    public InetAddress bind()
    {
        return bind;
    }

    /** @param value the local address ({@code -b}), or null for the node's own of the group's family */
    public MckeySettings bind(final InetAddress value)
    {
        bind = value;
        return this;
    }

    public boolean sender()
    {
        return sender;
    }

    /** @param value send the messages ({@code -s}) instead of receiving them */
    public MckeySettings sender(final boolean value)
    {
        sender = value;
        return this;
    }

    public int count()
    {
        return count;
    }

    /** @param value messages to send or receive ({@code -C}) */
    public MckeySettings count(final int value)
    {
        count = value;
        return this;
    }

    public int size()
    {
        return size;
    }

    /** @param value bytes per message ({@code -S}) */
    public MckeySettings size(final int value)
    {
        size = value;
        return this;
    }

    public long timeoutMs()
    {
        return timeoutMs;
    }

    /** @param value how long each step (address resolution, join, the transfers) may take; mckey waits forever */
    public MckeySettings timeoutMs(final long value)
    {
        timeoutMs = value;
        return this;
    }

    public Consumer<String> log()
    {
        return log;
    }

    /** @param value where the C tool's progress lines go */
    public MckeySettings log(final Consumer<String> value)
    {
        log = value;
        return this;
    }

    /**
     * @return this
     * @throws IllegalArgumentException saying which option is wrong
     */
    public MckeySettings check()
    {
        if (null == group)
        {
            throw new IllegalArgumentException("mckey: a multicast address is required (-m)");
        }
        if (!group.isMulticastAddress())
        {
            throw new IllegalArgumentException("mckey: -m " + group.getHostAddress() + " is not a multicast address");
        }
        if (count < 0)
        {
            throw new IllegalArgumentException("mckey: message count (-C) must be at least 0: " + count);
        }
        if (size < 1)
        {
            throw new IllegalArgumentException("mckey: message size (-S) must be at least 1: " + size);
        }
        CmTestSupport.checkBufferSize("mckey", (long)count * (size + Mckey.GRH_LENGTH));
        if (timeoutMs < 1)
        {
            throw new IllegalArgumentException("mckey: timeout must be positive: " + timeoutMs + " ms");
        }
        return this;
    }
}
