package io.jrxe.rxe.node;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.IntSupplier;

/**
 * One connected RC QP pair between the nodes of a {@link NodePair} and verified traffic on it: a SEND ping-pong
 * and RDMA WRITE/READ round trips, every byte checked. The nodes are driven by {@code drive} (the pair's step, a
 * layout's drive, or nothing when threads run them), called while the test thread waits for completions.
 */
final class PairTraffic
{
    static final int SIZE = 3000;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    private static final long TIMEOUT_NS = 60_000_000_000L;

    private final IntSupplier drive;
    private final End a;
    private final End b;

    PairTraffic(final NodePair pair, final IntSupplier drive)
    {
        this(pair, drive, 0);
    }

    /** With both QPs' CQs on completion vector {@code compVector} (the engine shard of a sharded node). */
    PairTraffic(final NodePair pair, final IntSupplier drive, final int compVector)
    {
        this.drive = drive;
        a = new End(pair.a(), compVector);
        b = new End(pair.b(), compVector);
        final QpConnector connector = new QpConnector();
        connector.connect(pair.a().device(), a.qp, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qp.qpn(), 200, 100);
        connector.connect(pair.b().device(), b.qp, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qp.qpn(), 100, 200);
    }

    /** @return node A's QP */
    QueuePair qpA()
    {
        return a.qp;
    }

    /** @return node B's QP */
    QueuePair qpB()
    {
        return b.qp;
    }

    /** {@code rounds} SENDs A to B, each answered by a SEND B to A with the same bytes. */
    void pingPong(final int rounds)
    {
        for (int round = 0; round < rounds; round++)
        {
            b.postRecv();
            a.postRecv();
            fill(a.buffer, 0, SIZE, round);
            a.post(WrOpcode.SEND, 0, null);
            await(b, WrOpcode.SEND, round);
            b.buffer.putBytes(0, b.buffer, SIZE, SIZE); // echo what arrived
            b.post(WrOpcode.SEND, 0, null);
            await(a, WrOpcode.SEND, round);
            check(a.buffer, SIZE, SIZE, round);
        }
    }

    /** An RDMA WRITE A to B, then an RDMA READ of it back into A, both checked. */
    void writeThenRead(final int seed)
    {
        fill(a.buffer, 0, SIZE, seed);
        a.post(WrOpcode.RDMA_WRITE, b.buffer.addressOffset() + SIZE, b.mr);
        awaitSend(a);
        check(b.buffer, SIZE, SIZE, seed);
        a.buffer.setMemory(SIZE, SIZE, (byte)0);
        a.post(WrOpcode.RDMA_READ, b.buffer.addressOffset() + SIZE, b.mr, SIZE);
        awaitSend(a);
        check(a.buffer, SIZE, SIZE, seed);
    }

    private void await(final End receiver, final int opcode, final int round)
    {
        final WorkCompletion recv = receiver.awaitCompletion(true, drive);
        if (SIZE != recv.byteLen())
        {
            throw new AssertionError("round " + round + ": received " + recv.byteLen() + " bytes of " +
                WrOpcode.name(opcode));
        }
        check(receiver.buffer, SIZE, SIZE, round);
        awaitSend(receiver == a ? b : a);
    }

    private void awaitSend(final End sender)
    {
        sender.awaitCompletion(false, drive);
    }

    static void fill(final UnsafeBuffer buffer, final int offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(offset + i, (byte)(i * 7 + seed * 31 + 1));
        }
    }

    static void check(final UnsafeBuffer buffer, final int offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != (byte)(i * 7 + seed * 31 + 1))
            {
                throw new AssertionError("byte " + i + " of " + length + " differs (seed " + seed + ")");
            }
        }
    }

    /** One node's side: PD, CQ, QP and a registered buffer [send/write source | receive/read target]. */
    private static final class End
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(2 * SIZE, 4096));
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        final SendWorkRequest send = new SendWorkRequest(1);
        final RecvWorkRequest recv = new RecvWorkRequest(1);
        final WorkCompletion[] wcs = {new WorkCompletion()};

        End(final RoceNode node, final int compVector)
        {
            final ProtectionDomain pd = node.device().allocPd();
            cq = node.device().createCq(new CqInitAttr().cqe(16).compVector(compVector));
            final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
            init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
            qp = node.device().createQp(pd, init);
            mr = node.device().regMr(pd, buffer, ACCESS);
        }

        void postRecv()
        {
            recv.wrId(2).sgl().clear().add(buffer.addressOffset() + SIZE, SIZE, mr.lkey());
            check(qp.postRecv(recv), "postRecv");
        }

        void post(final int opcode, final long remoteAddr, final MemoryRegion remote)
        {
            post(opcode, remoteAddr, remote, 0);
        }

        void post(final int opcode, final long remoteAddr, final MemoryRegion remote, final int localOffset)
        {
            send.wrId(1).opcode(opcode).sendFlags(SendFlags.SIGNALED).sgl().clear()
                .add(buffer.addressOffset() + localOffset, SIZE, mr.lkey());
            if (null != remote)
            {
                send.remoteAddr(remoteAddr).rkey(remote.rkey());
            }
            check(qp.postSend(send), "postSend");
        }

        WorkCompletion awaitCompletion(final boolean receive, final IntSupplier drive)
        {
            final long deadline = System.nanoTime() + TIMEOUT_NS;
            while (System.nanoTime() - deadline < 0)
            {
                if (cq.poll(wcs) > 0)
                {
                    final WorkCompletion wc = wcs[0];
                    if (WcStatus.SUCCESS.code() != wc.status() || (2 == wc.wrId()) != receive)
                    {
                        throw new AssertionError("unexpected completion " + wc);
                    }
                    return wc;
                }
                if (0 == drive.getAsInt())
                {
                    Thread.onSpinWait();
                }
            }
            throw new AssertionError("no " + (receive ? "receive" : "send") + " completion within 60 s");
        }

        private void check(final int rc, final String what)
        {
            if (0 != rc)
            {
                throw new AssertionError(what + " failed (" + rc + "): " + qp.postError());
            }
        }
    }
}
