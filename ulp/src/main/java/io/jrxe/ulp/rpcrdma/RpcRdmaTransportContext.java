package io.jrxe.ulp.rpcrdma;

import org.agrona.concurrent.NanoClock;

import java.net.InetSocketAddress;

/**
 * The client transport's settings ({@link RpcRdmaTransport#setup}), with Linux xprtrdma's defaults: inline
 * thresholds 4096 (RPCRDMA_DEF_INLINE), 128 slots (the credits asked for), address and route resolution in 5 s,
 * reconnection after 5 s doubling to 30 s, Send With Invalidate accepted.
 */
public final class RpcRdmaTransportContext
{
    private InetSocketAddress server;
    private int inlineSend = RpcRdma.DEFAULT_INLINE;
    private int inlineRecv = RpcRdma.DEFAULT_INLINE;
    private int maxRequests = 128;
    private int bcMaxRequests = 0;
    private int sendBufferSize = 16 * 1024;
    private int maxSegmentBytes = 1024 * 1024;
    private int resolveTimeoutMs = 5_000;
    private long reconnectInitialNs = 5_000_000_000L;
    private long reconnectMaxNs = 30_000_000_000L;
    private long drainTimeoutNs = 2_000_000_000L;
    private boolean acceptSendWithInvalidate = true;
    private NanoClock clock = System::nanoTime;

    /**
     * @param server the server's address and port (RpcRdma.NFS_RDMA_PORT for NFS)
     * @return this
     */
    public RpcRdmaTransportContext server(final InetSocketAddress server)
    {
        this.server = server;
        return this;
    }

    /** @return the server */
    public InetSocketAddress server()
    {
        return server;
    }

    /**
     * @param bytes the inline threshold offered for calls (Linux: 4096; RFC 8797 encodes 1 KiB .. 256 KiB)
     * @return this
     */
    public RpcRdmaTransportContext inlineSend(final int bytes)
    {
        inlineSend = check(bytes, RpcRdma.MIN_INLINE, RpcRdma.MAX_INLINE, "inline send size");
        return this;
    }

    /**
     * @param bytes the inline threshold offered for replies
     * @return this
     */
    public RpcRdmaTransportContext inlineRecv(final int bytes)
    {
        inlineRecv = check(bytes, RpcRdma.MIN_INLINE, RpcRdma.MAX_INLINE, "inline receive size");
        return this;
    }

    /**
     * @param requests the slot table: calls outstanding at most, and the credits asked for (Linux: 128)
     * @return this
     */
    public RpcRdmaTransportContext maxRequests(final int requests)
    {
        maxRequests = check(requests, 1, 1024, "max requests");
        return this;
    }

    /**
     * @param requests reverse-direction calls the server may have outstanding (NFSv4.1 backchannel; 0: none)
     * @return this
     */
    public RpcRdmaTransportContext bcMaxRequests(final int requests)
    {
        bcMaxRequests = check(requests, 0, 64, "backchannel requests");
        return this;
    }

    /**
     * @param bytes room for one call's RPC message, head and tail (not a bulk payload)
     * @return this
     */
    public RpcRdmaTransportContext sendBufferSize(final int bytes)
    {
        sendBufferSize = check(bytes, 4096, 1 << 20, "send buffer size");
        return this;
    }

    /**
     * @param bytes the largest bulk payload of a call or reply (rsize/wsize): sizes the MR pool
     * @return this
     */
    public RpcRdmaTransportContext maxSegmentBytes(final int bytes)
    {
        maxSegmentBytes = check(bytes, 4096, 64 << 20, "max payload");
        return this;
    }

    /**
     * @param ms address and route resolution timeout (Linux RDMA_RESOLVE_TIMEOUT: 5 s)
     * @return this
     */
    public RpcRdmaTransportContext resolveTimeoutMs(final int ms)
    {
        resolveTimeoutMs = check(ms, 1, 600_000, "resolve timeout");
        return this;
    }

    /**
     * @param initialNs delay before reconnecting after a lost connection (Linux: 5 s), doubled per failure
     * @param maxNs the largest delay (Linux: 30 s)
     * @return this
     */
    public RpcRdmaTransportContext reconnectDelay(final long initialNs, final long maxNs)
    {
        if (initialNs < 0 || maxNs < initialNs)
        {
            throw new IllegalArgumentException("reconnect delays " + initialNs + " .. " + maxNs);
        }
        reconnectInitialNs = initialNs;
        reconnectMaxNs = maxNs;
        return this;
    }

    /**
     * @param accept tell the server (RFC 8797 flag) that replies may invalidate with Send With Invalidate
     * @return this
     */
    public RpcRdmaTransportContext acceptSendWithInvalidate(final boolean accept)
    {
        acceptSendWithInvalidate = accept;
        return this;
    }

    /**
     * @param clock the clock for timers (injected for tests)
     * @return this
     */
    public RpcRdmaTransportContext clock(final NanoClock clock)
    {
        this.clock = clock;
        return this;
    }

    /** @return the clock */
    public NanoClock clock()
    {
        return clock;
    }

    /** @return the slot table size */
    public int maxRequests()
    {
        return maxRequests;
    }

    /** @return reverse-direction calls the server may have outstanding */
    public int bcMaxRequests()
    {
        return bcMaxRequests;
    }

    /** @return room for one call's RPC message */
    public int sendBufferSize()
    {
        return sendBufferSize;
    }

    /** @return the largest bulk payload */
    public int maxSegmentBytes()
    {
        return maxSegmentBytes;
    }

    /** @return the inline threshold offered for calls */
    public int inlineSend()
    {
        return inlineSend;
    }

    /** @return the inline threshold offered for replies */
    public int inlineRecv()
    {
        return inlineRecv;
    }

    /** @return the address and route resolution timeout */
    public int resolveTimeoutMs()
    {
        return resolveTimeoutMs;
    }

    /** @return the first reconnect delay */
    public long reconnectInitialNs()
    {
        return reconnectInitialNs;
    }

    /** @return the longest reconnect delay */
    public long reconnectMaxNs()
    {
        return reconnectMaxNs;
    }

    /** @return how long a drain may wait for the QP's flushes */
    public long drainTimeoutNs()
    {
        return drainTimeoutNs;
    }

    /** @return whether the client accepts Send With Invalidate */
    public boolean acceptSendWithInvalidate()
    {
        return acceptSendWithInvalidate;
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
