package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcException;

import java.io.IOException;

/**
 * Reads a whole file with several READs outstanding (RFC 1813 §3.3.6) and hands the bytes to a sink in file order.
 * <pre>
 *   prime: READ chunk 0 .. n-1 into slots 0 .. n-1
 *   loop:  wait for the head slot -&gt; finishRead
 *          short read (count &lt; asked, no eof): READ the rest into the same slot, same place in the ring
 *          eof before the expected size (the file shrank): deliver what came, stop
 *          else deliver to the sink, READ chunk head + n into the slot, head = next slot
 *   failure: wait for every outstanding READ (their buffers are the transport's until done), rethrow
 * </pre>
 * Allocation-free per chunk. One thread.
 */
final class ReadPipeline
{
    private static final String READ = Nfs3Client.operation(Nfs3.NFSPROC3_READ);

    private final Nfs3Client nfs;
    private final TransferSlots slots;
    private final ReadResult result = new ReadResult();

    ReadPipeline(final Nfs3Client nfs, final TransferSlots slots)
    {
        this.nfs = nfs;
        this.slots = slots;
    }

    /**
     * @param fh the file
     * @param size bytes to read (the file's size when the transfer starts)
     * @param sink where the bytes go, in order
     * @param progress told after each chunk
     * @return bytes delivered: size, or less when the file ended early
     * @throws IOException an NFS or RPC failure, or the sink's
     */
    long run(final FileHandle3 fh, final long size, final TransferSink sink, final TransferProgress progress)
        throws IOException
    {
        final int n = slots.count();
        long next = 0;
        long delivered = 0;
        int head = 0;
        try
        {
            for (int i = 0; i < n && next < size; i++)
            {
                next += issue(fh, i, next, (int)Math.min(slots.chunk, size - next));
            }
            while (slots.active[head])
            {
                final RpcCall call = slots.calls[head];
                nfs.rpc().await(call);
                slots.active[head] = false;
                nfs.finishRead(call, result);
                slots.done[head] += result.count();
                final boolean shortOfWanted = slots.done[head] < slots.wanted[head];
                if (shortOfWanted && !result.eof())
                {
                    if (0 == result.count())
                    {
                        throw RpcException.malformed(READ, "no data and no eof at offset " +
                            (slots.offsets[head] + slots.done[head]));
                    }
                    reissueRest(fh, head);
                    continue;
                }
                sink.accept(slots.offsets[head], slots.doneBytes(head));
                delivered += slots.done[head];
                progress.progress(delivered, size);
                if (shortOfWanted)
                {
                    break; // the file ended before the size it had when the transfer started
                }
                if (next < size)
                {
                    next += issue(fh, head, next, (int)Math.min(slots.chunk, size - next));
                }
                head = (head + 1) % n;
            }
        }
        finally
        {
            drain();
        }
        return delivered;
    }

    private int issue(final FileHandle3 fh, final int slot, final long offset, final int count) throws RpcException
    {
        slots.assign(slot, offset, count);
        start(fh, slot, offset, count, slots.addresses[slot]);
        return count;
    }

    private void reissueRest(final FileHandle3 fh, final int slot) throws RpcException
    {
        final int done = slots.done[slot];
        start(fh, slot, slots.offsets[slot] + done, slots.wanted[slot] - done, slots.addresses[slot] + done);
    }

    private void start(final FileHandle3 fh, final int slot, final long offset, final int count, final long address)
        throws RpcException
    {
        final int rc = nfs.startRead(slots.calls[slot], fh, offset, count, address);
        if (rc < 0)
        {
            throw RpcException.failed(READ, -rc);
        }
        slots.active[slot] = true;
    }

    /** Wait for the READs still outstanding and release them, their results unused. */
    private void drain()
    {
        for (int i = 0; i < slots.count(); i++)
        {
            if (slots.active[i])
            {
                nfs.rpc().await(slots.calls[i]);
                slots.active[i] = false;
                try
                {
                    nfs.finishRead(slots.calls[i], result);
                }
                catch (final IOException ignored)
                {
                    // the transfer failed already: this READ's own outcome no longer matters
                }
            }
        }
    }
}
