package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One QP's connection data as perftest exchanges it ({@code struct pingpong_dest}, written by
 * {@code ethernet_write_keys} and parsed by {@code ethernet_read_keys} in {@code perftest_communication.c}; format
 * strings checked in the perftest 4.5-0.17 binaries of Debian bookworm). Each message is a fixed-size buffer written
 * whole, including the NUL and whatever follows it.
 * <p>
 * Without a GID ({@code gid_index == -1}, IB only), {@code KEY_PRINT_FMT "%04x:%04x:%06x:%06x:%08x:%016llx:%08x"},
 * {@code KEY_MSG_SIZE} 59:
 * <pre>
 *  0    4 5    9 10    16 17    23 24      32 33              49 50      58
 * +----+-+----+-+------+-+------+-+--------+-+----------------+-+--------+--+
 * |lid |:|out |:| qpn  |:| psn  |:|  rkey  |:|     vaddr      |:|  srqn  |\0|
 * +----+-+----+-+------+-+------+-+--------+-+----------------+-+--------+--+
 * </pre>
 * With a GID (always on RoCE), {@code KEY_PRINT_FMT_GID} = the same up to {@code vaddr:}, then the 16 GID bytes as
 * {@code "%02x:"} each, then {@code "%08x:"} for srqn, {@code KEY_MSG_SIZE_GID} 108:
 * <pre>
 *  0 .. 49                                 50            98       106 107
 * +---------------------------------------+-------------+--------+-+--+
 * | lid:out:qpn:psn:rkey:vaddr:           | g0:g1:..g15:|  srqn  |:|\0|
 * +---------------------------------------+-------------+--------+-+--+
 * </pre>
 * Both sides pick the format from their own GID setting, so they must agree (both RoCE).
 * <p>
 * With rdma_cm ({@code -R}) the key message is the C struct itself, sent as a SEND of {@code sizeof(struct
 * pingpong_dest)} = {@value #BINARY_SIZE} bytes with every integer big-endian ({@code rdma_write_keys} with
 * {@code HAVE_ENDIAN}, which configure sets on Linux):
 * <pre>
 *  0     4          8     12    16     20    24          32          48     52          56
 * +-----+----------+-----+-----+------+-----+-----------+-----------+------+-----------+
 * | lid | out_reads| qpn | psn | rkey | pad |   vaddr   |  gid[16]  | srqn | gid_index |
 * +-----+----------+-----+-----+------+-----+-----------+-----------+------+-----------+
 * </pre>
 * {@code rdma_read_keys} reads lid, out_reads, qpn, psn, rkey, vaddr and gid; the pad is whatever was on the
 * writer's stack.
 */
public final class PerftestDest
{
    /** {@code KEY_MSG_SIZE}: message without a GID. */
    public static final int KEY_MSG_SIZE = 59;
    /** {@code KEY_MSG_SIZE_GID}: message with a GID. */
    public static final int KEY_MSG_SIZE_GID = 108;
    /** {@code sizeof(struct pingpong_dest)}: the binary key message of rdma_cm mode. */
    public static final int BINARY_SIZE = 56;
    /** Name used in errors. */
    static final String MESSAGE_NAME = "perftest key message";
    /** What perftest's {@code create_rdma_cm_connection} hand-shakes with: {@code my_dest[0]} still zeroed. */
    static final PerftestDest ZERO = new PerftestDest(0, 0, 0, 0, 0, 0, 0, new byte[16]);

    private static final int BINARY_VADDR_OFFSET = 24;
    private static final int BINARY_GID_OFFSET = 32;
    private static final int BINARY_SRQN_OFFSET = 48;

    private static final int OUT_READS_OFFSET = 5;
    private static final int QPN_OFFSET = 10;
    private static final int PSN_OFFSET = 17;
    private static final int RKEY_OFFSET = 24;
    private static final int VADDR_OFFSET = 33;
    private static final int TAIL_OFFSET = 50;
    private static final int GID_SRQN_OFFSET = 98;

    private final int lid;
    private final int outReads;
    private final int qpn;
    private final int psn;
    private final int rkey;
    private final long vaddr;
    private final int srqn;
    private final byte[] gid;

