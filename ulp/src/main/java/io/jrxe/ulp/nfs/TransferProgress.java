package io.jrxe.ulp.nfs;

/**
 * Told how a file transfer of {@link Nfs3Session} goes, on the transferring thread, after each chunk: for a
 * progress line. Implement it once (a named class, not a lambda per transfer) if the transfer is measured.
 */
public interface TransferProgress
{
    /** Reports nothing. */
    TransferProgress NONE = new TransferProgress()
    {
        @Override
        public void progress(final long done, final long total)
        {
        }
    };

    /**
     * @param done bytes transferred (in file order: everything before this offset is done)
     * @param total bytes to transfer
     */
    void progress(long done, long total);

    /**
     * The transfer starts again from offset 0: the server restarted and lost UNSTABLE writes (its write verifier
     * changed, RFC 1813 §3.3.7). A sink or source that hashes the bytes starts its hash again.
     *
     * @param reason why, for a log line
     */
    default void restarted(final String reason)
    {
    }
}
