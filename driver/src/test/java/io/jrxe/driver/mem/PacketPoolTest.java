package io.jrxe.driver.mem;

import io.jrxe.driver.pci.DmaMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The pool's owner tags: whoever frees a tagged buffer, its listener hears the tag once. */
class PacketPoolTest
{
    private final DirectDmaRegion region = new DirectDmaRegion(2048L * 8, DmaMapper.NONE);
    private final PacketPool pool = new PacketPool(region, 2048, 8);
    private final List<Integer> released = new ArrayList<>();

    @AfterEach
    void close()
    {
        region.close();
    }

    @Test
    void freeingATaggedBufferTellsTheListenerOnceAndClearsTheTag()
    {
        pool.releaseListener(released::add);
        final int id = pool.alloc();
        pool.tag(id, 0x1234_0005);
        assertEquals(0x1234_0005, pool.tag(id));
        pool.free(id);
        assertEquals(List.of(0x1234_0005), released);
        assertEquals(PacketPool.NO_TAG, pool.tag(id), "free clears the tag");

        final int again = pool.alloc();
        assertEquals(id, again, "the free stack hands the same buffer out next");
        assertEquals(PacketPool.NO_TAG, pool.tag(again), "an allocated buffer carries no tag");
        pool.free(again);
        assertEquals(1, released.size(), "an untagged buffer tells no one");
    }

    @Test
    void freeBatchTellsForEveryTaggedBufferAndNothingElse()
    {
        pool.releaseListener(released::add);
        final int[] ids = new int[4];
        assertEquals(4, pool.allocBatch(ids, 0, 4));
        pool.tag(ids[0], 7);
        pool.tag(ids[2], 9);
        pool.freeBatch(ids, 0, 4);
        assertEquals(List.of(7, 9), released);
        assertEquals(8, pool.available());
    }

    @Test
    void withoutAListenerATagIsClearedAllTheSame()
    {
        final int id = pool.alloc();
        pool.tag(id, 3);
        pool.free(id);
        assertEquals(PacketPool.NO_TAG, pool.tag(id));
        pool.releaseListener(released::add);
        pool.free(pool.alloc());
        assertEquals(List.of(), released, "a tag from before does not come back");
    }

    @Test
    void aTagDoesNotTouchLengthOrFrameData()
    {
        final int id = pool.alloc();
        pool.length(id, 60);
        pool.buffer().putInt(pool.dataOffset(id), 0xCAFE_BABE);
        pool.tag(id, -1);
        assertEquals(60, pool.length(id));
        assertEquals(0xCAFE_BABE, pool.buffer().getInt(pool.dataOffset(id)));
        assertEquals(id, pool.buffer().getInt(pool.baseOffset(id) + PacketPool.ID_OFFSET));
        pool.free(id);
        final int all = pool.available();
        assertThrows(IllegalStateException.class, () -> pool.free(id), "double free is still refused");
        assertEquals(all, pool.available());
    }
}
