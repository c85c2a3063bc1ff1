package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcCall;
import org.agrona.BufferUtil;

import java.nio.ByteBuffer;

/**
 * The outstanding calls of a transfer and their buffers, as a ring in file order: chunk k uses slot k mod n, so
 * the slot at the head always holds the lowest offset still outstanding and chunks complete to the caller in order
 * whatever order their replies come in.
 * <pre>
 *   slot:   0        1        2   ...  n-1
 *          [k]      [k+1]    [k+2]    [k+n-1]     head = k mod n: delivered first, then reused for chunk k+n
 *   each:  RpcCall | buffer (direct, chunk bytes) | address | file offset | bytes wanted | bytes done | active
 * </pre>
 * Allocated once per session; reused transfer after transfer.
 */
final class TransferSlots
{
    final RpcCall[] calls;
    final ByteBuffer[] buffers;
    final long[] addresses;
    final long[] offsets;
    final int[] wanted;
    final int[] done;
    final boolean[] active;
    final int chunk;

    TransferSlots(final int count, final int chunk, final TransferBuffers source)
    {
        this.chunk = chunk;
        calls = new RpcCall[count];
        buffers = new ByteBuffer[count];
        addresses = new long[count];
        offsets = new long[count];
        wanted = new int[count];
        done = new int[count];
        active = new boolean[count];
        for (int i = 0; i < count; i++)
        {
            calls[i] = new RpcCall();
            buffers[i] = source.allocate(chunk);
            if (!buffers[i].isDirect() || buffers[i].capacity() < chunk)
            {
                throw new IllegalArgumentException("transfer buffers must be direct, of at least " + chunk + " bytes");
            }
            addresses[i] = BufferUtil.address(buffers[i]);
        }
    }

    int count()
    {
        return calls.length;
    }

    void assign(final int slot, final long offset, final int bytes)
    {
        offsets[slot] = offset;
        wanted[slot] = bytes;
        done[slot] = 0;
    }

    /** @return the slot's bytes done, as a buffer from 0 */
    ByteBuffer doneBytes(final int slot)
    {
        final ByteBuffer b = buffers[slot];
        b.limit(done[slot]).position(0);
        return b;
    }

    /** @return the slot's buffer ready to be filled with its wanted bytes */
    ByteBuffer toFill(final int slot)
    {
        final ByteBuffer b = buffers[slot];
        b.limit(wanted[slot]).position(0);
        return b;
    }
}
