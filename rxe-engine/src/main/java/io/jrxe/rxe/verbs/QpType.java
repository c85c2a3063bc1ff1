package io.jrxe.rxe.verbs;

/**
 * QP transport service types rxe supports, with their {@code enum ib_qp_type} values. rxe has no RD and no XRC.
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
    UD(4);

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
}
