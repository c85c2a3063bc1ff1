package io.jrxe.rxe.net;

import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.pci.DmaMapper;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Random;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Two {@link RxePacketIo} endpoints connected back to back in memory, with deterministic (seeded) loss, reorder,
 * duplication and corruption. Frames carry a fake 14-byte Ethernet header and a minimal IPv4 or IPv6 + UDP header
 * so that the engine's ICRC covers realistic bytes. Test code: it allocates per frame.
 * <pre>
 *  endpoint A --send--> [in flight to B] --B.poll()--> B's sink.receive(...)
 *  endpoint B --send--> [in flight to A] --A.poll()--> A's sink.receive(...)
 * </pre>
 */
public final class MemoryWire
{
    static final int ETH_LENGTH = 14;

    /** Fault injection settings, probabilities in [0, 1]. */
    public static final class Faults
    {
        public double loss;
        public double duplicate;
        public double reorder;
        public double corrupt;
    }

    private final Random random;
    private final Faults faults = new Faults();
    private final Endpoint a;
    private final Endpoint b;

    /**
     * @param seed      seed of the fault generator
     * @param gidA      IPv4 address of endpoint A (IPv4-mapped GID)
     * @param gidB      IPv4 address of endpoint B
     * @param poolCount buffers per endpoint pool
     */
    public MemoryWire(final long seed, final int gidA, final int gidB, final int poolCount)
    {
        random = new Random(seed);
        a = new Endpoint("A", gidA, poolCount);
        b = new Endpoint("B", gidB, poolCount);
        a.peer = b;
        b.peer = a;
    }

    public Faults faults()
    {
        return faults;
    }

    public Endpoint a()
    {
        return a;
    }

    public Endpoint b()
    {
        return b;
    }

    /** One side of the wire. */
    public final class Endpoint implements RxePacketIo, RxePoller
    {
        private final String name;
        private final int ipv4;
        private final PacketPool pool;
        private final ArrayList<byte[]> inbound = new ArrayList<>();
        private final ArrayList<byte[]> held = new ArrayList<>();
        private Endpoint peer;
        private RxePacketSink sink;
        private boolean unreachable;
        private boolean resolving;
        private Faults sendFaults = faults;
        private java.util.function.LongPredicate dropSent;
        private java.util.function.Consumer<byte[]> frameObserver;
        private int txRoom = Integer.MAX_VALUE;
        private long sent;
        private long delivered;
        private long flushes;
        private boolean holdSentBuffers;
        private final ArrayDeque<Integer> sentBuffers = new ArrayDeque<>();

        Endpoint(final String name, final int ipv4, final int poolCount)
        {
            this.name = name;
            this.ipv4 = ipv4;
            final DirectDmaRegion region = new DirectDmaRegion(2048L * poolCount, DmaMapper.NONE);
            this.pool = new PacketPool(region, 2048, poolCount);
        }

        public String name()
        {
            return name;
        }

        /** This endpoint's IPv6 GID high half (documentation prefix 2001:db8::/64). */
        public static final long IPV6_GID_HI = 0x2001_0db8_0000_0000L;

        /** This endpoint's IPv6 GID low half: the IPv4 address in the interface id. */
        public long ipv6GidLo()
        {
            return ipv4 & 0xffff_ffffL;
        }

        /** This endpoint's GID low half (IPv4-mapped). */
        public long gidLo()
        {
            return 0x0000_ffff_0000_0000L | (ipv4 & 0xffff_ffffL);
        }

        public void sink(final RxePacketSink sink)
        {
            this.sink = sink;
        }

        /** Uses separate fault settings for frames this endpoint sends (default: the wire's shared ones). */
        public Faults ownFaults()
        {
            if (sendFaults == faults)
            {
                sendFaults = new Faults();
            }
            return sendFaults;
        }

        /** Drops the frames whose send index (0-based, counting every send of this endpoint) matches. */
        public void dropSent(final java.util.function.LongPredicate predicate)
        {
            this.dropSent = predicate;
        }

        /**
         * What {@link #txRoom()} reports (default unbounded): a test fills the transmit queue by setting it to the
         * requester's reserve or less, as a NIC ring that stays full.
         */
        public void txRoom(final int room)
        {
            this.txRoom = room;
        }

