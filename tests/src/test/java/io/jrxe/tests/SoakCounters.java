package io.jrxe.tests;

import io.jrxe.driver.emu.EmulatedNicCounters;
import io.jrxe.driver.emu.WireCounters;
import io.jrxe.net.NetCounter;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.stats.RxeStat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads the nodes' counters after a soak the way an operator does ({@code jrxe stat}: {@link RxeStat} over the
 * memory-mapped counters files) and checks that they tell a consistent story: what the engine counted is what
 * the file shows; every datagram the stack handed up is either received or dropped under one reason; losses
 * show as timeouts, NAKs and retransmissions, corruption as ICRC errors; each SEND, READ and atomic the workload
 * issued was executed exactly once at the responder.
 */
final class SoakCounters
{
    /** Receive-path drop reasons: with rcvd_pkts they account for every RoCE datagram handed to the engine. */
    private static final RxeCounter[] DROPS = {RxeCounter.ICRC_ERR, RxeCounter.BAD_OPCODE, RxeCounter.BAD_PKEY,
        RxeCounter.BAD_QPN, RxeCounter.QP_NOT_READY, RxeCounter.BAD_QKEY, RxeCounter.BAD_HEADER_LENGTH,
        RxeCounter.BAD_PAD, RxeCounter.TRUNCATED, RxeCounter.BAD_TVER, RxeCounter.BAD_QP_TYPE,
        RxeCounter.BAD_IP_HEADER, RxeCounter.CNP_RCVD};

    private SoakCounters()
    {
    }

    static void assertConsistent(final Path countersDir, final NodePair nodes, final MixedRcWorkload w)
    {
        final Map<String, Long> a = stat(countersDir, nodes.a());
        final Map<String, Long> b = stat(countersDir, nodes.b());
        direction("A->B", a, b, nodes.a(), nodes.b(), nodes.wire().counters(0, 1), nodes.wire().counters(1, 0),
            nodes.network().nic(1).counters(), w);
        direction("B->A", b, a, nodes.b(), nodes.a(), nodes.wire().counters(1, 0), nodes.wire().counters(0, 1),
            nodes.network().nic(0).counters(), w);
    }

