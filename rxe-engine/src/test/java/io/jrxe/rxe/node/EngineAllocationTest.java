package io.jrxe.rxe.node;

import io.jrxe.rxe.stats.QpLatencyReader;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CoherentBuffer;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole data path allocates nothing per message: on one thread that posts, steps both nodes (emulated device,
 * virtio driver, stack, engine: requester, responder, completer) and polls, a steady mix of 64-byte SENDs, 4 KiB
 * RDMA WRITEs and READs and 8-byte FETCH_ADDs allocates no more after warm-up than the one-off noise of the JIT
 * and runtime. One object per message would be hundreds of kilobytes.
 */
class EngineAllocationTest
{
    private static final int ROUNDS = 5_000;
    private static final int SIZE = 4096;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ |
        AccessFlags.REMOTE_ATOMIC;

    private final SendWorkRequest send = new SendWorkRequest(1);
    private final RecvWorkRequest recv = new RecvWorkRequest(1);
    private final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};

    @TempDir
    Path dir;

    @Test
    void sendWriteReadAndAtomicsAllocateNothingPerMessage()
    {
        run(false, false, false);
    }

    /**
     * With two engine shards, the QPs on shard 1 and every packet landing on shard 0's queue pair (the nodes steer
     * for a one-shard peer): stack lanes, the forward ring between shards and its drain add nothing per message.
     */
    @Test
    void shardsAndTheForwardRingAllocateNothingPerMessage()
    {
        run(false, false, true);
    }

    /** With QP latency histograms: recording both per WQE and publishing them to the file add nothing. */
    @Test
    void qpLatencyHistogramsAllocateNothingPerMessage()
    {
        run(false, true, false);
    }

    /** The same from an MR over DMA memory: the 4 KiB WRITEs go out zero-copy (descriptor chains), allocation free. */
    @Test
    void zeroCopyFromADmaMappedMrAllocatesNothingPerMessage()
    {
        run(true, false, false);
    }

    private void run(final boolean dma, final boolean latency, final boolean sharded)
    {
        final Path latencyFile;
        final int qpnA;
        final long retransmitted;
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        try (NodePair pair = new NodePair(new NodePairContext().errorHandler(NodePairTest::fail)
            .countersDirectory(latency ? dir : null).keepCountersFile(latency).qpLatency(latency)
            .shards(sharded ? 2 : 1).peerShards(sharded ? 1 : 0)))
        {
            pair.resolve(10_000_000_000L);
            final CoherentBuffer coherent = dma ? pair.a().device().dma().allocCoherent(2 * SIZE) : null;
            final UnsafeBuffer bufA = dma ? coherent.buffer() :
                new UnsafeBuffer(BufferUtil.allocateDirectAligned(2 * SIZE, 4096));
            final UnsafeBuffer bufB = new UnsafeBuffer(BufferUtil.allocateDirectAligned(2 * SIZE, 4096));
            final ProtectionDomain pdA = pair.a().device().allocPd();
            final ProtectionDomain pdB = pair.b().device().allocPd();
            final int vector = sharded ? 1 : 0;
            final CompletionQueue cqA = pair.a().device().createCq(new CqInitAttr().cqe(16).compVector(vector));
            final CompletionQueue cqB = pair.b().device().createCq(new CqInitAttr().cqe(16).compVector(vector));
            final QueuePair a = pair.a().device().createQp(pdA, init(cqA));
            final QueuePair b = pair.b().device().createQp(pdB, init(cqB));
            final MemoryRegion mrA = dma ? pair.a().device().regMr(pdA, coherent, ACCESS) :
                pair.a().device().regMr(pdA, bufA, ACCESS);
            final MemoryRegion mrB = pair.b().device().regMr(pdB, bufB, ACCESS);
            final QpConnector connector = new QpConnector().rdAtomic(1, 1);
            connector.connect(pair.a().device(), a, 0, GidTable.ipv4MappedLo(NodePair.IP_B), b.qpn(), 200, 100);
            connector.connect(pair.b().device(), b, 0, GidTable.ipv4MappedLo(NodePair.IP_A), a.qpn(), 100, 200);

            final Traffic traffic = new Traffic(pair, a, b, cqA, cqB, bufA, bufB, mrA, mrB);
            traffic.run(ROUNDS); // warm up: classes, JIT, lazily grown tables
            final long tid = Thread.currentThread().getId();
            final long before = threads.getThreadAllocatedBytes(tid);
            traffic.run(ROUNDS);
            final long allocated = threads.getThreadAllocatedBytes(tid) - before;
            assertEquals(ROUNDS + ROUNDS, bufB.getLong(SIZE), "every FETCH_ADD added one");
            assertEquals(dma, pair.a().engine().counters().get(RxeCounter.TX_ZERO_COPY) >= 4L * 2 * ROUNDS,
                "4 zero-copy packets per WRITE from the DMA-mapped MR");
            latencyFile = latency ? pair.a().qpLatency().path() : null;
            retransmitted = pair.a().engine().counters().get(RxeCounter.RETRANSMITTED_PKTS);
            qpnA = a.qpn();
            if (sharded)
            {
                assertTrue(pair.b().engine(0).counters().get(RxeCounter.SHARD_FORWARDED) >= 4L * 2 * ROUNDS,
                    "B's shard 0 forwarded every request to shard 1");
            }
            System.out.println("engine path" + (dma ? " (zero-copy)" : "") + (latency ? " (QP latency)" : "") +
                (sharded ? " (2 shards, forwarded)" : "") +
                ": " + allocated + " bytes allocated over " + 4 * ROUNDS + " messages");
            // a few KB of one-off JIT and runtime noise at most; one 16-byte object per message would be 320 KB
            assertTrue(allocated < 8192, "allocated " + allocated + " bytes over " + 4 * ROUNDS + " messages");
        }
        if (latency)
        {
            // the engine published its last histograms on close: every WQE of both passes was measured once, and
            // each request was answered by an ACK, READ response or atomic ACK for it; a request the real clock's
            // retransmit timer made the engine send again (a stalled test thread) gives no round trip
            try (QpLatencyReader reader = QpLatencyReader.map(latencyFile))
            {
                assertEquals(4L * 2 * ROUNDS, reader.find(qpnA).completion().getTotalCount());
                final long roundTrips = reader.find(qpnA).roundTrip().getTotalCount();
                assertTrue(roundTrips <= 4L * 2 * ROUNDS && roundTrips >= 4L * 2 * ROUNDS - retransmitted,
                    roundTrips + " round trips, " + retransmitted + " packets retransmitted");
            }
        }
    }


    private static QpInitAttr init(final CompletionQueue cq)
    {
        final QpInitAttr init = new QpInitAttr().qpType(QpType.RC).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(4).maxRecvWr(4).maxSendSge(1).maxRecvSge(1);
        return init;
    }

    /** One round: a SEND A to B, a WRITE, a READ and a FETCH_ADD, each awaited; no lambdas, no objects. */
    private final class Traffic
    {
        private final NodePair pair;
        private final QueuePair a;
        private final QueuePair b;
        private final CompletionQueue cqA;
        private final CompletionQueue cqB;
        private final UnsafeBuffer bufA;
        private final UnsafeBuffer bufB;
        private final MemoryRegion mrA;
        private final MemoryRegion mrB;

        Traffic(final NodePair pair, final QueuePair a, final QueuePair b, final CompletionQueue cqA,
            final CompletionQueue cqB, final UnsafeBuffer bufA, final UnsafeBuffer bufB, final MemoryRegion mrA,
            final MemoryRegion mrB)
        {
            this.pair = pair;
            this.a = a;
            this.b = b;
            this.cqA = cqA;
            this.cqB = cqB;
            this.bufA = bufA;
            this.bufB = bufB;
            this.mrA = mrA;
            this.mrB = mrB;
        }

        void run(final int rounds)
        {
            for (int i = 0; i < rounds; i++)
            {
                recv.wrId(2).sgl().clear().add(bufB.addressOffset(), 64, mrB.lkey());
                check(b.postRecv(recv));
                post(WrOpcode.SEND, 64, 0);
                await(cqB);
                await(cqA);
                post(WrOpcode.RDMA_WRITE, SIZE, bufB.addressOffset());
                await(cqA);
                post(WrOpcode.RDMA_READ, SIZE, bufB.addressOffset());
                await(cqA);
                send.wrId(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).sendFlags(SendFlags.SIGNALED).sgl().clear()
                    .add(bufA.addressOffset() + SIZE, 8, mrA.lkey());
                send.remoteAddr(bufB.addressOffset() + SIZE).rkey(mrB.rkey()).compareAdd(1);
                check(a.postSend(send));
                await(cqA);
            }
        }

        private void post(final int opcode, final int length, final long remote)
        {
            send.wrId(1).opcode(opcode).sendFlags(SendFlags.SIGNALED).sgl().clear()
                .add(bufA.addressOffset(), length, mrA.lkey());
            send.remoteAddr(remote).rkey(mrB.rkey());
            check(a.postSend(send));
        }

        private void await(final CompletionQueue cq)
        {
            long spins = 0;
            while (0 == cq.poll(wcs, 1))
            {
                pair.step();
                if (++spins > 10_000_000L)
                {
                    throw new AssertionError("no completion");
                }
            }
            if (WcStatus.SUCCESS.code() != wcs[0].status())
            {
                throw new AssertionError("completion failed: " + wcs[0]);
            }
        }

        private void check(final int rc)
        {
            if (0 != rc)
            {
                throw new AssertionError("post failed: " + rc);
            }
        }
    }
}
