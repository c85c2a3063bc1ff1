package io.jrxe.rxe.verbs;

/**
 * Signature type of a domain ({@code enum ib_signature_type}, include/rdma/signature.h).
 */
public enum SigType
{
    /**
     * The domain carries no protection information ({@code IB_SIG_TYPE_NONE}): with the other domain T10-DIF it
     * means insert (PI generated on the way into that domain) or strip (PI checked and dropped on the way out).
     */
    NONE,
    /** Every {@code pi_interval} bytes of data carry 8 bytes of T10-DIF ({@code IB_SIG_TYPE_T10_DIF}). */
    T10_DIF
}
