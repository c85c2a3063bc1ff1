package io.jrxe.driver.rss;

import org.agrona.DirectBuffer;

/**
 * Picks the UDP source port of a flow so that the peer's RSS steers it to a wanted receive queue: the peer hashes
 * (source address, destination address, source port, destination port) with its key ({@link ToeplitzHash}) and
 * takes its indirection table's entry at {@code hash & (length - 1)} as the queue. RoCEv2 leaves the source port
 * free (IBA A17.3.2: it is for ECMP entropy; rxe hashes the QPN into it), so a sender that knows the peer's key
 * and table can land every packet of a QP on the peer's queue whose thread owns the destination QP.
 * <p>
 * Ports are searched in the dynamic range 49152..65535 (RFC 6335; rxe's source ports are 0xc000 | hash), starting
 * at a preferred port and wrapping, so different QPs keep different ports while they land on the same queue. The
 * hash is linear (XOR of byte contributions), so each port tried costs the hash of its two bytes. Allocation-free;
 * not thread safe (one instance per thread, or per control path).
 */
public final class RssSourcePorts
{
    public static final int FIRST_PORT = 0xc000;
    public static final int LAST_PORT = 0xffff;
    /** No port of the range lands on the wanted queue (it is not in the indirection table). */
    public static final int NO_PORT = -1;
    /** Indirection entries of jrxe's default table (QEMU's VIRTIO_NET_RSS_MAX_TABLE_LEN). */
    public static final int DEFAULT_TABLE_LENGTH = 128;

    /** Input positions of the ports in the IPv4 and IPv6 tuples (after both addresses). */
    private static final int IPV4_PORTS = 8;
    private static final int IPV6_PORTS = 32;

    private final ToeplitzHash toeplitz;
    private final int[] table;
    private int tableLength;

    /**
     * @param toeplitz the peer's key
     * @param table    the peer's indirection table (copied), entries are receive queue numbers from 0
     * @param length   entries used, a power of two
     */
    public RssSourcePorts(final ToeplitzHash toeplitz, final int[] table, final int length)
    {
        this.toeplitz = toeplitz;
        this.table = new int[Math.max(1, length)];
        table(table, length);
    }

    /**
     * For a peer that runs jrxe's defaults (what {@code VirtioNetDriver} programs unless told otherwise): the
     * Microsoft key and a {@link #DEFAULT_TABLE_LENGTH}-entry table spreading entry i to queue i mod
     * {@code peerQueues}. A sender then needs only the peer's queue count (e.g. from connection set-up) to pick
     * source ports that land on the peer's wanted queue.
     */
    public static RssSourcePorts forDefaults(final int peerQueues)
    {
        final int[] table = new int[DEFAULT_TABLE_LENGTH];
        roundRobin(table, DEFAULT_TABLE_LENGTH, peerQueues);
        return new RssSourcePorts(new ToeplitzHash(), table, DEFAULT_TABLE_LENGTH);
    }

    /**
     * Fills {@code table[0..length)} with 0, 1, ..., queues - 1, 0, 1, ... (Linux's ethtool_rxfh_indir_default()).
     *
     * @throws IllegalArgumentException if {@code queues} is not positive
     */
    public static void roundRobin(final int[] table, final int length, final int queues)
    {
        if (queues < 1)
        {
            throw new IllegalArgumentException("an indirection table needs at least one queue: " + queues);
        }
        for (int i = 0; i < length; i++)
        {
            table[i] = i % queues;
        }
    }

    /**
     * Replaces the indirection table (same or smaller length than at construction).
     *
     * @throws IllegalArgumentException if the length is not a power of two that fits
     */
    public void table(final int[] entries, final int length)
    {
        if (length < 1 || 0 != (length & (length - 1)) || length > table.length || length > entries.length)
        {
            throw new IllegalArgumentException("RSS indirection table length must be a power of two in 1.." +
                table.length + ": " + length);
        }
        System.arraycopy(entries, 0, table, 0, length);
        tableLength = length;
    }

    /** The queue a hash lands on: the indirection table entry at {@code hash & (length - 1)}. */
    public int queue(final long hash)
    {
        return table[(int)(hash & (tableLength - 1))];
    }

    /**
     * @param srcAddress    the sender's IPv4 address (this side), host order of the dotted quad's bytes
     * @param dstAddress    the peer's IPv4 address
     * @param dstPort       the destination UDP port (4791 for RoCEv2)
     * @param queue         the peer's receive queue to land on
     * @param preferredPort where the search starts (clamped into the range), e.g. derived from the QPN
     * @return a source port in {@link #FIRST_PORT}..{@link #LAST_PORT}, or {@link #NO_PORT}
     */
    public int ipv4(final int srcAddress, final int dstAddress, final int dstPort, final int queue,
        final int preferredPort)
    {
        final int fixed = toeplitz.intHash(srcAddress, 0) ^ toeplitz.intHash(dstAddress, 4) ^
            toeplitz.shortHash(dstPort, IPV4_PORTS + 2);
        return search(fixed, IPV4_PORTS, queue, preferredPort);
    }

    /** As {@link #ipv4} for IPv6: the 16-byte addresses at the given offsets, network order. */
    public int ipv6(final DirectBuffer src, final int srcOffset, final DirectBuffer dst, final int dstOffset,
        final int dstPort, final int queue, final int preferredPort)
    {
        final int fixed = toeplitz.hash(src, srcOffset, 16, 0) ^ toeplitz.hash(dst, dstOffset, 16, 16) ^
            toeplitz.shortHash(dstPort, IPV6_PORTS + 2);
        return search(fixed, IPV6_PORTS, queue, preferredPort);
    }

    private int search(final int fixed, final int portsAt, final int queue, final int preferredPort)
    {
        final int span = LAST_PORT - FIRST_PORT + 1;
        final int start = FIRST_PORT + Math.floorMod(preferredPort - FIRST_PORT, span);
        for (int i = 0; i < span; i++)
        {
            final int port = FIRST_PORT + (start - FIRST_PORT + i) % span;
            final int hash = fixed ^ toeplitz.shortHash(port, portsAt);
            if (table[hash & (tableLength - 1)] == queue)
            {
                return port;
            }
        }
        return NO_PORT;
    }
}