    /**
     * @param lid      16-bit LID, 0 on RoCE.
     * @param outReads outstanding RDMA READs this side accepts as a responder (16-bit).
     * @param qpn      24-bit QP number.
     * @param psn      24-bit starting PSN.
     * @param rkey     32-bit rkey of the buffer the peer may access.
     * @param vaddr    64-bit address of that buffer.
     * @param srqn     32-bit SRQ number (XRC/DC only, otherwise 0).
     * @param gid      16-byte GID (copied); all zero when no GID is used.
     */
    public PerftestDest(
        final int lid,
        final int outReads,
        final int qpn,
        final int psn,
        final int rkey,
        final long vaddr,
        final int srqn,
        final byte[] gid)
    {
        PingpongDest.checkRange(lid, 0xFFFF, "lid");
        PingpongDest.checkRange(outReads, 0xFFFF, "outReads");
        PingpongDest.checkRange(qpn, 0xFF_FFFF, "qpn");
        PingpongDest.checkRange(psn, 0xFF_FFFF, "psn");
        if (null == gid || Gid.LENGTH != gid.length)
        {
            throw new IllegalArgumentException("gid must have 16 bytes");
        }
        this.lid = lid;
        this.outReads = outReads;
        this.qpn = qpn;
        this.psn = psn;
        this.rkey = rkey;
        this.vaddr = vaddr;
        this.srqn = srqn;
        this.gid = gid.clone();
    }

    /** @return the LID. */
    public int lid()
    {
        return lid;
    }

    /** @return outstanding RDMA READs accepted as a responder. */
    public int outReads()
    {
        return outReads;
    }

    /** @return the QP number. */
    public int qpn()
    {
        return qpn;
    }

    /** @return the starting PSN. */
    public int psn()
    {
        return psn;
    }

    /** @return the rkey (unsigned 32 bits). */
    public int rkey()
    {
        return rkey;
    }

    /** @return the buffer address. */
    public long vaddr()
    {
        return vaddr;
    }

    /** @return the SRQ number. */
    public int srqn()
    {
        return srqn;
    }

    /** @return a copy of the GID. */
    public byte[] gid()
    {
        return gid.clone();
    }

    /**
     * @param withGid true for the 108-byte GID format, false for the 59-byte one.
     * @return the message length for that format.
     */
    public static int messageLength(final boolean withGid)
    {
        return withGid ? KEY_MSG_SIZE_GID : KEY_MSG_SIZE;
    }

