package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.Aeth;
import io.jrxe.rxe.proto.AtomicEth;
import io.jrxe.rxe.proto.Feth;
import io.jrxe.rxe.proto.Ieth;
import io.jrxe.rxe.proto.ImmDt;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.proto.Psn;
import io.jrxe.rxe.proto.Reth;
import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.AsyncEvent;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The RC/UC responder (rxe_resp.c): checks the PSN against the expected PSN, the opcode sequence, the QP's
 * remote rights, lengths and rkeys, then executes SEND (into an RQ/SRQ WQE), RDMA WRITE, READ, atomics,
 * ATOMIC_WRITE and FLUSH, and acknowledges.
 * <pre>
 *  PSN vs ePSN:   equal   -> execute, ePSN += 1 (READ: += response packets), ACK if AckReq
 *                 before  -> duplicate: re-ACK; READ / atomic answered from the responder resources
 *                 after   -> RC: one PSN sequence error NAK per gap (IBA "NAK once"), then silence until ePSN arrives
 *                            UC: resynchronise at the next FIRST/ONLY, dropping the broken message
 * </pre>
 * RC errors of class "invalid request" / "remote access" / "remote operational" are NAKed and move the QP to
 * ERR (rxe do_class_ac_error); UC drops the message instead. Datagram receives are in
 * {@link DatagramResponder}.
 */
final class Responder
{
    private final RxeEngine engine;
    private final ResponderOutput out;
    private final RecvCompleter recv;
    private final MrAccess mr;
    private final EngineCounters counters;
    private final Reth reth = new Reth();
    private final AtomicEth atomicEth = new AtomicEth();
    private final ImmDt immDt = new ImmDt();
    private final Ieth ieth = new Ieth();
    private final Feth feth = new Feth();
    private long atomicOriginal;

    Responder(
        final RxeEngine engine,
        final ResponderOutput out,
        final RecvCompleter recv,
        final MrAccess mr,
        final EngineCounters counters)
    {
        this.engine = engine;
        this.out = out;
        this.recv = recv;
        this.mr = mr;
        this.counters = counters;
    }

    void onRequest(final QpContext c, final RxePacket p)
    {
        if (c.isReliable())
        {
            onRcRequest(c, p);
        }
        else
        {
            onUcRequest(c, p);
        }
    }

    private void onRcRequest(final QpContext c, final RxePacket p)
    {
        final int d = Psn.diff(p.psn, c.respPsn);
        if (d > 0)
        {
            counters.increment(c, RxeCounter.OUT_OF_SEQ_REQUEST);
            // IBA "NAK once": one PSN sequence error NAK per gap, later OOS packets are silently dropped
            if (!c.sentPsnNak)
            {
                c.sentPsnNak = true;
                out.sendAck(c, Aeth.NAK_PSN_SEQ_ERROR, c.respPsn);
            }
            return;
        }
        if (d < 0)
        {
            // a duplicate of an XRC request is replayed against the SRQ it names (dropped, counted, if none)
            if (!c.xrcTarget || recv.bindXrcSrq(c, p.xrcSrqn))
            {
                onDuplicate(c, p);
            }
            return;
        }
        if (c.readResource >= 0)
        {
            // still answering an earlier READ: responses must stay in PSN order, so this request is dropped
            // (not NAKed) and the requester's retransmission brings it back
            counters.increment(c, RxeCounter.ACK_DEFERRED);
            return;
        }
        c.sentPsnNak = false;
        if (c.xrcTarget && !recv.bindXrcSrq(c, p.xrcSrqn))
        {
            // IBA 11.2 (XRC): an XRCETH naming no XRC SRQ of the target's domain is an invalid request, a
            // class C error: NAK, and the target QP goes to error (as for any invalid request)
            nakAndFail(c, p, Aeth.NAK_INVALID_REQUEST);
            return;
        }
        final int error = check(c, p);
        if (0 != error)
        {
            nakAndFail(c, p, error);
            return;
        }
        execute(c, p);
    }

    private void onUcRequest(final QpContext c, final RxePacket p)
    {
        if (p.psn != c.respPsn)
        {
            // IBA ch. 9 UC: a gap loses the message in progress; resynchronise on the packet that arrived
            c.respOpcode = Opcode.NONE;
            c.writeResid = 0;
            c.recvBytes = 0;
            c.ucDropMessage = !Opcode.isStartOfMessage(p.opcode);
            counters.increment(c, RxeCounter.OUT_OF_SEQ_REQUEST);
        }
        c.respPsn = Psn.next(p.psn);
        if (c.ucDropMessage)
        {
            if (!Opcode.isStartOfMessage(p.opcode))
            {
                return;
            }
            c.ucDropMessage = false;
            c.respOpcode = Opcode.NONE;
        }
        final int error = check(c, p);
        if (0 != error)
        {
            dropUcMessage(c, p);
            return;
        }
        execute(c, p);
    }

