package io.jrxe.rxe.verbs;

/**
 * A port's core capability flags ({@code RDMA_CORE_CAP_*} and the {@code RDMA_CORE_PORT_*} sets of
 * include/rdma/ib_verbs.h, {@code ib_port_immutable.core_cap_flags}), what {@link PortCapabilities} answers from.
 * <pre>
 *  bits  0..11  management       IB_MAD 0x1, IB_SMI 0x2, IB_CM 0x4, IW_CM 0x8, IB_SA 0x10, OPA_MAD 0x20
 *  bits 12..19  address format   AF_IB 0x1000, ETH_AH 0x2000, OPA_AH 0x4000, IB_GRH_REQUIRED 0x8000
 *  bits 20..31  protocol         IB 0x100000, ROCE 0x200000, IWARP 0x400000, ROCE_UDP_ENCAP 0x800000, ...
 * </pre>
 */
public final class CoreCapFlags
{
    /** MADs on QP1 (GSI). */
    public static final int IB_MAD = 0x0000_0001;
    /** Subnet management on QP0. */
    public static final int IB_SMI = 0x0000_0002;
    /** The IB connection manager. */
    public static final int IB_CM = 0x0000_0004;
    /** The iWARP connection manager. */
    public static final int IW_CM = 0x0000_0008;
    /** Subnet administration (and so IB multicast). */
    public static final int IB_SA = 0x0000_0010;
    /** OPA MADs (2048 bytes). */
    public static final int OPA_MAD = 0x0000_0020;
    /** The AF_IB address family (rdma_cm). */
    public static final int AF_IB = 0x0000_1000;
    /** Ethernet address handles: a destination MAC, GIDs as IP addresses. */
    public static final int ETH_AH = 0x0000_2000;
    /** OPA extended addressing. */
    public static final int OPA_AH = 0x0000_4000;
    /** Every packet carries a GRH. */
    public static final int IB_GRH_REQUIRED = 0x0000_8000;
    /** InfiniBand link. */
    public static final int PROT_IB = 0x0010_0000;
    /** RoCE v1 (Ethernet). */
    public static final int PROT_ROCE = 0x0020_0000;
    /** iWARP. */
    public static final int PROT_IWARP = 0x0040_0000;
    /** RoCE v2 (UDP encapsulation). */
    public static final int PROT_ROCE_UDP_ENCAP = 0x0080_0000;
    /** Raw packet QPs. */
    public static final int PROT_RAW_PACKET = 0x0100_0000;
    /** usNIC. */
    public static final int PROT_USNIC = 0x0200_0000;

    /**
     * {@code RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP}, what rxe's {@code rxe_port_immutable} sets: RoCE v2 with MADs,
     * the IB CM, AF_IB and Ethernet AHs = 0x00803005.
     */
    public static final int PORT_IBA_ROCE_UDP_ENCAP = PROT_ROCE_UDP_ENCAP | IB_MAD | IB_CM | AF_IB | ETH_AH;

    private CoreCapFlags()
    {
    }
}
