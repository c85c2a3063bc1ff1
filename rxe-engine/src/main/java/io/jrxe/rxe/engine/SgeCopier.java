package io.jrxe.rxe.engine;

import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.SgeList;
import org.agrona.DirectBuffer;

/**
 * Scatters packet payload into a scatter list at a message offset, checking every SGE's lkey (LOCAL_WRITE) against
 * the QP's PD through {@link MrAccess}; used for receive WQEs, READ responses and atomic results.
 * <pre>
 *  message offset:  0 ........ sge0.length | ........ sge1.length | ...
 *                              ^ offset: skip whole SGEs, then copy chunk by chunk
 * </pre>
 */
final class SgeCopier
{
    /** The data does not fit into the scatter list. */
    static final int TOO_LONG = -1;

    private final MrAccess mr;

    SgeCopier(final MrAccess mr)
    {
        this.mr = mr;
    }

    MrAccess mr()
    {
        return mr;
    }

    /**
     * @return {@link MrStatus#OK}, another {@link MrStatus} code for a bad lkey, or {@link #TOO_LONG}; on failure
     * a prefix may already be written (only into memory the SGEs grant)
     */
    int scatter(
        final ProtectionDomain pd,
        final SgeList sgl,
        final long offset,
        final DirectBuffer src,
        final int srcOffset,
        final int length)
    {
        long skip = offset;
        int remaining = length;
        int from = srcOffset;
        for (int i = 0, n = sgl.count(); i < n && remaining > 0; i++)
        {
            final long sgeLength = sgl.length(i) & 0xffff_ffffL;
            if (skip >= sgeLength)
            {
                skip -= sgeLength;
                continue;
            }
            final int chunk = (int)Math.min(remaining, sgeLength - skip);
            final int status = mr.copyToLocal(pd, sgl.lkey(i), sgl.address(i) + skip, src, from, chunk);
            if (MrStatus.OK != status)
            {
                return status;
            }
            skip = 0;
            from += chunk;
            remaining -= chunk;
        }
        return 0 == remaining ? MrStatus.OK : TOO_LONG;
    }
}
