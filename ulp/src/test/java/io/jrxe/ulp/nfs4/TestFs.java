package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import java.util.Arrays;
import java.util.TreeMap;

/**
 * The test server's file tree: directories and regular files in memory, file handles of 12 bytes ("JRFS" and the
 * node id). A removed node's handle is stale (NFS4ERR_STALE); a handle that is not one of these is bad
 * (NFS4ERR_BADHANDLE).
 */
final class TestFs
{
    static final int FH_MAGIC = 0x4A524653;

    /** One file or directory. */
    static final class Node
    {
        final long id;
        final int type;
        final Node parent;
        final TreeMap<String, Node> children = new TreeMap<>();
        byte[] data = new byte[0];
        long size;
        long change = 1;
        int mode;
        boolean removed;

        Node(final long id, final int type, final Node parent, final int mode)
        {
            this.id = id;
            this.type = type;
            this.parent = parent;
            this.mode = mode;
        }

        boolean isDir()
        {
            return Nfs4.NF4DIR == type;
        }

        void write(final long offset, final XdrDecoder from, final int at, final int length)
        {
            final long end = offset + length;
            if (end > data.length)
            {
                data = Arrays.copyOf(data, (int)Math.max(end, data.length * 2L));
            }
            from.buffer().getBytes(at, data, (int)offset, length);
            size = Math.max(size, end);
            change++;
        }

        void truncate(final long newSize)
        {
            if (newSize < size)
            {
                Arrays.fill(data, (int)newSize, (int)Math.min(size, data.length), (byte)0);
            }
            size = newSize;
            change++;
        }

        byte[] content()
        {
            return Arrays.copyOf(data, (int)size);
        }
    }

    private final org.agrona.collections.Long2ObjectHashMap<Node> nodes =
        new org.agrona.collections.Long2ObjectHashMap<>();
    private long nextId = 1;
    final Node root = add(Nfs4.NF4DIR, null, "", 0755);

    Node add(final int type, final Node parent, final String name, final int mode)
    {
        final Node n = new Node(nextId++, type, parent, mode);
        nodes.put(n.id, n);
        if (null != parent)
        {
            parent.children.put(name, n);
            parent.change++;
        }
        return n;
    }

    /** Make the directories of a path, return the last. */
    Node mkdirs(final String path)
    {
        Node at = root;
        for (final String c : Nfs4Path.components(path))
        {
            final Node next = at.children.get(c);
            at = null != next ? next : add(Nfs4.NF4DIR, at, c, 0755);
        }
        return at;
    }

    /** Make a file with content. */
    Node file(final String path, final byte[] content)
    {
        final String[] c = Nfs4Path.components(path);
        final Node dir = mkdirs(Nfs4Path.toString(c, c.length - 1));
        final Node f = add(Nfs4.NF4REG, dir, c[c.length - 1], 0644);
        f.data = content.clone();
        f.size = content.length;
        return f;
    }

    /** The node at a path, or null. */
    Node at(final String path)
    {
        Node n = root;
        for (final String c : Nfs4Path.components(path))
        {
            n = null == n ? null : n.children.get(c);
        }
        return n;
    }

    void remove(final Node dir, final String name)
    {
        final Node n = dir.children.remove(name);
        n.removed = true;
        dir.change++;
    }

    void encodeFh(final XdrEncoder xdr, final Node n)
    {
        xdr.putInt(12).putInt(FH_MAGIC).putHyper(n.id);
    }

    /**
     * @return the node of the handle at the decoder, or a negative nfsstat4
     */
    Object decodeFh(final XdrDecoder xdr)
    {
        final int length = xdr.getOpaqueLength(Nfs4.FHSIZE);
        final int at = xdr.skipFixedOpaque(length);
        if (12 != length || FH_MAGIC != xdr.buffer().getInt(at, java.nio.ByteOrder.BIG_ENDIAN))
        {
            return Nfs4Status.BADHANDLE;
        }
        final Node n = nodes.get(xdr.buffer().getLong(at + 4, java.nio.ByteOrder.BIG_ENDIAN));
        return null == n || n.removed ? (Object)Nfs4Status.STALE : n;
    }
}
