package io.jrxe.ulp.rdmacm;

/**
 * rdma_cm port spaces ({@code enum rdma_ucm_port_space}): a port number means something only within its space,
 * and the IB service ID of an IP port is the space shifted left 16 bits plus the port (IBA Annex A11.2.1,
 * {@code cma_get_service_id}).
 * <pre>
 *   service ID (64 bits) = 0x0000_0000_0PPP_pppp  with PPP the space (0x0106 TCP) and pppp the port (0x1C06 = 7174)
 * </pre>
 */
public enum PortSpace
{
    /** IPoIB (not used on RoCE). */
    IPOIB(0x0002),
    /** Connected (RC) service, TCP-like: REQ/REP/RTU. */
    TCP(0x0106),
    /** Datagram (UD) service: SIDR. */
    UDP(0x0111),
    /** Native IB port space: RC or UD by the QP type. */
    IB(0x013F);

    private final int value;

    PortSpace(final int value)
    {
        this.value = value;
    }

    /** @return the space's number */
    public int value()
    {
        return value;
    }

    /**
     * @param port a port of this space
     * @return its service ID
     */
    public long serviceId(final int port)
    {
        return ((long)value << 16) | (port & 0xFFFF);
    }

    /**
     * @param serviceId a service ID
     * @return the port in it
     */
    public static int port(final long serviceId)
    {
        return (int)(serviceId & 0xFFFF);
    }
}
