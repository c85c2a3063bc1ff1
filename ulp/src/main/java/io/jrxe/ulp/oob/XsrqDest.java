package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;

import java.util.Arrays;

/**
 * The address ibv_xsrq_pingpong exchanges per client (rdma-core {@code libibverbs/examples/xsrq_pingpong.c}, as in
 * rdma-core 44.0): {@code sprintf(msg, "%04x:%06x:%06x:%06x:%06x:%32s", lid, recv_qpn, send_qpn, psn, srqn,
 * wire_gid)} into {@code char msg[66]}, and the whole 66-byte buffer is written. {@code recv_qpn} is the XRC target
 * (TGT) QP, {@code send_qpn} the XRC initiator (INI) QP, {@code srqn} the XRC SRQ the peer's sends must name; the
 * peer's TGT QP connects to this INI QP and its INI QP to this TGT QP, both starting at {@code psn}.
 * <pre>
 *  0    4 5      11 12     18 19     25 26     32 33                              65
 * +------+-+--------+-+--------+-+--------+-+--------+-+--------------------------------+--+
 * | lid  |:|recv_qpn|:|send_qpn|:|  psn   |:|  srqn  |:|  GID bytes 0..15, 32 hex digits |\0|  66 bytes
 * +------+-+--------+-+--------+-+--------+-+--------+-+--------------------------------+--+
 * </pre>
 */
public final class XsrqDest
{
    /** Length of the message, including its NUL ({@code MSG_SIZE}). */
    public static final int MESSAGE_LENGTH = 66;
    static final String MESSAGE_NAME = "ibv_xsrq_pingpong address message";

    private static final int RECV_QPN_OFFSET = 5;
    private static final int SEND_QPN_OFFSET = 12;
    private static final int PSN_OFFSET = 19;
    private static final int SRQN_OFFSET = 26;
    private static final int GID_OFFSET = 33;

    private final int lid;
    private final int recvQpn;
    private final int sendQpn;
    private final int psn;
    private final int srqn;
    private final byte[] gid;

    /**
     * @param lid 16-bit LID, 0 on RoCE.
     * @param recvQpn the XRC target QP's number, 24 bits.
     * @param sendQpn the XRC initiator QP's number, 24 bits.
     * @param psn 24-bit starting PSN of both QPs.
     * @param srqn the XRC SRQ number the peer's sends name, 24 bits.
     * @param gid 16-byte GID (copied).
     */
    public XsrqDest(final int lid, final int recvQpn, final int sendQpn, final int psn, final int srqn,
        final byte[] gid)
    {
        PingpongDest.checkRange(lid, 0xFFFF, "lid");
        PingpongDest.checkRange(recvQpn, 0xFF_FFFF, "recv_qpn");
        PingpongDest.checkRange(sendQpn, 0xFF_FFFF, "send_qpn");
        PingpongDest.checkRange(psn, 0xFF_FFFF, "psn");
        PingpongDest.checkRange(srqn, 0xFF_FFFF, "srqn");
        if (null == gid || Gid.LENGTH != gid.length)
        {
            throw new IllegalArgumentException("gid must have 16 bytes");
        }
        this.lid = lid;
        this.recvQpn = recvQpn;
        this.sendQpn = sendQpn;
        this.psn = psn;
        this.srqn = srqn;
        this.gid = gid.clone();
    }

    /** @return the LID. */
    public int lid()
    {
        return lid;
    }

    /** @return the XRC target QP's number. */
    public int recvQpn()
    {
        return recvQpn;
    }

    /** @return the XRC initiator QP's number. */
    public int sendQpn()
    {
        return sendQpn;
    }

    /** @return the starting PSN. */
    public int psn()
    {
        return psn;
    }

    /** @return the XRC SRQ number. */
    public int srqn()
    {
        return srqn;
    }

    /** @return a copy of the GID. */
    public byte[] gid()
    {
        return gid.clone();
    }

    /** @return the 66-byte wire message. */
    public byte[] encode()
    {
        final byte[] msg = new byte[MESSAGE_LENGTH];
        int i = WireText.putHex(msg, 0, lid, 4, "lid");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, recvQpn, 6, "recv_qpn");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, sendQpn, 6, "send_qpn");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, psn, 6, "psn");
        i = WireText.put(msg, i, ':');
        i = WireText.putHex(msg, i, srqn, 6, "srqn");
        i = WireText.put(msg, i, ':');
        WireText.putWireGidAndNul(msg, i, gid);
        return msg;
    }

    /**
     * Parses a 66-byte message strictly (separators, hex digits and the final NUL where the tool puts them).
     *
     * @param msg the message.
     * @return the destination.
     * @throws OobException if the message is malformed.
     */
    public static XsrqDest decode(final byte[] msg) throws OobException
    {
        if (MESSAGE_LENGTH != msg.length)
        {
            throw WireText.malformed(msg, MESSAGE_NAME, "length " + msg.length + ", expected " + MESSAGE_LENGTH);
        }
        for (final int field : new int[]{RECV_QPN_OFFSET, SEND_QPN_OFFSET, PSN_OFFSET, SRQN_OFFSET, GID_OFFSET})
        {
            WireText.expect(msg, field - 1, ':', MESSAGE_NAME);
        }
        final byte[] gid = WireText.wireGidAndNul(msg, GID_OFFSET, MESSAGE_NAME);
        final int lid = (int)WireText.hex(msg, 0, 4, "lid", MESSAGE_NAME);
        final int recvQpn = (int)WireText.hex(msg, RECV_QPN_OFFSET, 6, "recv_qpn", MESSAGE_NAME);
        final int sendQpn = (int)WireText.hex(msg, SEND_QPN_OFFSET, 6, "send_qpn", MESSAGE_NAME);
        final int psn = (int)WireText.hex(msg, PSN_OFFSET, 6, "psn", MESSAGE_NAME);
        final int srqn = (int)WireText.hex(msg, SRQN_OFFSET, 6, "srqn", MESSAGE_NAME);
        return new XsrqDest(lid, recvQpn, sendQpn, psn, srqn, gid);
    }

    /** {@inheritDoc} */
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof XsrqDest))
        {
            return false;
        }
        final XsrqDest that = (XsrqDest)o;
        return lid == that.lid && recvQpn == that.recvQpn && sendQpn == that.sendQpn && psn == that.psn &&
            srqn == that.srqn && Arrays.equals(gid, that.gid);
    }

    /** {@inheritDoc} */
    public int hashCode()
    {
        return ((((lid * 31 + recvQpn) * 31 + sendQpn) * 31 + psn) * 31 + srqn) * 31 + Arrays.hashCode(gid);
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return String.format("XsrqDest{lid=0x%04x, recv_qpn=0x%06x, send_qpn=0x%06x, psn=0x%06x, srqn=0x%06x, gid=%s}",
            lid, recvQpn, sendQpn, psn, srqn, Gid.toString(gid));
    }
}
