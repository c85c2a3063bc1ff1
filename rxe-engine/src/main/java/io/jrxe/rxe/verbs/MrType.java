package io.jrxe.rxe.verbs;

/**
 * Memory region types ({@code enum ib_mr_type}).
 */
public enum MrType
{
    /** Fast registration of page lists with the usual constraints ({@code IB_MR_TYPE_MEM_REG}). */
    MEM_REG,
    /** Fast registration of arbitrary SG lists, gaps allowed ({@code IB_MR_TYPE_SG_GAPS}). */
    SG_GAPS,
    /**
     * Data-integrity (signature) regions ({@code IB_MR_TYPE_INTEGRITY}, the seed's {@code IB_MR_TYPE_SIGNATURE}):
     * they come from {@link RxeDevice#allocMrIntegrity} ({@code ib_alloc_mr_integrity}); {@link RxeDevice#allocMr}
     * refuses them with EINVAL, as {@code ib_alloc_mr} does. rxe offers none; jrxe follows mlx5.
     */
    INTEGRITY,
    /** A region registered over user memory ({@code IB_MR_TYPE_USER}, from {@link RxeDevice#regMr}). */
    USER,
    /** A fast memory region ({@link RxeDevice#allocFmr}); the kernel keeps these apart as {@code ib_fmr}. */
    FMR
}
