package io.jrxe.tools;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.List;

/**
 * One direction of verified traffic on one connected QP pair of the demo: the requester posts a mix of SEND,
 * SEND_WITH_IMM, RDMA WRITE, WRITE_WITH_IMM, RDMA READ, CMP_SWAP and FETCH_ADD, and every byte and every atomic
 * result is checked against what the flow expects. Message {@code seq} uses slot {@code seq % window}; a slot is
 * reused only after its previous WR completed (RC completes in order).
 * <pre>
 *   requester buffer: | slot 0 | slot 1 | ... | slot window-1 |        SEND/WRITE source, READ target, atomic result
 *   responder buffer: | write slots (window) | recv slots (recvDepth) | read source (window) | atomic word (8) |
 *   each slot: size bytes + 8 guard bytes that must survive the operation
 * </pre>
 * The responder keeps {@code recvDepth} receives posted; the requester posts a receive-consuming message (SEND,
 * WRITE_WITH_IMM) only while a posted receive is free for it, so no RNR NAK is ever needed.
 */
final class DemoFlow
{
    private static final int[] MIX = {
        WrOpcode.SEND, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ, WrOpcode.ATOMIC_FETCH_AND_ADD,
        WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.ATOMIC_CMP_AND_SWP};
    private static final int GUARD = 8;
    private static final byte GUARD_BYTE = (byte)0xA5;
    private static final int MAX_REPORTED = 10;

    private final String name;
    private final QueuePair requester;
    private final QueuePair responder;
    private final int size;
    private final int slot;
    private final int window;
    private final int recvDepth;
    private final long messages;
    private final long seed;
    private final UnsafeBuffer local;
    private final MemoryRegion localMr;
    private final UnsafeBuffer remote;
    private final MemoryRegion remoteMr;
    private final int writeBase;
    private final int recvBase;
    private final int readBase;
    private final int atomicOffset;
    private final SendWorkRequest wr = new SendWorkRequest(1);
    private final RecvWorkRequest recv = new RecvWorkRequest(1);
    private final List<String> errors;

    // per slot, what the posted WR must produce
    private final int[] slotOpcode;
    private final int[] slotLength;
    private final int[] slotReadOffset;
    private final long[] slotAtomicResult;
    // receive-consuming messages in posting order, as the responder must see them
    private final long[] expectSeq;
    private final int[] expectOpcode;
    private final int[] expectLength;
    private long expectHead;
    private long expectTail;

    private long posted;
    private long completed;
    private long recvPosted;
    private long consumersPosted;
    private long atomicValue;
    private long bytes;

    /**
     * @param window    outstanding WRs at most
     * @param recvDepth receives kept posted at the responder, a power of two
     */
    DemoFlow(
        final String name,
        final RcQps qps,
        final int index,
        final boolean fromA,
        final int size,
        final int window,
        final int recvDepth,
        final long messages,
        final long seed,
        final List<String> errors)
    {
        this.name = name;
        this.requester = fromA ? qps.qpA[index] : qps.qpB[index];
        this.responder = fromA ? qps.qpB[index] : qps.qpA[index];
        this.size = size;
        this.slot = (size + GUARD + 7) & ~7;
        this.window = window;
        this.recvDepth = recvDepth;
        this.messages = messages;
        this.seed = seed;
        this.errors = errors;
        local = RcQps.allocate(window * slot);
        writeBase = 0;
        recvBase = window * slot;
        readBase = recvBase + recvDepth * slot;
        atomicOffset = readBase + window * slot;
        remote = RcQps.allocate(atomicOffset + 8);
        localMr = qps.register(fromA, local);
        remoteMr = qps.register(!fromA, remote);
        for (int i = 0; i < window * slot; i++)
        {
            remote.putByte(readBase + i, pattern(~seed, i));
        }
        atomicValue = mix(seed);
        remote.putLong(atomicOffset, atomicValue, ByteOrder.nativeOrder());
        slotOpcode = new int[window];
        slotLength = new int[window];
        slotReadOffset = new int[window];
        slotAtomicResult = new long[window];
        expectSeq = new long[recvDepth];
        expectOpcode = new int[recvDepth];
        expectLength = new int[recvDepth];
    }

    QueuePair requester()
    {
        return requester;
    }

    QueuePair responder()
    {
        return responder;
    }

    /** Posts the receives the responder keeps ready. */
    void start()
    {
        for (int i = 0; i < recvDepth; i++)
        {
            postRecv(i);
        }
    }

    boolean done()
    {
        return completed == messages && expectHead == expectTail;
    }

    long messages()
    {
        return messages;
    }

    long completed()
    {
        return completed;
    }

    /** Payload bytes moved by completed WRs (8 per atomic). */
    long bytes()
    {
        return bytes;
    }

