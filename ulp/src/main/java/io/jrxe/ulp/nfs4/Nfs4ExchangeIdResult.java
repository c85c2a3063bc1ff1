package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * EXCHANGE_ID4resok (RFC 8881 §18.35.2): the client ID, the sequence id CREATE_SESSION must use, the server's
 * flags, owner and scope. Control path: the owner and scope are kept as arrays.
 * <pre>
 *   | clientid 8 | sequenceid | flags | state_protect4_r (SP4_NONE) | server_owner4: minor_id 8, major_id&lt;1024&gt; |
 *   | server_scope&lt;1024&gt; | server_impl_id&lt;1&gt;: domain, name, date |
 * </pre>
 */
public final class Nfs4ExchangeIdResult
{
    private long clientId;
    private int sequenceId;
    private int flags;
    private long serverMinorId;
    private byte[] serverMajorId = new byte[0];
    private byte[] serverScope = new byte[0];
    private String implDomain = "";
    private String implName = "";

    /**
     * @param xdr positioned at EXCHANGE_ID4resok
     * @return this
     * @throws XdrException when the server chose a state protection other than the SP4_NONE asked for
     */
    public Nfs4ExchangeIdResult decode(final XdrDecoder xdr)
    {
        clientId = xdr.getHyper();
        sequenceId = xdr.getInt();
        flags = xdr.getInt();
        final int how = xdr.getInt();
        if (Nfs4.SP4_NONE != how)
        {
            throw new XdrException("state protection " + how + " in reply to SP4_NONE (RFC 8881 §18.35.3)");
        }
        serverMinorId = xdr.getHyper();
        serverMajorId = xdr.getOpaqueBytes(Nfs4.OPAQUE_LIMIT);
        serverScope = xdr.getOpaqueBytes(Nfs4.OPAQUE_LIMIT);
        final int impls = xdr.getInt();
        if (0 != (impls & ~1))
        {
            throw new XdrException("eir_server_impl_id<1> with " + impls + " entries");
        }
        implDomain = "";
        implName = "";
        if (1 == impls)
        {
            implDomain = xdr.getString(Nfs4.OPAQUE_LIMIT);
            implName = xdr.getString(Nfs4ReplySizes.IMPL_NAME_LIMIT);
            xdr.skip(12); // nii_date
        }
        return this;
    }

    /** @return eir_clientid */
    public long clientId()
    {
        return clientId;
    }

    /** @return eir_sequenceid: csa_sequence of the next CREATE_SESSION */
    public int sequenceId()
    {
        return sequenceId;
    }

    /** @return eir_flags */
    public int flags()
    {
        return flags;
    }

    /** @return so_minor_id */
    public long serverMinorId()
    {
        return serverMinorId;
    }

    /** @return so_major_id */
    public byte[] serverMajorId()
    {
        return serverMajorId.clone();
    }

    /** @return eir_server_scope */
    public byte[] serverScope()
    {
        return serverScope.clone();
    }

    /** @return nii_domain of the server's implementation id, "" when none was sent */
    public String implDomain()
    {
        return implDomain;
    }

    /** @return nii_name, "" when none was sent */
    public String implName()
    {
        return implName;
    }
}