    /**
     * Sequence, rights and length checks that do not need memory keys (rxe check_op_seq, check_op_valid,
     * check_length).
     *
     * @return 0 or the NAK syndrome
     */
    private int check(final QpContext c, final RxePacket p)
    {
        final int opcode = p.opcode;
        final int mask = p.mask;
        if (!Opcode.isValidNext(c.respOpcode, opcode)) // IBA ch. 9 opcode sequence check (rxe check_op_seq)
        {
            counters.increment(c, RxeCounter.OPCODE_SEQ_ERR);
            return Aeth.NAK_INVALID_REQUEST;
        }
        // rxe check_op_valid: the QP must enable the remote operation (class C "unsupported opcode" error)
        if ((0 != (mask & Opcode.WRITE_MASK) && 0 == (c.accessFlags & AccessFlags.REMOTE_WRITE)) ||
            (0 != (mask & Opcode.READ_MASK) && 0 == (c.accessFlags & AccessFlags.REMOTE_READ)) ||
            (0 != (mask & Opcode.ATOMIC_MASK) && 0 == (c.accessFlags & AccessFlags.REMOTE_ATOMIC)) ||
            (0 != (mask & Opcode.ATOMIC_WRITE_MASK) && 0 == (c.accessFlags & AccessFlags.REMOTE_WRITE)))
        {
            return Aeth.NAK_INVALID_REQUEST;
        }
        // FIRST and MIDDLE packets carry exactly one path MTU of payload (rxe check_length)
        if (0 != (mask & Opcode.PAYLOAD_MASK) && 0 == (mask & Opcode.END_MASK) && p.payloadLength != c.mtu)
        {
            return Aeth.NAK_INVALID_REQUEST;
        }
        return 0;
    }

    private void execute(final QpContext c, final RxePacket p)
    {
        final int mask = p.mask;
        final int status;
        if (0 != (mask & Opcode.SEND_MASK))
        {
            status = executeSend(c, p);
        }
        else if (0 != (mask & Opcode.WRITE_MASK))
        {
            status = executeWrite(c, p);
        }
        else if (0 != (mask & Opcode.READ_MASK))
        {
            status = executeRead(c, p);
        }
        else if (0 != (mask & Opcode.ATOMIC_MASK))
        {
            status = executeAtomic(c, p);
        }
        else if (0 != (mask & Opcode.ATOMIC_WRITE_MASK))
        {
            status = executeAtomicWrite(c, p);
        }
        else if (0 != (mask & Opcode.FLUSH_MASK))
        {
            status = executeFlush(c, p);
        }
        else
        {
            status = Aeth.NAK_INVALID_REQUEST;
        }
        if (Aeth.isRnrNak(status))
        {
            return; // nothing consumed, ePSN unchanged
        }
        if (0 != status && Aeth.ACK_UNLIMITED != status)
        {
            if (Aeth.NAK_REMOTE_ACCESS_ERROR == status)
            {
                counters.increment(c, RxeCounter.RKEY_VIOLATION);
            }
            if (c.isReliable())
            {
                nakAndFail(c, p, status);
            }
            else
            {
                dropUcMessage(c, p);
            }
            return;
        }
        c.respOpcode = p.opcode;
        if (0 != (mask & Opcode.READ_MASK))
        {
            return; // ePSN, MSN and the responses were handled by executeRead
        }
        c.respPsn = Psn.next(p.psn);
        if (0 != (mask & Opcode.END_MASK))
        {
            c.respMsn = (c.respMsn + 1) & Aeth.MSN_MASK;
        }
        if (0 != (mask & Opcode.ATOMIC_MASK))
        {
            out.sendAtomicAck(c, p.psn, atomicOriginal); // carries the MSN of the completed atomic
            return;
        }
        if (c.isReliable() && p.ackReq)
        {
            out.ack(c, p.psn); // coalesced with later ones of the same receive batch
        }
    }

