package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcCall;

/**
 * One kind of COMPOUND: the operations it sends and how their results are read. A session sends it on a slot,
 * after the SEQUENCE it writes itself (or alone, for the operations that come before a session exists), retries
 * it when the server says so, and hands the results to {@link #decode}. Instances are reused request after request:
 * set their arguments, run them, read their result fields.
 * <pre>
 *   encode:  SEQUENCE (the session's) | op | op | ...        decode:  SEQUENCE result (the session's) | op ...
 * </pre>
 */
public abstract class Nfs4Request
{
    /** @return a name for messages ("OPEN", "READ" ...) */
    public abstract String name();

    /**
     * @return whether SEQUENCE asks the server to cache the reply (RFC 8881 §2.10.6.1.3): true for requests that
     *         must not run twice (OPEN, CLOSE, REMOVE)
     */
    public boolean cacheThis()
    {
        return false;
    }

    /**
     * Write the operations (after SEQUENCE).
     *
     * @param enc the COMPOUND being written
     * @param call the call (for a WRITE's payload or a READ's destination)
     */
    public abstract void encode(Nfs4CompoundEncoder enc, RpcCall call);

    /**
     * Read the operations' results (after SEQUENCE's).
     *
     * @param dec the reply
     * @param call the call (for a READ's payload)
     * @throws Nfs4StatusException when an operation failed
     */
    public abstract void decode(Nfs4CompoundDecoder dec, RpcCall call);
}