    /**
     * {@code jrxe stat --all --dir DIR DEVICE}, parsed; checked against the counters file read directly and the
     * engine's own counters.
     */
    static Map<String, Long> stat(final Path countersDir, final RoceNode node)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status;
        try
        {
            status = RxeStat.run(new String[]{"--all", "--dir", countersDir.toString(), node.name()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        catch (final InterruptedException ex)
        {
            throw new AssertionError(ex);
        }
        assertEquals(0, status, () -> "jrxe stat failed: " + err.toString(StandardCharsets.UTF_8));
        final Map<String, Long> values = new HashMap<>();
        for (final String line : out.toString(StandardCharsets.UTF_8).split("\n"))
        {
            final String[] parts = line.trim().split(" ");
            if (2 == parts.length && parts[1].matches("-?\\d+"))
            {
                values.put(parts[0], Long.parseLong(parts[1]));
            }
        }
        try (CountersFileReader reader = CountersFileReader.map(CountersFile.pathFor(countersDir, node.name())))
        {
            for (final RxeCounter c : RxeCounter.values())
            {
                final long engine = node.engine().counters().get(c);
                assertEquals(engine, reader.deviceValue(c), node.name() + " file " + c.label());
                assertEquals(engine, values.get(c.label()), node.name() + " jrxe stat " + c.label());
            }
        }
        return values;
    }

    private static void direction(
        final String name,
        final Map<String, Long> req,
        final Map<String, Long> resp,
        final RoceNode reqNode,
        final RoceNode respNode,
        final WireCounters forward,
        final WireCounters backward,
        final EmulatedNicCounters respNic,
        final MixedRcWorkload w)
    {
        final long[] ops = new long[RcStream.KIND_NAMES.length];
        for (final RcStream s : w.streams)
        {
            if (s.req.node == reqNode)
            {
                for (int k = 0; k < ops.length; k++)
                {
                    ops[k] += s.opsByKind[k];
                }
            }
        }
        // nothing failed
        assertEquals(0, req.get("retry_exceeded_err"), name);
        assertEquals(0, req.get("retry_rnr_exceeded_err"), name);
        assertEquals(0, resp.get("nak_sent"), name + ": no invalid request / access / operational NAK");
        assertEquals(0, resp.get("rkey_violation"), name);

        // every executed message exactly once at the responder
        assertEquals(ops[RcStream.SEND] + ops[RcStream.SEND_IMM], resp.get("rdma_recvs"), name + " SENDs delivered");
        assertEquals(ops[RcStream.READ], resp.get("read_req_rcvd"), name + " READs executed");
        assertEquals(ops[RcStream.CMP_SWAP] + ops[RcStream.FETCH_ADD], resp.get("atomic_req_rcvd"),
            name + " atomics executed");
        assertTrue(req.get("read_req_sent") >= ops[RcStream.READ], name);
        assertTrue(req.get("atomic_req_sent") >= ops[RcStream.CMP_SWAP] + ops[RcStream.FETCH_ADD], name);

        // losses: sequence NAKs, timeouts, retries, retransmissions, duplicates at the responder
        assertTrue(forward.get(WireCounters.LOST) > 0 && backward.get(WireCounters.LOST) > 0, name);
        assertTrue(req.get("retransmitted_pkts") > 0, name + " retransmitted_pkts");
        assertTrue(req.get("local_ack_timeout_err") > 0, name + " local_ack_timeout_err");
        assertTrue(req.get("completer_retry_err") > 0, name + " completer_retry_err");
        assertTrue(req.get("rcvd_seq_err") > 0, name + " rcvd_seq_err");
        assertTrue(resp.get("out_of_seq_request") > 0, name + " out_of_seq_request");
        assertTrue(resp.get("seq_nak_sent") > 0, name + " seq_nak_sent");
        assertTrue(resp.get("duplicate_request") > 0, name + " duplicate_request");
        assertTrue(resp.get("duplicate_resp_replayed") > 0, name + " duplicate_resp_replayed");
        // a NAK or ACK can only arrive if it was sent (or duplicated by the wire)
        final long dupBack = backward.get(WireCounters.DUPLICATED);
        assertTrue(req.get("rcvd_seq_err") <= resp.get("seq_nak_sent") + dupBack, name + " seq NAKs");
        assertTrue(req.get("acks_rcvd") <= resp.get("acks_sent") + dupBack, name + " ACKs");
        assertTrue(req.get("read_resp_rcvd") <= resp.get("read_resp_sent") + dupBack, name + " READ responses");

        // corruption shows as ICRC errors (a corrupted frame may also be duplicated, or dropped by the stack)
        assertTrue(forward.get(WireCounters.CORRUPTED) > 0, name);
        assertTrue(resp.get("icrc_err") > 0, name + " icrc_err");
        assertTrue(resp.get("icrc_err") <= 2 * forward.get(WireCounters.CORRUPTED), name + " icrc_err");

        // conservation at the responder's receive path: every datagram the stack handed up is received or dropped
        long drops = 0;
        for (final RxeCounter c : DROPS)
        {
            drops += resp.get(c.label());
        }
        final long handedUp = respNode.stack().counter(NetCounter.UDP_DATAGRAMS_RCVD);
        final long received = resp.get("rcvd_pkts");
        assertEquals(handedUp, received + drops, name + " datagrams handed up = rcvd_pkts + drops (only 4791 listens)");
        // and what reached it is bounded by what the other side put on the wire: less what the wire lost, what
        // corruption made the stack drop, and what the receiving NIC had no buffer for (an rx ring overrun)
        final long sent = req.get("sent_pkts");
        assertTrue(received + drops <= sent + forward.get(WireCounters.DUPLICATED), name + " not more than sent");
        assertTrue(received + drops >= sent - forward.get(WireCounters.LOST) - forward.get(WireCounters.CORRUPTED) -
            forward.get(WireCounters.OVERFLOW) - respNic.get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER),
            name + " not fewer than sent minus lost");
    }
}
