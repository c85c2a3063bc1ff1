package io.jrxe.rxe.verbs;

/**
 * What {@link RxeDevice#openQp} opens ({@code struct ib_qp_open_attr}): the shared QP's number and type, and the
 * handler its events go to through the new handle. The kernel's {@code qp_context} is what the handler captures.
 * A reusable mutable object.
 */
public final class QpOpenAttr
{
    private int qpNum;
    private QpType qpType = QpType.XRC_TGT;
    private AsyncEventHandler eventHandler;

    /** @return the QP number to open. */
    public int qpNum()
    {
        return qpNum;
    }

    /**
     * @param value the QP number to open.
     * @return this.
     */
    public QpOpenAttr qpNum(final int value)
    {
        qpNum = value;
        return this;
    }

    /** @return the QP type ({@link QpType#XRC_TGT}, the only sharable type). */
    public QpType qpType()
    {
        return qpType;
    }

    /**
     * @param value the QP type; anything but {@link QpType#XRC_TGT} is refused with EINVAL, as by ib_open_qp.
     * @return this.
     */
    public QpOpenAttr qpType(final QpType value)
    {
        qpType = value;
        return this;
    }

    /** @return the handler of the QP's events through this handle, or null. */
    public AsyncEventHandler eventHandler()
    {
        return eventHandler;
    }

    /**
     * @param value the handler of the QP's events through this handle, or null.
     * @return this.
     */
    public QpOpenAttr eventHandler(final AsyncEventHandler value)
    {
        eventHandler = value;
        return this;
    }
}
