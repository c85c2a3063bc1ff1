package io.jrxe.rxe.node;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A window of signalled RDMA WRITEs from node A to node B of a {@link NodePair} on one connected RC QP: distinct
 * bytes per message, completions collected in order, the target compared byte for byte.
 */
final class WriteWindow
{
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    final QueuePair a;
    private final int window;
    private final int size;
    private final UnsafeBuffer source;
    private final UnsafeBuffer target;
    private final CompletionQueue cqA;
    private final MemoryRegion mrA;
    private final MemoryRegion mrB;
    private final WorkCompletion[] polled;
    private final long[] wrIds;
    private final int[] statuses;
    private int completed;

    WriteWindow(final NodePair pair, final QpConnector connector, final int window, final int size)
    {
        this.window = window;
        this.size = size;
        source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(window * size, 4096));
        target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(window * size, 4096));
        for (int i = 0; i < window * size; i++)
        {
            source.putByte(i, (byte)(i * 31 + i / size));
        }
        final ProtectionDomain pdA = pair.a().device().allocPd();
        final ProtectionDomain pdB = pair.b().device().allocPd();
        cqA = pair.a().device().createCq(2 * window, null);
        final CompletionQueue cqB = pair.b().device().createCq(2 * window, null);
        a = pair.a().device().createQp(pdA, init(cqA, window));
        final QueuePair b = pair.b().device().createQp(pdB, init(cqB, window));
        mrA = pair.a().device().regMr(pdA, source, ACCESS);
        mrB = pair.b().device().regMr(pdB, target, ACCESS);
        connector.connect(pair.a().device(), a, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qpn(), 200, 100);
        connector.connect(pair.b().device(), b, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qpn(), 100, 200);
        wrIds = new long[window];
        statuses = new int[window];
        polled = new WorkCompletion[window];
        for (int i = 0; i < window; i++)
        {
            polled[i] = new WorkCompletion();
        }
    }

    private static QpInitAttr init(final CompletionQueue cq, final int window)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(window).maxRecvWr(1).maxSendSge(1).maxRecvSge(1);
        return init;
    }

    /** Posts the whole window, wrId = message index. */
    void post()
    {
        final SendWorkRequest wr = new SendWorkRequest(1);
        for (int i = 0; i < window; i++)
        {
            wr.wrId(i).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED).sgl().clear()
                .add(source.addressOffset() + (long)i * size, size, mrA.lkey());
            wr.remoteAddr(target.addressOffset() + (long)i * size).rkey(mrB.rkey());
            assertEquals(0, a.postSend(wr), "post " + i);
        }
    }

    /** Polls A's CQ once, keeping the wrId and status of what it took. @return whether all have completed */
    boolean poll()
    {
        final int n = cqA.poll(polled);
        for (int i = 0; i < n; i++)
        {
            wrIds[completed] = polled[i].wrId();
            statuses[completed] = polled[i].status();
            completed++;
        }
        return completed == window;
    }

    /** @return completions taken so far */
    int completed()
    {
        return completed;
    }

    /** @return the wrId of the i-th completion taken */
    long wrId(final int i)
    {
        return wrIds[i];
    }

    /** @return the status of the i-th completion taken */
    int status(final int i)
    {
        return statuses[i];
    }

    /** @throws AssertionError naming the first byte of the target that differs from the source */
    void assertDelivered()
    {
        for (int i = 0; i < window * size; i++)
        {
            if (source.getByte(i) != target.getByte(i))
            {
                throw new AssertionError("byte " + i + " of message " + i / size + " differs");
            }
        }
    }
}
