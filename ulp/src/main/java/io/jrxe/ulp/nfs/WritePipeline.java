package io.jrxe.ulp.nfs;

import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcException;

import java.io.IOException;

/**
 * Writes a whole file with several UNSTABLE WRITEs outstanding, then COMMITs (RFC 1813 §3.3.7, §3.3.21), checking
 * every reply's write verifier: when it changes the server restarted and may have lost the unstable data, so the
 * whole file is sent again (up to a limit), as the Linux client does.
 * <pre>
 *   attempt: prime: WRITE chunk 0 .. n-1 from slots 0 .. n-1 (each filled from the source)
 *            loop:  wait for the head slot -&gt; finishWrite -&gt; verifier check
 *                   short write: WRITE the rest from the same slot
 *                   else: progress, fill the slot with chunk head + n and WRITE it, head = next slot
 *            COMMIT whole file -&gt; verifier check -&gt; done
 *   verifier changed: wait for the outstanding WRITEs, tell the progress listener, next attempt from offset 0
 * </pre>
 * Allocation-free per chunk. One thread.
 */
final class WritePipeline
{
    private static final String WRITE = Nfs3Client.operation(Nfs3.NFSPROC3_WRITE);

    private final Nfs3Client nfs;
    private final TransferSlots slots;
    private final WriteResult result = new WriteResult();
    private final CommitResult commit = new CommitResult();
    private final WriteVerifier verifier = new WriteVerifier();
    private int resends;

    WritePipeline(final Nfs3Client nfs, final TransferSlots slots)
    {
        this.nfs = nfs;
        this.slots = slots;
    }

    /** @return times the last transfer started again after a verifier change */
    int resends()
    {
        return resends;
    }

    /**
     * @param fh the file (created and truncated by the caller)
     * @param source the bytes
     * @param length bytes to write
     * @param maxResends attempts after the first when the verifier changes
     * @param progress told after each chunk and at each restart
     * @throws IOException an NFS or RPC failure, the source's, or {@link WriteVerifierChangedException} when the
     *         verifier kept changing
     */
    void run(final FileHandle3 fh, final TransferSource source, final long length, final int maxResends,
        final TransferProgress progress) throws IOException
    {
        resends = 0;
        while (true)
        {
            verifier.reset();
            try
            {
                sendAll(fh, source, length, progress);
                if (length > 0)
                {
                    nfs.commit(fh, 0, 0, commit);
                    verifier.committed(commit);
                }
                return;
            }
            catch (final WriteVerifierChangedException ex)
            {
                if (resends == maxResends)
                {
                    throw ex;
                }
                resends++;
                progress.restarted(ex.getMessage());
            }
        }
    }

    private void sendAll(final FileHandle3 fh, final TransferSource source, final long length,
        final TransferProgress progress) throws IOException
    {
        final int n = slots.count();
        long next = 0;
        long acknowledged = 0;
        int head = 0;
        try
        {
            for (int i = 0; i < n && next < length; i++)
            {
                next += issue(fh, source, i, next, (int)Math.min(slots.chunk, length - next));
            }
            while (slots.active[head])
            {
                final RpcCall call = slots.calls[head];
                nfs.rpc().await(call);
                slots.active[head] = false;
                nfs.finishWrite(call, result);
                verifier.written(result);
                slots.done[head] += result.count();
                if (slots.done[head] < slots.wanted[head])
                {
                    if (0 == result.count())
                    {
                        throw RpcException.malformed(WRITE, "nothing written at offset " + slots.offsets[head]);
                    }
                    final int done = slots.done[head];
                    start(fh, head, slots.offsets[head] + done, slots.wanted[head] - done,
                        slots.addresses[head] + done);
                    continue;
                }
                acknowledged += slots.wanted[head];
                progress.progress(acknowledged, length);
                if (next < length)
                {
                    next += issue(fh, source, head, next, (int)Math.min(slots.chunk, length - next));
                }
                head = (head + 1) % n;
            }
        }
        finally
        {
            drain();
        }
    }

    private int issue(final FileHandle3 fh, final TransferSource source, final int slot, final long offset,
        final int count) throws IOException
    {
        slots.assign(slot, offset, count);
        source.read(offset, slots.toFill(slot));
        start(fh, slot, offset, count, slots.addresses[slot]);
        return count;
    }

    private void start(final FileHandle3 fh, final int slot, final long offset, final int count, final long address)
        throws RpcException
    {
        final int rc = nfs.startWrite(slots.calls[slot], fh, offset, count, Nfs3.UNSTABLE, address);
        if (rc < 0)
        {
            throw RpcException.failed(WRITE, -rc);
        }
        slots.active[slot] = true;
    }

    /** Wait for the WRITEs still outstanding (their data is the transport's until done) and release them. */
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
                    nfs.finishWrite(slots.calls[i], result);
                }
                catch (final IOException ignored)
                {
                    // the attempt failed already
                }
            }
        }
    }
}
