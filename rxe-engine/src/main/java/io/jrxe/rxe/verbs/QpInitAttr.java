package io.jrxe.rxe.verbs;

/**
 * QP creation attributes ({@code struct ib_qp_init_attr}). On success {@link #cap()} is updated with the actual
 * capabilities. A reusable mutable object.
 */
public final class QpInitAttr
{
    private QpType qpType = QpType.RC;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private SharedReceiveQueue srq;
    private XrcDomain xrcd;
    private final QpCap cap = new QpCap();
    private boolean sqSigAll;
    private boolean multicastLoopback;

    /** @return QP type. */
    public QpType qpType()
    {
        return qpType;
    }

    /**
     * @param value QP type.
     * @return this.
     */
    public QpInitAttr qpType(final QpType value)
    {
        qpType = value;
        return this;
    }

    /** @return the XRC domain of an XRC target QP, or null. */
    public XrcDomain xrcd()
    {
        return xrcd;
    }

    /**
     * @param value the XRC domain an {@link QpType#XRC_TGT} QP belongs to ({@code qp_init_attr.xrcd}); required for
     *              XRC_TGT and refused for every other type.
     * @return this.
     */
    public QpInitAttr xrcd(final XrcDomain value)
    {
        xrcd = value;
        return this;
    }

    /** @return CQ for send completions. */
    public CompletionQueue sendCq()
    {
        return sendCq;
    }

    /**
     * @param value send CQ.
     * @return this.
     */
    public QpInitAttr sendCq(final CompletionQueue value)
    {
        sendCq = value;
        return this;
    }

    /** @return CQ for receive completions. */
    public CompletionQueue recvCq()
    {
        return recvCq;
    }

    /**
     * @param value receive CQ.
     * @return this.
     */
    public QpInitAttr recvCq(final CompletionQueue value)
    {
        recvCq = value;
        return this;
    }

    /** @return shared receive queue or null. */
    public SharedReceiveQueue srq()
    {
        return srq;
    }

    /**
     * @param value SRQ or null.
     * @return this.
     */
    public QpInitAttr srq(final SharedReceiveQueue value)
    {
        srq = value;
        return this;
    }

    /** @return requested (in) and actual (out) capabilities. */
    public QpCap cap()
    {
        return cap;
    }

    /** @return true if every send WR generates a completion ({@code IB_SIGNAL_ALL_WR}). */
    public boolean sqSigAll()
    {
        return sqSigAll;
    }

    /**
     * @param value signal all send WRs.
     * @return this.
     */
    public QpInitAttr sqSigAll(final boolean value)
    {
        sqSigAll = value;
        return this;
    }

    /** @return true if the QP receives its own sends to a multicast group it is attached to. */
    public boolean multicastLoopback()
    {
        return multicastLoopback;
    }

    /**
     * Whether a UD QP attached to a multicast group receives the datagrams it sends to that group itself. Off by
     * default: a publisher on a market-data group does not want its own messages back. Other QPs of the node that
     * are attached to the group always receive them. Linux's default on mlx5 is the opposite (loopback on, turned
     * off with {@code IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK}); rxe hands the sender its own datagrams whenever the IP
     * stack loops them back. jrxe asks for it explicitly, so that a sender's receive queue is not filled by its own
     * traffic unless it wants that.
     *
     * @param value deliver the QP's own multicast sends to it.
     * @return this.
     */
    public QpInitAttr multicastLoopback(final boolean value)
    {
        multicastLoopback = value;
        return this;
    }
}
