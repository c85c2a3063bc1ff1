package io.jrxe.ulp.cm;

import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;

/**
 * What the CM tells its consumer (Linux's {@code ib_cm_handler} events), always on the CM thread. A message
 * flyweight passed in is valid only during the call: copy what you keep. The handler may call back into the
 * {@link CmService} (send REP, RTU, DREP ...) and may use control verbs; it must not block.
 */
public interface CmHandler
{
    /**
     * A listener got a REQ for a new connection ({@code IB_CM_REQ_RECEIVED}); answer with
     * {@link CmService#sendRep} or {@link CmService#sendRej}, now or later.
     *
     * @param conn the new passive connection (REQ_RCVD); set its handler
     * @param req the REQ
     */
    default void onReq(CmConnection conn, ReqMessage req)
    {
    }

    /**
     * A listener got a SIDR_REQ ({@code IB_CM_SIDR_REQ_RECEIVED}); answer with {@link CmService#sendSidrRep}.
     *
     * @param conn the SIDR exchange (SIDR_REQ_RCVD)
     * @param req the request
     */
    default void onSidrReq(CmConnection conn, SidrReqMessage req)
    {
    }

    /**
     * REP received for our REQ ({@code IB_CM_REP_RECEIVED}); answer with {@link CmService#sendRtu} or REJ.
     *
     * @param conn the connection (REP_RCVD)
     * @param rep the REP
     */
    default void onRep(CmConnection conn, RepMessage rep)
    {
    }

    /**
     * The connection is up: RTU received (passive) or sent (active).
     *
     * @param conn the connection (ESTABLISHED)
     */
    default void onEstablished(CmConnection conn)
    {
    }

    /**
     * The peer rejected ({@code IB_CM_REJ_RECEIVED}); the connection is over.
     *
     * @param conn the connection (IDLE)
     * @param rej the REJ (reason, private data)
     */
    default void onRej(CmConnection conn, RejMessage rej)
    {
    }

    /**
     * A message went unanswered after every retry ({@code IB_CM_REQ_ERROR}, {@code REP_ERROR},
     * {@code DREQ_ERROR}, {@code SIDR_REQ_ERROR}).
     *
     * @param conn the connection (IDLE, or TIMEWAIT after a DREQ)
     * @param failed the state it failed in (REQ_SENT, REP_SENT, DREQ_SENT, SIDR_REQ_SENT ...)
     */
    default void onTimeout(CmConnection conn, CmState failed)
    {
    }

    /**
     * The peer disconnects ({@code IB_CM_DREQ_RECEIVED}); answer with {@link CmService#sendDrep}.
     *
     * @param conn the connection (DREQ_RCVD)
     * @param dreq the DREQ
     */
    default void onDreq(CmConnection conn, DreqMessage dreq)
    {
    }

    /**
     * Our DREQ was answered ({@code IB_CM_DREP_RECEIVED}).
     *
     * @param conn the connection (TIMEWAIT)
     */
    default void onDrep(CmConnection conn)
    {
    }

    /**
     * Time-wait ended ({@code IB_CM_TIMEWAIT_EXIT}); the comm ID is released.
     *
     * @param conn the connection (IDLE)
     */
    default void onTimewaitExit(CmConnection conn)
    {
    }

    /**
     * The SIDR_REP arrived ({@code IB_CM_SIDR_REP_RECEIVED}).
     *
     * @param conn the SIDR exchange (IDLE)
     * @param rep the reply (status, QPN, Q_Key)
     */
    default void onSidrRep(CmConnection conn, SidrRepMessage rep)
    {
    }
}
