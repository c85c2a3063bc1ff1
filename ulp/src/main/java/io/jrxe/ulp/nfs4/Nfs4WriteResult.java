package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;

/**
 * WRITE4resok (RFC 8881 §18.32.2), reused: bytes written, how stably, and the write verifier that COMMIT must
 * match (a different verifier means the server restarted and unstable data may be lost, RFC 8881 §18.3.4).
 * <pre>
 *   | count | committed: stable_how4 | writeverf 8 |
 * </pre>
 */
public final class Nfs4WriteResult
{
    private int count;
    private int committed;
    private long verifier;

    /**
     * @param xdr positioned at WRITE4resok
     * @return this
     */
    public Nfs4WriteResult decode(final XdrDecoder xdr)
    {
        count = xdr.getInt();
        committed = xdr.getInt();
        verifier = xdr.getHyper();
        return this;
    }

    /** @return bytes written */
    public int count()
    {
        return count;
    }

    /** @return stable_how4 the data reached */
    public int committed()
    {
        return committed;
    }

    /** @return the write verifier */
    public long verifier()
    {
        return verifier;
    }
}
