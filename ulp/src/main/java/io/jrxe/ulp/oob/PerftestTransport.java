package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QueuePair;

import java.util.List;

/**
 * How a perftest peer reaches the other side: the connection that carries the exchange, and how the data QPs come
 * to be connected. A tool picks one and drives the rest ({@link PerftestBwSession}) the same way:
 * <pre>
 *                         exchange connection               data QPs
 *   PerftestTcpTransport  TCP socket, text key messages     made here in RESET; the tool connects them with the
 *                         (perftest's default)              peer's key message (Peer.connect)
 *   PerftestCmTransport   rdma_cm RC connection, binary     made and connected through rdma_cm, between two
 *                         key messages (perftest -R)        hand-shakes (create_rdma_cm_connection)
 * </pre>
 * Closing the transport releases the exchange connection and the data QPs it made (with rdma_cm: disconnects them
 * first); the tool then releases its CQs, MRs and PD.
 */
public interface PerftestTransport extends AutoCloseable
{
    /**
     * {@code establish_connection}: a server waits for its client, a client connects.
     *
     * @return the exchange connection.
     * @throws OobException if no connection comes about within the bounds.
     */
    PerftestChannel open() throws OobException;

    /**
     * Makes the data QPs, from {@link PerftestBwSession.Peer#localDests} (after the MTU exchange, before the key
     * messages).
     *
     * @param exchange the exchange on {@link #open()}'s connection (rdma_cm hand-shakes on it).
     * @param pd       the PD of the QPs and the buffers.
     * @param init     QP attributes (RC; CQs and capabilities).
     * @param count    how many QPs (perftest's {@code -q}).
     * @param test     the test, which sets rdma_cm's responder resources and initiator depth.
     * @param outReads this side's {@code out_reads}.
     * @return the QPs, in the order the key messages go.
     * @throws OobException if a QP cannot be made or connected.
     */
    List<QueuePair> createQps(PerftestExchange exchange, ProtectionDomain pd, QpInitAttr init, int count,
        PerftestTest test, int outReads) throws OobException;

    /** @return true if {@link #createQps} hands back connected QPs (rdma_cm), which the tool must not modify. */
    boolean connectsQps();

    /** @return perftest's "Data ex. method" for this transport: "Ethernet" or "rdma_cm". */
    String exchangeMethod();

    /** Releases the exchange connection and the data QPs (disconnecting them first where rdma_cm made them). */
    @Override
    void close();
}
