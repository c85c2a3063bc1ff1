package io.jrxe.rxe.verbs;

/**
 * QP attributes ({@code struct ib_qp_attr}) for modify and query; which fields count is given by a
 * {@link QpAttrMask}. Alternate-path fields are not modelled (RoCE has no APM). A reusable mutable object.
 */
public final class QpAttr
{
    private QpState qpState = QpState.RESET;
    private QpState curQpState = QpState.RESET;
    private Mtu pathMtu = Mtu.MTU_256;
    private int pathMigState;
    private int qkey;
    private int rqPsn;
    private int sqPsn;
    private int destQpNum;
    private int qpAccessFlags;
    private final QpCap cap = new QpCap();
    private final AhAttr ahAttr = new AhAttr();
    private int pkeyIndex;
    private boolean enSqdAsyncNotify;
    private boolean sqDraining;
    private int maxRdAtomic;
    private int maxDestRdAtomic;
    private int minRnrTimer;
    private int portNum = 1;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;

    /** @return the new (modify) or current (query) state. */
    public QpState qpState()
    {
        return qpState;
    }

    /**
     * @param value state.
     * @return this.
     */
    public QpAttr qpState(final QpState value)
    {
        qpState = value;
        return this;
    }

    /** @return the state the caller believes the QP is in (with {@link QpAttrMask#CUR_STATE}). */
    public QpState curQpState()
    {
        return curQpState;
    }

    /**
     * @param value assumed current state.
     * @return this.
     */
    public QpAttr curQpState(final QpState value)
    {
        curQpState = value;
        return this;
    }

    /** @return path MTU. */
    public Mtu pathMtu()
    {
        return pathMtu;
    }

    /**
     * @param value path MTU.
     * @return this.
     */
    public QpAttr pathMtu(final Mtu value)
    {
        pathMtu = value;
        return this;
    }

    /** @return path migration state (accepted and stored, no APM on RoCE). */
    public int pathMigState()
    {
        return pathMigState;
    }

    /**
     * @param value path migration state.
     * @return this.
     */
    public QpAttr pathMigState(final int value)
    {
        pathMigState = value;
        return this;
    }

    /** @return Q_Key (UD/GSI). */
    public int qkey()
    {
        return qkey;
    }

    /**
     * @param value Q_Key.
     * @return this.
     */
    public QpAttr qkey(final int value)
    {
        qkey = value;
        return this;
    }

    /** @return expected receive PSN (24 bits). */
    public int rqPsn()
    {
        return rqPsn;
    }

    /**
     * @param value receive PSN.
     * @return this.
     */
    public QpAttr rqPsn(final int value)
    {
        rqPsn = value;
        return this;
    }

    /** @return first send PSN (24 bits). */
    public int sqPsn()
    {
        return sqPsn;
    }

    /**
     * @param value send PSN.
     * @return this.
     */
    public QpAttr sqPsn(final int value)
    {
        sqPsn = value;
        return this;
    }

    /** @return remote QP number (24 bits). */
    public int destQpNum()
    {
        return destQpNum;
    }

    /**
     * @param value remote QPN.
     * @return this.
     */
    public QpAttr destQpNum(final int value)
    {
        destQpNum = value;
        return this;
    }

    /** @return remote access rights the QP grants ({@link AccessFlags} REMOTE_*). */
    public int qpAccessFlags()
    {
        return qpAccessFlags;
    }

    /**
     * @param value access flags.
     * @return this.
     */
    public QpAttr qpAccessFlags(final int value)
    {
        qpAccessFlags = value;
        return this;
    }

    /** @return capabilities (query output; not modifiable on rxe). */
    public QpCap cap()
    {
        return cap;
    }

    /** @return primary path address vector. */
    public AhAttr ahAttr()
    {
        return ahAttr;
    }

    /** @return P_Key index. */
    public int pkeyIndex()
    {
        return pkeyIndex;
    }

    /**
     * @param value P_Key index.
     * @return this.
     */
    public QpAttr pkeyIndex(final int value)
    {
        pkeyIndex = value;
        return this;
    }

    /** @return whether SQ_DRAINED is raised when the SQD drain completes. */
    public boolean enSqdAsyncNotify()
    {
        return enSqdAsyncNotify;
    }

    /**
     * @param value raise SQ_DRAINED.
     * @return this.
     */
    public QpAttr enSqdAsyncNotify(final boolean value)
    {
        enSqdAsyncNotify = value;
        return this;
    }

    /** @return query output: the send queue is still draining in SQD. */
    public boolean sqDraining()
    {
        return sqDraining;
    }

    /**
     * @param value draining flag.
     * @return this.
     */
    public QpAttr sqDraining(final boolean value)
    {
        sqDraining = value;
        return this;
    }

    /** @return initiator depth: outstanding RDMA READ/atomic requests this QP may issue. */
    public int maxRdAtomic()
    {
        return maxRdAtomic;
    }

    /**
     * @param value initiator depth.
     * @return this.
     */
    public QpAttr maxRdAtomic(final int value)
    {
        maxRdAtomic = value;
        return this;
    }

    /** @return responder resources: incoming RDMA READ/atomic requests this QP may have outstanding. */
    public int maxDestRdAtomic()
    {
        return maxDestRdAtomic;
    }

    /**
     * @param value responder resources.
     * @return this.
     */
    public QpAttr maxDestRdAtomic(final int value)
    {
        maxDestRdAtomic = value;
        return this;
    }

