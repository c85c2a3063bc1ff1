package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.AhAttr;

/**
 * One event of an {@link EventChannel} ({@code struct rdma_cm_event}). Acknowledge it with
 * {@link EventChannel#ackEvent}: an id cannot be destroyed or migrated while it has unacknowledged events, as in
 * librdmacm. Connection events carry a {@link ConnParam} (private data, the peer's resources); datagram events
 * carry the peer's QPN, Q_Key and address vector.
 */
public final class CmEvent
{
    private final CmEventType type;
    private final int status;
    private final CmId id;
    private final CmId listenId;
    private final ConnParam param;
    private final int qkey;
    private final AhAttr ahAttr;
    boolean acked;

    CmEvent(
        final CmEventType type, final int status, final CmId id, final CmId listenId, final ConnParam param,
        final int qkey, final AhAttr ahAttr)
    {
        this.type = type;
        this.status = status;
        this.id = id;
        this.listenId = listenId;
        this.param = null == param ? new ConnParam().retryCount(0).rnrRetryCount(0) : param;
        this.qkey = qkey;
        this.ahAttr = ahAttr;
    }

    /** @return what happened */
    public CmEventType type()
    {
        return type;
    }

    /**
     * @return 0, a negative errno (-ETIMEDOUT ...), the REJ reason for REJECTED, or the SIDR status for a refused
     *     SIDR
     */
    public int status()
    {
        return status;
    }

    /** @return the id the event is about (for CONNECT_REQUEST, the new id) */
    public CmId id()
    {
        return id;
    }

    /** @return the listening id, for CONNECT_REQUEST; else null */
    public CmId listenId()
    {
        return listenId;
    }

    /** @return connection parameters and private data */
    public ConnParam param()
    {
        return param;
    }

    /** @return the peer's Q_Key (datagram events) */
    public int qkey()
    {
        return qkey;
    }

    /** @return the peer's QPN (connection and datagram events) */
    public int qpNum()
    {
        return param.qpNum();
    }

    /** @return address vector to the peer (datagram ESTABLISHED), or null */
    public AhAttr ahAttr()
    {
        return ahAttr;
    }

    @Override
    public String toString()
    {
        return type.str() + (0 == status ? "" : " status " + status) + " id=" + id;
    }
}
