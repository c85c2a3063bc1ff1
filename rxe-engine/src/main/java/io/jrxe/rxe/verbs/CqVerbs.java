package io.jrxe.rxe.verbs;

import java.util.concurrent.TimeUnit;

import io.jrxe.rxe.spi.IndexAllocator;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The CQ and completion-channel verbs of a device (create, resize, moderate, destroy), kept apart from
 * {@link RxeDevice} which forwards to them. Checks run under the device lock; what the engine reads without a lock
 * (a CQ's ring, its moderation) changes on the engine thread, waited for outside the lock; the moderation list
 * belongs to the engine thread.
 */
final class CqVerbs
{
    /** How long a resize or moderation change waits for the engine thread. */
    private static final long ENGINE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    /** {@code ib_modify_cq} takes u16 values. */
    private static final int MAX_MODERATION = 0xFFFF;

    private final RxeDevice device;
    private final int maxCq;
    private final int maxCqe;
    private final IndexAllocator handles;
    private final Int2ObjectHashMap<CompletionQueue> cqs = new Int2ObjectHashMap<>();
    private final int vectors;
    /** Per completion vector, its engine shard's thread only: CQs with a moderated event pending, the clock. */
    private final CompletionQueue[][] moderated;
    private final int[] moderatedCount;
    private final long[] nowNs;

    CqVerbs(final RxeDevice device, final int maxCq, final int maxCqe, final int vectors)
    {
        this.device = device;
        this.maxCq = maxCq;
        this.maxCqe = maxCqe;
        this.vectors = vectors;
        this.handles = new IndexAllocator(1, maxCq);
        this.moderated = new CompletionQueue[vectors][16];
        this.moderatedCount = new int[vectors];
        // a shard writes its own slot: pad so two shards' clocks do not share a cache line
        this.nowNs = new long[vectors * PAD];
    }

    private static final int PAD = 8;

    CompletionChannel createChannel()
    {
        return new CompletionChannel(device);
    }

    void destroyChannel(final CompletionChannel channel)
    {
        if (null == channel || channel.device() != device || channel.isDestroyed())
        {
            throw new VerbsException(Errno.EINVAL, "completion channel is null, destroyed or from another device");
        }
        if (channel.boundCqs() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "completion channel still has " + channel.boundCqs() +
                " CQs; destroy them first (ibv_destroy_comp_channel)");
        }
        channel.destroyed();
    }

    CompletionQueue create(final CqInitAttr attr)
    {
        checkSize(attr.cqe());
        final CompletionChannel channel = attr.channel();
        if (null != channel && (channel.device() != device || channel.isDestroyed()))
        {
            throw new VerbsException(Errno.EINVAL, "completion channel is destroyed or from another device");
        }
        ShardRules.checkVector(attr.compVector(), vectors);
        final int handle = RxeDevice.allocate(handles, "CQ", maxCq);
        final CompletionQueue cq = new CompletionQueue(device, handle, attr);
        cqs.put(handle, cq);
        if (null != channel)
        {
            channel.bind();
        }
        return cq;
    }

    void destroy(final CompletionQueue cq)
    {
        check(cq);
        if (cq.useCount() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "CQ " + cq.handle() + " is used by " + cq.useCount() +
                " QPs; destroy them first");
        }
        RxeDevice.checkAcked(cq.asyncUnacked().get(), "CQ " + cq.handle());
        if (cq.unackedEvents() > 0)
        {
            // libibverbs blocks in ibv_destroy_cq until they are acknowledged; jrxe says so instead of hanging
            throw new VerbsException(Errno.EBUSY, "CQ " + cq.handle() + " has " + cq.unackedEvents() +
                " completion events taken but not acknowledged; call ackEvents first");
        }
        cq.destroyed();
        cqs.remove(cq.handle());
        handles.free(cq.handle());
        if (null != cq.channel())
        {
            cq.channel().unbind();
        }
    }

    /**
     * {@code ib_resize_cq} (rxe_cq_chk_attr, rxe_queue_resize): checked under the device lock, then swapped to a new
     * ring on the engine thread (waited for outside the lock).
     */
    void resize(final CompletionQueue cq, final int cqe)
    {
        final CompletionQueue.Ring next;
        synchronized (device)
        {
            check(cq);
            checkSize(cqe);
            final int queued = cq.count();
            if (cqe < queued)
            {
                throw new VerbsException(Errno.EINVAL, "CQ size " + cqe + " is below the " + queued +
                    " completions queued; poll them first");
            }
            next = new CompletionQueue.Ring(CompletionQueue.lengthFor(cqe));
        }
        onEngine(() ->
        {
            if (cq.count() > next.cqe())
            {
                throw new VerbsException(Errno.EINVAL, "completions arrived meanwhile: " + cq.count() +
                    " no longer fit " + next.cqe() + " entries");
            }
            cq.swapRing(next);
        }, cq, "resize of CQ " + cq.handle());
    }

    /**
     * {@code ib_modify_cq} / {@code rdma_set_cq_moderation}: rxe has no moderation (EOPNOTSUPP); jrxe moderates. The
     * values change on the engine thread, which alone reads them.
     */
    void modify(final CompletionQueue cq, final int cqCount, final int cqPeriodUs)
    {
        synchronized (device)
        {
            check(cq);
            if (cqCount < 0 || cqCount > MAX_MODERATION || cqPeriodUs < 0 || cqPeriodUs > MAX_MODERATION)
            {
                throw new VerbsException(Errno.EINVAL, "cq_count " + cqCount + " and cq_period " + cqPeriodUs +
                    " must be in [0, 65535] (u16)");
            }
        }
        onEngine(() -> cq.moderation(cqCount, TimeUnit.MICROSECONDS.toNanos(cqPeriodUs)), cq,
            "moderation of CQ " + cq.handle());
    }

    /** On the thread of the engine shard that fills the CQ (its one producer). */
    private void onEngine(final Runnable task, final CompletionQueue cq, final String what)
    {
        final int result = device.onEngineThread(cq.compVector(), task, ENGINE_TIMEOUT_NS);
        if (0 != result)
        {
            throw new VerbsException(-result, "the engine thread did not run the " + what + " (" +
                Errno.name(result) + "): is the node driven?");
        }
    }

    CompletionQueue lookup(final int handle)
    {
        return cqs.get(handle);
    }

    boolean isLive(final CompletionQueue cq)
    {
        return null != cq && cqs.get(cq.handle()) == cq;
    }

    private void check(final CompletionQueue cq)
    {
        if (!isLive(cq))
        {
            throw new VerbsException(Errno.EINVAL, "CQ is null, destroyed or from another device");
        }
    }

    private void checkSize(final int cqe)
    {
        if (cqe <= 0 || cqe > maxCqe)
        {
            throw new VerbsException(Errno.EINVAL, "CQ size " + cqe + " outside [1, max_cqe = " + maxCqe + "]");
        }
    }

    // ---------------------------------------------------------------- engine thread: moderation timers

    long now(final int vector)
    {
        return nowNs[vector * PAD];
    }

    void pending(final CompletionQueue cq)
    {
        final int v = cq.compVector();
        CompletionQueue[] list = moderated[v];
        if (moderatedCount[v] == list.length)
        {
            list = java.util.Arrays.copyOf(list, list.length * 2); // rare: once per CQ count
            moderated[v] = list;
        }
        list[moderatedCount[v]++] = cq;
    }

    /** Engine shard {@code vector}'s thread: fire the moderated events of its CQs that are due. */
    int poll(final long now, final int vector)
    {
        nowNs[vector * PAD] = now;
        final CompletionQueue[] list = moderated[vector];
        int fired = 0;
        for (int i = 0; i < moderatedCount[vector]; )
        {
            if (list[i].pollModeration(now))
            {
                final int last = --moderatedCount[vector];
                list[i] = list[last];
                list[last] = null;
                fired++;
            }
            else
            {
                i++;
            }
        }
        return fired;
    }

    /** @return CQs that exist */
    int count()
    {
        return handles.count();
    }
}
