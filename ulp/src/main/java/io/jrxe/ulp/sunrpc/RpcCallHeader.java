package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * The header of an RPC call (RFC 5531 §9, {@code call_body}): written by a client, read by a server. Reading
 * keeps the fields in this object (reused call after call: no allocation) and leaves the decoder at the arguments.
 * <pre>
 *   0       4         8          12     16     20     24            28                     ...
 *   | xid   | CALL 0  | rpcvers 2 | prog | vers | proc | cred flavor | cred body&lt;400&gt; | verf flavor | verf body&lt;400&gt; | args
 * </pre>
 * AUTH_SYS credentials are parsed (uid, gid, groups) so a program can check them; other flavors are kept opaque.
 * Not thread safe.
 */
public final class RpcCallHeader
{
    /** {@link #decode} result: a call this server can go on with. */
    public static final int OK = 0;
    /** {@link #decode} result: rpcvers is not 2, answer MSG_DENIED RPC_MISMATCH (RFC 5531 §9). */
    public static final int DENY_RPC_MISMATCH = 1;
    /** {@link #decode} result: a malformed AUTH_SYS body, answer MSG_DENIED AUTH_ERROR AUTH_BADCRED. */
    public static final int DENY_BADCRED = 2;

    private int xid;
    private int rpcVersion;
    private int program;
    private int version;
    private int procedure;
    private int credFlavor;
    private int uid;
    private int gid;
    private int gidCount;
    private final int[] gids = new int[RpcAuth.MAX_GIDS];

    /**
     * Write a call header.
     *
     * @param xdr where
     * @param xid transaction id
     * @param program program number
     * @param version program version
     * @param procedure procedure number
     * @param auth credential (with an AUTH_NONE verifier)
     */
    public static void encode(
        final XdrEncoder xdr, final int xid, final int program, final int version, final int procedure,
        final RpcAuth auth)
    {
        xdr.putInt(xid).putInt(RpcMessage.CALL).putInt(RpcMessage.RPC_VERSION)
            .putInt(program).putInt(version).putInt(procedure);
        auth.encode(xdr);
    }

    /**
     * Read a call header; the decoder is left at the arguments when the result is {@link #OK}.
     *
     * @param xdr positioned at the xid
     * @return {@link #OK}, {@link #DENY_RPC_MISMATCH} or {@link #DENY_BADCRED}
     * @throws XdrException when the message is not an RPC call or overruns itself (drop it: nothing to answer)
     */
    public int decode(final XdrDecoder xdr)
    {
        xid = xdr.getInt();
        if (RpcMessage.CALL != xdr.getInt())
        {
            throw new XdrException("not an RPC call");
        }
        rpcVersion = xdr.getInt();
        if (RpcMessage.RPC_VERSION != rpcVersion)
        {
            return DENY_RPC_MISMATCH;
        }
        program = xdr.getInt();
        version = xdr.getInt();
        procedure = xdr.getInt();
        credFlavor = xdr.getInt();
        final int credLength = xdr.getOpaqueLength(RpcMessage.MAX_AUTH_BYTES);
        final int credStart = xdr.position();
        final int credEnd = credStart + ((credLength + 3) & ~3);
        uid = 0;
        gid = 0;
        gidCount = 0;
        // the AUTH_SYS fields must fill the body exactly: a length of 21..23 for 24 bytes of fields puts the
        // last field in the opaque's padding, outside the credential
        if (RpcMessage.AUTH_SYS == credFlavor && !decodeAuthSys(xdr, credStart + credLength))
        {
            return DENY_BADCRED;
        }
        xdr.position(credEnd);
        xdr.getInt(); // verifier flavor: AUTH_NONE for AUTH_NONE and AUTH_SYS; others are the program's business
        xdr.skipOpaque(RpcMessage.MAX_AUTH_BYTES);
        return OK;
    }

    private boolean decodeAuthSys(final XdrDecoder xdr, final int bodyEnd)
    {
        final int bodyStart = xdr.position();
        try
        {
            xdr.getInt(); // stamp
            xdr.skipOpaque(RpcAuth.MAX_MACHINE_NAME);
            uid = xdr.getInt();
            gid = xdr.getInt();
            final int count = xdr.getInt();
            if (count < 0 || count > RpcAuth.MAX_GIDS)
            {
                return false;
            }
            for (int i = 0; i < count; i++)
            {
                gids[i] = xdr.getInt();
            }
            gidCount = count;
            return xdr.position() == bodyEnd;
        }
        catch (final XdrException ex)
        {
            xdr.position(bodyStart);
            return false;
        }
    }

    /** @return transaction id */
    public int xid()
    {
        return xid;
    }

    /** @return the rpcvers the caller sent */
    public int rpcVersion()
    {
        return rpcVersion;
    }

    /** @return program number */
    public int program()
    {
        return program;
    }

    /** @return program version */
    public int version()
    {
        return version;
    }

    /** @return procedure number */
    public int procedure()
    {
        return procedure;
    }

    /** @return the credential's flavor */
    public int credFlavor()
    {
        return credFlavor;
    }

    /** @return AUTH_SYS uid (0 otherwise) */
    public int uid()
    {
        return uid;
    }

    /** @return AUTH_SYS gid (0 otherwise) */
    public int gid()
    {
        return gid;
    }

    /** @return AUTH_SYS supplementary groups */
    public int gidCount()
    {
        return gidCount;
    }

    /**
     * @param index 0 .. {@link #gidCount()} - 1
     * @return a supplementary group
     */
    public int gid(final int index)
    {
        return gids[index];
    }
}
