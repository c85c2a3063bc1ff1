package io.jrxe.ulp.sunrpc;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;

/**
 * The server's duplicate reply cache (Linux {@code fs/nfsd/nfscache.c}; RFC 5531 §8.1 leaves at-most-once
 * execution to the server): a retransmitted call (same client address, xid, program, version, procedure and
 * argument checksum, typically after a reconnect) gets the reply of its first execution instead of running again.
 * A fixed set of entries, each with room for one reply, reused oldest first; no allocation after construction.
 * <pre>
 *   index: Long2LongHashMap  (xid &lt;&lt; 32 | hash of address, program, version, procedure) -&gt; entry
 *   entries[i]: address, xid, program, version, procedure, args length, checksum | reply bytes (&lt;= maxReply)
 *   next: the entry the next store replaces (FIFO = least recently stored)
 * </pre>
 * The key is only an index: a hit is confirmed field by field, so a hash collision is a miss, never a wrong reply.
 * The checksum covers the first 256 bytes of the arguments (as nfsd's {@code RC_CSUMLEN}), so a new call that
 * reuses an xid after a client restart is not answered from the cache. Replies longer than an entry (bulk READ
 * results) are not cached; programs mark such procedures idempotent ({@link RpcProgram#cacheReply}). Not thread
 * safe: the server's thread owns it.
 */
public final class DuplicateReplyCache
{
    /** Bytes of the arguments the checksum covers. */
    public static final int CHECKSUM_BYTES = 256;

    private static final long NONE = -1;

    private final Long2LongHashMap index;
    private final InetAddress[] address;
    private final long[] key;
    private final int[] xid;
    private final int[] program;
    private final int[] version;
    private final int[] procedure;
    private final int[] argsLength;
    private final int[] checksum;
    private final int[] replyLength;
    private final UnsafeBuffer replies;
    private final int maxReply;
    private int next;
    private long hits;
    private long stores;
    private long evictions;
    private long tooLarge;

    /**
     * @param entries replies kept
     * @param maxReply bytes per reply
     */
    public DuplicateReplyCache(final int entries, final int maxReply)
    {
        // the replies share one array: entries x maxReply must fit an int, not wrap to an empty or negative size
        if (entries < 1 || maxReply < 1 || entries > (Integer.MAX_VALUE - 8) / maxReply || entries > 1 << 28)
        {
            throw new IllegalArgumentException("a cache of " + entries + " entries of " + maxReply + " bytes");
        }
        this.index = new Long2LongHashMap(entries * 2, 0.65f, NONE);
        this.address = new InetAddress[entries];
        this.key = new long[entries];
        this.xid = new int[entries];
        this.program = new int[entries];
        this.version = new int[entries];
        this.procedure = new int[entries];
        this.argsLength = new int[entries];
        this.checksum = new int[entries];
        this.replyLength = new int[entries];
        this.replies = new UnsafeBuffer(new byte[entries * maxReply]);
        this.maxReply = maxReply;
        java.util.Arrays.fill(replyLength, -1);
    }

    /**
     * A checksum of the first {@link #CHECKSUM_BYTES} of the arguments: FNV-1a over bytes. It tells a new call that
     * reuses an xid from a retransmission; it is not a defence against a hostile client (nor is nfsd's).
     *
     * @param args the call's buffer
     * @param offset first byte of the arguments
     * @param length bytes of arguments
     * @return the checksum
     */
    public static int checksum(final DirectBuffer args, final int offset, final int length)
    {
        int h = 0x811C9DC5;
        final int n = Math.min(length, CHECKSUM_BYTES);
        for (int i = 0; i < n; i++)
        {
            h = (h ^ (args.getByte(offset + i) & 0xFF)) * 0x01000193;
        }
        return h;
    }

    private static long keyOf(final InetAddress peer, final RpcCallHeader call)
    {
        final int h = ((peer.hashCode() * 31 + call.program()) * 31 + call.version()) * 31 + call.procedure();
        return (long)call.xid() << 32 | (h & 0xFFFF_FFFFL);
    }

    /**
     * Look a call up.
     *
     * @param peer the client's address
     * @param call the call's header
     * @param argsLength bytes of arguments
     * @param argsChecksum {@link #checksum} of them
     * @param dst where to copy a cached reply
     * @param dstOffset first byte
     * @param dstCapacity room
     * @return the cached reply's length, copied into dst; or -1 (not cached)
     */
    public int lookup(
        final InetAddress peer, final RpcCallHeader call, final int argsLength, final int argsChecksum,
        final MutableDirectBuffer dst, final int dstOffset, final int dstCapacity)
    {
        final long k = keyOf(peer, call);
        final long found = index.get(k);
        if (NONE == found)
        {
            return -1;
        }
        final int e = (int)found;
        if (xid[e] != call.xid() || program[e] != call.program() || version[e] != call.version() ||
            procedure[e] != call.procedure() || this.argsLength[e] != argsLength || checksum[e] != argsChecksum ||
            !peer.equals(address[e]) || replyLength[e] > dstCapacity)
        {
            return -1;
        }
        dst.putBytes(dstOffset, replies, e * maxReply, replyLength[e]);
        hits++;
        return replyLength[e];
    }

    /**
     * Keep a reply (the oldest entry makes room).
     *
     * @param peer the client's address
     * @param call the call's header
     * @param argsLength bytes of arguments
     * @param argsChecksum {@link #checksum} of them
     * @param reply the reply's buffer
     * @param offset first byte of the reply
     * @param length bytes of the reply
     * @return true when kept (false: longer than an entry)
     */
    public boolean store(
        final InetAddress peer, final RpcCallHeader call, final int argsLength, final int argsChecksum,
        final DirectBuffer reply, final int offset, final int length)
    {
        if (length > maxReply)
        {
            tooLarge++;
            return false;
        }
        final int e = next;
        next = (next + 1) % xid.length;
        if (replyLength[e] >= 0)
        {
            if (index.get(key[e]) == e)
            {
                index.remove(key[e]);
            }
            evictions++;
        }
        final long k = keyOf(peer, call);
        key[e] = k;
        address[e] = peer;
        xid[e] = call.xid();
        program[e] = call.program();
        version[e] = call.version();
        procedure[e] = call.procedure();
        this.argsLength[e] = argsLength;
        checksum[e] = argsChecksum;
        replyLength[e] = length;
        replies.putBytes(e * maxReply, reply, offset, length);
        index.put(k, e);
        stores++;
        return true;
    }

    /** @return calls answered from the cache */
    public long hits()
    {
        return hits;
    }

    /** @return replies kept */
    public long stores()
    {
        return stores;
    }

    /** @return replies dropped to make room */
    public long evictions()
    {
        return evictions;
    }

    /** @return replies too long to keep */
    public long tooLarge()
    {
        return tooLarge;
    }
}
