package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.AccessFlags;

/**
 * The perftest bandwidth tests this package can act as a peer for, over RC.
 */
public enum PerftestTest
{
    /** {@code ib_send_bw}: SEND/RECV; the server measures its receive side and prints its own result. */
    SEND_BW("ib_send_bw", AccessFlags.REMOTE_WRITE | AccessFlags.LOCAL_WRITE),
    /** {@code ib_write_bw}: RDMA WRITE; only the client runs traffic, the server prints the client's report. */
    WRITE_BW("ib_write_bw", AccessFlags.REMOTE_WRITE),
    /** {@code ib_read_bw}: RDMA READ; only the client runs traffic, the server prints the client's report. */
    READ_BW("ib_read_bw", AccessFlags.REMOTE_READ);

    private final String tool;
    private final int qpAccessFlags;

    PerftestTest(final String tool, final int qpAccessFlags)
    {
        this.tool = tool;
        this.qpAccessFlags = qpAccessFlags;
    }

    /** @return the perftest binary name. */
    public String tool()
    {
        return tool;
    }

    /**
     * The QP access flags perftest sets in {@code ctx_modify_qp_to_init} for this verb.
     *
     * @return {@link AccessFlags} bits.
     */
    public int qpAccessFlags()
    {
        return qpAccessFlags;
    }

    /**
     * perftest's {@code check_link}: READ (and ATOMIC) use the device's {@code max_qp_rd_atom} (or {@code -o}),
     * every other verb advertises 1 outstanding read.
     *
     * @param deviceMaxQpRdAtom the device's responder/initiator depth limit.
     * @return the {@code out_reads} this side advertises in its key message.
     */
    public int outReads(final int deviceMaxQpRdAtom)
    {
        return this == READ_BW ? deviceMaxQpRdAtom : 1;
    }

    /**
     * @return true if only the client moves data and the server just waits and prints the client's report
     * (write_bw/read_bw {@code "For half duplex tests, server just waits for client to exit"}).
     */
    public boolean serverIsPassive()
    {
        return this != SEND_BW;
    }
}
