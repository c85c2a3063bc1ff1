package io.jrxe.ulp.sunrpc;

/**
 * Settings of an {@link RpcTcpClient} (the TCP side of the kernel's mount options {@code timeo}, {@code retrans} and
 * {@code resvport}, plus buffer sizes). A mutable builder, read once when the client is made.
 */
public final class RpcTcpOptions
{
    private int connectTimeoutMs = 10_000;
    private int callTimeoutMs = 60_000;
    private int maxCalls = 16;
    private int sendBufferSize = 8192;
    private int maxReply = (1 << 20) + 8192;
    private int maxFragment = RpcRecordWriter.MAX_FRAGMENT;
    private boolean reservedPort;

    /** @return milliseconds a connection attempt may take */
    public int connectTimeoutMs()
    {
        return connectTimeoutMs;
    }

    /**
     * @param ms milliseconds a connection attempt may take (default 10 s)
     * @return this
     */
    public RpcTcpOptions connectTimeoutMs(final int ms)
    {
        connectTimeoutMs = positive(ms, "connect timeout");
        return this;
    }

    /** @return milliseconds a call waits for its reply before it fails with ETIMEDOUT */
    public int callTimeoutMs()
    {
        return callTimeoutMs;
    }

    /**
     * @param ms milliseconds a call waits for its reply (default 60 s, the kernel's {@code timeo=600} for TCP)
     * @return this
     */
    public RpcTcpOptions callTimeoutMs(final int ms)
    {
        callTimeoutMs = positive(ms, "call timeout");
        return this;
    }

    /** @return calls that may be prepared at once */
    public int maxCalls()
    {
        return maxCalls;
    }

    /**
     * @param calls calls that may be prepared at once (outstanding READs and WRITEs; default 16)
     * @return this
     */
    public RpcTcpOptions maxCalls(final int calls)
    {
        maxCalls = positive(calls, "max calls");
        return this;
    }

    /** @return bytes of a call's send buffer (header and arguments; a payload stays in the caller's memory) */
    public int sendBufferSize()
    {
        return sendBufferSize;
    }

    /**
     * @param bytes a call's send buffer: header and arguments, a payload not included (default 8 KiB)
     * @return this
     */
    public RpcTcpOptions sendBufferSize(final int bytes)
    {
        sendBufferSize = positive(bytes, "send buffer");
        return this;
    }

    /** @return the largest reply accepted */
    public int maxReply()
    {
        return maxReply;
    }

    /**
     * @param bytes the largest reply accepted, READ data included (default 1 MiB + 8 KiB); a longer record breaks the
     *        connection
     * @return this
     */
    public RpcTcpOptions maxReply(final int bytes)
    {
        maxReply = positive(bytes, "max reply");
        return this;
    }

    /** @return the largest fragment a call is sent in */
    public int maxFragment()
    {
        return maxFragment;
    }

    /**
     * @param bytes the largest fragment a call is sent in (default 2^31 - 1: one fragment per call)
     * @return this
     */
    public RpcTcpOptions maxFragment(final int bytes)
    {
        maxFragment = positive(bytes, "max fragment");
        return this;
    }

    /** @return true to try a source port below 1024 first */
    public boolean reservedPort()
    {
        return reservedPort;
    }

    /**
     * @param reserved try a privileged source port (1023 down to 665, as Linux's {@code xprt_min_resvport}) first,
     *        which servers exporting with {@code secure} require; without the privilege any port is used
     * @return this
     */
    public RpcTcpOptions reservedPort(final boolean reserved)
    {
        reservedPort = reserved;
        return this;
    }

    private static int positive(final int value, final String what)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException(what + " must be positive: " + value);
        }
        return value;
    }
}
