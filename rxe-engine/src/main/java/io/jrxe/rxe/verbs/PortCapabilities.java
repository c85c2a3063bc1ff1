package io.jrxe.rxe.verbs;

/**
 * The {@code rdma_cap_*} questions ib_core and upper layers ask about a port (include/rdma/ib_verbs.h), answered
 * from its immutable data as the kernel's inline functions do: the core capability flags ({@link CoreCapFlags}),
 * the maximum MAD size and the device's port range. {@link RxeDevice} implements it for rxe's one RoCE v2 port.
 * <p>
 * A port outside {@link #startPort()}..{@link #endPort()} throws {@link VerbsException} {@link Errno#EINVAL}
 * (the kernel WARNs and reads past its port array instead).
 */
public interface PortCapabilities
{
    /**
     * {@code ib_port_immutable.core_cap_flags}.
     *
     * @param port port number.
     * @return the {@link CoreCapFlags} bits of the port.
     */
    int coreCapFlags(int port);

    /**
     * {@code rdma_max_mad_size}: the largest MAD (header and payload) the port handles.
     *
     * @param port port number.
     * @return bytes, 0 if the port has no MADs.
     */
    int maxMadSize(int port);

    /**
     * {@code rdma_cap_roce_gid_table}: whether the core's RoCE GID table mechanism manages the port's GIDs
     * through the driver's {@code add_gid}/{@code del_gid}.
     *
     * @param port port number.
     * @return true if it does.
     */
    boolean capRoceGidTable(int port);

    /**
     * {@code rdma_cap_ib_switch}.
     *
     * @return true if the device is a switch (its management port is port 0).
     */
    boolean capIbSwitch();

    /**
     * {@code rdma_end_port}.
     *
     * @return the last port number (0 for a switch).
     */
    int endPort();

    /**
     * {@code rdma_start_port}.
     *
     * @return the first port number: 0 for a switch, else 1.
     */
    default int startPort()
    {
        return capIbSwitch() ? 0 : 1;
    }

    /**
     * {@code rdma_cap_ib_mad}: the port handles InfiniBand MADs (QP1).
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#IB_MAD} is set.
     */
    default boolean capIbMad(final int port)
    {
        return has(port, CoreCapFlags.IB_MAD);
    }

    /**
     * {@code rdma_cap_opa_mad}: the port handles OPA MADs.
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#OPA_MAD} is set.
     */
    default boolean capOpaMad(final int port)
    {
        return has(port, CoreCapFlags.OPA_MAD);
    }

    /**
     * {@code rdma_cap_ib_smi}: the port has a subnet management interface (QP0).
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#IB_SMI} is set.
     */
    default boolean capIbSmi(final int port)
    {
        return has(port, CoreCapFlags.IB_SMI);
    }

    /**
     * {@code rdma_cap_ib_cm}: the port uses the InfiniBand connection manager.
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#IB_CM} is set.
     */
    default boolean capIbCm(final int port)
    {
        return has(port, CoreCapFlags.IB_CM);
    }

    /**
     * {@code rdma_cap_iw_cm}: the port uses the iWARP connection manager.
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#IW_CM} is set.
     */
    default boolean capIwCm(final int port)
    {
        return has(port, CoreCapFlags.IW_CM);
    }

    /**
     * {@code rdma_cap_ib_sa}: the port talks to a subnet administrator.
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#IB_SA} is set.
     */
    default boolean capIbSa(final int port)
    {
        return has(port, CoreCapFlags.IB_SA);
    }

    /**
     * {@code rdma_cap_ib_mcast}: the port joins IB multicast groups through the SA (the kernel defines it as
     * {@code rdma_cap_ib_sa}).
     *
     * @param port port number.
     * @return {@link #capIbSa(int)}.
     */
    default boolean capIbMcast(final int port)
    {
        return capIbSa(port);
    }

    /**
     * {@code rdma_cap_af_ib}: the port supports the AF_IB address family.
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#AF_IB} is set.
     */
    default boolean capAfIb(final int port)
    {
        return has(port, CoreCapFlags.AF_IB);
    }

    /**
     * {@code rdma_cap_eth_ah}: address handles carry Ethernet (MAC) and IP addresses.
     *
     * @param port port number.
     * @return true if {@link CoreCapFlags#ETH_AH} is set.
     */
    default boolean capEthAh(final int port)
    {
        return has(port, CoreCapFlags.ETH_AH);
    }

    /**
     * {@code rdma_cap_opa_ah}: address handles use OPA extended addressing.
     *
     * @param port port number.
     * @return true if every {@link CoreCapFlags#OPA_AH} bit is set.
     */
    default boolean capOpaAh(final int port)
    {
        return CoreCapFlags.OPA_AH == (coreCapFlags(port) & CoreCapFlags.OPA_AH);
    }

    private boolean has(final int port, final int flag)
    {
        return 0 != (coreCapFlags(port) & flag);
    }
}
