package io.jrxe.rxe.verbs;

/**
 * Send work request flags, values of {@code enum ib_send_flags}.
 */
public final class SendFlags
{
    /** Wait for prior RDMA READ/atomic operations to complete before starting this WR. */
    public static final int FENCE = 1;
    /** Generate a completion for this WR (always done when the QP signals all WRs). */
    public static final int SIGNALED = 1 << 1;
    /** Set the SE bit so the receiver's solicited-only notification fires. */
    public static final int SOLICITED = 1 << 2;
    /** The SGE payload is copied into the WQE at post time; lkeys are not checked. */
    public static final int INLINE = 1 << 3;
    /** IP checksum offload (not used by rxe). */
    public static final int IP_CSUM = 1 << 4;

    /** The flags this engine understands. */
    public static final int SUPPORTED = FENCE | SIGNALED | SOLICITED | INLINE;

    private SendFlags()
    {
    }
}
