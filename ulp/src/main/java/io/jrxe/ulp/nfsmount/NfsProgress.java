package io.jrxe.ulp.nfsmount;

/**
 * Told how far a transfer is, in bytes acknowledged by the server, in order. Called on the transferring thread.
 */
@FunctionalInterface
public interface NfsProgress
{
    /** Ignores progress. */
    NfsProgress NONE = (done, total) ->
    {
    };

    /**
     * @param done bytes done
     * @param total bytes in all
     */
    void progress(long done, long total);
}
