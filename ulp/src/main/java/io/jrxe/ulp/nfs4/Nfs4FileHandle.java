package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import java.util.Arrays;

/**
 * An nfs_fh4 (RFC 8881 §4): up to {@link Nfs4#FHSIZE} opaque bytes the server gave in GETFH, sent back in PUTFH.
 * Mutable and reused (decode into it, copy it); the bytes are the server's business.
 */
public final class Nfs4FileHandle
{
    private final byte[] bytes = new byte[Nfs4.FHSIZE];
    private int length;

    /** @return the handle's length, 0 when none was set */
    public int length()
    {
        return length;
    }

    /** @return true when a handle is held */
    public boolean isSet()
    {
        return length > 0;
    }

    /**
     * @param index 0 .. length - 1
     * @return a byte of the handle
     */
    public byte byteAt(final int index)
    {
        if (index >= length)
        {
            throw new IndexOutOfBoundsException(index + " of a " + length + "-byte handle");
        }
        return bytes[index];
    }

    /**
     * @param src the handle's bytes
     * @param offset first byte
     * @param length 1 .. 128
     * @return this
     */
    public Nfs4FileHandle set(final byte[] src, final int offset, final int length)
    {
        if (length < 1 || length > Nfs4.FHSIZE)
        {
            throw new IllegalArgumentException("a file handle has 1.." + Nfs4.FHSIZE + " bytes, not " + length);
        }
        System.arraycopy(src, offset, bytes, 0, length);
        this.length = length;
        return this;
    }

    /**
     * @param other the handle to copy
     * @return this
     */
    public Nfs4FileHandle copy(final Nfs4FileHandle other)
    {
        System.arraycopy(other.bytes, 0, bytes, 0, other.length);
        length = other.length;
        return this;
    }

    /** @return this, empty */
    public Nfs4FileHandle clear()
    {
        length = 0;
        return this;
    }

    /** @return the bytes, a new array (control path) */
    public byte[] toBytes()
    {
        return Arrays.copyOf(bytes, length);
    }

    /**
     * @param xdr where: the nfs_fh4 opaque, length first
     */
    public void encode(final XdrEncoder xdr)
    {
        if (length < 1)
        {
            throw new IllegalStateException("no file handle");
        }
        xdr.putOpaque(bytes, 0, length);
    }

    /**
     * @param xdr positioned at an nfs_fh4
     * @return this
     */
    public Nfs4FileHandle decode(final XdrDecoder xdr)
    {
        final int n = xdr.getOpaqueLength(Nfs4.FHSIZE);
        if (n < 1)
        {
            throw new io.jrxe.ulp.xdr.XdrException("an empty file handle");
        }
        xdr.getFixedOpaque(bytes, n);
        length = n;
        return this;
    }

    /**
     * @param other another handle
     * @return true when both hold the same bytes
     */
    public boolean sameAs(final Nfs4FileHandle other)
    {
        return length == other.length && Arrays.equals(bytes, 0, length, other.bytes, 0, length);
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(length * 2);
        for (int i = 0; i < length; i++)
        {
            sb.append(Character.forDigit((bytes[i] >> 4) & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
        }
        return sb.toString();
    }
}
