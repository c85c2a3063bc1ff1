package io.jrxe.rxe.verbs;

/**
 * Value checks of a modify-QP request beyond the state table (rxe {@code rxe_qp_chk_attr} plus the field widths
 * the IBA gives each attribute).
 */
final class QpAttrCheck
{
    private QpAttrCheck()
    {
    }

    /**
     * @param qp the QP.
     * @param attr requested attributes.
     * @param mask attribute mask.
     * @param device device attributes.
     * @param port port attributes.
     * @param gids GID table.
     * @return null if every masked value is acceptable, else what is wrong.
     */
    static String check(
        final QueuePair qp,
        final QpAttr attr,
        final int mask,
        final DeviceAttr device,
        final PortAttr port,
        final GidTable gids)
    {
        if (0 != (mask & QpAttrMask.PORT) && 1 != attr.portNum())
        {
            return "port " + attr.portNum() + " is invalid: rxe has one port, use 1";
        }
        if (0 != (mask & QpAttrMask.PKEY_INDEX) &&
            (attr.pkeyIndex() < 0 || attr.pkeyIndex() >= port.pkeyTableLength()))
        {
            return "pkey index " + attr.pkeyIndex() + " outside the P_Key table [0, " + port.pkeyTableLength() + ")";
        }
        if (0 != (mask & QpAttrMask.QKEY) && attr.qkey() < 0 && QpType.GSI != qp.type())
        {
            return "Q_Key 0x" + Integer.toHexString(attr.qkey()) +
                " has the high bit set: controlled Q_Keys are reserved for privileged (GSI) QPs";
        }
        if (0 != (mask & QpAttrMask.ACCESS_FLAGS) && 0 != (attr.qpAccessFlags() & ~AccessFlags.SUPPORTED_QP))
        {
            return "QP access flags 0x" + Integer.toHexString(attr.qpAccessFlags()) +
                " contain bits that are not QP rights (REMOTE_READ/WRITE/ATOMIC, LOCAL_WRITE, FLUSH_*)";
        }
        if (0 != (mask & QpAttrMask.AV))
        {
            final String bad = attr.ahAttr().check(gids);
            if (null != bad)
            {
                return bad;
            }
        }
        if (0 != (mask & QpAttrMask.PATH_MTU) &&
            (null == attr.pathMtu() || attr.pathMtu().code() > port.maxMtu().code()))
        {
            return "path MTU " + attr.pathMtu() + " above the port max MTU " + port.maxMtu();
        }
        return checkNumbers(attr, mask, device);
    }

    private static String checkNumbers(final QpAttr attr, final int mask, final DeviceAttr device)
    {
        if (0 != (mask & QpAttrMask.MAX_QP_RD_ATOMIC) &&
            (attr.maxRdAtomic() < 0 || attr.maxRdAtomic() > device.maxQpInitRdAtom()))
        {
            return "max_rd_atomic " + attr.maxRdAtomic() + " outside [0, " + device.maxQpInitRdAtom() + "]";
        }
        if (0 != (mask & QpAttrMask.MAX_DEST_RD_ATOMIC) &&
            (attr.maxDestRdAtomic() < 0 || attr.maxDestRdAtomic() > device.maxQpRdAtom()))
        {
            return "max_dest_rd_atomic " + attr.maxDestRdAtomic() + " outside [0, " + device.maxQpRdAtom() + "]";
        }
        if (0 != (mask & QpAttrMask.TIMEOUT) && (attr.timeout() < 0 || attr.timeout() > 31))
        {
            return "timeout " + attr.timeout() + " outside [0, 31] (4.096 us * 2^timeout, 0 = infinite)";
        }
        if (0 != (mask & QpAttrMask.RETRY_CNT) && (attr.retryCnt() < 0 || attr.retryCnt() > 7))
        {
            return "retry_cnt " + attr.retryCnt() + " outside [0, 7] (3-bit field)";
        }
        if (0 != (mask & QpAttrMask.RNR_RETRY) && (attr.rnrRetry() < 0 || attr.rnrRetry() > 7))
        {
            return "rnr_retry " + attr.rnrRetry() + " outside [0, 7] (7 = infinite)";
        }
        if (0 != (mask & QpAttrMask.MIN_RNR_TIMER) && (attr.minRnrTimer() < 0 || attr.minRnrTimer() > 31))
        {
            return "min_rnr_timer " + attr.minRnrTimer() + " outside [0, 31] (5-bit RNR timer code)";
        }
        if (0 != (mask & QpAttrMask.DEST_QPN) && 0 != (attr.destQpNum() & ~0xffffff))
        {
            return "dest_qp_num 0x" + Integer.toHexString(attr.destQpNum()) + " wider than 24 bits";
        }
        if (0 != (mask & QpAttrMask.RQ_PSN) && 0 != (attr.rqPsn() & ~0xffffff))
        {
            return "rq_psn 0x" + Integer.toHexString(attr.rqPsn()) + " wider than 24 bits";
        }
        if (0 != (mask & QpAttrMask.SQ_PSN) && 0 != (attr.sqPsn() & ~0xffffff))
        {
            return "sq_psn 0x" + Integer.toHexString(attr.sqPsn()) + " wider than 24 bits";
        }
        return null;
    }
}