        @Override
        public int txRoom()
        {
            return txRoom;
        }

        /** Gives {@code observer} a copy of every frame this endpoint sends, before any fault applies. */
        public void frameObserver(final java.util.function.Consumer<byte[]> observer)
        {
            this.frameObserver = observer;
        }

        /**
         * Keeps the buffer of each frame sent (the frame itself goes on the wire at once) until
         * {@link #releaseSentBuffers} frees it, as a NIC that has sent a frame but not yet returned its descriptor.
         */
        public void holdSentBuffers(final boolean hold)
        {
            this.holdSentBuffers = hold;
        }

        /** Frees the {@code count} oldest buffers held since sent (all if fewer); returns how many it freed. */
        public int releaseSentBuffers(final int count)
        {
            int freed = 0;
            while (freed < count && !sentBuffers.isEmpty())
            {
                pool.free(sentBuffers.removeFirst());
                freed++;
            }
            return freed;
        }

        /** @return buffers sent and held, not yet freed */
        public int sentBuffersHeld()
        {
            return sentBuffers.size();
        }

        /** Makes awaitingNeighbor() say the next hop is being resolved. */
        public void awaitingNeighbor(final boolean resolving)
        {
            this.resolving = resolving;
        }

        @Override
        public boolean awaitingNeighbor(final long dstGidHi, final long dstGidLo)
        {
            return resolving;
        }

        /** Makes prepare() fail, as an unresolved neighbour would. */
        public void unreachable(final boolean unreachable)
        {
            this.unreachable = unreachable;
        }

        public long sent()
        {
            return sent;
        }

        public long delivered()
        {
            return delivered;
        }

        public int inFlightToMe()
        {
            return inbound.size() + peer.held.size();
        }

        @Override
        public PacketPool pool()
        {
            return pool;
        }

        @Override
        public int allocTx()
        {
            return pool.alloc();
        }

        @Override
        public int udpPayloadOffset(final boolean ipv6)
        {
            return ETH_LENGTH + (ipv6 ? 40 : 20) + 8;
        }

        @Override
        public boolean prepare(
            final int id, final long dstGidHi, final long dstGidLo, final int srcUdpPort, final int udpPayloadLength)
        {
            if (unreachable)
            {
                return false;
            }
            final boolean ipv6 = !RxePacketIo.isIpv4Mapped(dstGidHi, dstGidLo);
            final UnsafeBuffer buffer = pool.buffer();
            final int base = pool.dataOffset(id);
            buffer.setMemory(base, ETH_LENGTH, (byte)0);
            buffer.putShort(base + 12, (short)(ipv6 ? 0x86DD : 0x0800), BIG_ENDIAN);
            final int ip = base + ETH_LENGTH;
            final int udp;
            if (ipv6)
            {
                buffer.putInt(ip, 0x6000_0000, BIG_ENDIAN);
                buffer.putShort(ip + 4, (short)(udpPayloadLength + 8), BIG_ENDIAN);
                buffer.putByte(ip + 6, (byte)17);
                buffer.putByte(ip + 7, (byte)64);
                buffer.putLong(ip + 8, IPV6_GID_HI, BIG_ENDIAN);
                buffer.putLong(ip + 16, ipv6GidLo(), BIG_ENDIAN);
                buffer.putLong(ip + 24, dstGidHi, BIG_ENDIAN);
                buffer.putLong(ip + 32, dstGidLo, BIG_ENDIAN);
                udp = ip + 40;
            }
            else
            {
                buffer.putByte(ip, (byte)0x45);
                buffer.putByte(ip + 1, (byte)0);
                buffer.putShort(ip + 2, (short)(20 + 8 + udpPayloadLength), BIG_ENDIAN);
                buffer.putInt(ip + 4, 0x0000_4000, BIG_ENDIAN);
                buffer.putByte(ip + 8, (byte)64);
                buffer.putByte(ip + 9, (byte)17);
                buffer.putShort(ip + 10, (short)0);
                buffer.putInt(ip + 12, ipv4, BIG_ENDIAN);
                buffer.putInt(ip + 16, (int)dstGidLo, BIG_ENDIAN);
                buffer.putShort(ip + 10, (short)ipChecksum(buffer, ip), BIG_ENDIAN);
                udp = ip + 20;
            }
            buffer.putShort(udp, (short)srcUdpPort, BIG_ENDIAN);
            buffer.putShort(udp + 2, (short)ROCE_V2_UDP_PORT, BIG_ENDIAN);
            buffer.putShort(udp + 4, (short)(udpPayloadLength + 8), BIG_ENDIAN);
            buffer.putShort(udp + 6, (short)0);
            pool.length(id, udp + 8 + udpPayloadLength - base);
            return true;
        }

