package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;

/**
 * CREATE_SESSION4resok (RFC 8881 §18.36.2): the session id and the channel attributes the server granted.
 * <pre>
 *   | sessionid 16 | sequence | flags | fore channel_attrs4 | back channel_attrs4 |
 * </pre>
 */
public final class Nfs4CreateSessionResult
{
    private final Nfs4SessionId session = new Nfs4SessionId();
    private final Nfs4ChannelAttrs fore = new Nfs4ChannelAttrs();
    private final Nfs4ChannelAttrs back = new Nfs4ChannelAttrs();
    private int sequence;
    private int flags;

    /**
     * @param xdr positioned at CREATE_SESSION4resok
     * @return this
     */
    public Nfs4CreateSessionResult decode(final XdrDecoder xdr)
    {
        session.decode(xdr);
        sequence = xdr.getInt();
        flags = xdr.getInt();
        fore.decode(xdr);
        back.decode(xdr);
        return this;
    }

    /** @return csr_sessionid */
    public Nfs4SessionId session()
    {
        return session;
    }

    /** @return csr_sequence (equal to the csa_sequence sent) */
    public int sequence()
    {
        return sequence;
    }

    /** @return csr_flags: CREATE_SESSION4_FLAG_CONN_BACK_CHAN when the connection is the back channel too */
    public int flags()
    {
        return flags;
    }

    /** @return the fore channel granted */
    public Nfs4ChannelAttrs fore()
    {
        return fore;
    }

    /** @return the back channel granted */
    public Nfs4ChannelAttrs back()
    {
        return back;
    }
}
