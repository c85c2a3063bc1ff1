package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.RecvWqe;
import io.jrxe.rxe.spi.WqeRing;

/**
 * The receive queue of a QP without an SRQ: post-side validation and the ring. Application side is
 * {@link QueuePair#postRecv}; the engine (responder) consumes {@link #ring()}.
 */
final class RecvQueue
{
    /** rxe limit on a message/receive length: 2^31 bytes. */
    static final long MAX_LENGTH = 1L << 31;

    private final QueuePair qp;
    private final int maxSge;
    private final WqeRing<RecvWqe> ring;
    private final BadWrSink badWrSink;

    RecvQueue(final QueuePair qp, final int maxWr, final int maxSge)
    {
        this.qp = qp;
        this.badWrSink = qp::badRecv;
        this.maxSge = maxSge;
        this.ring = new WqeRing<>(maxWr, () -> new RecvWqe(maxSge));
    }

    /** @return the ring; the engine is its consumer. */
    public WqeRing<RecvWqe> ring()
    {
        return ring;
    }

    /** @return actual max WRs. */
    public int maxWr()
    {
        return ring.capacity();
    }

    /** @return max SGEs per WR. */
    public int maxSge()
    {
        return maxSge;
    }

    /**
     * Validate one receive WR (rxe {@code post_one_recv}).
     *
     * @param wr the WR.
     * @param maxSge the queue's max SGEs.
     * @return null or the reason (constant string).
     */
    static String validate(final RecvWorkRequest wr, final int maxSge)
    {
        if (wr.sgl().count() > maxSge)
        {
            return "receive WR has more SGEs than the queue's max_recv_sge";
        }
        if (wr.sgl().totalLength() > MAX_LENGTH)
        {
            return "receive WR is longer than 2^31 bytes";
        }
        return null;
    }

    int post(final RecvWorkRequest first)
    {
        final long start = ring.producerPlain();
        final int result = postChain(ring, maxSge, ring.capacity(), first, badWrSink);
        if (ring.producerPlain() != start)
        {
            qp.device().doorbell().onPost(qp, false);
        }
        return result;
    }

    /** Where a post reports the WR it stopped at. */
    interface BadWrSink
    {
        int badRecv(RecvWorkRequest wr, int index, int err, String reason);
    }

    /**
     * Validate and queue a chain of receive WRs (QP RQ or SRQ): the WRs before the first bad one are published,
     * the bad one goes to the sink.
     */
    static int postChain(
        final WqeRing<RecvWqe> ring,
        final int maxSge,
        final int maxWr,
        final RecvWorkRequest first,
        final BadWrSink sink)
    {
        final long start = ring.producerPlain();
        long planned = start;
        int index = 0;
        int result = 0;
        for (RecvWorkRequest wr = first; null != wr; wr = wr.next(), index++)
        {
            final String invalid = validate(wr, maxSge);
            if (null != invalid)
            {
                result = sink.badRecv(wr, index, -Errno.EINVAL, invalid);
                break;
            }
            if (planned - ring.consumerPosition() >= maxWr || ring.free(planned) <= 0)
            {
                result = sink.badRecv(wr, index, -Errno.ENOMEM, "receive queue full: poll completions first");
                break;
            }
            ring.slot(planned).fill(wr, wr.sgl().totalLength());
            planned++;
        }
        if (planned != start)
        {
            ring.publish(planned);
        }
        return result;
    }
}
