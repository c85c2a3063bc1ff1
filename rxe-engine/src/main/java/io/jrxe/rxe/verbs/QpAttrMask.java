package io.jrxe.rxe.verbs;

/**
 * Attribute mask bits of modify/query QP, values of {@code enum ib_qp_attr_mask}.
 */
public final class QpAttrMask
{
    /** qp_state. */
    public static final int STATE = 1;
    /** cur_qp_state. */
    public static final int CUR_STATE = 1 << 1;
    /** en_sqd_async_notify. */
    public static final int EN_SQD_ASYNC_NOTIFY = 1 << 2;
    /** qp_access_flags. */
    public static final int ACCESS_FLAGS = 1 << 3;
    /** pkey_index. */
    public static final int PKEY_INDEX = 1 << 4;
    /** port_num. */
    public static final int PORT = 1 << 5;
    /** qkey. */
    public static final int QKEY = 1 << 6;
    /** ah_attr (primary path). */
    public static final int AV = 1 << 7;
    /** path_mtu. */
    public static final int PATH_MTU = 1 << 8;
    /** timeout. */
    public static final int TIMEOUT = 1 << 9;
    /** retry_cnt. */
    public static final int RETRY_CNT = 1 << 10;
    /** rnr_retry. */
    public static final int RNR_RETRY = 1 << 11;
    /** rq_psn. */
    public static final int RQ_PSN = 1 << 12;
    /** max_rd_atomic (initiator depth). */
    public static final int MAX_QP_RD_ATOMIC = 1 << 13;
    /** alternate path (accepted by the table for RC/UC, ignored by rxe's RoCE port). */
    public static final int ALT_PATH = 1 << 14;
    /** min_rnr_timer. */
    public static final int MIN_RNR_TIMER = 1 << 15;
    /** sq_psn. */
    public static final int SQ_PSN = 1 << 16;
    /** max_dest_rd_atomic (responder depth). */
    public static final int MAX_DEST_RD_ATOMIC = 1 << 17;
    /** path_mig_state. */
    public static final int PATH_MIG_STATE = 1 << 18;
    /** cap. */
    public static final int CAP = 1 << 19;
    /** dest_qp_num. */
    public static final int DEST_QPN = 1 << 20;
    /** rate_limit (raw packet QPs only). */
    public static final int RATE_LIMIT = 1 << 25;

    private static final String[] NAMES =
    {
        "STATE", "CUR_STATE", "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS", "PKEY_INDEX", "PORT", "QKEY", "AV",
        "PATH_MTU", "TIMEOUT", "RETRY_CNT", "RNR_RETRY", "RQ_PSN", "MAX_QP_RD_ATOMIC", "ALT_PATH", "MIN_RNR_TIMER",
        "SQ_PSN", "MAX_DEST_RD_ATOMIC", "PATH_MIG_STATE", "CAP", "DEST_QPN", "RESERVED1", "RESERVED2", "RESERVED3",
        "RESERVED4", "RATE_LIMIT"
    };

    private QpAttrMask()
    {
    }

    /**
     * @param mask attribute mask.
     * @return names joined by '|', e.g. {@code "TIMEOUT|RETRY_CNT"}; "0" for none.
     */
    public static String toString(final int mask)
    {
        final StringBuilder sb = new StringBuilder();
        for (int bit = 0; bit < 32; bit++)
        {
            if (0 != (mask & (1 << bit)))
            {
                if (sb.length() > 0)
                {
                    sb.append('|');
                }
                sb.append(bit < NAMES.length ? NAMES[bit] : "BIT" + bit);
            }
        }
        return sb.length() == 0 ? "0" : sb.toString();
    }
}
