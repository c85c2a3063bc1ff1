package io.jrxe.net;

import io.jrxe.driver.NicDevice;
import org.agrona.concurrent.NanoClock;

/**
 * The primary stack's lanes ({@link NetStack#lane(int)}): one {@link NetStack} per further NIC queue pair, each
 * owned by its own thread, and the {@link NeighborRelay} to each that carries what the primary's ARP and ND tables
 * learn. Lanes are made on the control path, before the threads start; from then on the primary's thread is the
 * only one here, publishing through {@link Publisher}s (allocation-free, no locks: one SPSC ring per lane).
 */
final class Lanes
{
    private final NetStack primary;
    private final NicDevice device;
    private final NetStackContext ctx;
    private final NeighborTable arp;
    private final NeighborTable nd;
    /** Indexed by queue pair; [0] stays null (the primary). */
    private final NetStack[] lanes;
    /** The relays of the lanes made so far, in creation order, for the publishers to walk. */
    private NeighborRelay[] relays = new NeighborRelay[0];

    Lanes(final NetStack primary, final NicDevice device, final NetStackContext ctx,
        final NeighborTable arp, final NeighborTable nd)
    {
        this.primary = primary;
        this.device = device;
        this.ctx = ctx;
        this.arp = arp;
        this.nd = nd;
        this.lanes = new NetStack[Math.max(1, device.queuePairs())];
    }

    /** @see NetStack#lane(int) */
    NetStack create(final int queuePair, final NanoClock clock)
    {
        final int pairs = device.queuePairs();
        if (queuePair < 1 || queuePair >= pairs)
        {
            throw new IllegalArgumentException("lane queue pair must be 1 .. " + (pairs - 1) + " (NIC " +
                device.name() + " runs " + pairs + " queue pair" + (1 == pairs ? "" : "s") +
                "; pair 0 is the primary stack's): " + queuePair);
        }
        if (null != lanes[queuePair])
        {
            throw new IllegalStateException("queue pair " + queuePair + " already has a lane: each pair has one " +
                "owner thread and one stack");
        }
        final NetStack lane = new NetStack(device, ctx, queuePair, clock);
        final NeighborRelay relay = lane.relay();
        // entries learned before the lane existed: copied now, on the control path (no thread runs yet)
        relay.copyFrom(arp, nd, primary.nowNs());
        if (0 == relays.length)
        {
            arp.listener(new Publisher(NeighborRelay.TYPE_IPV4));
            nd.listener(new Publisher(NeighborRelay.TYPE_IPV6));
        }
        final NeighborRelay[] grown = new NeighborRelay[relays.length + 1];
        System.arraycopy(relays, 0, grown, 0, relays.length);
        grown[relays.length] = relay;
        relays = grown;
        lanes[queuePair] = lane;
        return lane;
    }

    /** The lane of {@code queuePair}, null if none was made. */
    NetStack lane(final int queuePair)
    {
        return queuePair > 0 && queuePair < lanes.length ? lanes[queuePair] : null;
    }

    /** Passes one of the primary's ARP or ND entries to every lane; runs on the primary's thread. */
    private final class Publisher implements NeighborTable.Listener
    {
        private final int type;

        Publisher(final int type)
        {
            this.type = type;
        }

        @Override
        public void learned(final long hi, final long lo, final long mac, final int relayFlags)
        {
            for (final NeighborRelay relay : relays)
            {
                if (!relay.publish(type, hi, lo, mac, relayFlags))
                {
                    primary.count(NetCounter.NEIGHBOR_RELAY_FULL);
                }
            }
        }
    }
}
