package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QueuePair;

/**
 * Told about every successful modify of a QP, after the attributes were stored, on the thread that called
 * {@link RxeDevice#modifyQp}. The transport uses it to take a consistent copy of the attributes over to the
 * engine thread (PSNs, path MTU, timers, destination) and to start flushing on ERR or to reset on RESET.
 */
@FunctionalInterface
public interface QpModifyListener
{
    /**
     * @param qp the QP.
     * @param from state before the modify.
     * @param to state after the modify.
     * @param mask attribute mask of the modify.
     * @param attr the QP's stored attributes after the modify (read them before returning).
     */
    void onModify(QueuePair qp, QpState from, QpState to, int mask, QpAttr attr);

    /**
     * Told after a QP was destroyed (its QPN may be reused afterwards), on the thread that called
     * {@link RxeDevice#destroyQp}, so the transport can release its per-QP state and timers.
     *
     * @param qp the destroyed QP.
     */
    default void onDestroy(final QueuePair qp)
    {
    }

    /**
     * Told after {@link io.jrxe.rxe.verbs.RxeDevice#attachMcast} attached a UD QP to a multicast group it was not
     * in yet, on the calling thread, outside the device lock.
     *
     * @param qp the QP.
     * @param gidHi the group's GID, bytes 0..7.
     * @param gidLo the group's GID, bytes 8..15.
     */
    default void onAttachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
    }

    /**
     * Told after {@link io.jrxe.rxe.verbs.RxeDevice#detachMcast} detached a QP from a multicast group.
     *
     * @param qp the QP.
     * @param gidHi the group's GID, bytes 0..7.
     * @param gidLo the group's GID, bytes 8..15.
     */
    default void onDetachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
    }
}
