package io.jrxe.rxe.engine;

import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.EngineInvoker;
import io.jrxe.rxe.spi.QpDoorbell;
import io.jrxe.rxe.spi.QpModifyListener;
import io.jrxe.rxe.spi.ShardMap;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SharedReceiveQueue;

/**
 * A device served by N engine shards (docs/shards.md): this router is what the device's port sees as its one
 * engine. Every call about a QP goes to the shard {@link ShardMap#shardOf} names; control tasks go to shard 0
 * unless they ask for a shard ({@link #shard(int)}, e.g. a CQ's resize on the shard that fills it).
 * <pre>
 *   verbs (any thread): post -> onPost(qp) ----\
 *                       modify/destroy/mcast ---+--> shards[shardOf(qpn)]   (doorbell, command queue)
 *                       invoke(task) ----------/---> shards[0]               (control tasks: the CM, MR/FMR maps)
 *   shard s thread:     NIC pair s -> receive -> own QP? yes: Receiver; no: ShardForwarder -> owner's ring
 * </pre>
 * Thread contract: the router holds no state of its own beyond the shard array fixed at construction; each call is
 * the called shard's contract ({@link RxeEngine#onPost} from any thread, and so on).
 */
public final class EngineShards implements QpDoorbell, QpModifyListener, EngineInvoker
{
    private final RxeEngine[] shards;

    /**
     * Wires the shards' forward rings to each other and attaches the router to the device's port.
     *
     * @param port   the device's port (each engine was built on it with {@link RxeEngine.Context#shard})
     * @param shards engine i must be shard i of {@code shards.length}
     * @throws IllegalArgumentException if an engine is not the shard its index says
     */
    public EngineShards(final DevicePort port, final RxeEngine... shards)
    {
        this.shards = shards.clone();
        final ShardForwarder[] forwarders = new ShardForwarder[shards.length];
        for (int i = 0; i < shards.length; i++)
        {
            if (shards[i].shard() != i || shards[i].shards() != shards.length)
            {
                throw new IllegalArgumentException("engine " + i + " is shard " + shards[i].shard() + " of " +
                    shards[i].shards() + ", not " + i + " of " + shards.length);
            }
            forwarders[i] = shards[i].forwarder();
        }
        for (final ShardForwarder f : forwarders)
        {
            f.shards(forwarders);
        }
        port.attach(this, this, this);
    }

    /** @return the number of shards */
    public int count()
    {
        return shards.length;
    }

    /** @return shard {@code index}'s engine */
    public RxeEngine engine(final int index)
    {
        return shards[index];
    }

    /** @return the engine that owns QP {@code qpn} */
    public RxeEngine ownerOf(final int qpn)
    {
        return shards[ShardMap.shardOf(qpn, shards.length)];
    }

    @Override
    public void onPost(final QueuePair qp, final boolean send)
    {
        ownerOf(qp.qpn()).onPost(qp, send);
    }

    @Override
    public void onSrqPost(final SharedReceiveQueue srq)
    {
        // as for one engine: a receive is consumed only when a request arrives
    }

    @Override
    public void onModify(final QueuePair qp, final QpState from, final QpState to, final int mask, final QpAttr attr)
    {
        ownerOf(qp.qpn()).onModify(qp, from, to, mask, attr);
    }

    @Override
    public void onDestroy(final QueuePair qp)
    {
        ownerOf(qp.qpn()).onDestroy(qp);
    }

    @Override
    public void onAttachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        ownerOf(qp.qpn()).onAttachMcast(qp, gidHi, gidLo);
    }

    @Override
    public void onDetachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        ownerOf(qp.qpn()).onDetachMcast(qp, gidHi, gidLo);
    }

    @Override
    public boolean invoke(final Runnable task)
    {
        return shards[0].invoke(task);
    }

    @Override
    public int invokeAndWait(final Runnable task, final long timeoutNs)
    {
        return shards[0].invokeAndWait(task, timeoutNs);
    }

    @Override
    public boolean isEngineThread()
    {
        return shards[0].isEngineThread();
    }

    /** Zero-copy transmit is shard 0's alone: other queue pairs have no transmit gather, so they copy. */
    @Override
    public long zeroCopyTicket()
    {
        return shards[0].zeroCopyTicket();
    }

    @Override
    public boolean zeroCopyRetired(final long ticket)
    {
        return shards[0].zeroCopyRetired(ticket);
    }

    @Override
    public EngineInvoker shard(final int shard)
    {
        return shards[shard];
    }
}
