package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Aeth;
import io.jrxe.rxe.proto.AtomicAckEth;
import io.jrxe.rxe.proto.Bth;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.stats.RxeCounter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the responder transmits: ACK/NAK/RNR NAK packets, atomic ACKs and RDMA READ responses (rxe send_ack,
 * send_atomic_ack, read_reply). READ responses are generated from a per-QP cursor so that a long READ can be
 * spread over several duty cycles when transmit buffers run short.
 * <p>
 * Coalesced ACKs (IBA 9.7.5.1.1: an ACK acknowledges its PSN and every earlier one): while the engine processes
 * a receive batch ({@link #coalesce(boolean)}), the plain ACK a request asks for is only noted per QP, each later
 * one replacing it; {@link #flushAcks()} sends one ACK per QP when the batch ends. Anything else the QP sends
 * (NAK, atomic ACK, READ response, a duplicate's re-ACK) sends the noted ACK first, so PSNs stay in order on the
 * wire. A stream of small messages then costs one ACK per batch instead of one per message, as hardware does;
 * rxe sends one per message.
 * <pre>
 *  ACK / NAK:      | BTH (ACKNOWLEDGE, PSN) | AETH (syndrome, MSN) |
 *  atomic ACK:     | BTH (ATOMIC_ACKNOWLEDGE) | AETH | AtomicAckETH (original value) |
 *  READ response:  | BTH (READ_RESPONSE_FIRST/MIDDLE/LAST/ONLY) | AETH (not on MIDDLE) | data (<= MTU) |
 * </pre>
 * A READ response whose data lies in a DMA-mapped MR goes out zero-copy, the NIC reading the data from the MR
 * ({@link Transmitter#finishGather}); a duplicate READ answered again reads it there again.
 */
final class ResponderOutput
{
    private final Transmitter tx;
    private final MrAccess mr;
    private final EngineCounters counters;
    private final Bth bth = new Bth();
    private final Aeth aeth = new Aeth();
    private final AtomicAckEth atomicAckEth = new AtomicAckEth();
    private final QpContext[] pending;
    private int pendingCount;
    private boolean coalescing;

    ResponderOutput(final Transmitter tx, final MrAccess mr, final EngineCounters counters, final int maxQps)
    {
        this.tx = tx;
        this.mr = mr;
        this.counters = counters;
        this.pending = new QpContext[maxQps];
    }

    /**
     * Starts or ends a receive batch: while on, plain ACKs are coalesced until {@link #flushAcks()}.
     */
    void coalesce(final boolean on)
    {
        coalescing = on;
    }

    /**
     * Acknowledges a request that asked for it ({@code AckReq}): at once, or at the end of the receive batch.
     *
     * @param psn PSN of the acknowledged request
     */
    void ack(final QpContext c, final int psn)
    {
        if (!coalescing)
        {
            sendAck(c, Opcode.ACKNOWLEDGE, Aeth.ACK_UNLIMITED, psn, c.respMsn, 0);
            return;
        }
        if (!c.ackPending)
        {
            c.ackPending = true;
            pending[pendingCount++] = c;
        }
        c.ackPendingPsn = psn;
        c.ackPendingMsn = c.respMsn;
    }

    /**
     * Sends the ACKs noted during the receive batch, one per QP.
     *
     * @return ACKs sent
     */
    int flushAcks()
    {
        final int count = pendingCount;
        for (int i = 0; i < count; i++)
        {
            final QpContext c = pending[i];
            pending[i] = null;
            flushAck(c);
        }
        pendingCount = 0;
        return count;
    }

    private void flushAck(final QpContext c)
    {
        if (c.ackPending)
        {
            c.ackPending = false;
            if (!c.detached)
            {
                sendAck(c, Opcode.ACKNOWLEDGE, Aeth.ACK_UNLIMITED, c.ackPendingPsn, c.ackPendingMsn, 0);
            }
        }
    }

    /**
     * Sends an ACK, NAK or RNR NAK.
     *
     * @param syndrome AETH syndrome
     * @param psn      PSN of the acknowledged request (ACK) or the responder's expected PSN (NAK)
     */
    void sendAck(final QpContext c, final int syndrome, final int psn)
    {
        flushAck(c);
        sendAck(c, Opcode.ACKNOWLEDGE, syndrome, psn, c.respMsn, 0);
    }

    void sendAtomicAck(final QpContext c, final int psn, final long original)
    {
        flushAck(c);
        sendAck(c, Opcode.ATOMIC_ACKNOWLEDGE, Aeth.ACK_UNLIMITED, psn, c.respMsn, original);
    }

    private void sendAck(
        final QpContext c, final int opcode, final int syndrome, final int psn, final int msn, final long original)
    {
        if (!tx.begin(c, c.dgidHi, c.dgidLo))
        {
            counters.increment(c, RxeCounter.ACK_DEFERRED); // lost like a dropped packet; the requester recovers
            return;
        }
        final UnsafeBuffer buf = tx.buffer();
        final int b = tx.bthOffset;
        final int wire = c.opcodeQpType << 5 | opcode; // the XRC acknowledgements are 0xB1/0xB2 (IBA Table 35)
        bth.wrap(buf, b).init(wire, false, 0, RoceV2.DEFAULT_PKEY, c.destQpn, false, psn);
        aeth.wrap(buf, b + Opcode.aethOffset(wire)).init(syndrome, msn);
        if (Opcode.ATOMIC_ACKNOWLEDGE == opcode)
        {
            atomicAckEth.wrap(buf, b + Opcode.atomicAckEthOffset(wire)).origRemoteData(original);
        }
        if (tx.finish(c.dgidHi, c.dgidLo, c.udpSport, Opcode.headerLength(wire), 0))
        {
            countAck(c, syndrome);
        }
    }

    /** RNR NAKs are counted where the responder decides on them (send_rnr_err), the rest here as they leave. */
    private void countAck(final QpContext c, final int syndrome)
    {
        if (Aeth.isAck(syndrome))
        {
            counters.increment(c, RxeCounter.ACKS_SENT);
        }
        else if (Aeth.NAK_PSN_SEQ_ERROR == syndrome)
        {
            counters.increment(c, RxeCounter.SEQ_NAK_SENT);
        }
        else if (!Aeth.isRnrNak(syndrome))
        {
            counters.increment(c, RxeCounter.NAK_SENT);
        }
    }

    /**
     * Starts answering a READ (new or duplicate) from PSN {@code psn} for {@code length} bytes at {@code va}.
     */
    void startRead(final QpContext c, final int resource, final int psn, final long va, final long length)
    {
        c.readResource = resource;
        c.readPd = c.pd;
        c.readPsn = psn;
        c.readFirstPsn = psn;
        c.readVa = va;
        c.readResid = length;
    }

    /**
     * Sends READ response packets from the QP's cursor.
     *
     * @return packets sent; the cursor is cleared when the last one went out, or -1 if the MR went away (the
     * caller NAKs and fails the QP)
     */
    int continueRead(final QpContext c, final int budget)
    {
        flushAck(c);
        int sent = 0;
        while (c.readResource >= 0 && sent < budget)
        {
            final int payload = (int)Math.min(c.mtu, c.readResid);
            final boolean first = c.readPsn == c.readFirstPsn;
            final boolean last = payload == c.readResid;
            final int opcode = c.opcodeQpType << 5 | readResponseOpcode(first, last); // XRC: 0xAD-0xB0
            if (!tx.begin(c, c.dgidHi, c.dgidLo))
            {
                counters.increment(c, RxeCounter.ACK_DEFERRED);
                break;
            }
            final UnsafeBuffer buf = tx.buffer();
            final int b = tx.bthOffset;
            final int pad = RoceV2.padCount(payload);
            bth.wrap(buf, b).init(opcode, false, pad, RoceV2.DEFAULT_PKEY, c.destQpn, false, c.readPsn);
            final int aethOffset = Opcode.aethOffset(opcode);
            if (aethOffset >= 0)
            {
                aeth.wrap(buf, b + aethOffset).init(Aeth.ACK_UNLIMITED, c.respMsn);
            }
            final int headerLength = Opcode.headerLength(opcode);
            final int rkey = c.resources.rkey[c.readResource];
            final boolean out;
            if (tx.canGather(payload) && mr.zeroCopyRemote(c.readPd, c.qpn, rkey, c.readVa, payload))
            {
                // the NIC reads the response's payload from the DMA-mapped MR itself
                out = tx.finishGather(
                    c.dgidHi, c.dgidLo, c.udpSport, headerLength, mr.region(), c.readVa, payload, pad);
            }
            else
            {
                if (payload > 0 && MrStatus.OK != mr.copyFromRemote(
                    c.readPd, c.qpn, rkey, c.readVa, buf, b + headerLength, payload))
                {
                    tx.abort();
                    c.readResource = -1;
                    return -1;
                }
                out = tx.finish(c.dgidHi, c.dgidLo, c.udpSport, headerLength + payload, pad);
            }
            if (out)
            {
                counters.increment(c, RxeCounter.READ_RESP_SENT);
            }
            sent++;
            c.readPsn = Psn.next(c.readPsn);
            c.readVa += payload;
            c.readResid -= payload;
            if (last)
            {
                c.readResource = -1;
            }
        }
        return sent;
    }

    private static int readResponseOpcode(final boolean first, final boolean last)
    {
        if (first)
        {
            return last ? Opcode.RDMA_READ_RESPONSE_ONLY : Opcode.RDMA_READ_RESPONSE_FIRST;
        }
        return last ? Opcode.RDMA_READ_RESPONSE_LAST : Opcode.RDMA_READ_RESPONSE_MIDDLE;
    }
}
