package io.jrxe.tests;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.NodeThreads;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The README's example, as it is printed there: two nodes on emulated NICs, engines on their own threads, an RC
 * SEND from A to B, and B waiting for it on a completion channel without spinning.
 */
class ReadmeExampleTest
{
    @Test
    void shouldRunTheReadmeExample() throws InterruptedException
    {
        try (NodePair nodes = new NodePair(new NodePairContext()))
        {
            nodes.resolve(TimeUnit.SECONDS.toNanos(5)); // ARP both ways, stepped on this thread
            try (NodeThreads engines = NodeThreads.start(NodeThreads.Layout.NODE, NodeThreads.Idle.PARK::create,
                nodes))
            {
                final String received = readmeExample(nodes.a().device(), nodes.b().device());
                assertEquals("hello over RoCE v2", received);
            }
        }
    }

    // ---- the README's code, from here to the end of the method
    private static String readmeExample(final RxeDevice a, final RxeDevice b) throws InterruptedException
    {
        // B: a completion channel, a CQ that reports to it, an RC QP, a registered buffer and a posted receive
        final CompletionChannel channel = b.createCompChannel();
        final ProtectionDomain pdB = b.allocPd();
        final CompletionQueue cqB = b.createCq(new CqInitAttr().cqe(16).channel(channel));
        final QpInitAttr initB = new QpInitAttr().qpType(QpType.RC).sendCq(cqB).recvCq(cqB);
        initB.cap().maxSendWr(4).maxRecvWr(4);
        final QueuePair qpB = b.createQp(pdB, initB);
        final UnsafeBuffer bufB = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
        final MemoryRegion mrB = b.regMr(pdB, bufB, AccessFlags.LOCAL_WRITE);
        final RecvWorkRequest recv = new RecvWorkRequest(1).wrId(7);
        recv.sgl().add(bufB.addressOffset(), 4096, mrB.lkey());

        // A: a CQ it polls, an RC QP and the message
        final ProtectionDomain pdA = a.allocPd();
        final CompletionQueue cqA = a.createCq(16, null);
        final QpInitAttr initA = new QpInitAttr().qpType(QpType.RC).sendCq(cqA).recvCq(cqA);
        initA.cap().maxSendWr(4).maxRecvWr(4);
        final QueuePair qpA = a.createQp(pdA, initA);
        final UnsafeBuffer bufA = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final int length = bufA.putStringWithoutLengthAscii(0, "hello over RoCE v2");
        final MemoryRegion mrA = a.regMr(pdA, bufA, 0);

        // connect the QPs (RESET -> INIT -> RTR -> RTS) as an out-of-band exchange or the CM would
        final QpConnector connector = new QpConnector();
        connector.connect(a, qpA, 0, GidTable.ipv4MappedLo(NodePair.IP_B), qpB.qpn(), 200, 100);
        connector.connect(b, qpB, 0, GidTable.ipv4MappedLo(NodePair.IP_A), qpA.qpn(), 100, 200);

        assertEquals(0, qpB.postRecv(recv));
        assertEquals(0, cqB.reqNotify(false)); // arm: the next completion queues an event on the channel
        final SendWorkRequest send = new SendWorkRequest(1).wrId(1).opcode(WrOpcode.SEND)
            .sendFlags(SendFlags.SIGNALED);
        send.sgl().add(bufA.addressOffset(), length, mrA.lkey());
        assertEquals(0, qpA.postSend(send));

        // B blocks until the engine thread reports the completion, then polls and acknowledges the event
        final CompletionQueue fired = channel.getEvent(10, TimeUnit.SECONDS);
        assertSame(cqB, fired);
        final WorkCompletion[] wc = {new WorkCompletion()};
        assertEquals(1, cqB.poll(wc));
        assertEquals(WcStatus.SUCCESS.code(), wc[0].status());
        assertEquals(0, cqB.ackEvents(1));
        return bufB.getStringWithoutLengthAscii(0, wc[0].byteLen());
    }
}
