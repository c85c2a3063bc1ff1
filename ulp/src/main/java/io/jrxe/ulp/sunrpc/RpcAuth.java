package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A client credential, encoded once and copied into every call (RFC 5531 §8.2, §9; the verifier of AUTH_NONE and
 * AUTH_SYS is AUTH_NONE). AUTH_SYS's body (RFC 5531 Appendix A):
 * <pre>
 *   stamp (4) | machinename: length (4), bytes, pad (&lt;= 255) | uid (4) | gid (4) | gids: count (4), count x gid (&lt;= 16)
 * </pre>
 * Immutable and shared between threads.
 */
public final class RpcAuth
{
    /** The largest machinename of AUTH_SYS. */
    public static final int MAX_MACHINE_NAME = 255;
    /** The most supplementary groups of AUTH_SYS. */
    public static final int MAX_GIDS = 16;

    private static final RpcAuth NONE = new RpcAuth(RpcMessage.AUTH_NONE, new byte[0], 0, 0);

    private final int flavor;
    private final UnsafeBuffer body;
    private final int uid;
    private final int gid;

    private RpcAuth(final int flavor, final byte[] body, final int uid, final int gid)
    {
        this.flavor = flavor;
        this.body = new UnsafeBuffer(body);
        this.uid = uid;
        this.gid = gid;
    }

    /** @return AUTH_NONE */
    public static RpcAuth none()
    {
        return NONE;
    }

    /**
     * AUTH_SYS.
     *
     * @param stamp an arbitrary id the client may change per credential
     * @param machineName the client's host name, at most 255 bytes of UTF-8
     * @param uid the caller's user id
     * @param gid the caller's group id
     * @param gids supplementary groups, at most 16
     * @return the credential
     */
    public static RpcAuth sys(final int stamp, final String machineName, final int uid, final int gid, final int... gids)
    {
        final byte[] name = machineName.getBytes(StandardCharsets.UTF_8);
        if (name.length > MAX_MACHINE_NAME || gids.length > MAX_GIDS)
        {
            throw new IllegalArgumentException("AUTH_SYS allows a machine name of 255 bytes and 16 groups: got " +
                name.length + " and " + gids.length);
        }
        final byte[] body = new byte[4 + 4 + name.length + 3 + 4 + 4 + 4 + 4 * gids.length];
        final XdrEncoder xdr = new XdrEncoder().wrap(new UnsafeBuffer(body), 0, body.length);
        xdr.putInt(stamp).putOpaque(name).putInt(uid).putInt(gid).putInt(gids.length);
        for (final int g : gids)
        {
            xdr.putInt(g);
        }
        final byte[] exact = java.util.Arrays.copyOf(body, xdr.length());
        return new RpcAuth(RpcMessage.AUTH_SYS, exact, uid, gid);
    }

    /** @return auth_flavor */
    public int flavor()
    {
        return flavor;
    }

    /** @return bytes of the credential's body */
    public int bodyLength()
    {
        return body.capacity();
    }

    /** @return the uid of AUTH_SYS (0 for AUTH_NONE) */
    public int uid()
    {
        return uid;
    }

    /** @return the gid of AUTH_SYS (0 for AUTH_NONE) */
    public int gid()
    {
        return gid;
    }

    /** @return bytes the credential and its AUTH_NONE verifier take in a call */
    public int encodedLength()
    {
        return 8 + body.capacity() + 8;
    }

    /**
     * Write the credential and an AUTH_NONE verifier.
     *
     * @param xdr where
     */
    public void encode(final XdrEncoder xdr)
    {
        xdr.putInt(flavor).putOpaque(body, 0, body.capacity());
        xdr.putInt(RpcMessage.AUTH_NONE).putInt(0);
    }

    @Override
    public String toString()
    {
        return RpcMessage.AUTH_SYS == flavor ? "AUTH_SYS(uid=" + uid + ",gid=" + gid + ")" : "AUTH_NONE";
    }
}
