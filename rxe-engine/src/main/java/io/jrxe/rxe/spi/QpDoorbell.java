package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SharedReceiveQueue;

/**
 * Notified after work requests were published to a QP's send or receive queue or to an SRQ, so the engine can
 * schedule the QP. Called on the posting (application) thread; an implementation must not block (e.g. offer the
 * QPN to an MPSC queue or set a flag).
 */
public interface QpDoorbell
{
    /**
     * @param qp the QP whose send queue (send = true) or receive queue (send = false) has new WQEs.
     * @param send which queue.
     */
    void onPost(QueuePair qp, boolean send);

    /**
     * @param srq the SRQ that has new WQEs.
     */
    default void onSrqPost(final SharedReceiveQueue srq)
    {
    }
}
