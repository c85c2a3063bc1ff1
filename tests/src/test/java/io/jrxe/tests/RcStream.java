package io.jrxe.tests;

import io.jrxe.rxe.verbs.AccessFlags;
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
import java.util.SplittableRandom;

/**
 * One direction of mixed RC traffic on one connected QP pair, with everything needed to check it: a seeded
 * sequence of SEND, SEND_WITH_IMM, RDMA WRITE, WRITE_WITH_IMM, RDMA READ, CMP_SWAP and FETCH_ADD of 0 to a few
 * MTUs, at most {@code window} outstanding, and a model of what each completion must say and each buffer must
 * hold.
 * <pre>
 *  requester (req)                               responder (resp)
 *  src      [slot 0][slot 1]..[slot w-1]  ---->  recv     (SEND targets, one slot per posted receive)
 *  readback [slot 0]..        <-- READ / atomic  target   (WRITE targets)
 *                                                readSrc  (READ sources)
 *                                                atomics  (ATOMIC_TARGETS 8-byte words, modelled)
 *  op i uses slot i % window of each region; receive j (the j-th SEND / WRITE_WITH_IMM) uses slot j % window
 * </pre>
 * Before an op is posted, every byte it may touch is set to a known filler, so the checks at completion see both
 * that the transferred bytes are the op's pattern and that no byte around them was written.
 */
final class RcStream
{
    static final int SEND = 0;
    static final int SEND_IMM = 1;
    static final int WRITE = 2;
    static final int WRITE_IMM = 3;
    static final int READ = 4;
    static final int CMP_SWAP = 5;
    static final int FETCH_ADD = 6;
    static final String[] KIND_NAMES = {"SEND", "SEND_IMM", "WRITE", "WRITE_IMM", "READ", "CMP_SWAP", "FETCH_ADD"};

    static final int ATOMIC_TARGETS = 4;
    static final int ALL_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ |
        AccessFlags.REMOTE_ATOMIC;

    final int id;
    final Side req;
    final Side resp;
    final QueuePair reqQp;
    final QueuePair respQp;
    final long[] opsByKind = new long[KIND_NAMES.length];
    final long[] bytesByKind = new long[KIND_NAMES.length];

    private final int window;
    private final int maxLength;
    private final int slot;
    private final long totalOps;
    private final SplittableRandom random;
    private final GuardedRegion src;
    private final GuardedRegion readback;
    private final GuardedRegion recv;
    private final GuardedRegion target;
    private final GuardedRegion readSrc;
    private final GuardedRegion atomics;
    private final long[] model = new long[ATOMIC_TARGETS];

    // per outstanding op, indexed by op % window
    private final int[] kind;
    private final int[] length;
    private final int[] localOffset;
    private final int[] remoteOffset;
    private final long[] expectedAtomic;
    private final int[] imm;
    // per posted receive, indexed by receive % window: the op that consumes it
    private final long[] consumerOp;

    private long posted;
    private long completed;
    private long recvPosted;
    private long recvCompleted;
    // receives not posted yet (lazy receivers): op and due post() call, FIFO by consumer order
    private final int recvDelay;
    private final long[] pendingOp;
    private final long[] pendingDue;
    private long pendingHead;
    private long pendingTail;
    private long postCalls;
    private final SendWorkRequest wr = new SendWorkRequest(1);
    private final RecvWorkRequest rwr = new RecvWorkRequest(1);

    /**
     * @param maxLength largest SEND/WRITE/READ in bytes (a few path MTUs)
     * @param recvDelay 0: each receive is posted with the op that consumes it; n: up to n calls of {@link #post()}
     *                  later, so SENDs arrive before their receive and draw RNR NAKs
     */
    RcStream(
        final int id,
        final Side req,
        final QueuePair reqQp,
        final Side resp,
        final QueuePair respQp,
        final int window,
        final int maxLength,
        final long totalOps,
        final int recvDelay,
        final long seed)
    {
        this.id = id;
        this.req = req;
        this.resp = resp;
        this.reqQp = reqQp;
        this.respQp = respQp;
        this.window = window;
        this.maxLength = maxLength;
        this.slot = (maxLength + 64 + 63) & ~63;
        this.totalOps = totalOps;
        this.random = new SplittableRandom(seed * 0x9E37_79B9_7F4A_7C15L + id);
        src = req.region(window * slot, ALL_ACCESS);
        readback = req.region(window * slot, ALL_ACCESS);
        recv = resp.region(window * slot, ALL_ACCESS);
        target = resp.region(window * slot, ALL_ACCESS);
        readSrc = resp.region(window * slot, ALL_ACCESS);
        atomics = resp.region(8 * ATOMIC_TARGETS, ALL_ACCESS);
        for (int t = 0; t < ATOMIC_TARGETS; t++)
        {
            model[t] = random.nextLong();
            atomics.inner.putLong(8 * t, model[t], ByteOrder.nativeOrder());
        }
        kind = new int[window];
        length = new int[window];
        localOffset = new int[window];
        remoteOffset = new int[window];
        expectedAtomic = new long[window];
        imm = new int[window];
        consumerOp = new long[window];
        this.recvDelay = recvDelay;
        pendingOp = new long[window];
        pendingDue = new long[window];
    }