    /** @return 0 done, an RNR NAK syndrome (already sent) or a NAK syndrome */
    private int executeSend(final QpContext c, final RxePacket p)
    {
        final int mask = p.mask;
        if (0 != (mask & Opcode.START_MASK) && !c.recvActive && !recv.take(c))
        {
            return rnr(c, p);
        }
        if (!c.recvActive)
        {
            return Aeth.NAK_INVALID_REQUEST; // a MIDDLE/LAST without a started message (cannot pass check())
        }
        final int result = recv.scatter(c, p.buffer, p.payloadOffset, p.payloadLength);
        if (MrStatus.OK != result)
        {
            // rxe: a message longer than the posted buffers is LOC_LEN_ERR locally and NAK invalid request
            // remotely; a bad lkey in our own receive WQE is LOC_PROT_ERR and a remote operational error
            final boolean tooLong = SgeCopier.TOO_LONG == result;
            recv.complete(c, tooLong ? WcStatus.LOC_LEN_ERR : WcStatus.LOC_PROT_ERR, WcOpcode.RECV, 0, 0, 0);
            return tooLong ? Aeth.NAK_INVALID_REQUEST : Aeth.NAK_REMOTE_OPERATIONAL_ERROR;
        }
        if (0 != (mask & Opcode.END_MASK))
        {
            int flags = 0;
            int imm = 0;
            int invalidated = 0;
            if (0 != (mask & Opcode.IMMDT_MASK))
            {
                flags |= WcFlags.WITH_IMM;
                imm = immDt.wrap(p.buffer, p.at(Opcode.immDtOffset(p.opcode))).immediate();
            }
            if (0 != (mask & Opcode.IETH_MASK))
            {
                invalidated = ieth.wrap(p.buffer, p.at(Opcode.iethOffset(p.opcode))).rkey();
                if (!engine.invalidateRemote(c, invalidated)) // SEND with Invalidate
                {
                    recv.complete(c, WcStatus.REM_INV_REQ_ERR, WcOpcode.RECV, 0, 0, 0);
                    return Aeth.NAK_INVALID_REQUEST;
                }
                flags |= WcFlags.WITH_INVALIDATE;
            }
            counters.increment(c, RxeCounter.RDMA_RECVS);
            if (p.solicited)
            {
                recv.solicited(c);
            }
            recv.complete(c, WcStatus.SUCCESS, WcOpcode.RECV, flags, imm, invalidated);
        }
        return 0;
    }

    private int executeWrite(final QpContext c, final RxePacket p)
    {
        final int mask = p.mask;
        if (0 != (mask & Opcode.RETH_MASK))
        {
            reth.wrap(p.buffer, p.at(Opcode.rethOffset(p.opcode)));
            final long length = reth.dmaLength() & 0xffff_ffffL;
            c.writeVa = reth.va();
            c.writeRkey = reth.rkey();
            c.writeResid = length;
            c.writeLength = length;
            // IBA C9-88: a zero-length RDMA WRITE needs no valid R_Key
            if (length > 0 && MrStatus.OK != mr.checkRemote(
                c.pd, c.qpn, c.writeRkey, AccessFlags.REMOTE_WRITE, c.writeVa, length))
            {
                return Aeth.NAK_REMOTE_ACCESS_ERROR;
            }
        }
        final int len = p.payloadLength;
        final boolean end = 0 != (mask & Opcode.END_MASK);
        if (len > c.writeResid || (end && len != c.writeResid)) // rxe check_length: payload must match the RETH
        {
            return Aeth.NAK_INVALID_REQUEST;
        }
        final boolean withImm = 0 != (mask & Opcode.IMMDT_MASK);
        if (withImm && !c.recvActive && !recv.take(c)) // WRITE with immediate consumes a receive WQE
        {
            return rnr(c, p);
        }
        if (len > 0 && MrStatus.OK != mr.copyToRemote(
            c.pd, c.qpn, c.writeRkey, c.writeVa, p.buffer, p.payloadOffset, len))
        {
            return Aeth.NAK_REMOTE_ACCESS_ERROR; // the MR was invalidated or deregistered mid-message
        }
        c.writeVa += len;
        c.writeResid -= len;
        if (withImm)
        {
            final int imm = immDt.wrap(p.buffer, p.at(Opcode.immDtOffset(p.opcode))).immediate();
            if (p.solicited)
            {
                recv.solicited(c);
            }
            recv.completeWriteImm(c, (int)c.writeLength, imm);
        }
        return 0;
    }

