package io.jrxe.rxe.verbs;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The port GID table. Every entry is a RoCE v2 GID ({@code IB_GID_TYPE_ROCE_UDP_ENCAP}): an IPv6 address or an
 * IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}, whose network type is derived from the address.
 * <p>
 * A GID is held as two big-endian 64-bit halves: {@code hi} = bytes 0..7 (subnet prefix), {@code lo} = bytes
 * 8..15 (interface id). Entries are immutable and published atomically, so the engine thread can read a
 * consistent GID while the control path changes the table. Reads and {@link #find(long, long)} allocate nothing.
 */
public final class GidTable
{
    /** {@code IB_UVERBS_GID_TYPE_ROCE_V2}: the only GID type this engine uses. */
    public static final int GID_TYPE_ROCE_V2 = 2;
    /** Link-local subnet prefix fe80::/64. */
    public static final long LINK_LOCAL_PREFIX = 0xfe80_0000_0000_0000L;

    private static final long IPV4_MAPPED_MASK = 0xffff_ffff_0000_0000L;
    private static final long IPV4_MAPPED_TAG = 0x0000_ffff_0000_0000L;

    private static final class Entry
    {
        final long hi;
        final long lo;
        final NetworkType networkType;

        Entry(final long hi, final long lo)
        {
            this.hi = hi;
            this.lo = lo;
            this.networkType = isIpv4Mapped(hi, lo) ? NetworkType.IPV4 : NetworkType.IPV6;
        }
    }

    private final AtomicReferenceArray<Entry> entries;

    /**
     * @param length number of entries (rxe: 1024).
     */
    public GidTable(final int length)
    {
        entries = new AtomicReferenceArray<>(length);
    }

    /**
     * @param hi bytes 0..7 of the GID.
     * @param lo bytes 8..15 of the GID.
     * @return true if the GID is {@code ::ffff:a.b.c.d}.
     */
    public static boolean isIpv4Mapped(final long hi, final long lo)
    {
        return 0 == hi && IPV4_MAPPED_TAG == (lo & IPV4_MAPPED_MASK);
    }

    /**
     * @param ipv4 IPv4 address, big-endian in an int (a.b.c.d = 0xaabbccdd).
     * @return the low half of the IPv4-mapped GID (the high half is 0).
     */
    public static long ipv4MappedLo(final int ipv4)
    {
        return IPV4_MAPPED_TAG | (ipv4 & 0xffff_ffffL);
    }

    /** @return number of entries. */
    public int length()
    {
        return entries.length();
    }

    /**
     * Install a GID.
     *
     * @param index entry index.
     * @param hi bytes 0..7.
     * @param lo bytes 8..15.
     * @throws VerbsException if the index is out of range or the GID is all zeros.
     */
    void set(final int index, final long hi, final long lo)
    {
        checkIndex(index);
        if (0 == hi && 0 == lo)
        {
            throw new VerbsException(Errno.EINVAL, "GID :: (all zeros) is not a valid RoCE v2 GID; use clear()");
        }
        entries.set(index, new Entry(hi, lo));
    }

    /**
     * Install the IPv4-mapped GID of an IPv4 address.
     *
     * @param index entry index.
     * @param ipv4 address, big-endian int.
     */
    void setIpv4(final int index, final int ipv4)
    {
        set(index, 0, ipv4MappedLo(ipv4));
    }

    /**
     * Install a GID from its 16 network-order bytes.
     *
     * @param index entry index.
     * @param gid 16 bytes.
     */
    void set(final int index, final byte[] gid)
    {
        if (gid.length != 16)
        {
            throw new VerbsException(Errno.EINVAL, "a GID has 16 bytes, got " + gid.length);
        }
        set(index, bytesToLong(gid, 0), bytesToLong(gid, 8));
    }

    /**
     * Install the link-local default GID fe80::EUI-64(mac) that rxe puts at index 0.
     *
     * @param index entry index.
     * @param mac MAC in the low 48 bits.
     */
    void setLinkLocal(final int index, final long mac)
    {
        set(index, LINK_LOCAL_PREFIX, DeviceAttr.eui64(mac));
    }

    /**
     * Remove an entry.
     *
     * @param index entry index.
     */
    void clear(final int index)
    {
        checkIndex(index);
        entries.set(index, null);
    }

    /**
     * @param index entry index.
     * @return true if the index is in range and holds a GID.
     */
    public boolean isValid(final int index)
    {
        return index >= 0 && index < entries.length() && null != entries.get(index);
    }

    /**
     * @param index a valid entry index.
     * @return bytes 0..7 of the GID, 0 if the entry is empty.
     */
    public long hi(final int index)
    {
        final Entry e = entries.get(index);
        return null == e ? 0 : e.hi;
    }

    /**
     * @param index a valid entry index.
     * @return bytes 8..15 of the GID, 0 if the entry is empty.
     */
    public long lo(final int index)
    {
        final Entry e = entries.get(index);
        return null == e ? 0 : e.lo;
    }

    /**
     * @param index a valid entry index.
     * @return IPV4 or IPV6, or null if empty.
     */
    public NetworkType networkType(final int index)
    {
        final Entry e = entries.get(index);
        return null == e ? null : e.networkType;
    }

    /**
     * Copy a GID into 16 bytes.
     *
     * @param index entry index.
     * @param dst destination.
     * @param offset offset in dst.
     * @return false if the entry is empty (dst untouched).
     */
    public boolean copy(final int index, final byte[] dst, final int offset)
    {
        final Entry e = entries.get(index);
        if (null == e)
        {
            return false;
        }
        longToBytes(e.hi, dst, offset);
        longToBytes(e.lo, dst, offset + 8);
        return true;
    }

    /**
     * Find the index of a GID.
     *
     * @param hi bytes 0..7.
     * @param lo bytes 8..15.
     * @return the lowest index holding the GID, or -1.
     */
    public int find(final long hi, final long lo)
    {
        for (int i = 0, n = entries.length(); i < n; i++)
        {
            final Entry e = entries.get(i);
            if (null != e && e.hi == hi && e.lo == lo)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param src bytes.
     * @param offset first of 8 bytes, big-endian.
     * @return the value.
     */
    public static long bytesToLong(final byte[] src, final int offset)
    {
        long v = 0;
        for (int i = 0; i < 8; i++)
        {
            v = (v << 8) | (src[offset + i] & 0xffL);
        }
        return v;
    }

    /**
     * @param value value.
     * @param dst bytes.
     * @param offset first of 8 bytes written big-endian.
     */
    public static void longToBytes(final long value, final byte[] dst, final int offset)
    {
        for (int i = 0; i < 8; i++)
        {
            dst[offset + i] = (byte)(value >>> (56 - 8 * i));
        }
    }

    private void checkIndex(final int index)
    {
        if (index < 0 || index >= entries.length())
        {
            throw new VerbsException(Errno.EINVAL,
                "GID index " + index + " outside the table [0, " + entries.length() + ")");
        }
    }
}
