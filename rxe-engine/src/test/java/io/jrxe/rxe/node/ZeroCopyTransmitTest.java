package io.jrxe.rxe.node;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.emu.WireFilter;
import io.jrxe.rxe.proto.Icrc;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CoherentBuffer;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.Errno;
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
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Zero-copy transmit on two emulated NICs: a message sent from an MR registered over DMA memory
 * ({@link RxeDevice#regMr(ProtectionDomain, CoherentBuffer, int)}) goes out as descriptor chains (headers, payload
 * read by the NIC from the MR, pad and ICRC), every ICRC on the wire checks, the bytes arrive, a retransmission
 * reads the MR again, and the copy path stays for ordinary memory and IPv6. Deregistration waits for the NIC.
 */
class ZeroCopyTransmitTest
{
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
    private static final int MTU = 1024;
    private static final int SIZE = 16 * MTU;
    private static final int MESSAGES = 4;
    private static final long TIMEOUT_NS = 10_000_000_000L;
    private static final int ETH = 14;
    private static final int BTH = ETH + 20 + 8;
    private static final int OP_WRITE_MIDDLE = 0x07;
    private static final int OP_WRITE_FIRST = 0x06;

    /** Checks the ICRC of every RoCEv2 frame A sends, and can drop one chosen request packet once. */
    private static final class Tap implements WireFilter
    {
        final Icrc icrc = new Icrc();
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[16384]);
        int checked;
        int bad;
        int writeMiddles;
        int dropMiddle = -1;
        int firstPsn = -1;
        int droppedPsn = -1;
        Runnable onDrop;

        @Override
        public boolean drop(final int source, final int destination, final DirectBuffer frame, final int offset,
            final int length)
        {
            if (0 != source || 0x0800 != (frame.getShort(offset + 12, ByteOrder.BIG_ENDIAN) & 0xffff) ||
                4791 != (frame.getShort(offset + ETH + 20 + 2, ByteOrder.BIG_ENDIAN) & 0xffff))
            {
                return false;
            }
            copy.putBytes(0, frame, offset, length); // the ICRC masks in place: not on the wire's own frame
            checked++;
            if (!icrc.check(copy, ETH, length - ETH))
            {
                bad++;
            }
            final int opcode = copy.getByte(BTH) & 0xff;
            final int psn = copy.getInt(BTH + 8, ByteOrder.BIG_ENDIAN) & 0xff_ffff;
            if (OP_WRITE_FIRST == opcode && firstPsn < 0)
            {
                firstPsn = psn;
            }
            if (OP_WRITE_MIDDLE == opcode && writeMiddles++ == dropMiddle)
            {
                droppedPsn = psn;
                onDrop.run();
                return true;
            }
            return false;
        }
    }

    private static final class Pair
    {
        final QueuePair a;
        final QueuePair b;
        final CompletionQueue cqA;
        final CompletionQueue cqB;

        Pair(final NodePair nodes, final boolean ipv6)
        {
            final RxeDevice devA = nodes.a().device();
            final RxeDevice devB = nodes.b().device();
            cqA = devA.createCq(64, null);
            cqB = devB.createCq(64, null);
            a = devA.createQp(devA.allocPd(), init(cqA));
            b = devB.createQp(devB.allocPd(), init(cqB));
            final QpConnector connector = new QpConnector().timeout(14).retryCnt(7);
            if (ipv6)
            {
                // GID 2: each node's global IPv6 address (after link-local 0 and IPv4 1)
                final int index = RoceNode.GID_INDEX_IPV4 + 1;
                connector.sgidIndex(index);
                final byte[] gidA = new byte[16];
                final byte[] gidB = new byte[16];
                devA.queryGid(RxeDevice.PORT, index, gidA);
                devB.queryGid(RxeDevice.PORT, index, gidB);
                connector.connect(devA, a, GidTable.bytesToLong(gidB, 0), GidTable.bytesToLong(gidB, 8), b.qpn(),
                    200, 100);
                connector.connect(devB, b, GidTable.bytesToLong(gidA, 0), GidTable.bytesToLong(gidA, 8), a.qpn(),
                    100, 200);
            }
            else
            {
                connector.connect(devA, a, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qpn(), 200, 100);
                connector.connect(devB, b, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qpn(), 100, 200);
            }
        }

        private static QpInitAttr init(final CompletionQueue cq)
        {
            final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
            init.cap().maxSendWr(MESSAGES).maxRecvWr(MESSAGES).maxSendSge(1).maxRecvSge(1);
            return init;
        }
    }

    private static void fill(final UnsafeBuffer buffer, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(i, (byte)(i * 31 + i / 977 + seed));
        }
    }

    private static void assertSame(final UnsafeBuffer expected, final UnsafeBuffer actual, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (expected.getByte(i) != actual.getByte(i))
            {
                throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    private static void writeAll(final NodePair nodes, final Pair p, final long source, final int lkey,
        final long target, final int rkey)
    {
        final SendWorkRequest wr = new SendWorkRequest(1);
        for (int i = 0; i < MESSAGES; i++)
        {
            wr.wrId(i).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED).sgl().clear()
                .add(source + (long)i * SIZE, SIZE, lkey);
            wr.remoteAddr(target + (long)i * SIZE).rkey(rkey);
            assertEquals(0, p.a.postSend(wr), "post " + i);
        }
        awaitCompletions(nodes, p.cqA, MESSAGES);
    }

    private static void awaitCompletions(final NodePair nodes, final CompletionQueue cq, final int count)
    {
        final WorkCompletion[] wc = {new WorkCompletion()};
        final int[] done = {0};
        nodes.runUntil(() ->
        {
            while (1 == cq.poll(wc))
            {
                assertEquals(WcStatus.SUCCESS.code(), wc[0].status(), wc[0]::toString);
                done[0]++;
            }
            return count == done[0];
        }, TIMEOUT_NS, count + " completions");
    }

    @Test
    void writesFromADmaMappedMrGoOutAsChainsWithValidIcrcsAndARetransmissionRereadsTheMr()
    {
        final Tap tap = new Tap();
        tap.dropMiddle = 20; // in the second message
        try (NodePair nodes = new NodePair(new NodePairContext().faults(WireFaults.none().filter(tap))
            .errorHandler(NodePairTest::fail)))
        {
            nodes.resolve(TIMEOUT_NS);
            final Pair p = new Pair(nodes, false);
            final CoherentBuffer source = nodes.a().device().dma().allocCoherent(MESSAGES * SIZE);
            fill(source.buffer(), MESSAGES * SIZE, 1);
            final MemoryRegion mrA = nodes.a().device().regMr(p.a.pd(), source, ACCESS);
            assertTrue(mrA.dmaMapped());
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MESSAGES * SIZE, 4096));
            final MemoryRegion mrB = nodes.b().device().regMr(p.b.pd(), target, ACCESS);
            // the packet is lost; its bytes change before the go-back-N resend, which must carry the new bytes (and
            // an ICRC over them): the payload is read from the MR at (re)transmission, not kept from the first send
            tap.onDrop = () ->
            {
                final int at = (tap.droppedPsn - tap.firstPsn) * MTU;
                for (int i = 0; i < MTU; i++)
                {
                    source.buffer().putByte(at + i, (byte)~source.buffer().getByte(at + i));
                }
            };

            writeAll(nodes, p, source.cpuAddress(), mrA.lkey(), target.addressOffset(), mrB.rkey());

            assertTrue(tap.droppedPsn >= 0, "a packet was dropped");
            assertSame(source.buffer(), target, MESSAGES * SIZE);
            final var countersA = nodes.a().engine().counters();
            final var countersB = nodes.b().engine().counters();
            assertTrue(countersA.get(RxeCounter.RETRANSMITTED_PKTS) > 0, "retransmitted");
            final long dataPackets = MESSAGES * 16 + countersA.get(RxeCounter.RETRANSMITTED_PKTS);
            assertEquals(dataPackets, countersA.get(RxeCounter.TX_ZERO_COPY), "every WRITE packet zero-copy");
            assertEquals(dataPackets, countersA.get(RxeCounter.SENT_PKTS));
            assertEquals(0, countersB.get(RxeCounter.ICRC_ERR), "the receiver's ICRC checks passed");
            assertEquals(dataPackets, tap.checked, "every frame A sent was checked on the wire");
            assertEquals(0, tap.bad, "every ICRC on the wire is right");

            // the buffer is the MR's while it is registered; deregistration waits for the NIC, then it may go
            final VerbsException busy = assertThrows(VerbsException.class,
                () -> nodes.a().device().dma().freeCoherent(source));
            assertEquals(Errno.EBUSY, busy.errno());
            nodes.a().device().deregMr(mrA);
            nodes.a().device().dma().freeCoherent(source);
        }
    }

    @Test
    void sendFromADmaMappedMrIntoOrdinaryMemory()
    {
        try (NodePair nodes = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)))
        {
            nodes.resolve(TIMEOUT_NS);
            final Pair p = new Pair(nodes, false);
            final int length = 3 * MTU + 517; // a last packet with pad
            final CoherentBuffer source = nodes.a().device().dma().allocCoherent(length);
            fill(source.buffer(), length, 7);
            final MemoryRegion mrA = nodes.a().device().regMr(p.a.pd(), source, ACCESS);
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(8192, 4096));
            final MemoryRegion mrB = nodes.b().device().regMr(p.b.pd(), target, ACCESS);
            final RecvWorkRequest recv = new RecvWorkRequest(1).wrId(9);
            recv.sgl().add(target.addressOffset(), 8192, mrB.lkey());
            assertEquals(0, p.b.postRecv(recv));
            final SendWorkRequest send = new SendWorkRequest(1).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED);
            send.sgl().add(source.cpuAddress(), length, mrA.lkey());
            assertEquals(0, p.a.postSend(send));
            awaitCompletions(nodes, p.cqA, 1);
            awaitCompletions(nodes, p.cqB, 1);
            assertSame(source.buffer(), target, length);
            assertEquals(4, nodes.a().engine().counters().get(RxeCounter.TX_ZERO_COPY), "4 packets of >= 512");
            assertEquals(0, nodes.b().engine().counters().get(RxeCounter.ICRC_ERR));
            nodes.a().device().deregMr(mrA);
            nodes.a().device().dma().freeCoherent(source);
        }
    }

    @Test
    void readResponsesFromADmaMappedMrGoOutZeroCopy()
    {
        try (NodePair nodes = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)))
        {
            nodes.resolve(TIMEOUT_NS);
            final Pair p = new Pair(nodes, false);
            final int length = 5 * MTU + 3; // a last response with pad
            final CoherentBuffer source = nodes.b().device().dma().allocCoherent(length);
            fill(source.buffer(), length, 11);
            final MemoryRegion mrB = nodes.b().device().regMr(p.b.pd(), source, ACCESS | AccessFlags.REMOTE_READ);
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, 4096));
            final MemoryRegion mrA = nodes.a().device().regMr(p.a.pd(), target, ACCESS);
            final SendWorkRequest read = new SendWorkRequest(1).opcode(WrOpcode.RDMA_READ)
                .sendFlags(SendFlags.SIGNALED);
            read.sgl().add(target.addressOffset(), length, mrA.lkey());
            read.remoteAddr(source.cpuAddress()).rkey(mrB.rkey());
            assertEquals(0, p.a.postSend(read));
            awaitCompletions(nodes, p.cqA, 1);
            assertSame(source.buffer(), target, length);
            assertEquals(5, nodes.b().engine().counters().get(RxeCounter.TX_ZERO_COPY), "5 full responses; the "
                + "3-byte last one is copied");
            assertEquals(0, nodes.a().engine().counters().get(RxeCounter.ICRC_ERR));
        }
    }

    @Test
    void ordinaryMemoryIsCopied()
    {
        try (NodePair nodes = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)))
        {
            nodes.resolve(TIMEOUT_NS);
            final Pair p = new Pair(nodes, false);
            final UnsafeBuffer source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MESSAGES * SIZE, 4096));
            fill(source, MESSAGES * SIZE, 3);
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MESSAGES * SIZE, 4096));
            final MemoryRegion mrA = nodes.a().device().regMr(p.a.pd(), source, ACCESS);
            final MemoryRegion mrB = nodes.b().device().regMr(p.b.pd(), target, ACCESS);
            assertFalse(mrA.dmaMapped());
            writeAll(nodes, p, source.addressOffset(), mrA.lkey(), target.addressOffset(), mrB.rkey());
            assertSame(source, target, MESSAGES * SIZE);
            assertEquals(0, nodes.a().engine().counters().get(RxeCounter.TX_ZERO_COPY));
            assertEquals(MESSAGES * 16, nodes.a().engine().counters().get(RxeCounter.SENT_PKTS));
        }
    }

    @Test
    void overIpv6TheDmaMappedMrIsCopied()
    {
        try (NodePair nodes = new NodePair(new NodePairContext().ipv6(true).errorHandler(NodePairTest::fail)))
        {
            nodes.resolve(TIMEOUT_NS);
            final Pair p = new Pair(nodes, true);
            final CoherentBuffer source = nodes.a().device().dma().allocCoherent(MESSAGES * SIZE);
            fill(source.buffer(), MESSAGES * SIZE, 5);
            final MemoryRegion mrA = nodes.a().device().regMr(p.a.pd(), source, ACCESS);
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MESSAGES * SIZE, 4096));
            final MemoryRegion mrB = nodes.b().device().regMr(p.b.pd(), target, ACCESS);
            writeAll(nodes, p, source.cpuAddress(), mrA.lkey(), target.addressOffset(), mrB.rkey());
            assertSame(source.buffer(), target, MESSAGES * SIZE);
            assertEquals(0, nodes.a().engine().counters().get(RxeCounter.TX_ZERO_COPY), "UDP checksum over IPv6");
        }
    }

    /**
     * Packets of a DMA-mapped MR sit in A's transmit ring (A's engine stepped, its NIC not): deregistration cannot
     * finish on the thread that drives both (EBUSY, the region stays, unusable), and does once the NIC sent them.
     */
    @Test
    void deregistrationWaitsUntilTheNicHasGivenBackThePacketsThatReadTheMr()
    {
        try (NodePair nodes = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)))
        {
            nodes.resolve(TIMEOUT_NS);
            final Pair p = new Pair(nodes, false);
            final CoherentBuffer source = nodes.a().device().dma().allocCoherent(SIZE);
            fill(source.buffer(), SIZE, 9);
            final MemoryRegion mrA = nodes.a().device().regMr(p.a.pd(), source, ACCESS);
            final UnsafeBuffer target = new UnsafeBuffer(BufferUtil.allocateDirectAligned(SIZE, 4096));
            final MemoryRegion mrB = nodes.b().device().regMr(p.b.pd(), target, ACCESS);
            final SendWorkRequest wr = new SendWorkRequest(1).opcode(WrOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED);
            wr.sgl().add(source.cpuAddress(), SIZE, mrA.lkey());
            wr.remoteAddr(target.addressOffset()).rkey(mrB.rkey());
            assertEquals(0, p.a.postSend(wr));
            for (int i = 0; i < 4; i++)
            {
                nodes.a().progress(); // the engine queues and the stack hands chains to the ring; no device step
            }
            assertTrue(nodes.a().engine().counters().get(RxeCounter.TX_ZERO_COPY) > 0, "chains in the ring");

            final VerbsException busy = assertThrows(VerbsException.class, () -> nodes.a().device().deregMr(mrA));
            assertEquals(Errno.EBUSY, busy.errno(), busy.getMessage());
            assertEquals(Errno.EBUSY, assertThrows(VerbsException.class,
                () -> nodes.a().device().dma().freeCoherent(source)).errno(), "still registered");

            for (int i = 0; i < 10; i++)
            {
                nodes.step(); // the NIC sends what it holds
            }
            nodes.a().device().deregMr(mrA);
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
                () -> nodes.b().device().regMr(p.b.pd(), source, ACCESS)).errno(), "another device's DMA memory");
            nodes.a().device().dma().freeCoherent(source);
            assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
                () -> nodes.a().device().regMr(p.a.pd(), source, ACCESS)).errno(), "freed DMA memory");
        }
    }
}
