package io.jrxe.tools;

import io.jrxe.rxe.verbs.CoherentBuffer;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The registered buffers of a perf run, one per QP and node, each two message slots long (as perftest's
 * per-QP buffer): the source slot then the target slot.
 * <pre>
 *   buffer of QP i on node A / B:   | source: size bytes | target: size bytes |
 *   WRITE / SEND: A source -> B target          READ: B source -> A target
 *   atomic: 8-byte word at B target, the fetched value lands in A target
 * </pre>
 */
final class PerfBuffers
{
    final int size;
    final UnsafeBuffer[] bufA;
    final UnsafeBuffer[] bufB;
    final MemoryRegion[] mrA;
    final MemoryRegion[] mrB;

    /**
     * @param dma whether the buffers are DMA memory of the nodes' NICs ({@code ib_dma_alloc_coherent}) registered
     *            as such, so that the NIC reads payloads from the MRs (zero-copy transmit)
     */
    PerfBuffers(final RcQps qps, final int size, final boolean dma)
    {
        this.size = size;
        final int n = qps.count();
        bufA = new UnsafeBuffer[n];
        bufB = new UnsafeBuffer[n];
        mrA = new MemoryRegion[n];
        mrB = new MemoryRegion[n];
        for (int i = 0; i < n; i++)
        {
            final CoherentBuffer dmaA = dma ? qps.allocateDma(true, 2 * size) : null;
            final CoherentBuffer dmaB = dma ? qps.allocateDma(false, 2 * size) : null;
            bufA[i] = dma ? dmaA.buffer() : RcQps.allocate(2 * size);
            bufB[i] = dma ? dmaB.buffer() : RcQps.allocate(2 * size);
            for (int j = 0; j < size; j++)
            {
                bufA[i].putByte(j, (byte)(j * 7 + i));
                bufB[i].putByte(j, (byte)(j * 13 + i));
            }
            mrA[i] = dma ? qps.register(true, dmaA) : qps.register(true, bufA[i]);
            mrB[i] = dma ? qps.register(false, dmaB) : qps.register(false, bufB[i]);
        }
    }

    long source(final UnsafeBuffer buffer)
    {
        return buffer.addressOffset();
    }

    long target(final UnsafeBuffer buffer)
    {
        return buffer.addressOffset() + size;
    }

    /** Fails the run on an error completion, naming the side, opcode and status. */
    static void check(final WorkCompletion wc, final String side)
    {
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new IllegalStateException(side + " completion error: " + wc);
        }
    }
}
