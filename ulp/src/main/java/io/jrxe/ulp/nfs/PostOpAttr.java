package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

/**
 * {@code post_op_attr} (RFC 1813 §2.6): attributes the server may return after an operation, optional. Reusable.
 * <pre>
 *   | attributes_follow (bool) | fattr3 (84) if TRUE |
 * </pre>
 */
public final class PostOpAttr
{
    /** Bytes of a post_op_attr with attributes. */
    public static final int SIZE = 4 + Fattr3.SIZE;

    private final Fattr3 attributes = new Fattr3();
    private boolean present;

    /**
     * @param xdr where
     * @return this
     */
    public PostOpAttr decode(final XdrDecoder xdr)
    {
        present = xdr.getBoolean();
        if (present)
        {
            attributes.decode(xdr);
        }
        return this;
    }

    /**
     * Write a post_op_attr: the attributes, or FALSE.
     *
     * @param xdr where
     * @param attributes the attributes, or null for none
     */
    public static void encode(final XdrEncoder xdr, final Fattr3 attributes)
    {
        xdr.putBoolean(null != attributes);
        if (null != attributes)
        {
            attributes.encode(xdr);
        }
    }

    /** @return true when the server sent attributes */
    public boolean present()
    {
        return present;
    }

    /** @return the attributes (meaningful when {@link #present()}) */
    public Fattr3 attributes()
    {
        return attributes;
    }

    /** Forget the attributes. */
    public void clear()
    {
        present = false;
    }
}