    /** @return RNR NAK timer code (0..31) this QP advertises as responder. */
    public int minRnrTimer()
    {
        return minRnrTimer;
    }

    /**
     * @param value RNR timer code 0..31.
     * @return this.
     */
    public QpAttr minRnrTimer(final int value)
    {
        minRnrTimer = value;
        return this;
    }

    /** @return port number (1). */
    public int portNum()
    {
        return portNum;
    }

    /**
     * @param value port number.
     * @return this.
     */
    public QpAttr portNum(final int value)
    {
        portNum = value;
        return this;
    }

    /** @return local ACK timeout exponent: 4.096 us * 2^timeout, 0 = infinite. */
    public int timeout()
    {
        return timeout;
    }

    /**
     * @param value timeout exponent 0..31.
     * @return this.
     */
    public QpAttr timeout(final int value)
    {
        timeout = value;
        return this;
    }

    /** @return transport retry count 0..7. */
    public int retryCnt()
    {
        return retryCnt;
    }

    /**
     * @param value retry count 0..7.
     * @return this.
     */
    public QpAttr retryCnt(final int value)
    {
        retryCnt = value;
        return this;
    }

    /** @return RNR retry count 0..7 (7 = infinite). */
    public int rnrRetry()
    {
        return rnrRetry;
    }

    /**
     * @param value RNR retry count 0..7.
     * @return this.
     */
    public QpAttr rnrRetry(final int value)
    {
        rnrRetry = value;
        return this;
    }

    /**
     * Copy every field.
     *
     * @param other source.
     * @return this.
     */
    public QpAttr copyFrom(final QpAttr other)
    {
        qpState = other.qpState;
        curQpState = other.curQpState;
        pathMtu = other.pathMtu;
        pathMigState = other.pathMigState;
        qkey = other.qkey;
        rqPsn = other.rqPsn;
        sqPsn = other.sqPsn;
        destQpNum = other.destQpNum;
        qpAccessFlags = other.qpAccessFlags;
        cap.copyFrom(other.cap);
        ahAttr.copyFrom(other.ahAttr);
        pkeyIndex = other.pkeyIndex;
        enSqdAsyncNotify = other.enSqdAsyncNotify;
        sqDraining = other.sqDraining;
        maxRdAtomic = other.maxRdAtomic;
        maxDestRdAtomic = other.maxDestRdAtomic;
        minRnrTimer = other.minRnrTimer;
        portNum = other.portNum;
        timeout = other.timeout;
        retryCnt = other.retryCnt;
        rnrRetry = other.rnrRetry;
        return this;
    }

    /**
     * Copy the fields selected by a mask (what modify QP stores, rxe {@code rxe_qp_from_attr}).
     *
     * @param other source.
     * @param mask {@link QpAttrMask} bits.
     * @return this.
     */
    QpAttr apply(final QpAttr other, final int mask)
    {
        if (0 != (mask & QpAttrMask.STATE))
        {
            qpState = other.qpState;
        }
        if (0 != (mask & QpAttrMask.EN_SQD_ASYNC_NOTIFY))
        {
            enSqdAsyncNotify = other.enSqdAsyncNotify;
        }
        if (0 != (mask & QpAttrMask.ACCESS_FLAGS))
        {
            qpAccessFlags = other.qpAccessFlags;
        }
        if (0 != (mask & QpAttrMask.PKEY_INDEX))
        {
            pkeyIndex = other.pkeyIndex;
        }
        if (0 != (mask & QpAttrMask.PORT))
        {
            portNum = other.portNum;
        }
        if (0 != (mask & QpAttrMask.QKEY))
        {
            qkey = other.qkey;
        }
        if (0 != (mask & QpAttrMask.AV))
        {
            ahAttr.copyFrom(other.ahAttr);
        }
        if (0 != (mask & QpAttrMask.PATH_MTU))
        {
            pathMtu = other.pathMtu;
        }
        applyTimers(other, mask);
        if (0 != (mask & QpAttrMask.RQ_PSN))
        {
            rqPsn = other.rqPsn;
        }
        if (0 != (mask & QpAttrMask.SQ_PSN))
        {
            sqPsn = other.sqPsn;
        }
        if (0 != (mask & QpAttrMask.MAX_QP_RD_ATOMIC))
        {
            maxRdAtomic = other.maxRdAtomic;
        }
        if (0 != (mask & QpAttrMask.MAX_DEST_RD_ATOMIC))
        {
            maxDestRdAtomic = other.maxDestRdAtomic;
        }
        if (0 != (mask & QpAttrMask.PATH_MIG_STATE))
        {
            pathMigState = other.pathMigState;
        }
        if (0 != (mask & QpAttrMask.DEST_QPN))
        {
            destQpNum = other.destQpNum;
        }
        return this;
    }

    private void applyTimers(final QpAttr other, final int mask)
    {
        if (0 != (mask & QpAttrMask.TIMEOUT))
        {
            timeout = other.timeout;
        }
        if (0 != (mask & QpAttrMask.RETRY_CNT))
        {
            retryCnt = other.retryCnt;
        }
        if (0 != (mask & QpAttrMask.RNR_RETRY))
        {
            rnrRetry = other.rnrRetry;
        }
        if (0 != (mask & QpAttrMask.MIN_RNR_TIMER))
        {
            minRnrTimer = other.minRnrTimer;
        }
    }
}
