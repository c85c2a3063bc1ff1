package io.jrxe.ulp.cmapps;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What {@link Rping} runs, named after rping's options: {@code -s}/{@code -c} ({@link #server}), {@code -a}
 * ({@link #address}), {@code -p}, {@code -C}, {@code -S}, {@code -v}, {@code -V}; plus the bound on every wait and
 * where the tool's lines go.
 */
public final class RpingSettings
{
    private boolean server;
    private InetAddress address;
    private int port = Rping.DEFAULT_PORT;
    private int count;
    private int size = Rping.DEFAULT_SIZE;
    private boolean verbose;
    private boolean validate;
    private long timeoutNs = TimeUnit.SECONDS.toNanos(60);
    private PrintStream out = System.out;
    private PrintStream err = System.err;
    private Runnable listening = () -> { };
    private BooleanSupplier stop = () -> false;

    /** @return true: {@code -s}, false: {@code -c} */
    public boolean server()
    {
        return server;
    }

    /**
     * @param value true for the server ({@code -s}), false for the client ({@code -c})
     * @return this
     */
    public RpingSettings server(final boolean value)
    {
        this.server = value;
        return this;
    }

    /** @return {@code -a}: the server's address; for a server, the address to bind (the wildcard if none) */
    public InetAddress address()
    {
        if (null == address && server)
        {
            try
            {
                return InetAddress.getByAddress(new byte[4]);
            }
            catch (final UnknownHostException e)
            {
                throw new IllegalStateException(e);
            }
        }
        return address;
    }

    /**
     * @param value {@code -a}, or null (a server binds the wildcard; a client must have one)
     * @return this
     */
    public RpingSettings address(final InetAddress value)
    {
        this.address = value;
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
    public RpingSettings port(final int value)
    {
        this.port = value;
        return this;
    }

    /** @return {@code -C}: pings, 0 = until stopped (the client's; the server serves until the client leaves) */
    public int count()
    {
        return count;
    }

    /**
     * @param value {@code -C}
     * @return this
     */
    public RpingSettings count(final int value)
    {
        this.count = value;
        return this;
    }

    /** @return {@code -S}: bytes per ping, {@link Rping#MIN_SIZE}..{@link Rping#MAX_SIZE} */
    public int size()
    {
        return size;
    }

    /**
     * @param value {@code -S}
     * @return this
     */
    public RpingSettings size(final int value)
    {
        this.size = value;
        return this;
    }

    /** @return {@code -v}: print each ping's data */
    public boolean verbose()
    {
        return verbose;
    }

    /**
     * @param value {@code -v}
     * @return this
     */
    public RpingSettings verbose(final boolean value)
    {
        this.verbose = value;
        return this;
    }

    /** @return {@code -V}: the client compares its start and sink buffers after each ping */
    public boolean validate()
    {
        return validate;
    }

    /**
     * @param value {@code -V}
     * @return this
     */
    public RpingSettings validate(final boolean value)
    {
        this.validate = value;
        return this;
    }

    /** @return the bound on each wait, in nanoseconds */
    public long timeoutNs()
    {
        return timeoutNs;
    }

    /**
     * @param value the bound on each wait (a connection request, an event, a completion)
     * @param unit its unit
     * @return this
     */
    public RpingSettings timeout(final long value, final TimeUnit unit)
    {
        this.timeoutNs = unit.toNanos(value);
        return this;
    }

    /** @return where the ping data lines go */
    public PrintStream out()
    {
        return out;
    }

    /**
     * @param value where the ping data lines go ({@code -v})
     * @return this
     */
    public RpingSettings out(final PrintStream value)
    {
        this.out = value;
        return this;
    }

    /** @return where rping's error lines go */
    public PrintStream err()
    {
        return err;
    }

    /**
     * @param value where rping's error lines go ("cma event ...", "data mismatch!", "... DISCONNECT EVENT...")
     * @return this
     */
    public RpingSettings err(final PrintStream value)
    {
        this.err = value;
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
    public RpingSettings listening(final Runnable value)
    {
        this.listening = value;
        return this;
    }

    /** @return asked before each ping: true ends the client's loop as if its count were reached */
    public BooleanSupplier stop()
    {
        return stop;
    }

    /**
     * @param value asked before each of the client's pings (SIGINT for {@code -C 0})
     * @return this
     */
    public RpingSettings stop(final BooleanSupplier value)
    {
        this.stop = value;
        return this;
    }

    /**
     * rping's option checks, with its messages where it has them.
     *
     * @return this
     * @throws IllegalArgumentException for a size or count out of range, a client without {@code -a}, a bad port
     *     or timeout
     */
    public RpingSettings check()
    {
        if (size < Rping.MIN_SIZE || size > Rping.MAX_SIZE)
        {
            throw new IllegalArgumentException("Invalid size " + size + " (valid range is " + Rping.MIN_SIZE +
                " to " + Rping.MAX_SIZE + ")");
        }
        if (count < 0)
        {
            throw new IllegalArgumentException("Invalid count " + count);
        }
        if (!server && null == address)
        {
            throw new IllegalArgumentException("the rping client needs -a, the server's address");
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
