package io.jrxe.ulp.cmapps;

/**
 * What one {@link RdmaServerClient} run received. {@link #summary()} is the line for scripts:
 * <pre>
 *   JRXE-RDMA-SERVER status=ok bytes=16
 *   JRXE-RDMA-CLIENT status=ok bytes=16
 * </pre>
 */
public final class RdmaServerClientResult
{
    private final String tool;
    private final int bytes;
    private final byte[] received;

    RdmaServerClientResult(final String tool, final int bytes, final byte[] received)
    {
        this.tool = tool;
        this.bytes = bytes;
        this.received = received.clone();
    }

    /** @return "rdma_server" or "rdma_client" */
    public String tool()
    {
        return tool;
    }

    /** @return the receive completion's byte count */
    public int bytes()
    {
        return bytes;
    }

    /** @return a copy of the message received */
    public byte[] received()
    {
        return received.clone();
    }

    /** @return true when a whole 16-byte message arrived */
    public boolean ok()
    {
        return RdmaServerClient.MESSAGE_SIZE == bytes;
    }

    /** @return {@code JRXE-RDMA-SERVER status=ok bytes=16} or the client's */
    public String summary()
    {
        return ("rdma_server".equals(tool) ? "JRXE-RDMA-SERVER" : "JRXE-RDMA-CLIENT") + " status=" +
            (ok() ? "ok" : "FAILED") + " bytes=" + bytes;
    }
}
