package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;

import java.util.Arrays;

/**
 * The QP address ibv_rc_pingpong exchanges ({@code struct pingpong_dest} of rdma-core's
 * {@code libibverbs/examples/rc_pingpong.c}, checked against rdma-core 44.0, Debian bookworm's ibverbs-utils).
 * It is sent as {@code sprintf(msg, "%04x:%06x:%06x:%s", lid, qpn, psn, wire_gid)} into
 * {@code char msg[sizeof "0000:000000:000000:00000000000000000000000000000000"]} and the whole 52-byte buffer is
 * written; the wire GID is {@code gid_to_wire_gid}: the 16 GID bytes in network order as 32 hex digits.
 * <pre>
 *  0    4 5      11 12     18 19                               51
 * +------+-+--------+-+--------+-+--------------------------------+--+
 * | lid  |:|  qpn   |:|  psn   |:|  GID bytes 0..15, 32 hex digits |\0|   52 bytes, ASCII, lower-case hex
 * +------+-+--------+-+--------+-+--------------------------------+--+
 * </pre>
 * The LID is 0 on RoCE; the GID is all zero when the tool runs without {@code -g}.
 */
public final class PingpongDest
{
    /** Length of the message, including its NUL. */
    public static final int MESSAGE_LENGTH = 52;
    /** Name used in errors. */
    static final String MESSAGE_NAME = "ibv_rc_pingpong address message";

    private static final int QPN_OFFSET = 5;
    private static final int PSN_OFFSET = 12;
    private static final int GID_OFFSET = 19;

    private final int lid;
    private final int qpn;
    private final int psn;
    private final byte[] gid;

    /**
     * @param lid 16-bit LID, 0 on RoCE.
     * @param qpn 24-bit QP number.
     * @param psn 24-bit starting PSN.
     * @param gid 16-byte GID (copied).
     */
    public PingpongDest(final int lid, final int qpn, final int psn, final byte[] gid)
    {
        checkRange(lid, 0xFFFF, "lid");
        checkRange(qpn, 0xFF_FFFF, "qpn");
        checkRange(psn, 0xFF_FFFF, "psn");
        if (null == gid || Gid.LENGTH != gid.length)
        {
            throw new IllegalArgumentException("gid must have 16 bytes");
        }
        this.lid = lid;
        this.qpn = qpn;
        this.psn = psn;
        this.gid = gid.clone();
    }

    /** @return the LID. */
    public int lid()
    {
        return lid;
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

    /** @return a copy of the GID. */
    public byte[] gid()
    {
        return gid.clone();
    }

    /**
     * rc_pingpong sets {@code is_global} only when the GID's interface id (bytes 8..15) is non-zero.
     *
     * @return true if the peer would address this destination with a GRH.
     */
    public boolean hasInterfaceId()
    {
        for (int i = 8; i < Gid.LENGTH; i++)
        {
            if (0 != gid[i])
            {
                return true;
            }
        }
        return false;
    }

    /** @return the 52-byte wire message. */
    public byte[] encode()
    {
        final byte[] msg = new byte[MESSAGE_LENGTH];
        int i = WireText.putHex(msg, 0, lid, 4, "lid");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, qpn, 6, "qpn");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, psn, 6, "psn");
        i = WireText.put(msg, i, ':');
        WireText.putWireGidAndNul(msg, i, gid);
        return msg;
    }

    /**
     * Parses a 52-byte message strictly (separators, hex digits and the final NUL where rc_pingpong puts them).
     *
     * @param msg the message.
     * @return the destination.
     * @throws OobException if the message is malformed.
     */
    public static PingpongDest decode(final byte[] msg) throws OobException
    {
        if (MESSAGE_LENGTH != msg.length)
        {
            throw WireText.malformed(msg, MESSAGE_NAME, "length " + msg.length + ", expected " + MESSAGE_LENGTH);
        }
        WireText.expect(msg, QPN_OFFSET - 1, ':', MESSAGE_NAME);
        WireText.expect(msg, PSN_OFFSET - 1, ':', MESSAGE_NAME);
        WireText.expect(msg, GID_OFFSET - 1, ':', MESSAGE_NAME);
        final byte[] gid = WireText.wireGidAndNul(msg, GID_OFFSET, MESSAGE_NAME);
        final int lid = (int)WireText.hex(msg, 0, 4, "lid", MESSAGE_NAME);
        final int qpn = (int)WireText.hex(msg, QPN_OFFSET, 6, "qpn", MESSAGE_NAME);
        final int psn = (int)WireText.hex(msg, PSN_OFFSET, 6, "psn", MESSAGE_NAME);
        return new PingpongDest(lid, qpn, psn, gid);
    }

    /** {@inheritDoc} */
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof PingpongDest))
        {
            return false;
        }
        final PingpongDest that = (PingpongDest)o;
        return lid == that.lid && qpn == that.qpn && psn == that.psn && Arrays.equals(gid, that.gid);
    }

    /** {@inheritDoc} */
    public int hashCode()
    {
        return ((lid * 31 + qpn) * 31 + psn) * 31 + Arrays.hashCode(gid);
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return String.format("PingpongDest{lid=0x%04x, qpn=0x%06x, psn=0x%06x, gid=%s}", lid, qpn, psn,
            Gid.toString(gid));
    }

    static void checkRange(final long value, final long max, final String field)
    {
        if (value < 0 || value > max)
        {
            throw new IllegalArgumentException(field + " out of range 0..0x" + Long.toHexString(max) + ": " + value);
        }
    }
}
