package io.jrxe.rxe.verbs;

/**
 * A handle on an XRC target QP opened by QP number within its XRC domain ({@code ib_open_qp}): how a second
 * process (or a second user in this one) shares a TGT QP that another created, each with its own event handler.
 * Modify and query go through {@link #qp()} as for the creator; {@link RxeDevice#closeQp} gives the handle back
 * ({@code ib_close_qp}). The TGT QP itself lives until its creator has destroyed it and every handle is closed,
 * as in the kernel's {@code __ib_destroy_shared_qp}.
 * <p>
 * Events: every QP event of the TGT QP goes to the device's handler and to the handler of each open handle
 * ({@code __ib_shared_qp_event_handler}), on the thread that raised it (usually the engine's).
 */
public final class XrcQpHandle
{
    private final QueuePair qp;
    private final XrcDomain xrcd;
    private final AsyncEventHandler handler;
    private volatile boolean closed;

    XrcQpHandle(final QueuePair qp, final XrcDomain xrcd, final AsyncEventHandler handler)
    {
        this.qp = qp;
        this.xrcd = xrcd;
        this.handler = handler;
    }

    /** @return the shared XRC target QP (for modify and query). */
    public QueuePair qp()
    {
        return qp;
    }

    /** @return its QP number. */
    public int qpn()
    {
        return qp.qpn();
    }

    /** @return the XRC domain it was opened in. */
    public XrcDomain xrcd()
    {
        return xrcd;
    }

    /** @return this handle's event handler, or null. */
    public AsyncEventHandler handler()
    {
        return handler;
    }

    /** @return true once closed. */
    public boolean isClosed()
    {
        return closed;
    }

    void close()
    {
        closed = true;
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "XrcQpHandle{qpn=" + qp.qpn() + ", xrcd=" + xrcd.handle() + ", closed=" + closed + '}';
    }
}
