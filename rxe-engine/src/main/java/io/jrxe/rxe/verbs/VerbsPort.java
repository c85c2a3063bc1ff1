package io.jrxe.rxe.verbs;

import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.EngineInvoker;
import io.jrxe.rxe.spi.MrTable;
import io.jrxe.rxe.spi.QpDoorbell;
import io.jrxe.rxe.spi.QpModifyListener;
import io.jrxe.rxe.spi.RecvWqe;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;

import java.util.concurrent.locks.LockSupport;

/**
 * The {@link DevicePort} of one device: each method forwards to a package-private hook of the verbs objects, so
 * the hooks stay out of the application API.
 */
final class VerbsPort implements DevicePort
{
    /** Pause between two looks at the NIC's transmit ring while a deregistration waits for it. */
    private static final long FENCE_POLL_NS = 20_000;
    private static final QpDoorbell NO_DOORBELL = (qp, send) ->
    {
    };

    private final RxeDevice device;
    private volatile QpDoorbell doorbell = NO_DOORBELL;
    private volatile QpModifyListener modifyListener;
    private volatile EngineInvoker invoker;
    private boolean claimed;

    VerbsPort(final RxeDevice device)
    {
        this.device = device;
    }

    synchronized VerbsPort claim()
    {
        if (claimed)
        {
            throw new IllegalStateException(
                "the device's port is claimed already: one provider (engine and node) per device");
        }
        claimed = true;
        return this;
    }

    QpDoorbell doorbell()
    {
        return doorbell;
    }

