package io.jrxe.rxe.verbs;

/**
 * QP transport service types, with their {@code enum ib_qp_type} values. jrxe has no RD. The two XRC types
 * (IBA Vol 1 9.2, 11.2: eXtended Reliable Connected) have their own modify-QP rows in {@link QpStateTable} and
 * the RC transport with an XRCETH on every request; the kernel's rxe (6.1) has no XRC, so jrxe reports
 * {@link DeviceCapFlags#XRC} where rxe does not.
 */
public enum QpType
{
    /**
     * General services interface QP (QPN 1), a UD QP for management datagrams, as the kernel's MAD layer creates
     * it: one per port, INIT with Q_Key 0x80010000 and P_Key index 0, receives of 40 + 256 bytes (GRH area, MAD).
     * It owns QP1: from RTR on it receives every UD packet to QPN 1 that carries Q_Key 0x80010000, and it always
     * sends that Q_Key from source QP 1, whatever the work request's Q_Key.
     */
    GSI(1),
    /** Reliable connected. */
    RC(2),
    /** Unreliable connected. */
    UC(3),
    /** Unreliable datagram. */
    UD(4),
    /**
     * XRC initiator (IBA 11.2 "XRC INI QP"): the send side of an XRC connection only, like an RC requester with
     * no receive queue and no receive CQ; each send names the remote XRC SRQ it targets.
     */
    XRC_INI(9),
    /**
     * XRC target (IBA 11.2 "XRC TGT QP"): the receive side only, like an RC responder with no send queue and no
     * CQ, created with an XRC domain instead of a PD; its receives land in the XRC SRQ each packet's XRCETH names.
     */
    XRC_TGT(10);

    private final int code;

    QpType(final int code)
    {
        this.code = code;
    }

    /** @return {@code ib_qp_type} value. */
    public int code()
    {
        return code;
    }

    /** @return true for the datagram types (UD, GSI) which need an address handle per send. */
    public boolean isDatagram()
    {
        return this == UD || this == GSI;
    }

    /** @return true for the two XRC types. */
    public boolean isXrc()
    {
        return this == XRC_INI || this == XRC_TGT;
    }
}
