package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import java.util.Arrays;

/**
 * {@code nfs_fh3} (RFC 1813 §2.5): an opaque file handle of at most {@link Nfs3#NFS3_FHSIZE} bytes, chosen by the
 * server. Reusable: {@link #decode} overwrites it; equality is by content.
 * <pre>
 *   | length (4) | data: length bytes (&lt;= 64) | pad to 4 |
 * </pre>
 * Not thread safe.
 */
public final class FileHandle3
{
    private final byte[] data = new byte[Nfs3.NFS3_FHSIZE];
    private int length;

    /** An empty handle (length 0). */
    public FileHandle3()
    {
    }

    /**
     * @param bytes the handle's bytes, at most 64
     */
    public FileHandle3(final byte[] bytes)
    {
        set(bytes, 0, bytes.length);
    }

    /**
     * @param bytes the handle's bytes
     * @param offset first byte
     * @param length bytes, at most 64
     * @return this
     */
    public FileHandle3 set(final byte[] bytes, final int offset, final int length)
    {
        if (length < 0 || length > Nfs3.NFS3_FHSIZE)
        {
            throw new IllegalArgumentException("a file handle has at most 64 bytes: " + length);
        }
        System.arraycopy(bytes, offset, data, 0, length);
        this.length = length;
        return this;
    }

    /**
     * @param other the handle to copy
     * @return this
     */
    public FileHandle3 set(final FileHandle3 other)
    {
        return set(other.data, 0, other.length);
    }

    /** @return bytes in the handle */
    public int length()
    {
        return length;
    }

    /**
     * @param index 0 .. length - 1
     * @return a byte of the handle
     */
    public byte byteAt(final int index)
    {
        if (index >= length)
        {
            throw new IndexOutOfBoundsException(index + " of " + length);
        }
        return data[index];
    }

    /** @return a copy of the handle's bytes */
    public byte[] toBytes()
    {
        return Arrays.copyOf(data, length);
    }

    /** @return a new handle equal to this one */
    public FileHandle3 copy()
    {
        return new FileHandle3().set(this);
    }

    /**
     * Write it as an nfs_fh3.
     *
     * @param xdr where
     */
    public void encode(final XdrEncoder xdr)
    {
        xdr.putOpaque(data, 0, length);
    }

    /**
     * Read an nfs_fh3 into this handle.
     *
     * @param xdr where
     * @return this
     * @throws io.jrxe.ulp.xdr.XdrException when it is longer than 64 bytes or overruns the message
     */
    public FileHandle3 decode(final XdrDecoder xdr)
    {
        final int n = xdr.getOpaqueLength(Nfs3.NFS3_FHSIZE);
        xdr.getFixedOpaque(data, n);
        length = n;
        return this;
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof FileHandle3 && Arrays.equals(data, 0, length, ((FileHandle3)o).data, 0,
            ((FileHandle3)o).length);
    }

    @Override
    public int hashCode()
    {
        int h = length;
        for (int i = 0; i < length; i++)
        {
            h = 31 * h + data[i];
        }
        return h;
    }

    /** @return the handle in hex */
    @Override
    public String toString()
    {
        final StringBuilder s = new StringBuilder(2 * length);
        for (int i = 0; i < length; i++)
        {
            s.append(Character.forDigit(data[i] >> 4 & 0xF, 16)).append(Character.forDigit(data[i] & 0xF, 16));
        }
        return s.toString();
    }
}