    boolean done()
    {
        return completed == totalOps && recvCompleted == recvPosted && pendingHead == pendingTail;
    }

    long completed()
    {
        return completed;
    }

    /** Posts ops while the window has room; returns how many. */
    int post()
    {
        postCalls++;
        while (pendingHead < pendingTail && pendingDue[(int)(pendingHead % window)] <= postCalls)
        {
            postRecv(pendingOp[(int)(pendingHead++ % window)]);
        }
        int n = 0;
        while (posted < totalOps && posted - completed < window)
        {
            final int s = (int)(posted % window);
            final int k = chooseKind();
            final boolean consumes = SEND == k || SEND_IMM == k || WRITE_IMM == k;
            if (consumes && recvPosted + (pendingTail - pendingHead) - recvCompleted >= window)
            {
                break; // the receive slot is still in use: wait for its completion to be polled
            }
            prepare(posted, s, k);
            if (consumes && 0 == recvDelay)
            {
                postRecv(posted);
            }
            else if (consumes)
            {
                final int p = (int)(pendingTail++ % window);
                pendingOp[p] = posted;
                pendingDue[p] = postCalls + random.nextInt(recvDelay + 1);
            }
            final int rc = reqQp.postSend(wr);
            if (0 != rc)
            {
                throw new AssertionError("stream " + id + ": postSend of op " + posted + " failed: " + rc + " " +
                    reqQp.postError());
            }
            opsByKind[k]++;
            bytesByKind[k] += length[s];
            posted++;
            n++;
        }
        return n;
    }

    private int chooseKind()
    {
        final int r = random.nextInt(100);
        if (r < 20)
        {
            return SEND;
        }
        if (r < 30)
        {
            return SEND_IMM;
        }
        if (r < 50)
        {
            return WRITE;
        }
        if (r < 60)
        {
            return WRITE_IMM;
        }
        if (r < 80)
        {
            return READ;
        }
        return r < 90 ? CMP_SWAP : FETCH_ADD;
    }

    private int chooseLength()
    {
        final int r = random.nextInt(100);
        if (r < 5)
        {
            return 0;
        }
        if (r < 30)
        {
            return 1 + random.nextInt(64);
        }
        if (r < 60)
        {
            return 65 + random.nextInt(1024 - 64);
        }
        return 1025 + random.nextInt(maxLength - 1024);
    }

