package io.jrxe.ulp.rpcrdma;

/**
 * The server's fixed pools (Linux's per-transport ctxt caches, shared here by every connection): call contexts,
 * small registered buffers (one inline reply each) and large ones (a pulled call, or a reply with a payload or for
 * a Reply chunk). Free lists are stacks of indexes; a buffer knows its index, so nothing is searched or allocated.
 * <pre>
 *   calls[i] (SvcRdmaCall, with its header Regbuf)   free: freeCalls[0 .. freeCallCount)
 *   small[i] (inline threshold)                      free: freeSmall[0 .. freeSmallCount)
 *   large[i] (max payload + room for head and tail)  free: freeLarge[0 .. freeLargeCount)
 * </pre>
 * Only the server's thread touches it.
 */
final class SvcRdmaPools
{
    final SvcRdmaCall[] calls;
    private final int[] freeCalls;
    private int freeCallCount;
    final Regbuf[] small;
    private final int[] freeSmall;
    private int freeSmallCount;
    final Regbuf[] large;
    private final int[] freeLarge;
    private int freeLargeCount;

    /** Makes one registered buffer of a size. */
    interface Registrar
    {
        Regbuf regbuf(int size);
    }

    SvcRdmaPools(final Registrar registrar, final int calls, final int smallSize, final int largeCount,
        final int largeSize, final int headerSize)
    {
        this.calls = new SvcRdmaCall[calls];
        freeCalls = new int[calls];
        small = new Regbuf[calls];
        freeSmall = new int[calls];
        for (int i = calls - 1; i >= 0; i--)
        {
            this.calls[i] = new SvcRdmaCall(i, registrar.regbuf(headerSize));
            freeCalls[freeCallCount++] = i;
            small[i] = registrar.regbuf(smallSize);
            small[i].poolIndex = i;
            freeSmall[freeSmallCount++] = i;
        }
        large = new Regbuf[largeCount];
        freeLarge = new int[largeCount];
        for (int i = largeCount - 1; i >= 0; i--)
        {
            large[i] = registrar.regbuf(largeSize);
            large[i].poolIndex = i;
            freeLarge[freeLargeCount++] = i;
        }
    }

    /** @return true when a call context, its reply buffer and (for Read chunks) a pull buffer are free */
    boolean canServe(final boolean pulls, final boolean replyLarge)
    {
        return freeCallCount > 0 && (pulls ? 1 : 0) + (replyLarge ? 1 : 0) <= freeLargeCount &&
            (replyLarge || freeSmallCount > 0);
    }

    /** @return a free call context, or null */
    SvcRdmaCall takeCall()
    {
        return 0 == freeCallCount ? null : calls[freeCalls[--freeCallCount]];
    }

    /** @return a free small buffer, or null */
    Regbuf takeSmall()
    {
        return 0 == freeSmallCount ? null : small[freeSmall[--freeSmallCount]];
    }

    /** @return a free large buffer, or null */
    Regbuf takeLarge()
    {
        return 0 == freeLargeCount ? null : large[freeLarge[--freeLargeCount]];
    }

    void putSmall(final Regbuf rb)
    {
        freeSmall[freeSmallCount++] = rb.poolIndex;
    }

    void putLarge(final Regbuf rb)
    {
        freeLarge[freeLargeCount++] = rb.poolIndex;
    }

    /** A call is over: its buffers and the context go back (the receive buffer is the connection's). */
    void release(final SvcRdmaCall call)
    {
        if (null != call.pull)
        {
            putLarge(call.pull);
        }
        if (null != call.reply)
        {
            if (call.replyLarge)
            {
                putLarge(call.reply);
            }
            else
            {
                putSmall(call.reply);
            }
        }
        call.reset();
        freeCalls[freeCallCount++] = call.index;
    }

    /** @return calls being served */
    int busyCalls()
    {
        return calls.length - freeCallCount;
    }
}
