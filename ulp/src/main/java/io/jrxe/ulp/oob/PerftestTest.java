package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.AccessFlags;

/**
 * The perftest tests this package can act as a peer for, over RC: the bandwidth tests (driven by
 * {@link PerftestBwSession}) and the latency tests (driven by {@link PerftestLatSession}).
 */
public enum PerftestTest
{
    /** {@code ib_send_bw}: SEND/RECV; the server measures its receive side and prints its own result. */
    SEND_BW("ib_send_bw", AccessFlags.REMOTE_WRITE | AccessFlags.LOCAL_WRITE, false),
    /** {@code ib_write_bw}: RDMA WRITE; only the client runs traffic, the server prints the client's report. */
    WRITE_BW("ib_write_bw", AccessFlags.REMOTE_WRITE, false),
    /** {@code ib_read_bw}: RDMA READ; only the client runs traffic, the server prints the client's report. */
    READ_BW("ib_read_bw", AccessFlags.REMOTE_READ, false),
    /** {@code ib_send_lat}: SEND ping-pong, both sides measure and print. */
    SEND_LAT("ib_send_lat", AccessFlags.REMOTE_WRITE | AccessFlags.LOCAL_WRITE, true),
    /** {@code ib_write_lat}: RDMA WRITE ping-pong on the last byte of the buffer, both sides measure and print. */
    WRITE_LAT("ib_write_lat", AccessFlags.REMOTE_WRITE, true),
    /** {@code ib_read_lat}: the client RDMA READs one at a time; the server only waits. */
    READ_LAT("ib_read_lat", AccessFlags.REMOTE_READ, true),
    /** {@code ib_atomic_lat}: the client FETCH_AND_ADDs one at a time; the server only waits. */
    ATOMIC_LAT("ib_atomic_lat", AccessFlags.REMOTE_ATOMIC, true);

    private final String tool;
    private final int qpAccessFlags;
    private final boolean latency;

    PerftestTest(final String tool, final int qpAccessFlags, final boolean latency)
    {
        this.tool = tool;
        this.qpAccessFlags = qpAccessFlags;
        this.latency = latency;
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

    /** @return true for the {@code ib_*_lat} tests. */
    public boolean latency()
    {
        return latency;
    }

    /** @return true if the client's work requests are RDMA READs or atomics (perftest's verb READ or ATOMIC). */
    public boolean readsOrAtomics()
    {
        return this == READ_BW || this == READ_LAT || this == ATOMIC_LAT;
    }

    /**
     * perftest's {@code check_link}: READ and ATOMIC use the device's {@code max_qp_rd_atom} (or {@code -o}),
     * every other verb advertises 1 outstanding read.
     *
     * @param deviceMaxQpRdAtom the device's responder/initiator depth limit.
     * @return the {@code out_reads} this side advertises in its key message.
     */
    public int outReads(final int deviceMaxQpRdAtom)
    {
        return readsOrAtomics() ? deviceMaxQpRdAtom : 1;
    }

    /**
     * @return true if only the client moves data and the server just waits (write_bw/read_bw
     * {@code "For half duplex tests, server just waits for client to exit"}, read_lat/atomic_lat
     * {@code "Only Client post read request"}).
     */
    public boolean serverIsPassive()
    {
        return this != SEND_BW && this != SEND_LAT && this != WRITE_LAT;
    }

    /**
     * perftest's {@code print_report_lat} {@code rtt_factor}: send and write latency is half the time between two
     * posts (a ping-pong round trip); read and atomic latency is the whole operation.
     *
     * @return true if the reported latency is half the measured interval.
     */
    public boolean halvesRoundTrip()
    {
        return this == SEND_LAT || this == WRITE_LAT;
    }

    /**
     * perftest's {@code ctx_connect}: latency tests move both sides to RTS (both post), bandwidth tests only the
     * client (unless bidirectional).
     *
     * @param client true on the client side.
     * @return true if this side's QPs go to RTS.
     */
    public boolean rts(final boolean client)
    {
        return latency || client;
    }
}