    /** Posts WRs while the window and the responder's receives allow. */
    int post()
    {
        int count = 0;
        while (posted < messages && posted - completed < window)
        {
            final long seq = posted;
            final int opcode = MIX[(int)(seq % MIX.length)];
            final boolean consumes = WrOpcode.SEND == opcode || WrOpcode.SEND_WITH_IMM == opcode ||
                WrOpcode.RDMA_WRITE_WITH_IMM == opcode;
            if (consumes && consumersPosted == recvPosted)
            {
                break; // every posted receive is spoken for: wait for the responder to repost
            }
            prepare(seq, opcode);
            final int rc = requester.postSend(wr);
            if (0 != rc)
            {
                throw new IllegalStateException(name + ": postSend failed (" + rc + "): " + requester.postError());
            }
            if (consumes)
            {
                final int e = (int)(expectTail++ & (recvDepth - 1));
                expectSeq[e] = seq;
                expectOpcode[e] = opcode;
                expectLength[e] = slotLength[(int)(seq % window)];
                consumersPosted++;
            }
            posted++;
            count++;
        }
        return count;
    }

    private void prepare(final long seq, final int opcode)
    {
        final int s = (int)(seq % window);
        final int length = WrOpcode.ATOMIC_CMP_AND_SWP == opcode || WrOpcode.ATOMIC_FETCH_AND_ADD == opcode ?
            8 : 1 + (int)((mix(seed ^ seq) >>> 1) % size);
        final int localOffset = s * slot;
        slotOpcode[s] = opcode;
        slotLength[s] = length;
        wr.next(null).wrId(seq).opcode(opcode).sendFlags(SendFlags.SIGNALED).immData(imm(seq));
        wr.sgl().clear().add(local.addressOffset() + localOffset, length, localMr.lkey());
        switch (opcode)
        {
            case WrOpcode.SEND:
            case WrOpcode.SEND_WITH_IMM:
                fillPattern(local, localOffset, length, seq);
                break;
            case WrOpcode.RDMA_WRITE:
            case WrOpcode.RDMA_WRITE_WITH_IMM:
                fillPattern(local, localOffset, length, seq);
                guard(remote, writeBase + localOffset + length);
                wr.remoteAddr(remote.addressOffset() + writeBase + localOffset).rkey(remoteMr.rkey());
                break;
            case WrOpcode.RDMA_READ:
            {
                final int readOffset = (int)((mix(seq ^ ~seed) >>> 1) % (window * slot - length + 1));
                slotReadOffset[s] = readOffset;
                local.setMemory(localOffset, length, (byte)~pattern(~seed, readOffset)); // stale data cannot pass
                guard(local, localOffset + length);
                wr.remoteAddr(remote.addressOffset() + readBase + readOffset).rkey(remoteMr.rkey());
                break;
            }
            case WrOpcode.ATOMIC_FETCH_AND_ADD:
            {
                final long add = mix(seq * 31 + seed);
                slotAtomicResult[s] = atomicValue;
                atomicValue += add;
                local.putLong(localOffset, ~slotAtomicResult[s]);
                wr.remoteAddr(remote.addressOffset() + atomicOffset).rkey(remoteMr.rkey()).compareAdd(add);
                break;
            }
            default: // CMP_SWAP: every third compare misses on purpose, leaving the word alone
            {
                final long swap = mix(seq * 17 + seed);
                final boolean hit = 0 != seq % 3;
                slotAtomicResult[s] = atomicValue;
                wr.remoteAddr(remote.addressOffset() + atomicOffset).rkey(remoteMr.rkey())
                    .compareAdd(hit ? atomicValue : ~atomicValue).swap(swap);
                if (hit)
                {
                    atomicValue = swap;
                }
                local.putLong(localOffset, ~slotAtomicResult[s]);
                break;
            }
        }
    }

    /** A completion on the requester's CQ for this flow's send queue. */
    void onSendCompletion(final WorkCompletion wc)
    {
        final long seq = completed;
        final int s = (int)(seq % window);
        final int opcode = slotOpcode[s];
        final int length = slotLength[s];
        final int localOffset = s * slot;
        completed++;
        if (!checkStatus(wc))
        {
            return;
        }
        if (wc.wrId() != seq)
        {
            fail("completion out of order: wr_id " + wc.wrId() + ", expected " + seq);
            return;
        }
        if (wc.opcode() != WcOpcode.ofWrOpcode(opcode))
        {
            fail("completion opcode " + WcOpcode.name(wc.opcode()) + " for " + WrOpcode.name(opcode) + " #" + seq);
            return;
        }
        bytes += length;
        switch (opcode)
        {
            case WrOpcode.RDMA_WRITE:
            case WrOpcode.RDMA_WRITE_WITH_IMM:
                checkPattern(remote, writeBase + localOffset, length, seq, opcode);
                checkGuard(remote, writeBase + localOffset + length, seq, opcode);
                break;
            case WrOpcode.RDMA_READ:
            {
                final int readOffset = slotReadOffset[s];
                for (int i = 0; i < length; i++)
                {
                    if (local.getByte(localOffset + i) != pattern(~seed, readOffset + i))
                    {
                        fail("RDMA_READ #" + seq + " byte " + i + " of " + length + " differs");
                        break;
                    }
                }
                checkGuard(local, localOffset + length, seq, opcode);
                break;
            }
            case WrOpcode.ATOMIC_FETCH_AND_ADD:
            case WrOpcode.ATOMIC_CMP_AND_SWP:
            {
                final long result = local.getLong(localOffset, ByteOrder.nativeOrder());
                if (result != slotAtomicResult[s])
                {
                    fail(WrOpcode.name(opcode) + " #" + seq + " returned 0x" + Long.toHexString(result) +
                        ", expected 0x" + Long.toHexString(slotAtomicResult[s]));
                }
                break;
            }
            default:
                break;
        }
    }

