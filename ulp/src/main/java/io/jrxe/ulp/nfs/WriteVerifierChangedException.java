package io.jrxe.ulp.nfs;

import java.io.IOException;

/**
 * The server's write verifier changed between UNSTABLE WRITEs and their COMMIT (RFC 1813 §3.3.7, §3.3.21): the
 * server restarted and may have lost every unstable write since the last successful COMMIT, which must be sent
 * again. {@link Nfs3Session#writeFile} does so itself and throws this only when the verifier keeps changing.
 */
public final class WriteVerifierChangedException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final long expected;
    private final long actual;

    /**
     * @param operation where the new verifier was seen ("NFS3 COMMIT")
     * @param expected the verifier of the earlier writes
     * @param actual the new one
     */
    public WriteVerifierChangedException(final String operation, final long expected, final long actual)
    {
        super(operation + ": write verifier changed from " + hex(expected) + " to " + hex(actual) +
            ": the server restarted and unstable writes since the last COMMIT must be sent again");
        this.expected = expected;
        this.actual = actual;
    }

    private static String hex(final long verifier)
    {
        return String.format("%016x", verifier);
    }

    /** @return the verifier of the earlier writes */
    public long expected()
    {
        return expected;
    }

    /** @return the verifier now */
    public long actual()
    {
        return actual;
    }
}
