package io.jrxe.rxe.verbs;

/**
 * QP transport service types rxe supports, with their {@code enum ib_qp_type} values. rxe has no RD and no XRC.
 */
public enum QpType
{
    /** General services interface QP (QPN 1), a UD QP for management datagrams. */
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
