package io.jrxe.ulp.oob;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.concurrent.TimeUnit;

/**
 * Settings of an out-of-band TCP exchange, with defaults. Every blocking step has a bound so that a silent or dead
 * peer produces an {@link OobException} instead of a hang.
 */
public final class OobContext
{
    /** TCP port of ibv_rc_pingpong and of perftest's socket exchange ({@code DEF_PORT}). */
    public static final int DEFAULT_PORT = 18515;
    /** Default bound for one message exchange step. */
    public static final long DEFAULT_IO_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    /** Default bound for establishing the TCP connection (the client retries while the server is not listening). */
    public static final long DEFAULT_CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    /** Default bound for a server waiting for the client to connect. */
    public static final long DEFAULT_ACCEPT_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(5);
    /** Default pause between connection attempts of a client. */
    public static final long DEFAULT_CONNECT_RETRY_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private long ioTimeoutNs = DEFAULT_IO_TIMEOUT_NS;
    private long connectTimeoutNs = DEFAULT_CONNECT_TIMEOUT_NS;
    private long acceptTimeoutNs = DEFAULT_ACCEPT_TIMEOUT_NS;
    private long connectRetryNs = DEFAULT_CONNECT_RETRY_NS;
    private Runnable onListening = () -> { };
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;

    /** @return bound for one message exchange (write and/or read of one message). */
    public long ioTimeoutNs()
    {
        return ioTimeoutNs;
    }

    /**
     * @param value bound in nanoseconds, at least 1 ms.
     * @return this.
     */
    public OobContext ioTimeoutNs(final long value)
    {
        ioTimeoutNs = checkTimeout(value, "ioTimeoutNs");
        return this;
    }

    /** @return bound for a client to establish the TCP connection. */
    public long connectTimeoutNs()
    {
        return connectTimeoutNs;
    }

    /**
     * @param value bound in nanoseconds, at least 1 ms.
     * @return this.
     */
    public OobContext connectTimeoutNs(final long value)
    {
        connectTimeoutNs = checkTimeout(value, "connectTimeoutNs");
        return this;
    }

    /** @return bound for a server to accept the client's connection. */
    public long acceptTimeoutNs()
    {
        return acceptTimeoutNs;
    }

    /**
     * @param value bound in nanoseconds, at least 1 ms.
     * @return this.
     */
    public OobContext acceptTimeoutNs(final long value)
    {
        acceptTimeoutNs = checkTimeout(value, "acceptTimeoutNs");
        return this;
    }

    /** @return pause between a client's connection attempts. */
    public long connectRetryNs()
    {
        return connectRetryNs;
    }

    /**
     * @param value pause in nanoseconds, not negative.
     * @return this.
     */
    public OobContext connectRetryNs(final long value)
    {
        if (value < 0)
        {
            throw new IllegalArgumentException("connectRetryNs must not be negative: " + value);
        }
        connectRetryNs = value;
        return this;
    }

    /** @return clock for deadlines. */
    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    /**
     * @param value clock for deadlines.
     * @return this.
     */
    public OobContext nanoClock(final NanoClock value)
    {
        if (null == value)
        {
            throw new IllegalArgumentException("nanoClock must not be null");
        }
        nanoClock = value;
        return this;
    }

    private static long checkTimeout(final long value, final String name)
    {
        if (value < TimeUnit.MILLISECONDS.toNanos(1))
        {
            throw new IllegalArgumentException(name + " must be at least 1 ms (socket timeouts have ms resolution): " +
                value + " ns");
        }
        return value;
    }

    /**
     * @param onListening called once a server listens for its peer (tools print a line scripts wait for)
     * @return this
     */
    public OobContext onListening(final Runnable onListening)
    {
        this.onListening = onListening;
        return this;
    }

    /** @return what a server calls once it listens */
    public Runnable onListening()
    {
        return onListening;
    }
}