    /**
     * @param withGid true for the 108-byte GID format, false for the 59-byte one.
     * @return the wire message.
     */
    public byte[] encode(final boolean withGid)
    {
        final byte[] msg = new byte[messageLength(withGid)];
        int i = WireText.putHex(msg, 0, lid, 4, "lid");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, outReads, 4, "outReads");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, qpn, 6, "qpn");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, psn, 6, "psn");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, rkey & 0xFFFF_FFFFL, 8, "rkey");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, vaddr, 16, "vaddr");
        i = WireText.put(msg, i, ':');
        if (withGid)
        {
            for (final byte b : gid)
            {
                i = WireText.putHex(msg, i, b & 0xFF, 2, "gid");
                i = WireText.put(msg, i, ':');
            }
            i = WireText.putHex(msg, i, srqn & 0xFFFF_FFFFL, 8, "srqn");
            i = WireText.put(msg, i, ':');
        }
        else
        {
            i = WireText.putHex(msg, i, srqn & 0xFFFF_FFFFL, 8, "srqn");
        }
        WireText.put(msg, i, '\0');
        return msg;
    }

    /**
     * Parses a key message strictly: every field at its fixed offset and width, colons between them, a NUL at the end.
     *
     * @param msg     the message.
     * @param withGid the format this side expects (its own GID setting, as perftest does).
     * @return the destination.
     * @throws OobException if the message is malformed or has the other format.
     */
    public static PerftestDest decode(final byte[] msg, final boolean withGid) throws OobException
    {
        final int expected = messageLength(withGid);
        if (expected != msg.length)
        {
            throw WireText.malformed(msg, MESSAGE_NAME, "length " + msg.length + ", expected " + expected);
        }
        for (final int colon : new int[]{ OUT_READS_OFFSET - 1, QPN_OFFSET - 1, PSN_OFFSET - 1, RKEY_OFFSET - 1,
            VADDR_OFFSET - 1, TAIL_OFFSET - 1 })
        {
            WireText.expect(msg, colon, ':', MESSAGE_NAME);
        }
        final byte[] gid = new byte[Gid.LENGTH];
        final int srqn;
        if (withGid)
        {
            for (int g = 0; g < Gid.LENGTH; g++)
            {
                gid[g] = (byte)WireText.hex(msg, TAIL_OFFSET + 3 * g, 2, "gid", MESSAGE_NAME);
                WireText.expect(msg, TAIL_OFFSET + 3 * g + 2, ':', MESSAGE_NAME);
            }
            srqn = (int)WireText.hex(msg, GID_SRQN_OFFSET, 8, "srqn", MESSAGE_NAME);
            WireText.expect(msg, GID_SRQN_OFFSET + 8, ':', MESSAGE_NAME);
        }
        else
        {
            if (':' == msg[TAIL_OFFSET + 2])
            {
                throw WireText.malformed(msg, MESSAGE_NAME, "this is the GID format (the peer uses a GID, " +
                    KEY_MSG_SIZE_GID + " bytes) but this side expects " + KEY_MSG_SIZE + " bytes without a GID: " +
                    "enable the GID on this side");
            }
            srqn = (int)WireText.hex(msg, TAIL_OFFSET, 8, "srqn", MESSAGE_NAME);
        }
        WireText.expect(msg, expected - 1, '\0', MESSAGE_NAME);
        return new PerftestDest(
            (int)WireText.hex(msg, 0, 4, "lid", MESSAGE_NAME),
            (int)WireText.hex(msg, OUT_READS_OFFSET, 4, "out_reads", MESSAGE_NAME),
            (int)WireText.hex(msg, QPN_OFFSET, 6, "qpn", MESSAGE_NAME),
            (int)WireText.hex(msg, PSN_OFFSET, 6, "psn", MESSAGE_NAME),
            (int)WireText.hex(msg, RKEY_OFFSET, 8, "rkey", MESSAGE_NAME),
            WireText.hex(msg, VADDR_OFFSET, 16, "vaddr", MESSAGE_NAME),
            srqn,
            gid);
    }

    /**
     * The rdma_cm key message ({@code rdma_write_keys}), see the class comment.
     *
     * @param gidIndex this side's GID index, for the {@code gid_index} field (perftest's readers ignore it).
     * @return the {@value #BINARY_SIZE}-byte message.
     */
    public byte[] encodeBinary(final int gidIndex)
    {
        final ByteBuffer b = ByteBuffer.allocate(BINARY_SIZE); // big-endian, pad zero
        b.putInt(0, lid).putInt(4, outReads).putInt(8, qpn).putInt(12, psn).putInt(16, rkey)
            .putLong(BINARY_VADDR_OFFSET, vaddr).put(BINARY_GID_OFFSET, gid).putInt(BINARY_SRQN_OFFSET, srqn)
            .putInt(BINARY_SRQN_OFFSET + 4, gidIndex);
        return b.array();
    }

    /**
     * Parses an rdma_cm key message ({@code rdma_read_keys}): the fields perftest reads, plus srqn.
     *
     * @param msg the {@value #BINARY_SIZE}-byte message.
     * @return the destination.
     * @throws OobException if the length is wrong or a field is out of its range (a QPN or PSN above 24 bits).
     */
    public static PerftestDest decodeBinary(final byte[] msg) throws OobException
    {
        if (BINARY_SIZE != msg.length)
        {
            throw WireText.malformed(msg, MESSAGE_NAME, "length " + msg.length + ", expected " + BINARY_SIZE +
                " (struct pingpong_dest)");
        }
        final ByteBuffer b = ByteBuffer.wrap(msg);
        final byte[] gid = new byte[Gid.LENGTH];
        b.get(BINARY_GID_OFFSET, gid);
        try
        {
            return new PerftestDest(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16),
                b.getLong(BINARY_VADDR_OFFSET), b.getInt(BINARY_SRQN_OFFSET), gid);
        }
        catch (final IllegalArgumentException ex)
        {
            throw WireText.malformed(msg, MESSAGE_NAME, ex.getMessage());
        }
    }

    /**
     * perftest's {@code ctx_check_gid_compatibility}: both GIDs must be IPv4-mapped or both not, else it stops with
     * "Found Incompatibility issue with GID types".
     *
     * @param other the peer's destination.
     * @return true if the GID types agree.
     */
    public boolean gidCompatible(final PerftestDest other)
    {
        return (Gid.TYPE_IPV4_MAPPED == Gid.type(gid)) == (Gid.TYPE_IPV4_MAPPED == Gid.type(other.gid));
    }

    /** {@inheritDoc} */
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof PerftestDest))
        {
            return false;
        }
        final PerftestDest that = (PerftestDest)o;
        return lid == that.lid && outReads == that.outReads && qpn == that.qpn && psn == that.psn &&
            rkey == that.rkey && vaddr == that.vaddr && srqn == that.srqn && Arrays.equals(gid, that.gid);
    }

    /** {@inheritDoc} */
    public int hashCode()
    {
        int h = lid;
        h = 31 * h + outReads;
        h = 31 * h + qpn;
        h = 31 * h + psn;
        h = 31 * h + rkey;
        h = 31 * h + Long.hashCode(vaddr);
        h = 31 * h + srqn;
        return 31 * h + Arrays.hashCode(gid);
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return String.format("PerftestDest{lid=0x%04x, outReads=%d, qpn=0x%06x, psn=0x%06x, rkey=0x%08x, " +
            "vaddr=0x%016x, srqn=0x%08x, gid=%s}", lid, outReads, qpn, psn, rkey, vaddr, srqn, Gid.toString(gid));
    }
}