    /** After an attach to a multicast group, outside the device lock: the engine delivers the group's packets. */
    void attachedMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        final QpModifyListener listener = modifyListener;
        if (null != listener)
        {
            listener.onAttachMcast(qp, gidHi, gidLo);
        }
    }

    /** After a detach from a multicast group, outside the device lock. */
    void detachedMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        final QpModifyListener listener = modifyListener;
        if (null != listener)
        {
            listener.onDetachMcast(qp, gidHi, gidLo);
        }
    }

    /**
     * After a modify, on the modifying thread, outside the device lock: the engine takes its copy of the attributes.
     *
     * @param after the QP's attributes after the modify (qp_state the new state, cur_qp_state the one before)
     */
    void modified(final QueuePair qp, final QpAttr after, final int mask)
    {
        final QpModifyListener listener = modifyListener;
        if (null != listener)
        {
            listener.onModify(qp, after.curQpState(), after.qpState(), mask, after);
        }
        else if (QpState.RESET == after.qpState())
        {
            qp.resetRings(); // no engine consumes the rings: drop the queued WQEs here
        }
    }

    void destroyed(final QueuePair qp)
    {
        final QpModifyListener listener = modifyListener;
        if (null != listener)
        {
            listener.onDestroy(qp);
        }
    }

    boolean invoke(final Runnable task)
    {
        final EngineInvoker engine = invoker;
        if (null == engine)
        {
            task.run();
            return true;
        }
        return engine.invoke(task);
    }

    int onEngineThread(final int shard, final Runnable task, final long timeoutNs)
    {
        final EngineInvoker engine = invoker;
        return null == engine ? onEngineThread(task, timeoutNs) : engine.shard(shard).invokeAndWait(task, timeoutNs);
    }

    int onEngineThread(final Runnable task, final long timeoutNs)
    {
        final EngineInvoker engine = invoker;
        if (null == engine)
        {
            task.run();
            return 0;
        }
        return engine.invokeAndWait(task, timeoutNs);
    }

    /**
     * Waits until the NIC can no longer read the MR memory of any zero-copy packet sent before this call: a ticket
     * from the engine thread, then the engine asked again until the NIC has given back every chain up to it. When
     * the caller is the thread driving the engine (and maybe the emulated NIC) the NIC cannot progress while it
     * waits: it is asked once, and EBUSY says to step the node and try again.
     *
     * @param timeoutNs how long to wait
     * @return 0, {@code -EBUSY}, {@code -ETIMEDOUT}, or what {@link EngineInvoker#invokeAndWait} returned
     */
    int zeroCopyFence(final long timeoutNs)
    {
        final EngineInvoker engine = invoker;
        if (null == engine)
        {
            return 0; // no engine: nothing was sent
        }
        final long[] ticket = new long[1];
        final boolean[] retired = new boolean[1];
        int result = engine.invokeAndWait(() -> ticket[0] = engine.zeroCopyTicket(), timeoutNs);
        final long deadline = System.nanoTime() + timeoutNs;
        while (0 == result)
        {
            result = engine.invokeAndWait(() -> retired[0] = engine.zeroCopyRetired(ticket[0]), timeoutNs);
            if (0 != result || retired[0])
            {
                break;
            }
            if (engine.isEngineThread())
            {
                return -Errno.EBUSY;
            }
            if (System.nanoTime() - deadline > 0)
            {
                return -Errno.ETIMEDOUT;
            }
            LockSupport.parkNanos(FENCE_POLL_NS);
        }
        return result;
    }

    @Override
    public RxeDevice device()
    {
        return device;
    }

    @Override
    public synchronized void attach(final QpDoorbell bell, final QpModifyListener listener, final EngineInvoker engine)
    {
        if (null != invoker)
        {
            throw new IllegalStateException("an engine is attached to this device already");
        }
        doorbell = null == bell ? NO_DOORBELL : bell;
        modifyListener = listener;
        invoker = engine;
    }

    @Override
    public synchronized void detach()
    {
        doorbell = NO_DOORBELL;
        modifyListener = null;
        invoker = null;
    }

    @Override
    public void portState(final PortState state)
    {
        device.portState(state);
    }

    @Override
    public void netdevMtu(final int netdevMtu)
    {
        device.netdevMtu(netdevMtu);
    }

    @Override
    public void iovaSpace(final IovaSpace space)
    {
        device.iovaSpace(space);
    }

    @Override
    public void setGid(final int index, final long hi, final long lo)
    {
        device.gidTable().set(index, hi, lo);
    }

    @Override
    public void clearGid(final int index)
    {
        device.gidTable().clear(index);
    }

    @Override
    public QueuePair qp(final int qpn)
    {
        return device.qp(qpn);
    }

    @Override
    public SharedReceiveQueue xrcSrq(final int srqn)
    {
        return device.xrcSrq(srqn);
    }

    @Override
    public MrTable mrTable()
    {
        return device.mrTable();
    }

    @Override
    public int activeMtu()
    {
        return device.activeMtu();
    }

    @Override
    public WqeRing<SendWqe> sendRing(final QueuePair qp)
    {
        return qp.sendQueue().ring();
    }

    @Override
    public WqeRing<RecvWqe> recvRing(final QueuePair qp)
    {
        if (null != qp.srq())
        {
            return qp.srq().ring();
        }
        return null != qp.recvQueue() ? qp.recvQueue().ring() : null; // XRC: the SRQ comes with each request
    }

    @Override
    public WqeRing<RecvWqe> srqRing(final SharedReceiveQueue srq)
    {
        return srq.ring();
    }

    @Override
    public void transitionToError(final QueuePair qp)
    {
        qp.transitionToError();
    }

    @Override
    public void sqDrained(final QueuePair qp)
    {
        qp.sqDrained();
    }

    @Override
    public void srqConsumed(final SharedReceiveQueue srq, final long position)
    {
        srq.advanceConsumer(position);
    }

    @Override
    public int postCompletion(final CompletionQueue cq, final WorkCompletion wc, final boolean solicited)
    {
        return cq.post(wc, solicited);
    }

    @Override
    public int pollCqModeration(final long nowNs, final int shard)
    {
        return device.cqVerbs().poll(nowNs, shard);
    }

    @Override
    public void raise(final AsyncEvent event, final int element)
    {
        device.raise(event, element, device.serialOf(event, element));
    }
}
