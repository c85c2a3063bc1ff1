package io.jrxe.ulp.oob;

/**
 * The connection that carries perftest's exchange messages ({@link PerftestExchange}) between the two sides:
 * perftest's TCP socket ({@link PerftestTcpChannel}) or, with {@code -R}, an RC connection made through rdma_cm
 * whose messages are SENDs ({@link PerftestCmChannel}). Each message is written whole and read whole; who writes
 * first is the exchange's business.
 */
public interface PerftestChannel
{
    /**
     * Sends one whole message.
     *
     * @param message bytes to send.
     * @param what    name of the message, for errors.
     * @throws OobException if the connection is broken.
     */
    void write(byte[] message, String what) throws OobException;

    /**
     * Reads exactly {@code dst.length} bytes (one message) within {@code timeoutNs}.
     *
     * @param dst       destination, filled completely.
     * @param what      name of the message, for errors.
     * @param timeoutNs bound for the message.
     * @throws OobException on timeout, a message of another length, or a broken connection.
     */
    void readFully(byte[] dst, String what, long timeoutNs) throws OobException;

    /** @return the bound for one ordinary exchange step. */
    long ioTimeoutNs();

    /**
     * @return true if key messages are perftest's binary {@code struct pingpong_dest}
     * ({@link PerftestDest#encodeBinary}), as over rdma_cm; false for the text formats of the socket exchange.
     */
    boolean binaryKeys();

    /**
     * What {@code ctx_close_connection} does after its last hand-shake: over TCP, "done\0" both ways; over rdma_cm,
     * nothing.
     *
     * @return true if the peer's "done" arrived.
     * @throws OobException if the peer sent something other than "done\0".
     */
    boolean finishClose() throws OobException;

    /** Closes the connection (and releases what it holds); safe to call more than once. */
    void close();
}
