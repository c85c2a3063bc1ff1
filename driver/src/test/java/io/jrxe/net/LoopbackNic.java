package io.jrxe.net;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicStats;
import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.pci.DmaMapper;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * In-memory NicDevice test double. Two ends can be {@link #connect connected}: a frame sent on one end is copied
 * into a buffer of the other end's pool and queued for its next rxBatch. Every transmitted frame is also kept as a
 * byte[] for assertions, and tests can {@link #inject} frames as if they came from the wire.
 */
final class LoopbackNic implements NicDevice
{
    private final String name;
    private final long mac;
    private final int mtu;
    private final DirectDmaRegion region;
    private final PacketPool pool;
    private final NicStats stats = new NicStats();
    private final ArrayDeque<Integer> rxQueue = new ArrayDeque<>();
    private final List<byte[]> transmitted = new ArrayList<>();
    private LoopbackNic peer;
    private int txLimit = Integer.MAX_VALUE;
    /** Gather segments per buffer id (identity IOVA: read at the address), as a scatter-gather NIC takes them. */
    private final Map<Integer, List<long[]>> gathers = new HashMap<>();
    private final List<Integer> gatherCancels = new ArrayList<>();
    private int maxTxGather;
    private boolean linkUp = true;
    private int rxFilterCapacity = NO_RX_FILTER;
    private RxFilterStatus rxFilterStatus = RxFilterStatus.NOT_SET;
    private String rxFilterError;
    /** Receive filter requests, oldest first: {promiscuous, allMulticast, macs...} with booleans as 0/1. */
    private final List<long[]> rxFilterRequests = new ArrayList<>();
    private int rxFilterStatusQueries;

    LoopbackNic(final String name, final long mac, final int mtu, final int bufferSize, final int bufferCount)
    {
        this.name = name;
        this.mac = mac;
        this.mtu = mtu;
        this.region = new DirectDmaRegion((long)bufferSize * bufferCount, DmaMapper.NONE);
        this.pool = new PacketPool(region, bufferSize, bufferCount);
    }

    LoopbackNic(final String name, final long mac)
    {
        this(name, mac, 1500, 2048, 256);
    }

    static void connect(final LoopbackNic a, final LoopbackNic b)
    {
        a.peer = b;
        b.peer = a;
    }

    /** Segments a frame may gather after its buffer (default 0: none). */
    void maxTxGather(final int max)
    {
        this.maxTxGather = max;
    }

    /** Ids whose segments were cancelled, in order. */
    List<Integer> gatherCancels()
    {
        return gatherCancels;
    }

    @Override
    public int maxTxGather()
    {
        return maxTxGather;
    }

    @Override
    public boolean txGather(final int id, final long iova, final int length)
    {
        final List<long[]> segments = gathers.computeIfAbsent(id, k -> new ArrayList<>());
        if (segments.size() == maxTxGather)
        {
            return false;
        }
        segments.add(new long[] {iova, length});
        return true;
    }

    @Override
    public int txGatherLength(final int id)
    {
        int length = 0;
        for (final long[] segment : gathers.getOrDefault(id, List.of()))
        {
            length += (int)segment[1];
        }
        return length;
    }

    @Override
    public void txGatherCancel(final int id)
    {
        gatherCancels.add(id);
        gathers.remove(id);
    }

    /**
     * Gives the NIC a receive filter of {@code capacity} multicast MACs (default none: {@link #NO_RX_FILTER}). It only
     * records the requests; the test says when the "device" has taken one ({@link #rxFilterStatus(RxFilterStatus,
     * String)}).
     */
    void rxFilterCapacity(final int capacity)
    {
        this.rxFilterCapacity = capacity;
    }

    /** What {@link #rxFilterStatus()} reports from now on, and the error with it. */
    void rxFilterStatus(final RxFilterStatus status, final String error)
    {
        this.rxFilterStatus = status;
        this.rxFilterError = error;
    }

    List<long[]> rxFilterRequests()
    {
        return rxFilterRequests;
    }

    int rxFilterStatusQueries()
    {
        return rxFilterStatusQueries;
    }

    @Override
    public int rxFilterCapacity()
    {
        return rxFilterCapacity;
    }

    @Override
    public boolean rxFilter(
        final boolean promiscuous, final boolean allMulticast, final long[] multicastMacs, final int count)
    {
        if (NO_RX_FILTER == rxFilterCapacity)
        {
            return false;
        }
        if (count > rxFilterCapacity)
        {
            throw new IllegalArgumentException("rxFilter: " + count + " MACs, capacity " + rxFilterCapacity);
        }
        final long[] request = new long[2 + count];
        request[0] = promiscuous ? 1 : 0;
        request[1] = allMulticast ? 1 : 0;
        System.arraycopy(multicastMacs, 0, request, 2, count);
        rxFilterRequests.add(request);
        rxFilterStatus = RxFilterStatus.PENDING;
        return true;
    }

    @Override
    public RxFilterStatus rxFilterStatus()
    {
        rxFilterStatusQueries++;
        return NO_RX_FILTER == rxFilterCapacity ? RxFilterStatus.UNSUPPORTED : rxFilterStatus;
    }

    @Override
    public String rxFilterError()
    {
        return rxFilterError;
    }

    /** Frames accepted per txBatch call, to simulate a full tx ring. */
    void txLimit(final int limit)
    {
        this.txLimit = limit;
    }

    void linkUp(final boolean up)
    {
        this.linkUp = up;
    }

    /** Queues a frame for the next rxBatch; false if the pool is empty (counted as rx dropped). */
    boolean inject(final byte[] frame)
    {
        return inject(frame, frame.length);
    }

    /** Queues a frame whose reported length may differ from the bytes copied (to fake a broken device). */
    boolean inject(final byte[] frame, final int reportedLength)
    {
        final int id = pool.alloc();
        if (id < 0)
        {
            stats.rxDropped++;
            return false;
        }
        final int copy = Math.min(frame.length, pool.dataCapacity());
        pool.buffer().putBytes(pool.dataOffset(id), frame, 0, copy);
        pool.length(id, reportedLength);
        rxQueue.add(id);
        return true;
    }

    int rxQueued()
    {
        return rxQueue.size();
    }

    /** Frames sent so far, oldest first. */
    List<byte[]> transmitted()
    {
        return transmitted;
    }

    byte[] lastTransmitted()
    {
        return transmitted.isEmpty() ? null : transmitted.get(transmitted.size() - 1);
    }

    void clearTransmitted()
    {
        transmitted.clear();
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public long macAddress()
    {
        return mac;
    }

    @Override
    public int mtu()
    {
        return mtu;
    }

    @Override
    public boolean linkUp()
    {
        return linkUp;
    }

    @Override
    public PacketPool pool()
    {
        return pool;
    }

    @Override
    public int rxBatch(final int[] ids, final int max)
    {
        int n = 0;
        while (n < max && !rxQueue.isEmpty())
        {
            final int id = rxQueue.poll();
            ids[n++] = id;
            stats.rxPackets++;
            stats.rxBytes += pool.length(id);
        }
        return n;
    }

    @Override
    public int txBatch(final int[] ids, final int count)
    {
        final int accepted = Math.min(count, txLimit);
        final UnsafeBuffer buffer = pool.buffer();
        for (int i = 0; i < accepted; i++)
        {
            final int id = ids[i];
            final byte[] frame = new byte[pool.length(id) + txGatherLength(id)];
            buffer.getBytes(pool.dataOffset(id), frame, 0, pool.length(id));
            int at = pool.length(id);
            for (final long[] segment : gathers.getOrDefault(id, List.of()))
            {
                new UnsafeBuffer(segment[0], (int)segment[1]).getBytes(0, frame, at, (int)segment[1]);
                at += (int)segment[1];
            }
            gathers.remove(id);
            transmitted.add(frame);
            stats.txPackets++;
            stats.txBytes += frame.length;
            if (null != peer)
            {
                peer.inject(frame);
            }
            pool.free(id);
        }
        stats.txRingFull += count - accepted;
        return accepted;
    }

    @Override
    public NicStats stats()
    {
        return stats;
    }

    @Override
    public void close()
    {
        region.close();
    }
}