    private void prepare(final long op, final int s, final int k)
    {
        final int base = s * slot;
        kind[s] = k;
        imm[s] = random.nextInt();
        wr.sgl().clear();
        wr.wrId(op).sendFlags(SendFlags.SIGNALED).immData(0);
        if (CMP_SWAP == k || FETCH_ADD == k)
        {
            final int t = random.nextInt(ATOMIC_TARGETS);
            final int lo = 8 * random.nextInt(slot / 8 - 1);
            length[s] = 8;
            localOffset[s] = lo;
            remoteOffset[s] = 8 * t;
            readback.inner.setMemory(base, slot, filler(op));
            expectedAtomic[s] = model[t];
            if (CMP_SWAP == k)
            {
                final long compare = random.nextBoolean() ? model[t] : model[t] ^ (random.nextLong() | 1);
                final long swap = random.nextLong();
                if (compare == model[t])
                {
                    model[t] = swap;
                }
                wr.opcode(WrOpcode.ATOMIC_CMP_AND_SWP).compareAdd(compare).swap(swap);
            }
            else
            {
                final long add = random.nextLong();
                model[t] += add;
                wr.opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).compareAdd(add);
            }
            wr.remoteAddr(atomics.address(8 * t)).rkey(atomics.rkey());
            wr.sgl().add(readback.address(base + lo), 8, readback.lkey());
            return;
        }
        final int len = chooseLength();
        final int lo = random.nextInt(64);
        final int ro = random.nextInt(64);
        length[s] = len;
        localOffset[s] = lo;
        remoteOffset[s] = ro;
        if (READ == k)
        {
            fillPattern(readSrc.inner, base + ro, len, op);
            readback.inner.setMemory(base, slot, filler(op));
            wr.opcode(WrOpcode.RDMA_READ).remoteAddr(readSrc.address(base + ro)).rkey(readSrc.rkey());
            wr.sgl().add(readback.address(base + lo), len, readback.lkey());
            return;
        }
        fillPattern(src.inner, base + lo, len, op);
        wr.sgl().add(src.address(base + lo), len, src.lkey());
        switch (k)
        {
            case SEND:
                wr.opcode(WrOpcode.SEND);
                break;
            case SEND_IMM:
                wr.opcode(WrOpcode.SEND_WITH_IMM).immData(imm[s]);
                break;
            case WRITE:
            case WRITE_IMM:
                target.inner.setMemory(base, slot, filler(op));
                wr.opcode(WRITE == k ? WrOpcode.RDMA_WRITE : WrOpcode.RDMA_WRITE_WITH_IMM).immData(imm[s])
                    .remoteAddr(target.address(base + ro)).rkey(target.rkey());
                break;
            default:
                throw new IllegalStateException("kind " + k);
        }
    }

    private void postRecv(final long op)
    {
        final int r = (int)(recvPosted % window);
        consumerOp[r] = op;
        recv.inner.setMemory(r * slot, slot, filler(op));
        rwr.sgl().clear();
        rwr.wrId(recvPosted).sgl().add(recv.address(r * slot), slot, recv.lkey());
        final int rc = respQp.postRecv(rwr);
        if (0 != rc)
        {
            throw new AssertionError("stream " + id + ": postRecv failed: " + rc + " " + respQp.postError());
        }
        recvPosted++;
    }

    /** A completion from the requester's send CQ for this stream's QP. */
    void onSendCompletion(final WorkCompletion wc)
    {
        final long op = completed;
        final String where = "stream " + id + " op " + op;
        if (op >= posted || wc.wrId() != op)
        {
            throw new AssertionError(where + ": completion out of order or unexpected: " + wc);
        }
        final int s = (int)(op % window);
        final int k = kind[s];
        final String what = where + " (" + KIND_NAMES[k] + " of " + length[s] + " bytes)";
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new AssertionError(what + ": status " + WcStatus.of(wc.status()) + " " + wc);
        }
        final int base = s * slot;
        switch (k)
        {
            case SEND:
            case SEND_IMM:
                expect(what, WcOpcode.SEND, length[s], wc);
                break;
            case WRITE:
            case WRITE_IMM:
                expect(what, WcOpcode.RDMA_WRITE, length[s], wc);
                checkTransfer(what, target.inner, base, remoteOffset[s], length[s], op);
                break;
            case READ:
                expect(what, WcOpcode.RDMA_READ, length[s], wc);
                checkTransfer(what, readback.inner, base, localOffset[s], length[s], op);
                break;
            default:
            {
                expect(what, CMP_SWAP == k ? WcOpcode.COMP_SWAP : WcOpcode.FETCH_ADD, 8, wc);
                final long original = readback.inner.getLong(base + localOffset[s], ByteOrder.nativeOrder());
                if (original != expectedAtomic[s])
                {
                    throw new AssertionError(what + ": atomic returned " + Long.toHexString(original) +
                        ", the model says " + Long.toHexString(expectedAtomic[s]));
                }
                checkFiller(what, readback.inner, base, localOffset[s], 8, op);
                break;
            }
        }
        completed++;
    }

    /** A completion from the responder's receive CQ for this stream's QP. */
    void onRecvCompletion(final WorkCompletion wc)
    {
        final long r = recvCompleted;
        if (r >= recvPosted || wc.wrId() != r)
        {
            throw new AssertionError("stream " + id + " receive " + r + ": out of order or unexpected: " + wc);
        }
        final int rs = (int)(r % window);
        final long op = consumerOp[rs];
        final int s = (int)(op % window);
        final int k = kind[s];
        final String what = "stream " + id + " receive " + r + " for op " + op + " (" + KIND_NAMES[k] + " of " +
            length[s] + " bytes)";
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new AssertionError(what + ": status " + WcStatus.of(wc.status()) + " " + wc);
        }
        final boolean withImm = SEND != k;
        if (withImm != (0 != (wc.wcFlags() & WcFlags.WITH_IMM)) || (withImm && wc.immData() != imm[s]))
        {
            throw new AssertionError(what + ": immediate data flag/value wrong: " + wc);
        }
        if (WRITE_IMM == k)
        {
            expect(what, WcOpcode.RECV_RDMA_WITH_IMM, length[s], wc);
            checkFiller(what, recv.inner, rs * slot, 0, 0, op); // the receive buffer is not touched
        }
        else
        {
            expect(what, WcOpcode.RECV, length[s], wc);
            // a SEND lands at the start of the receive buffer
            final int base = rs * slot;
            for (int i = 0; i < length[s]; i++)
            {
                if (pattern(op, localOffset[s] + i) != recv.inner.getByte(base + i))
                {
                    throw new AssertionError(what + ": received byte " + i + " differs from what was sent");
                }
            }
            checkFiller(what, recv.inner, base, 0, length[s], op);
        }
        recvCompleted++;
    }

    /** The atomic targets hold what the model says, and no guard byte of any region was written. */
    void checkFinalState()
    {
        for (int t = 0; t < ATOMIC_TARGETS; t++)
        {
            final long value = atomics.inner.getLong(8 * t, ByteOrder.nativeOrder());
            if (value != model[t])
            {
                throw new AssertionError("stream " + id + ": atomic target " + t + " holds " +
                    Long.toHexString(value) + ", the model says " + Long.toHexString(model[t]));
            }
        }
        final String what = "stream " + id;
        src.assertGuardsIntact(what + " src");
        readback.assertGuardsIntact(what + " readback");
        recv.assertGuardsIntact(what + " recv");
        target.assertGuardsIntact(what + " target");
        readSrc.assertGuardsIntact(what + " readSrc");
        atomics.assertGuardsIntact(what + " atomics");
    }

    private static void expect(final String what, final int opcode, final int byteLen, final WorkCompletion wc)
    {
        if (opcode != wc.opcode() || byteLen != wc.byteLen())
        {
            throw new AssertionError(what + ": expected opcode " + opcode + " byte_len " + byteLen + ", got " + wc);
        }
    }

    /** The bytes at {@code base + offset} are the op's pattern (as written from the source), the rest of the slot filler. */
    private void checkTransfer(
        final String what, final UnsafeBuffer buffer, final int base, final int offset, final int len, final long op)
    {
        final int s = (int)(op % window);
        // the pattern follows the source offset: a READ's source is readSrc at the remote offset, a WRITE's src at
        // the local offset
        final int sourceOffset = READ == kind[s] ? remoteOffset[s] : localOffset[s];
        for (int i = 0; i < len; i++)
        {
            if (pattern(op, sourceOffset + i) != buffer.getByte(base + offset + i))
            {
                throw new AssertionError(what + ": byte " + i + " of " + len + " differs from what was sent");
            }
        }
        checkFiller(what, buffer, base, offset, len, op);
    }

    private void checkFiller(
        final String what, final UnsafeBuffer buffer, final int base, final int offset, final int len, final long op)
    {
        final byte fill = filler(op);
        for (int i = 0; i < slot; i++)
        {
            if ((i < offset || i >= offset + len) && fill != buffer.getByte(base + i))
            {
                throw new AssertionError(what + ": byte " + i + " of the slot, outside the transfer [" + offset +
                    ", " + (offset + len) + "), was written");
            }
        }
    }

    private void fillPattern(final UnsafeBuffer buffer, final int at, final int len, final long op)
    {
        for (int i = 0; i < len; i++)
        {
            buffer.putByte(at + i, pattern(op, (at % slot) + i));
        }
    }

    /** The byte at source position {@code k} (within the slot) of op {@code op} of this stream. */
    private byte pattern(final long op, final int k)
    {
        final int h = (int)((op + 1) * 0x9E37_79B1L) ^ (id * 0x85EB_CA6B);
        return (byte)(h + k * 0x2F + (k >>> 8) * ((h >>> 8) | 1));
    }

    private byte filler(final long op)
    {
        return (byte)(0x5A ^ (op * 3) ^ (id << 4));
    }
}