    /** A receive completion on the responder's CQ for this flow's receive queue. */
    void onRecvCompletion(final WorkCompletion wc)
    {
        if (!checkStatus(wc))
        {
            return;
        }
        if (expectHead == expectTail)
        {
            fail("unexpected receive completion " + wc);
            return;
        }
        final int e = (int)(expectHead++ & (recvDepth - 1));
        final long seq = expectSeq[e];
        final int opcode = expectOpcode[e];
        final int length = expectLength[e];
        final int recvSlot = (int)wc.wrId();
        final boolean withImm = WrOpcode.SEND != opcode;
        final int wantOpcode = WrOpcode.RDMA_WRITE_WITH_IMM == opcode ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV;
        if (wc.opcode() != wantOpcode)
        {
            fail("receive of " + WrOpcode.name(opcode) + " #" + seq + " completed as " + WcOpcode.name(wc.opcode()));
        }
        if (wc.byteLen() != length)
        {
            fail("receive of #" + seq + ": byte_len " + wc.byteLen() + ", sent " + length);
        }
        if (withImm != (0 != (wc.wcFlags() & WcFlags.WITH_IMM)) || (withImm && wc.immData() != imm(seq)))
        {
            fail("receive of " + WrOpcode.name(opcode) + " #" + seq + ": immediate data flag or value wrong");
        }
        if (WrOpcode.RDMA_WRITE_WITH_IMM != opcode)
        {
            checkPattern(remote, recvBase + recvSlot * slot, length, seq, opcode);
            checkGuard(remote, recvBase + recvSlot * slot + length, seq, opcode);
        }
        postRecv(recvSlot);
    }

    /** The final value of the atomic word must be what every atomic in order made of it. */
    void finish()
    {
        final long value = remote.getLong(atomicOffset, ByteOrder.nativeOrder());
        if (value != atomicValue)
        {
            fail("atomic word is 0x" + Long.toHexString(value) + " after all atomics, expected 0x" +
                Long.toHexString(atomicValue));
        }
    }

    private void postRecv(final int recvSlot)
    {
        // the whole slot: whatever the next SEND's length, the bytes after it must still be guard bytes
        remote.setMemory(recvBase + recvSlot * slot, slot, GUARD_BYTE);
        recv.wrId(recvSlot).sgl().clear().add(remote.addressOffset() + recvBase + recvSlot * slot, size,
            remoteMr.lkey());
        final int rc = responder.postRecv(recv);
        if (0 != rc)
        {
            throw new IllegalStateException(name + ": postRecv failed (" + rc + "): " + responder.postError());
        }
        recvPosted++;
    }

    private boolean checkStatus(final WorkCompletion wc)
    {
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            fail("error completion " + wc);
            return false;
        }
        return true;
    }

    private void checkPattern(final UnsafeBuffer buffer, final int offset, final int length, final long seq,
        final int opcode)
    {
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != pattern(seq, i))
            {
                fail(WrOpcode.name(opcode) + " #" + seq + ": byte " + i + " of " + length + " differs");
                return;
            }
        }
    }

    private void checkGuard(final UnsafeBuffer buffer, final int offset, final long seq, final int opcode)
    {
        if (offset + GUARD <= buffer.capacity())
        {
            for (int i = 0; i < GUARD; i++)
            {
                if (buffer.getByte(offset + i) != GUARD_BYTE)
                {
                    fail(WrOpcode.name(opcode) + " #" + seq + ": wrote past its length");
                    return;
                }
            }
        }
    }

    private static void guard(final UnsafeBuffer buffer, final int offset)
    {
        buffer.setMemory(offset, Math.min(GUARD, buffer.capacity() - offset), GUARD_BYTE);
    }

    private void fail(final String what)
    {
        if (errors.size() < MAX_REPORTED)
        {
            errors.add(name + ": " + what);
        }
        else if (errors.size() == MAX_REPORTED)
        {
            errors.add("... (more errors not shown)");
        }
    }

    private void fillPattern(final UnsafeBuffer buffer, final int offset, final int length, final long seq)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(offset + i, pattern(seq, i));
        }
    }

    private static byte pattern(final long seq, final int i)
    {
        return (byte)((mix(seq) >>> 17) + i * 131 + (i >>> 8));
    }

    private int imm(final long seq)
    {
        return (int)mix(seq + seed * 7);
    }

    /** SplitMix64 finaliser: a cheap, well-spread function of the sequence number. */
    private static long mix(final long value)
    {
        long z = value + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