        @Override
        public void send(final int id)
        {
            final long index = sent++;
            final byte[] frame = new byte[pool.length(id)];
            pool.buffer().getBytes(pool.dataOffset(id), frame);
            if (holdSentBuffers)
            {
                sentBuffers.addLast(id);
            }
            else
            {
                pool.free(id);
            }
            if (null != frameObserver)
            {
                frameObserver.accept(frame.clone());
            }
            if (null != dropSent && dropSent.test(index))
            {
                return;
            }
            if (random.nextDouble() < sendFaults.loss)
            {
                return;
            }
            if (random.nextDouble() < sendFaults.corrupt)
            {
                final int at = ETH_LENGTH + random.nextInt(frame.length - ETH_LENGTH);
                frame[at] ^= (byte)(1 + random.nextInt(255));
            }
            if (random.nextDouble() < sendFaults.reorder)
            {
                held.add(frame); // overtaken by the next frame(s) sent
                return;
            }
            peer.inbound.add(frame);
            if (random.nextDouble() < sendFaults.duplicate)
            {
                peer.inbound.add(frame.clone());
            }
            if (!held.isEmpty() && random.nextBoolean())
            {
                peer.inbound.addAll(held);
                held.clear();
            }
        }

        /** Sends go onto the wire at once: nothing is queued, so a flush only counts that it was asked for. */
        @Override
        public int flush()
        {
            flushes++;
            return 0;
        }

        /** How many times the engine flushed this endpoint (once per duty cycle). */
        public long flushes()
        {
            return flushes;
        }

        /** Releases frames held back for reordering (so a quiet wire eventually delivers them). */
        public void flushHeld()
        {
            peer.inbound.addAll(held);
            held.clear();
        }

        /** Delivers every frame in flight to this endpoint into its sink. */
        @Override
        public int poll()
        {
            if (inbound.isEmpty() && !peer.held.isEmpty())
            {
                peer.flushHeld();
            }
            int count = 0;
            while (!inbound.isEmpty())
            {
                final byte[] frame = inbound.remove(0);
                deliver(frame);
                count++;
            }
            return count;
        }

        /** Delivers one raw frame (Ethernet onwards) to this endpoint's sink, e.g. a forged packet. */
        public void deliver(final byte[] frame)
        {
            final int id = pool.alloc();
            if (id < 0)
            {
                throw new IllegalStateException(name + ": rx pool exhausted, the engine leaks buffers");
            }
            try
            {
                final UnsafeBuffer buffer = pool.buffer();
                final int base = pool.dataOffset(id);
                buffer.putBytes(base, frame);
                final int ip = base + ETH_LENGTH;
                final int version = (buffer.getByte(ip) >> 4) & 0xF;
                final int udp = ip + (6 == version ? 40 : 20);
                final int udpLength = buffer.getShort(udp + 4, BIG_ENDIAN) & 0xFFFF;
                final int payloadLength = Math.min(udpLength - 8, frame.length - (udp + 8 - base));
                delivered++;
                sink.receive(buffer, ip, udp, udp + 8, payloadLength, version);
            }
            finally
            {
                pool.free(id);
            }
        }
    }

    static int ipChecksum(final UnsafeBuffer buffer, final int ip)
    {
        int sum = 0;
        for (int i = 0; i < 20; i += 2)
        {
            sum += buffer.getShort(ip + i, BIG_ENDIAN) & 0xFFFF;
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }
}
