package io.jrxe.rxe.verbs;

/**
 * Port attributes ({@code struct ib_port_attr}) of the single rxe port, filled by
 * {@link RxeDevice#queryPort(int, PortAttr)} into a caller-owned object.
 */
public final class PortAttr
{
    /** rxe port capability: RoCE v2 (UDP encapsulation) and CM support. */
    public static final String CAPABILITIES = "RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP|IB_PORT_CM_SUP";

    private PortState state = PortState.DOWN;
    private Mtu maxMtu = Mtu.MTU_4096;
    private Mtu activeMtu = Mtu.MTU_1024;
    private int gidTableLength;
    private int pkeyTableLength;
    private long maxMsgSize;
    private long subnetPrefix = 0xfe80_0000_0000_0000L;

    /** @return logical port state. */
    public PortState state()
    {
        return state;
    }

    /** @return max MTU the port supports (4096). */
    public Mtu maxMtu()
    {
        return maxMtu;
    }

    /** @return active MTU derived from the netdev MTU. */
    public Mtu activeMtu()
    {
        return activeMtu;
    }

    /** @return GID table entries. */
    public int gidTableLength()
    {
        return gidTableLength;
    }

    /** @return P_Key table entries. */
    public int pkeyTableLength()
    {
        return pkeyTableLength;
    }

    /** @return max message size in bytes. */
    public long maxMsgSize()
    {
        return maxMsgSize;
    }

    /** @return subnet prefix (fe80::/64). */
    public long subnetPrefix()
    {
        return subnetPrefix;
    }

    PortAttr set(
        final PortState state,
        final Mtu maxMtu,
        final Mtu activeMtu,
        final int gidTableLength,
        final int pkeyTableLength,
        final long maxMsgSize)
    {
        this.state = state;
        this.maxMtu = maxMtu;
        this.activeMtu = activeMtu;
        this.gidTableLength = gidTableLength;
        this.pkeyTableLength = pkeyTableLength;
        this.maxMsgSize = maxMsgSize;
        return this;
    }

    /**
     * Copy another port attribute object.
     *
     * @param other source.
     * @return this.
     */
    public PortAttr copyFrom(final PortAttr other)
    {
        state = other.state;
        maxMtu = other.maxMtu;
        activeMtu = other.activeMtu;
        gidTableLength = other.gidTableLength;
        pkeyTableLength = other.pkeyTableLength;
        maxMsgSize = other.maxMsgSize;
        subnetPrefix = other.subnetPrefix;
        return this;
    }
}
