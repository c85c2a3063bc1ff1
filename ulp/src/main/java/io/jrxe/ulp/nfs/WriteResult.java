package io.jrxe.ulp.nfs;

/**
 * WRITE3resok (RFC 1813 §3.3.7): bytes written, how stable they are, the server's write verifier and the file's
 * weak cache consistency data. Reusable.
 * <pre>
 *   | file_wcc: wcc_data | count (4) | committed: stable_how (4) | verf: writeverf3 (8) |
 * </pre>
 */
public final class WriteResult
{
    private final WccData wcc = new WccData();
    private int count;
    private int committed;
    private long verifier;

    void set(final int count, final int committed, final long verifier)
    {
        this.count = count;
        this.committed = committed;
        this.verifier = verifier;
    }

    /** @return bytes written (fewer than sent is a short write: the rest must be sent again) */
    public int count()
    {
        return count;
    }

    /** @return stable_how the data reached: UNSTABLE data needs a COMMIT with the same verifier */
    public int committed()
    {
        return committed;
    }

    /** @return the write verifier (its 8 bytes, big-endian): it changes when the server restarts */
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
