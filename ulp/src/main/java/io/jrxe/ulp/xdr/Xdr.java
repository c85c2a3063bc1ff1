package io.jrxe.ulp.xdr;

/**
 * XDR sizes (RFC 4506 §3: every item takes a multiple of four bytes).
 */
public final class Xdr
{
    /** The XDR unit. */
    public static final int UNIT = 4;

    private Xdr()
    {
    }

    /**
     * @param length bytes of an opaque or string body
     * @return zero bytes that pad it to a multiple of four (RFC 4506 §4.9)
     */
    public static int pad(final int length)
    {
        return -length & 3;
    }

    /**
     * @param length bytes of an opaque or string body
     * @return the length rounded up to a multiple of four
     */
    public static int roundUp(final int length)
    {
        return length + 3 & ~3;
    }

    /**
     * @param length bytes of a variable-length opaque's body
     * @return what it takes on the wire: the length word, the body and its padding
     */
    public static int opaqueSize(final int length)
    {
        return UNIT + roundUp(length);
    }
}
