package io.jrxe.rxe.spi;

import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.rxe.verbs.AsyncEvent;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SharedReceiveQueue;
import io.jrxe.rxe.verbs.WorkCompletion;

/**
 * The one door through which the provider side (the engine and the node that wires it to a netdev) reaches a verbs
 * device and its objects; what an application holds ({@link RxeDevice}, {@link QueuePair}, {@link CompletionQueue}
 * ...) has no public method that does any of this. Obtained once per device with {@link DevicePorts#claim}.
 * <pre>
 *   application --- RxeDevice / QueuePair / CompletionQueue ...  (io.jrxe.rxe.verbs: the API)
 *                          |  package-private hooks
 *                     DevicePort  (io.jrxe.rxe.spi) --- RxeEngine (engine thread), RoceNode (netdev events)
 * </pre>
 * Threads: the data-path methods (rings, {@link #postCompletion}, {@link #srqConsumed}, {@link #qp}) are for the
 * engine thread; {@link #attach}, {@link #portState}, {@link #netdevMtu} and the GID setters for the control path.
 */
public interface DevicePort
{
    /** @return the device this port belongs to. */
    RxeDevice device();

    /**
     * Connect the engine: it is told of every post and modify and runs tasks for the device on its thread. One engine
     * at a time.
     *
     * @param doorbell told after WRs are published
     * @param listener told after every modify and destroy of a QP
     * @param invoker  runs control-path tasks on the engine thread
     * @throws IllegalStateException if an engine is attached already
     */
    void attach(QpDoorbell doorbell, QpModifyListener listener, EngineInvoker invoker);

    /** Disconnect the engine (posts still queue, nothing transmits them). */
    void detach();

    // ---------------------------------------------------------------- netdev side (control path)

    /**
     * The netdev's carrier changed: set the port state, raising PORT_ACTIVE / PORT_ERR on a change.
     *
     * @param state ACTIVE or DOWN
     */
    void portState(PortState state);

    /**
     * The netdev MTU changed: recompute the active MTU as rxe does ({@code rxe_set_mtu}).
     *
     * @param netdevMtu Ethernet MTU
     */
    void netdevMtu(int netdevMtu);

    /**
     * The NIC's DMA address space, which the device's {@code ib_dma_*} API maps into (identity until set).
     *
     * @param space the NIC's IOVA space
     * @throws io.jrxe.rxe.verbs.VerbsException EBUSY once mappings exist
     */
    void iovaSpace(IovaSpace space);

    /**
     * Fill a GID table entry (roce_gid_mgmt: the netdev's addresses).
     *
     * @param index entry
     * @param hi    GID bytes 0..7
     * @param lo    GID bytes 8..15
     */
    void setGid(int index, long hi, long lo);

    /**
     * Empty a GID table entry.
     *
     * @param index entry
     */
    void clearGid(int index);

    // ---------------------------------------------------------------- engine thread

    /**
     * @param qpn QP number
     * @return the QP, or null; lock-free and allocation-free
     */
    QueuePair qp(int qpn);

    /**
     * @param srqn the XRC SRQ number an XRCETH carries
     * @return the XRC SRQ of that number, or null (none, or a basic SRQ); lock-free and allocation-free
     */
    SharedReceiveQueue xrcSrq(int srqn);

    /** @return the memory key table the engine validates keys against. */
    MrTable mrTable();

    /** @return the port's active MTU in bytes (the path MTU of datagram QPs). */
    int activeMtu();

    /**
     * @param qp a QP
     * @return its send queue ring (the engine is the consumer)
     */
    WqeRing<SendWqe> sendRing(QueuePair qp);

    /**
     * @param qp a QP
     * @return its receive queue ring, its SRQ's ring when it has one, or null for XRC QPs (no receive queue)
     */
    WqeRing<RecvWqe> recvRing(QueuePair qp);

    /**
     * @param srq an SRQ
     * @return its ring (the engine is the consumer); an XRC target QP takes receives from the SRQ each request names
     */
    WqeRing<RecvWqe> srqRing(SharedReceiveQueue srq);

    /**
     * A fatal transport error moved the QP to ERR (IBA 10.3.1: the QP enters the Error state on its own); the
     * engine then flushes its queues.
     *
     * @param qp the QP
     */
    void transitionToError(QueuePair qp);

    /**
     * The SQD drain finished; raises SQ_DRAINED if the QP asked for it.
     *
     * @param qp the QP
     */
    void sqDrained(QueuePair qp);

    /**
     * Receive WQEs of an SRQ were taken: retire them and raise SRQ_LIMIT_REACHED if the count fell below an armed
     * limit (IBA 10.2.9.2).
     *
     * @param srq      the SRQ
     * @param position new consumer position
     */
    void srqConsumed(SharedReceiveQueue srq, long position);

    /**
     * Queue a completion (engine thread, the CQ's only producer).
     *
     * @param cq        the CQ
     * @param wc        the completion to copy
     * @param solicited whether it is solicited: the SE bit of a received message; receive completions without a
     *                  packet (flushes) are solicited, as rxe's do_complete makes them
     * @return 0, {@code -EBUSY} on overrun (the CQ is now in error), {@code -EIO} if already in error
     */
    int postCompletion(CompletionQueue cq, WorkCompletion wc, boolean solicited);

    /**
     * Fire CQ events whose moderation period ran out (engine thread, once per duty cycle), of the CQs the shard
     * fills (completion vector {@code shard}).
     *
     * @param nowNs the duty cycle's clock
     * @param shard the calling engine shard
     * @return events fired
     */
    int pollCqModeration(long nowNs, int shard);

    /**
     * Deliver an asynchronous event.
     *
     * @param event   event type
     * @param element QPN, CQ/SRQ handle or port number
     */
    void raise(AsyncEvent event, int element);
}
