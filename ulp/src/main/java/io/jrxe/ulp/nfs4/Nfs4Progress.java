package io.jrxe.ulp.nfs4;

/**
 * Told how far a transfer is, after each chunk (on the session's thread, between calls: keep it short). Implement
 * it once per transfer display, not per chunk.
 */
public interface Nfs4Progress
{
    /** Tells nothing. */
    Nfs4Progress NONE = new Nfs4Progress()
    {
        @Override
        public void progress(final long done, final long total)
        {
        }
    };

    /**
     * @param done bytes transferred so far (in order: a prefix of the file)
     * @param total bytes expected (the file's size when the transfer started)
     */
    void progress(long done, long total);
}
