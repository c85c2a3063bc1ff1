package io.jrxe.rxe.verbs;

/**
 * Which part of a T10-DIF tuple failed its check ({@code enum ib_sig_err_type}).
 */
public enum SigErrType
{
    /** The block guard differs from the guard computed over the block ({@code IB_SIG_BAD_GUARD}). */
    GUARD,
    /** The reference tag differs from the expected one ({@code IB_SIG_BAD_REFTAG}). */
    REFTAG,
    /** The masked application tag differs from the expected one ({@code IB_SIG_BAD_APPTAG}). */
    APPTAG
}
