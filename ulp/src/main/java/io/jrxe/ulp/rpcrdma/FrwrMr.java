package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WrOpcode;

/**
 * One fast-registration MR of a transport's pool (Linux {@code struct rpcrdma_mr}, FRWR mode): it maps one
 * segment of a chunk for the peer, is invalidated when the RPC is done, and gets a new key byte before each
 * registration so an rkey from an earlier RPC never reaches the new mapping.
 * <pre>
 *   FREE --register (REG_MR posted)--&gt; REGISTERED --LOCAL_INV posted--&gt; INVALIDATING --completion--&gt; FREE
 *                                          \--Send With Invalidate received (rkey in the WC)--&gt; FREE
 *   any state --connection lost--&gt; recycled (deregistered, a new MR allocated): FREE
 * </pre>
 * Its work requests are preallocated: registering and invalidating allocate nothing.
 */
final class FrwrMr
{
    static final int FREE = 0;
    static final int REGISTERED = 1;
    static final int INVALIDATING = 2;

    MemoryRegion mr;
    int state = FREE;
    int handle;
    long offset;
    int length;
    final long[] dmaAddr = new long[1];
    final int[] dmaLen = new int[1];
    final SendWorkRequest regWr = new SendWorkRequest(1).opcode(WrOpcode.REG_MR).sendFlags(SendFlags.SIGNALED);
    final SendWorkRequest invWr = new SendWorkRequest(1).opcode(WrOpcode.LOCAL_INV).sendFlags(SendFlags.SIGNALED);
    /** The request it is registered for (index), -1 when free. */
    int owner = -1;
    /** On the pool's free stack. */
    boolean pooled = true;

    FrwrMr(final MemoryRegion mr)
    {
        this.mr = mr;
    }

    @Override
    public String toString()
    {
        return "FrwrMr[rkey=" + Integer.toHexString(handle) + " state=" + state + " len=" + length + "]";
    }
}
