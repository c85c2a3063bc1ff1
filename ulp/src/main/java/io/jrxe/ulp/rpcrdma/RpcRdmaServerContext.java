package io.jrxe.ulp.rpcrdma;

import org.agrona.concurrent.NanoClock;

import java.net.InetSocketAddress;

/**
 * The server's settings ({@link RpcRdmaServer#start}), with svcrdma's defaults: port 20049, 64 credits per
 * client plus 2 for the backchannel, inline thresholds 4096, Send With Invalidate when the client accepts it.
 */
public final class RpcRdmaServerContext
{
    private InetSocketAddress bind = new InetSocketAddress(RpcRdma.NFS_RDMA_PORT);
    private int credits = 64;
    private int bcCredits = 2;
    private int inline = RpcRdma.DEFAULT_INLINE;
    private int maxPayload = 1024 * 1024;
    private int largeBuffers = 16;
    private int calls = 128;
    private int maxConnections = 64;
    private boolean sendWithInvalidate = true;
    private long drainTimeoutNs = 2_000_000_000L;
    private NanoClock clock = System::nanoTime;

    /**
     * @param bind the address and port to listen on (the wildcard address: every address of the node)
     * @return this
     */
    public RpcRdmaServerContext bind(final InetSocketAddress bind)
    {
        this.bind = bind;
        return this;
    }

    /**
     * @param credits credits granted to each client (svcrdma_max_requests: 64)
     * @return this
     */
    public RpcRdmaServerContext credits(final int credits)
    {
        this.credits = check(credits, 1, 1024, "credits");
        return this;
    }

    /**
     * @param credits reverse-direction calls outstanding per client (svcrdma's backchannel: 2)
     * @return this
     */
    public RpcRdmaServerContext bcCredits(final int credits)
    {
        this.bcCredits = check(credits, 0, 64, "backchannel credits");
        return this;
    }

    /**
     * @param bytes inline threshold offered both ways (svcrdma: 4096)
     * @return this
     */
    public RpcRdmaServerContext inline(final int bytes)
    {
        this.inline = check(bytes, RpcRdma.MIN_INLINE, RpcRdma.MAX_INLINE, "inline threshold");
        return this;
    }

    /**
     * @param bytes the largest payload a call moves in chunks (rsize/wsize), sizing the large buffers
     * @return this
     */
    public RpcRdmaServerContext maxPayload(final int bytes)
    {
        this.maxPayload = check(bytes, 4096, 64 << 20, "max payload");
        return this;
    }

    /**
     * @param count large buffers (pulled calls, replies with a payload or a Reply chunk)
     * @return this
     */
    public RpcRdmaServerContext largeBuffers(final int count)
    {
        this.largeBuffers = check(count, 1, 4096, "large buffers");
        return this;
    }

    /**
     * @param count calls served at once, over all connections
     * @return this
     */
    public RpcRdmaServerContext calls(final int count)
    {
        this.calls = check(count, 1, 65536, "calls");
        return this;
    }

    /**
     * @param count connections at once
     * @return this
     */
    public RpcRdmaServerContext maxConnections(final int count)
    {
        this.maxConnections = check(count, 1, 4096, "connections");
        return this;
    }

    /**
     * @param use invalidate the client's MR with Send With Invalidate when it offers that (RFC 8797)
     * @return this
     */
    public RpcRdmaServerContext sendWithInvalidate(final boolean use)
    {
        this.sendWithInvalidate = use;
        return this;
    }

    /**
     * @param clock the clock (injected for tests)
     * @return this
     */
    public RpcRdmaServerContext clock(final NanoClock clock)
    {
        this.clock = clock;
        return this;
    }

    /** @return credits granted to each client */
    public int credits()
    {
        return credits;
    }

    /** @return whether Send With Invalidate is used */
    public boolean sendWithInvalidate()
    {
        return sendWithInvalidate;
    }

    /** @return reverse-direction calls outstanding per client */
    public int bcCredits()
    {
        return bcCredits;
    }

    /** @return where the server listens */
    public InetSocketAddress bind()
    {
        return bind;
    }

    /** @return the inline threshold offered both ways */
    public int inline()
    {
        return inline;
    }

    /** @return the largest payload moved in chunks */
    public int maxPayload()
    {
        return maxPayload;
    }

    /** @return large buffers */
    public int largeBuffers()
    {
        return largeBuffers;
    }

    /** @return calls served at once */
    public int calls()
    {
        return calls;
    }

    /** @return connections at once */
    public int maxConnections()
    {
        return maxConnections;
    }

    /** @return how long a connection's drain may wait for its flushes */
    public long drainTimeoutNs()
    {
        return drainTimeoutNs;
    }

    /** @return the clock */
    public NanoClock clock()
    {
        return clock;
    }

    private static int check(final int value, final int min, final int max, final String what)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(what + " must be " + min + ".." + max + ", not " + value);
        }
        return value;
    }
}
