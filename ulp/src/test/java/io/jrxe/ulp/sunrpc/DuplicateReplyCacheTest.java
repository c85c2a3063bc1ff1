package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static io.jrxe.ulp.xdr.XdrBytes.assertBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DuplicateReplyCache: a hit needs every key field to match (address, xid, program, version, procedure, argument
 * length and checksum), entries are reused oldest-stored first, too-large replies are not kept, colliding index
 * keys never give another call's reply, and lookup and store allocate nothing once warm.
 */
class DuplicateReplyCacheTest
{
    private static final InetAddress A = address(10, 0, 0, 1);
    private static final InetAddress B = address(10, 0, 0, 2);

    private final UnsafeBuffer callBytes = new UnsafeBuffer(new byte[40]);
    private final XdrDecoder dec = new XdrDecoder();
    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[128]);
    private final UnsafeBuffer dst = new UnsafeBuffer(new byte[128]);

    private static InetAddress address(final int a, final int b, final int c, final int d)
    {
        try
        {
            return InetAddress.getByAddress(new byte[] {(byte)a, (byte)b, (byte)c, (byte)d});
        }
        catch (final UnknownHostException ex)
        {
            throw new AssertionError(ex);
        }
    }

    /** A call header as the dispatcher has it: decoded from an AUTH_NONE call. */
    private RpcCallHeader header(final int xid, final int program, final int version, final int procedure)
    {
        final RpcCallHeader h = new RpcCallHeader();
        fill(h, xid, program, version, procedure);
        return h;
    }

    private void fill(final RpcCallHeader h, final int xid, final int program, final int version, final int procedure)
    {
        callBytes.putInt(0, xid, ByteOrder.BIG_ENDIAN);
        callBytes.putInt(4, RpcMessage.CALL, ByteOrder.BIG_ENDIAN);
        callBytes.putInt(8, RpcMessage.RPC_VERSION, ByteOrder.BIG_ENDIAN);
        callBytes.putInt(12, program, ByteOrder.BIG_ENDIAN);
        callBytes.putInt(16, version, ByteOrder.BIG_ENDIAN);
        callBytes.putInt(20, procedure, ByteOrder.BIG_ENDIAN);
        if (RpcCallHeader.OK != h.decode(dec.wrap(callBytes, 0, 40)))
        {
            throw new AssertionError("the test's call header does not decode");
        }
    }

    /** A reply of {@code length} bytes whose every byte is {@code tag}. */
    private UnsafeBuffer reply(final int tag, final int length)
    {
        reply.setMemory(0, length, (byte)tag);
        return reply;
    }

    private int lookup(
        final DuplicateReplyCache cache, final InetAddress peer, final RpcCallHeader h, final int argsLength,
        final int checksum)
    {
        dst.setMemory(0, dst.capacity(), (byte)0);
        return cache.lookup(peer, h, argsLength, checksum, dst, 0, dst.capacity());
    }

    private static void assertReply(final int tag, final int length, final UnsafeBuffer dst, final int got)
    {
        assertEquals(length, got, "a hit of the reply tagged " + tag);
        for (int i = 0; i < length; i++)
        {
            assertEquals((byte)tag, dst.getByte(i), "byte " + i + " of the reply tagged " + tag);
        }
    }

    @Test
    void checksumIsFnv1aOverTheFirst256Bytes()
    {
        // FNV-1a 32-bit test vectors (the FNV reference): "" 811c9dc5, "a" e40c292c, "foobar" bf9cf968
        final UnsafeBuffer text = new UnsafeBuffer("xfoobar".getBytes(StandardCharsets.US_ASCII));
        assertEquals(0x811c9dc5, DuplicateReplyCache.checksum(text, 0, 0));
        assertEquals(0xe40c292c, DuplicateReplyCache.checksum(new UnsafeBuffer("a".getBytes(StandardCharsets.US_ASCII)),
            0, 1));
        assertEquals(0xbf9cf968, DuplicateReplyCache.checksum(text, 1, 6));

        final UnsafeBuffer args = new UnsafeBuffer(new byte[300]);
        final int base = DuplicateReplyCache.checksum(args, 0, 300);
        args.putByte(256, (byte)1);
        assertEquals(base, DuplicateReplyCache.checksum(args, 0, 300), "byte 256 is not covered");
        args.putByte(255, (byte)1);
        assertNotEquals(base, DuplicateReplyCache.checksum(args, 0, 300), "byte 255 is");
        assertEquals(DuplicateReplyCache.checksum(args, 0, 256), DuplicateReplyCache.checksum(args, 0, 300));
    }

    @Test
    void aStoredReplyIsFoundByItsExactKeyOnly()
    {
        final DuplicateReplyCache cache = new DuplicateReplyCache(8, 64);
        final RpcCallHeader h = header(0x1234, 100003, 3, 7);
        assertEquals(-1, lookup(cache, A, h, 16, 0xCAFE), "an empty cache");
        assertTrue(cache.store(A, h, 16, 0xCAFE, reply(0x11, 40), 0, 40));
        assertReply(0x11, 40, dst, lookup(cache, A, header(0x1234, 100003, 3, 7), 16, 0xCAFE));
        assertEquals(1, cache.hits());
        assertEquals(1, cache.stores());

        assertEquals(-1, lookup(cache, B, h, 16, 0xCAFE), "another address");
        assertEquals(-1, lookup(cache, A, header(0x1235, 100003, 3, 7), 16, 0xCAFE), "another xid");
        assertEquals(-1, lookup(cache, A, header(0x1234, 100005, 3, 7), 16, 0xCAFE), "another program");
        assertEquals(-1, lookup(cache, A, header(0x1234, 100003, 4, 7), 16, 0xCAFE), "another version");
        assertEquals(-1, lookup(cache, A, header(0x1234, 100003, 3, 8), 16, 0xCAFE), "another procedure");
        assertEquals(-1, lookup(cache, A, h, 20, 0xCAFE), "another argument length");
        assertEquals(-1, lookup(cache, A, h, 16, 0xCAFF), "another checksum");
        assertEquals(1, cache.hits());

        // an equal address object that is not the same instance still hits
        assertReply(0x11, 40, dst, lookup(cache, address(10, 0, 0, 1), h, 16, 0xCAFE));
    }

    @Test
    void aHitCopiesToTheOffsetGivenAndNeedsRoomForTheWholeReply()
    {
        final DuplicateReplyCache cache = new DuplicateReplyCache(2, 64);
        final RpcCallHeader h = header(1, 2, 3, 4);
        final UnsafeBuffer r = new UnsafeBuffer(io.jrxe.ulp.xdr.XdrBytes.hex("ffff 00000001 00000001 00000000 ffff"));
        cache.store(A, h, 0, 0, r, 2, 12);
        dst.setMemory(0, 128, (byte)0xEE);
        assertEquals(-1, cache.lookup(A, h, 0, 0, dst, 10, 11), "11 bytes of room for 12");
        assertEquals(12, cache.lookup(A, h, 0, 0, dst, 10, 12));
        assertBytes("eeee 00000001 00000001 00000000 eeee", dst, 8, 16);
    }

    @Test
    void entriesAreReusedInTheOrderTheyWereStored()
    {
        final DuplicateReplyCache cache = new DuplicateReplyCache(3, 16);
        final RpcCallHeader h1 = header(1, 9, 1, 1);
        final RpcCallHeader h2 = header(2, 9, 1, 1);
        final RpcCallHeader h3 = header(3, 9, 1, 1);
        final RpcCallHeader h4 = header(4, 9, 1, 1);
        final RpcCallHeader h5 = header(5, 9, 1, 1);
        cache.store(A, h1, 0, 0, reply(1, 8), 0, 8);
        cache.store(A, h2, 0, 0, reply(2, 8), 0, 8);
        cache.store(A, h3, 0, 0, reply(3, 8), 0, 8);
        assertEquals(0, cache.evictions());
        // a hit does not make an entry younger: FIFO, not LRU
        assertReply(1, 8, dst, lookup(cache, A, h1, 0, 0));
        cache.store(A, h4, 0, 0, reply(4, 12), 0, 12);
        assertEquals(1, cache.evictions());
        assertEquals(-1, lookup(cache, A, h1, 0, 0), "the first stored went first");
        assertReply(2, 8, dst, lookup(cache, A, h2, 0, 0));
        assertReply(3, 8, dst, lookup(cache, A, h3, 0, 0));
        assertReply(4, 12, dst, lookup(cache, A, h4, 0, 0));
        cache.store(A, h5, 0, 0, reply(5, 4), 0, 4);
        assertEquals(-1, lookup(cache, A, h2, 0, 0));
        assertReply(3, 8, dst, lookup(cache, A, h3, 0, 0));
        assertReply(5, 4, dst, lookup(cache, A, h5, 0, 0));
        assertEquals(2, cache.evictions());
        assertEquals(5, cache.stores());
    }

    @Test
    void repliesLongerThanAnEntryAreNotKept()
    {
        final DuplicateReplyCache cache = new DuplicateReplyCache(2, 16);
        final RpcCallHeader h = header(1, 9, 1, 1);
        assertFalse(cache.store(A, h, 0, 0, reply(7, 17), 0, 17));
        assertEquals(1, cache.tooLarge());
        assertEquals(0, cache.stores());
        assertEquals(-1, lookup(cache, A, h, 0, 0));
        assertTrue(cache.store(A, h, 0, 0, reply(7, 16), 0, 16), "exactly an entry");
        assertReply(7, 16, dst, lookup(cache, A, h, 0, 0));
        // a too-large reply takes no entry: the one stored before stays
        assertFalse(cache.store(A, header(2, 9, 1, 1), 0, 0, reply(8, 100), 0, 100));
        assertFalse(cache.store(A, header(3, 9, 1, 1), 0, 0, reply(8, 100), 0, 100));
        assertReply(7, 16, dst, lookup(cache, A, h, 0, 0));
        assertEquals(0, cache.evictions());
    }

    @Test
    void constructionBounds()
    {
        assertThrows(IllegalArgumentException.class, () -> new DuplicateReplyCache(0, 16));
        assertThrows(IllegalArgumentException.class, () -> new DuplicateReplyCache(1, 0));
        // entries x maxReply past 2^31 - 1: refused, not a wrapped (empty or negative) array
        assertThrows(IllegalArgumentException.class, () -> new DuplicateReplyCache(1 << 16, 1 << 16));
        assertThrows(IllegalArgumentException.class, () -> new DuplicateReplyCache(1 << 16, 1 << 15));
        final DuplicateReplyCache one = new DuplicateReplyCache(1, 1);
        assertTrue(one.store(A, header(1, 1, 1, 1), 0, 0, reply(1, 1), 0, 1));
        assertTrue(one.store(A, header(2, 1, 1, 1), 0, 0, reply(2, 1), 0, 1));
        assertEquals(1, one.evictions());
        assertReply(2, 1, dst, lookup(one, A, header(2, 1, 1, 1), 0, 0));
    }

    /**
     * The index key is xid and a 32-bit hash of (address, program, version, procedure):
     * {@code ((address.hashCode() * 31 + program) * 31 + version) * 31 + procedure}. An IPv4 address hashes to
     * its own value, so 10.0.0.2 with program p - 31 collides with 10.0.0.1 and program p, and version v + 1
     * with procedure q - 31 collides with v, q.
     */
    @Test
    void collidingKeysNeverGiveAnotherCallsReply()
    {
        assertEquals(A.hashCode() + 1, B.hashCode());
        final DuplicateReplyCache cache = new DuplicateReplyCache(4, 16);
        final RpcCallHeader first = header(77, 1000, 3, 40);
        final RpcCallHeader sameHashOtherAddress = header(77, 1000 - 31, 3, 40); // from B
        final RpcCallHeader sameHashOtherVersion = header(77, 1000, 4, 40 - 31); // from A

        cache.store(A, first, 8, 1, reply(0xA1, 8), 0, 8);
        assertEquals(-1, lookup(cache, B, sameHashOtherAddress, 8, 1));
        assertEquals(-1, lookup(cache, A, sameHashOtherVersion, 8, 1));

        cache.store(B, sameHashOtherAddress, 8, 1, reply(0xB2, 8), 0, 8);
        assertReply(0xB2, 8, dst, lookup(cache, B, sameHashOtherAddress, 8, 1));
        assertEquals(-1, lookup(cache, A, first, 8, 1), "a miss (the index holds the newer), never 0xB2");
        assertEquals(-1, lookup(cache, A, sameHashOtherVersion, 8, 1));

        cache.store(A, sameHashOtherVersion, 8, 1, reply(0xC3, 8), 0, 8);
        assertReply(0xC3, 8, dst, lookup(cache, A, sameHashOtherVersion, 8, 1));
        assertEquals(-1, lookup(cache, B, sameHashOtherAddress, 8, 1));

        // evicting the older colliding entries leaves the index entry of the newest alone
        cache.store(A, header(1, 1, 1, 1), 0, 0, reply(1, 4), 0, 4);
        cache.store(A, header(2, 1, 1, 1), 0, 0, reply(2, 4), 0, 4); // evicts `first`
        cache.store(A, header(3, 1, 1, 1), 0, 0, reply(3, 4), 0, 4); // evicts sameHashOtherAddress
        assertReply(0xC3, 8, dst, lookup(cache, A, sameHashOtherVersion, 8, 1));
        cache.store(A, header(4, 1, 1, 1), 0, 0, reply(4, 4), 0, 4); // evicts sameHashOtherVersion
        assertEquals(-1, lookup(cache, A, sameHashOtherVersion, 8, 1));
        assertEquals(-1, lookup(cache, A, first, 8, 1));
        assertReply(2, 4, dst, lookup(cache, A, header(2, 1, 1, 1), 0, 0));
        assertReply(4, 4, dst, lookup(cache, A, header(4, 1, 1, 1), 0, 0));
    }

    @Test
    void theSameCallStoredTwiceAnswersWithTheNewerUntilBothAreGone()
    {
        final DuplicateReplyCache cache = new DuplicateReplyCache(3, 16);
        final RpcCallHeader h = header(5, 1, 1, 1);
        cache.store(A, h, 4, 9, reply(0x01, 8), 0, 8);
        cache.store(A, h, 4, 9, reply(0x02, 8), 0, 8);
        assertReply(0x02, 8, dst, lookup(cache, A, h, 4, 9));
        cache.store(A, header(6, 1, 1, 1), 0, 0, reply(3, 4), 0, 4);
        cache.store(A, header(7, 1, 1, 1), 0, 0, reply(4, 4), 0, 4); // evicts the older copy
        assertReply(0x02, 8, dst, lookup(cache, A, h, 4, 9));
        cache.store(A, header(8, 1, 1, 1), 0, 0, reply(5, 4), 0, 4); // evicts the newer
        assertEquals(-1, lookup(cache, A, h, 4, 9));
    }

    @Test
    void lookupAndStoreAllocateNothingOnceWarm()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);

        final DuplicateReplyCache cache = new DuplicateReplyCache(64, 64);
        final RpcCallHeader h = new RpcCallHeader();
        final InetAddress[] peers = {A, B, address(192, 0, 2, 7)};
        final long tid = Thread.currentThread().getId();
        long allocated = Long.MAX_VALUE;
        long hits = 0;
        for (int round = 0; round < 10; round++) // the least of the last rounds, after the JIT settled
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            hits = 0;
            for (int i = 0; i < 20_000; i++)
            {
                final InetAddress peer = peers[i % 3];
                fill(h, round * 100_000 + i, 100003, 3, i & 7);
                final int checksum = DuplicateReplyCache.checksum(callBytes, 24, 16);
                if (cache.lookup(peer, h, 16, checksum, dst, 0, dst.capacity()) < 0)
                {
                    cache.store(peer, h, 16, checksum, reply, 0, 24 + (i & 31));
                }
                fill(h, round * 100_000 + i - 10, 100003, 3, (i - 10) & 7); // a retransmission, still cached
                if (i >= 10 && cache.lookup(peers[(i - 10) % 3], h, 16, DuplicateReplyCache.checksum(callBytes, 24,
                    16), dst, 0, dst.capacity()) >= 0)
                {
                    hits++;
                }
            }
            if (round >= 5)
            {
                // an allocation per store or lookup shows in every round; a one-off (a deoptimization) does not
                allocated = Math.min(allocated, threads.getThreadAllocatedBytes(tid) - before);
            }
        }
        assertEquals(20_000 - 10, hits, "every retransmission within the last 64 stores hits");
        assertTrue(allocated < 256, "20000 stores and 40000 lookups allocated " + allocated + " bytes");
    }
}