    private int executeRead(final QpContext c, final RxePacket p)
    {
        reth.wrap(p.buffer, p.at(Opcode.rethOffset(p.opcode)));
        final long va = reth.va();
        final int rkey = reth.rkey();
        final long length = reth.dmaLength() & 0xffff_ffffL;
        if (length > 0 && MrStatus.OK != mr.checkRemote(c.pd, c.qpn, rkey, AccessFlags.REMOTE_READ, va, length))
        {
            return Aeth.NAK_REMOTE_ACCESS_ERROR;
        }
        counters.increment(c, RxeCounter.READ_REQ_RCVD);
        final int packets = (int)Math.max(1, (length + c.mtu - 1) / c.mtu);
        final ResponderResources res = c.resources;
        final int r = res.allocate(ResponderResources.READ, p.psn, Psn.add(p.psn, packets - 1));
        res.va[r] = va;
        res.rkey[r] = rkey;
        res.length[r] = (int)length;
        c.respPsn = Psn.add(p.psn, packets);
        c.respMsn = (c.respMsn + 1) & Aeth.MSN_MASK;
        out.startRead(c, r, p.psn, va, length);
        runReads(c, Integer.MAX_VALUE);
        return 0;
    }

    private int executeAtomic(final QpContext c, final RxePacket p)
    {
        atomicEth.wrap(p.buffer, p.at(Opcode.atomicEthOffset(p.opcode)));
        final long va = atomicEth.va();
        if (0 != (va & 7)) // atomics need an 8-byte aligned VA (rxe: RESPST_ERR_MISALIGNED_ATOMIC)
        {
            return Aeth.NAK_INVALID_REQUEST;
        }
        if (MrStatus.OK != mr.checkRemote(c.pd, c.qpn, atomicEth.rkey(), AccessFlags.REMOTE_ATOMIC, va, 8))
        {
            return Aeth.NAK_REMOTE_ACCESS_ERROR;
        }
        final UnsafeBuffer target = mr.view(8);
        if (null == target) // 8 aligned bytes lie in one page of every region; a region that breaks that is refused
        {
            return Aeth.NAK_REMOTE_ACCESS_ERROR;
        }
        final long original;
        if (Opcode.COMPARE_SWAP == (p.opcode & 0x1F))
        {
            final long compare = atomicEth.compare();
            final long swap = atomicEth.swapAdd();
            long current;
            do
            {
                current = target.getLongVolatile(0);
            }
            while (current == compare && !target.compareAndSetLong(0, compare, swap));
            original = current;
        }
        else
        {
            original = target.getAndAddLong(0, atomicEth.swapAdd());
        }
        counters.increment(c, RxeCounter.ATOMIC_REQ_RCVD);
        // remember the result so a duplicate is answered without executing again
        final int r = c.resources.allocate(ResponderResources.ATOMIC, p.psn, p.psn);
        c.resources.atomicResult[r] = original;
        atomicOriginal = original;
        return 0;
    }

    private int executeAtomicWrite(final QpContext c, final RxePacket p)
    {
        reth.wrap(p.buffer, p.at(Opcode.rethOffset(p.opcode)));
        final long va = reth.va();
        if (8 != p.payloadLength || 8 != reth.dmaLength() || 0 != (va & 7))
        {
            return Aeth.NAK_INVALID_REQUEST;
        }
        if (MrStatus.OK != mr.checkRemote(c.pd, c.qpn, reth.rkey(), AccessFlags.REMOTE_WRITE, va, 8))
        {
            return Aeth.NAK_REMOTE_ACCESS_ERROR;
        }
        // the 8 payload bytes are stored as one 64-bit write, byte image preserved (rxe atomic_write_reply)
        final long value = p.buffer.getLong(p.payloadOffset, ByteOrder.nativeOrder());
        final UnsafeBuffer target = mr.view(8);
        if (null == target)
        {
            return Aeth.NAK_REMOTE_ACCESS_ERROR;
        }
        target.putLongVolatile(0, value);
        return 0;
    }

    private int executeFlush(final QpContext c, final RxePacket p)
    {
        feth.wrap(p.buffer, p.at(Opcode.fethOffset(p.opcode)));
        reth.wrap(p.buffer, p.at(Opcode.rethOffset(p.opcode)));
        final int access = Feth.PLT_PERSISTENT == feth.placementType() ?
            AccessFlags.FLUSH_PERSISTENT : AccessFlags.FLUSH_GLOBAL;
        final long length = reth.dmaLength() & 0xffff_ffffL;
        if (length > 0 && MrStatus.OK != mr.checkRemote(c.pd, c.qpn, reth.rkey(), access, reth.va(), length))
        {
            return Aeth.NAK_REMOTE_ACCESS_ERROR;
        }
        // host memory is the placement target: a full fence makes every earlier write globally visible
        VarHandle.fullFence();
        return 0;
    }

