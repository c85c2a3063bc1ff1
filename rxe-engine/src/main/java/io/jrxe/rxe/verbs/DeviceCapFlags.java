package io.jrxe.rxe.verbs;

/**
 * Device capability bits of {@code ib_device_attr.device_cap_flags}, values of
 * {@code enum ib_uverbs_device_cap_flags} (include/uapi/rdma/ib_user_verbs.h; ibv_device_attr carries the low 32
 * bits, ibv_device_attr_ex.device_cap_flags_ex all 64).
 */
public final class DeviceCapFlags
{
    /** The device can resize the work request limit. */
    public static final long RESIZE_MAX_WR = 1L;
    /** A bad P_Key counter is kept. */
    public static final long BAD_PKEY_CNTR = 1L << 1;
    /** A Q_Key violation counter is kept. */
    public static final long BAD_QKEY_CNTR = 1L << 2;
    /** Raw multicast. */
    public static final long RAW_MULTI = 1L << 3;
    /** Automatic path migration. */
    public static final long AUTO_PATH_MIG = 1L << 4;
    /** The port of a QP can change in SQD. */
    public static final long CHANGE_PHY_PORT = 1L << 5;
    /** The port of a UD address vector is enforced. */
    public static final long UD_AV_PORT_ENFORCE = 1L << 6;
    /** The current QP state may be given to modify_qp. */
    public static final long CURR_QP_STATE_MOD = 1L << 7;
    /** Ports can be shut down. */
    public static final long SHUTDOWN_PORT = 1L << 8;
    /** A port active event is raised. */
    public static final long PORT_ACTIVE_EVENT = 1L << 10;
    /** The system image GUID is valid. */
    public static final long SYS_IMAGE_GUID = 1L << 11;
    /** RC QPs generate RNR NAKs. */
    public static final long RC_RNR_NAK_GEN = 1L << 12;
    /** SRQs can be resized. */
    public static final long SRQ_RESIZE = 1L << 13;
    /** CQs can notify after N completions. */
    public static final long N_NOTIFY_CQ = 1L << 14;
    /** Memory windows. */
    public static final long MEM_WINDOW = 1L << 17;
    /** UD checksum offload. */
    public static final long UD_IP_CSUM = 1L << 18;
    /** XRC. */
    public static final long XRC = 1L << 20;
    /** Memory management extensions: fast registration (FRWR), local invalidate, send with invalidate. */
    public static final long MEM_MGT_EXTENSIONS = 1L << 21;
    /** Type 2A memory windows. */
    public static final long MEM_WINDOW_TYPE_2A = 1L << 23;
    /** Type 2B memory windows. */
    public static final long MEM_WINDOW_TYPE_2B = 1L << 24;
    /** RC checksum offload. */
    public static final long RC_IP_CSUM = 1L << 25;
    /** Raw IP checksum offload. */
    public static final long RAW_IP_CSUM = 1L << 26;
    /** Managed flow steering. */
    public static final long MANAGED_FLOW_STEERING = 1L << 29;
    /** Raw packet FCS scatter. */
    public static final long RAW_SCATTER_FCS = 1L << 34;
    /** PCI write end padding. */
    public static final long PCI_WRITE_END_PADDING = 1L << 36;
    /** RDMA FLUSH with global visibility placement. */
    public static final long FLUSH_GLOBAL = 1L << 38;
    /** RDMA FLUSH with persistence placement. */
    public static final long FLUSH_PERSISTENT = 1L << 39;
    /** RDMA ATOMIC WRITE. */
    public static final long ATOMIC_WRITE = 1L << 40;

    /**
     * What rxe reports ({@code RXE_DEVICE_CAP_FLAGS}, rxe_param.h) and jrxe implements the same features for:
     * 0x1C001223C76.
     */
    public static final long RXE = BAD_PKEY_CNTR | BAD_QKEY_CNTR | AUTO_PATH_MIG | CHANGE_PHY_PORT |
        UD_AV_PORT_ENFORCE | PORT_ACTIVE_EVENT | SYS_IMAGE_GUID | RC_RNR_NAK_GEN | SRQ_RESIZE | MEM_MGT_EXTENSIONS |
        MEM_WINDOW | FLUSH_GLOBAL | FLUSH_PERSISTENT | MEM_WINDOW_TYPE_2B | ATOMIC_WRITE;

    /**
     * What jrxe reports: rxe's flags plus {@link #XRC} (XRC domains, SRQs and INI/TGT QPs, which the kernel's rxe
     * lacks): 0x1C001323C76.
     */
    public static final long JRXE = RXE | XRC;

    private DeviceCapFlags()
    {
    }
}
