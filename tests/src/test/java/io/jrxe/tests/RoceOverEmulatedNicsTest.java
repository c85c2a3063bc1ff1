package io.jrxe.tests;

import io.jrxe.rxe.devinfo.IbvDevinfo;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.stats.CountersFileReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.stats.RxeMBeans;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.JMException;
import javax.management.MBeanServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RC traffic between two whole jrxe nodes over emulated virtio-net NICs: ARP through the stack, RoCEv2 through
 * the driver, the device model and the wire; the counters as jrxe stat, JMX and jrxe devinfo show them.
 */
class RoceOverEmulatedNicsTest
{
    private static final int LEN = 20_000;

    @TempDir
    Path countersDir;

    @Test
    void shouldSendWriteAndReadAcrossTheEmulatedWire()
    {
        try (NodePair nodes = new NodePair(TestPairs.threaded(1500, countersDir)))
        {
            final Side a = new Side(nodes.a());
            final Side b = new Side(nodes.b());
            final QpConnector connector = new QpConnector().pathMtu(Mtu.MTU_1024).rdAtomic(4, 4);
            connector.connect(a.node.device(), a.qp, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qp.qpn(), 200, 100);
            connector.connect(b.node.device(), b.qp, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qp.qpn(), 100, 200);

            for (int i = 0; i < LEN; i++)
            {
                a.buf.putByte(i, (byte)(i * 7 + 1));
                b.buf.putByte(LEN + i, (byte)(i * 13 + 5));
            }
            // B posts a receive; A sends, writes into B's second half... and reads B's second half back.
            final RecvWorkRequest recv = new RecvWorkRequest(1).wrId(9);
            recv.sgl().add(b.buf.addressOffset(), LEN, b.mr.lkey());
            assertEquals(0, b.qp.postRecv(recv));

            final SendWorkRequest send = new SendWorkRequest(1).wrId(1).opcode(WrOpcode.SEND)
                .sendFlags(SendFlags.SIGNALED);
            send.sgl().add(a.buf.addressOffset(), LEN, a.mr.lkey());
            assertEquals(0, a.qp.postSend(send));
            final SendWorkRequest read = new SendWorkRequest(1).wrId(2).opcode(WrOpcode.RDMA_READ)
                .sendFlags(SendFlags.SIGNALED).remoteAddr(b.buf.addressOffset() + LEN).rkey(b.mr.rkey());
            read.sgl().add(a.buf.addressOffset() + LEN, LEN, a.mr.lkey());
            assertEquals(0, a.qp.postSend(read));

            final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
            final int[] sendDone = {0};
            final int[] recvDone = {0};
            nodes.runUntil(() ->
            {
                final int n = a.cq.poll(wcs);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(WcStatus.SUCCESS, WcStatus.of(wcs[i].status()), "send-side completion");
                    sendDone[0]++;
                }
                final int m = b.cq.poll(wcs);
                for (int i = 0; i < m; i++)
                {
                    assertEquals(WcStatus.SUCCESS, WcStatus.of(wcs[i].status()), "receive completion");
                    assertEquals(WcOpcode.RECV, wcs[i].opcode());
                    assertEquals(LEN, wcs[i].byteLen());
                    recvDone[0]++;
                }
                return 2 == sendDone[0] && 1 == recvDone[0];
            }, 30_000_000_000L, "SEND and READ completions");

            for (int i = 0; i < LEN; i++)
            {
                assertEquals((byte)(i * 7 + 1), b.buf.getByte(i), "sent byte " + i);
                assertEquals((byte)(i * 13 + 5), a.buf.getByte(LEN + i), "read byte " + i);
            }
            final long packets = (LEN + 1023) / 1024;
            try (CountersFileReader reader = CountersFileReader.map(CountersFile.pathFor(countersDir, "jrxe-b")))
            {
                assertTrue(reader.deviceValue(RxeCounter.RCVD_PKTS) >= packets, "B received the SEND's packets");
                assertEquals(0, reader.deviceValue(RxeCounter.ICRC_ERR));
                final int slot = reader.findQp(b.qp.qpn());
                assertTrue(slot >= 0, "B's QP has its own counters");
                assertTrue(reader.qpValue(slot, RxeCounter.RCVD_PKTS.id()) >= packets, "counted on B's QP too");
                assertObservable(nodes.b(), reader, slot);
            }
        }
    }

    /** What jconsole and jrxe devinfo show of node B after the traffic. */
    private void assertObservable(final RoceNode node, final CountersFileReader reader, final int slot)
    {
        final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        final CountersFileReader inProcess = new CountersFileReader(node.counters().buffer());
        try (RxeMBeans beans = new RxeMBeans(server, inProcess, System::nanoTime))
        {
            assertEquals(reader.deviceValue(RxeCounter.RCVD_PKTS),
                server.getAttribute(RxeMBeans.deviceObjectName("jrxe-b"), "rcvd_pkts"), "JMX shows jrxe stat's values");
            assertEquals(reader.qpValue(slot, RxeCounter.RCVD_BYTES.id()),
                server.getAttribute(RxeMBeans.qpObjectName("jrxe-b", reader.qpn(slot)), "rcvd_bytes"));
        }
        catch (final JMException ex)
        {
            throw new AssertionError(ex);
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, IbvDevinfo.print(List.of(countersDir), "jrxe-b", true,
            new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        final String devinfo = out.toString(StandardCharsets.UTF_8);
        assertTrue(devinfo.startsWith("hca_id:\tjrxe-b\n"), devinfo);
        assertTrue(devinfo.contains("\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"), devinfo);
        assertTrue(devinfo.contains("\t\t\tGID[  1]:\t\t::ffff:10.9.0.2, RoCE v2\n"), devinfo);
    }

    /** A node's verbs objects for one RC QP and one registered buffer. */
    private static final class Side
    {
        final RoceNode node;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final UnsafeBuffer buf = new UnsafeBuffer(BufferUtil.allocateDirectAligned(2 * LEN, 64));
        final MemoryRegion mr;

        Side(final RoceNode node)
        {
            this.node = node;
            pd = node.device().allocPd();
            cq = node.device().createCq(256, null);
            final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
            init.cap().maxSendWr(64).maxRecvWr(64).maxSendSge(1).maxRecvSge(1);
            qp = node.device().createQp(pd, init);
            mr = node.device().regMr(pd, buf, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ |
                AccessFlags.REMOTE_WRITE);
        }
    }
}