    private void onDuplicate(final QpContext c, final RxePacket p)
    {
        counters.increment(c, RxeCounter.DUPLICATE_REQUEST);
        final int mask = p.mask;
        if (0 != (mask & Opcode.READ_MASK))
        {
            final int r = c.resources.find(p.psn);
            if (r < 0 || ResponderResources.READ != c.resources.type[r])
            {
                return; // older than our resources: the requester will time out (rxe drops it too)
            }
            reth.wrap(p.buffer, p.at(Opcode.rethOffset(p.opcode)));
            final long va = reth.va();
            final long length = reth.dmaLength() & 0xffff_ffffL;
            final int rkey = reth.rkey();
            if (rkey != c.resources.rkey[r] ||
                (length > 0 && MrStatus.OK != mr.checkRemote(
                c.pd, c.qpn, rkey, AccessFlags.REMOTE_READ, va, length)))
            {
                return;
            }
            // replay from the retried PSN with the re-issued RETH (rxe duplicate_request for READ)
            counters.increment(c, RxeCounter.DUPLICATE_RESP_REPLAYED);
            out.startRead(c, r, p.psn, va, length);
            runReads(c, Integer.MAX_VALUE);
            return;
        }
        if (0 != (mask & Opcode.ATOMIC_MASK))
        {
            final int r = c.resources.find(p.psn);
            if (r >= 0 && ResponderResources.ATOMIC == c.resources.type[r])
            {
                counters.increment(c, RxeCounter.DUPLICATE_RESP_REPLAYED);
                out.sendAtomicAck(c, p.psn, c.resources.atomicResult[r]); // never executed twice
            }
            return;
        }
        if (p.ackReq || 0 != (mask & Opcode.END_MASK))
        {
            // rxe: a duplicate is answered with an ACK of the last PSN taken
            out.sendAck(c, Aeth.ACK_UNLIMITED, Psn.previous(c.respPsn));
        }
    }

    /**
     * Continues READ responses on the QP's cursor.
     *
     * @return packets sent
     */
    int runReads(final QpContext c, final int budget)
    {
        if (c.readResource < 0)
        {
            return 0;
        }
        final int sent = out.continueRead(c, budget);
        if (sent < 0)
        {
            // the MR vanished while answering: remote access error at the PSN being answered
            counters.increment(c, RxeCounter.RKEY_VIOLATION);
            out.sendAck(c, Aeth.NAK_REMOTE_ACCESS_ERROR, c.readPsn);
            engine.fail(c);
            return 0;
        }
        if (c.readResource >= 0)
        {
            engine.schedule(c); // out of tx buffers: continue next duty cycle
        }
        return sent;
    }

    private int rnr(final QpContext c, final RxePacket p)
    {
        if (!c.isReliable())
        {
            return Aeth.NAK_REMOTE_OPERATIONAL_ERROR; // UC has no RNR NAK: the message is dropped (as rxe drops it)
        }
        counters.increment(c, RxeCounter.SEND_RNR_ERR);
        // the RNR NAK carries our min_rnr_timer; the PSN is the request that found no WQE. The
        // packets behind it are then silently dropped (no sequence NAK) until the requester retries this PSN.
        final int syndrome = Aeth.rnrNakSyndrome(c.minRnrTimer);
        out.sendAck(c, syndrome, p.psn);
        c.sentPsnNak = true;
        return syndrome;
    }

    private void nakAndFail(final QpContext c, final RxePacket p, final int syndrome)
    {
        out.sendAck(c, syndrome, p.psn);
        if (c.recvActive)
        {
            final WcStatus status = Aeth.NAK_INVALID_REQUEST == syndrome ? WcStatus.REM_INV_REQ_ERR :
                Aeth.NAK_REMOTE_ACCESS_ERROR == syndrome ? WcStatus.REM_ACCESS_ERR : WcStatus.REM_OP_ERR;
            recv.complete(c, status, WcOpcode.RECV, 0, 0, 0);
        }
        if (c.xrcTarget && QpState.ERR != c.state)
        {
            // an XRC target has no CQ of its own, so its responder errors are affiliated asynchronous events
            // (IBA 11.6.3.1: invalid request / local access violation work queue error); rxe raises none for RC,
            // where the requester's completion and the receive WQE's report them
            engine.port().raise(Aeth.NAK_REMOTE_ACCESS_ERROR == syndrome ? AsyncEvent.QP_ACCESS_ERR :
                AsyncEvent.QP_REQ_ERR, c.qpn);
        }
        engine.fail(c);
    }

    private void dropUcMessage(final QpContext c, final RxePacket p)
    {
        counters.dropNoRecv++;
        c.ucDropMessage = !Opcode.isEndOfMessage(p.opcode);
        c.respOpcode = Opcode.NONE;
        c.writeResid = 0;
        c.recvBytes = 0;
    }
}
