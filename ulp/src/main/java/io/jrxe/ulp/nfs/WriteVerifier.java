package io.jrxe.ulp.nfs;

/**
 * Tracks the write verifier across UNSTABLE WRITEs and their COMMIT (RFC 1813 §3.3.7: "the server must vary the
 * verifier ... when the server restarts"; §3.3.21: the client compares COMMIT's verifier with the WRITEs' and, when
 * they differ, sends the uncommitted data again). The first reply sets it; a later reply with another verifier
 * throws {@link WriteVerifierChangedException}. Allocation-free until it throws.
 * <pre>
 *   reset ... written(WRITE reply) x N ... committed(COMMIT reply) ... reset (next batch)
 * </pre>
 */
public final class WriteVerifier
{
    private boolean known;
    private long verifier;

    /** Forget the verifier (a new batch of writes). */
    public void reset()
    {
        known = false;
    }

    /** @return true once a reply set it */
    public boolean known()
    {
        return known;
    }

    /** @return the verifier */
    public long verifier()
    {
        return verifier;
    }

    /**
     * A WRITE reply.
     *
     * @param result the reply
     * @throws WriteVerifierChangedException when its verifier differs from the earlier replies'
     */
    public void written(final WriteResult result) throws WriteVerifierChangedException
    {
        see(result.verifier(), Nfs3Client.operation(Nfs3.NFSPROC3_WRITE));
    }

    /**
     * A COMMIT reply.
     *
     * @param result the reply
     * @throws WriteVerifierChangedException when its verifier differs from the WRITEs'
     */
    public void committed(final CommitResult result) throws WriteVerifierChangedException
    {
        see(result.verifier(), Nfs3Client.operation(Nfs3.NFSPROC3_COMMIT));
    }

    private void see(final long value, final String operation) throws WriteVerifierChangedException
    {
        if (!known)
        {
            known = true;
            verifier = value;
        }
        else if (value != verifier)
        {
            throw new WriteVerifierChangedException(operation, verifier, value);
        }
    }
}
