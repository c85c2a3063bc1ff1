package io.jrxe.ulp.nfs;

/**
 * COMMIT3resok (RFC 1813 §3.3.21): the write verifier, which must equal the one of the UNSTABLE writes it commits,
 * and the file's weak cache consistency data. Reusable.
 */
public final class CommitResult
{
    private final WccData wcc = new WccData();
    private long verifier;

    void set(final long verifier)
    {
        this.verifier = verifier;
    }

    /** @return the write verifier (its 8 bytes, big-endian) */
    public long verifier()
    {
        return verifier;
    }

    /** @return the file's wcc_data */
    public WccData wcc()
    {
        return wcc;
    }
}
