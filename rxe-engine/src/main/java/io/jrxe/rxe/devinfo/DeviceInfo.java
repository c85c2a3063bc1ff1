package io.jrxe.rxe.devinfo;

import io.jrxe.rxe.verbs.DeviceAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.RxeDevice;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code ibv_query_device_ex}, {@code ibv_query_port} and {@code ibv_query_gid} return for one rxe device,
 * at one instant, with the fields named as in {@code struct ibv_device_attr(_ex)} and {@code struct ibv_port_attr}.
 * Taken from a live {@link RxeDevice} ({@link #of}) or read back from the file a running node publishes
 * ({@link DeviceInfoFile}), so {@link IbvDevinfo} prints both the same way. Immutable.
 * <p>
 * Values that rxe fixes and jrxe has no setting for are rxe's (rxe_param.h, rxe_verbs.c rxe_query_port):
 * fw_ver 0.0.0, vendor_part_id 0, hw_ver 0, no EE/RDD/raw QPs/FMR, one port with LID 0, max_vl_num 1, width 1X,
 * speed 2.5 Gbps (what ib_get_eth_speed gives a netdev of unknown speed, as a virtio-net NIC is), phys_state
 * LINK_UP when the port is ACTIVE and POLLING otherwise (the netdev is up, without carrier). Departures, because
 * jrxe lacks the feature: no multicast (max_mcast_grp 0, rxe 8192) and one completion vector (rxe: one per CPU).
 */
public final class DeviceInfo
{
    /** ibv_device_attr(_ex) fields, in the order {@code ibv_devinfo -v} prints them. */
    static final String[] DEVICE_FIELDS =
    {
        "node_guid", "sys_image_guid", "vendor_id", "vendor_part_id", "hw_ver", "phys_port_cnt", "max_mr_size",
        "page_size_cap", "max_qp", "max_qp_wr", "device_cap_flags", "max_sge", "max_sge_rd", "max_cq", "max_cqe",
        "max_mr", "max_pd", "max_qp_rd_atom", "max_ee_rd_atom", "max_res_rd_atom", "max_qp_init_rd_atom",
        "max_ee_init_rd_atom", "atomic_cap", "max_ee", "max_rdd", "max_mw", "max_raw_ipv6_qp", "max_raw_ethy_qp",
        "max_mcast_grp", "max_mcast_qp_attach", "max_total_mcast_qp_attach", "max_ah", "max_fmr", "max_map_per_fmr",
        "max_srq", "max_srq_wr", "max_srq_sge", "max_pkeys", "local_ca_ack_delay", "device_cap_flags_ex",
        "num_comp_vectors"
    };

    /** ibv_port_attr fields of port 1, in the order {@code ibv_devinfo -v} prints them. */
    static final String[] PORT_FIELDS =
    {
        "state", "max_mtu", "active_mtu", "sm_lid", "port_lid", "port_lmc", "link_layer", "max_msg_sz",
        "port_cap_flags", "port_cap_flags2", "max_vl_num", "bad_pkey_cntr", "qkey_viol_cntr", "sm_sl",
        "pkey_tbl_len", "gid_tbl_len", "subnet_timeout", "init_type_reply", "active_width", "active_speed",
        "phys_state"
    };

    /** Device fields rxe fixes at 0 (no vendor part or hardware version, no EE, RDD, raw QPs, FMR or multicast). */
    private static final String[] RXE_ZERO_DEVICE_FIELDS =
    {
        "vendor_part_id", "hw_ver", "max_ee_rd_atom", "max_ee_init_rd_atom", "max_ee", "max_rdd", "max_raw_ipv6_qp",
        "max_raw_ethy_qp", "max_mcast_grp", "max_mcast_qp_attach", "max_total_mcast_qp_attach", "max_fmr",
        "max_map_per_fmr"
    };

    /** Port fields rxe fixes at 0 (no LIDs, SM, P_Key or Q_Key violation counts on RoCE). */
    private static final String[] RXE_ZERO_PORT_FIELDS =
    {
        "sm_lid", "port_lid", "port_lmc", "port_cap_flags2", "bad_pkey_cntr", "qkey_viol_cntr", "sm_sl",
        "subnet_timeout", "init_type_reply"
    };

    /** {@code IBV_TRANSPORT_IB}: rxe presents itself as an InfiniBand transport. */
    public static final int TRANSPORT_IB = 0;
    /** {@code IBV_LINK_LAYER_ETHERNET}. */
    public static final int LINK_LAYER_ETHERNET = 2;
    /** {@code IB_PORT_CM_SUP}: rxe's port capability (RXE_PORT_PORT_CAP_FLAGS). */
    public static final int PORT_CM_SUP = 1 << 16;
    /** {@code IB_WIDTH_1X}. */
    public static final int WIDTH_1X = 1;
    /** {@code IB_SPEED_SDR}, 2.5 Gbps per lane. */
    public static final int SPEED_SDR = 1;
    /** {@code IB_PORT_PHYS_STATE_POLLING}. */
    public static final int PHYS_STATE_POLLING = 2;
    /** {@code IB_PORT_PHYS_STATE_LINK_UP}. */
    public static final int PHYS_STATE_LINK_UP = 5;
    /** rxe's firmware version: RXE_FW_VER 0 as the provider formats it. */
    public static final String RXE_FW_VER = "0.0.0";

    private final String name;
    private final long pid;
    private final String fwVer;
    private final Map<String, Long> device;
    private final Map<String, Long> port;
    private final List<long[]> gids;

    DeviceInfo(
        final String name,
        final long pid,
        final String fwVer,
        final Map<String, Long> device,
        final Map<String, Long> port,
        final List<long[]> gids)
    {
        this.name = name;
        this.pid = pid;
        this.fwVer = fwVer;
        this.device = Collections.unmodifiableMap(new LinkedHashMap<>(device));
        this.port = Collections.unmodifiableMap(new LinkedHashMap<>(port));
        this.gids = Collections.unmodifiableList(new ArrayList<>(gids));
        requireAll(device, DEVICE_FIELDS, "device");
        requireAll(port, PORT_FIELDS, "port");
    }

    private static void requireAll(final Map<String, Long> values, final String[] fields, final String what)
    {
        for (final String field : fields)
        {
            if (!values.containsKey(field))
            {
                throw new IllegalArgumentException("device info lacks the " + what + " attribute " + field);
            }
        }
    }

    /**
     * Queries a live device (control path: {@link RxeDevice#queryPort} takes the device's lock).
     *
     * @param name   the device name (hca_id)
     * @param device the device
     * @return what its queries return now, owned by this process
     */
    public static DeviceInfo of(final String name, final RxeDevice device)
    {
        final DeviceAttr a = device.queryDevice();
        final Map<String, Long> d = new LinkedHashMap<>();
        for (final String field : RXE_ZERO_DEVICE_FIELDS)
        {
            d.put(field, 0L);
        }
        d.put("node_guid", a.nodeGuid());
        d.put("sys_image_guid", a.sysImageGuid());
        d.put("vendor_id", (long)a.vendorId());
        d.put("phys_port_cnt", 1L);
        d.put("max_mr_size", a.maxMrSize());
        d.put("page_size_cap", a.pageSizeCap());
        d.put("max_qp", (long)a.maxQp());
        d.put("max_qp_wr", (long)a.maxQpWr());
        d.put("device_cap_flags", a.deviceCapFlags() & 0xffff_ffffL);
        d.put("max_sge", (long)Math.min(a.maxSendSge(), a.maxRecvSge())); // uverbs: min of send and receive
        d.put("max_sge_rd", (long)a.maxSgeRd());
        d.put("max_cq", (long)a.maxCq());
        d.put("max_cqe", (long)a.maxCqe());
        d.put("max_mr", (long)a.maxMr());
        d.put("max_pd", (long)a.maxPd());
        d.put("max_qp_rd_atom", (long)a.maxQpRdAtom());
        d.put("max_res_rd_atom", (long)a.maxResRdAtom());
        d.put("max_qp_init_rd_atom", (long)a.maxQpInitRdAtom());
        d.put("atomic_cap", (long)a.atomicCap());
        d.put("max_mw", (long)a.maxMw());
        d.put("max_ah", (long)a.maxAh());
        d.put("max_srq", (long)a.maxSrq());
        d.put("max_srq_wr", (long)a.maxSrqWr());
        d.put("max_srq_sge", (long)a.maxSrqSge());
        d.put("max_pkeys", (long)a.maxPkeys());
        d.put("local_ca_ack_delay", (long)a.localCaAckDelay());
        d.put("device_cap_flags_ex", a.deviceCapFlags());
        d.put("num_comp_vectors", 1L);
        return new DeviceInfo(name, ProcessHandle.current().pid(), RXE_FW_VER, d,
            portOf(device.queryPort(RxeDevice.PORT, new PortAttr())), gidsOf(device.gidTable()));
    }

    private static Map<String, Long> portOf(final PortAttr p)
    {
        final boolean active = PortState.ACTIVE == p.state();
        final Map<String, Long> m = new LinkedHashMap<>();
        for (final String field : RXE_ZERO_PORT_FIELDS)
        {
            m.put(field, 0L);
        }
        m.put("state", (long)p.state().code());
        m.put("max_mtu", (long)p.maxMtu().code());
        m.put("active_mtu", (long)p.activeMtu().code());
        m.put("link_layer", (long)LINK_LAYER_ETHERNET);
        m.put("max_msg_sz", p.maxMsgSize());
        m.put("port_cap_flags", (long)PORT_CM_SUP);
        m.put("max_vl_num", 1L);
        m.put("pkey_tbl_len", (long)p.pkeyTableLength());
        m.put("gid_tbl_len", (long)p.gidTableLength());
        m.put("active_width", (long)WIDTH_1X);
        m.put("active_speed", (long)SPEED_SDR);
        m.put("phys_state", (long)(active ? PHYS_STATE_LINK_UP : PHYS_STATE_POLLING));
        return m;
    }

    private static List<long[]> gidsOf(final GidTable table)
    {
        final List<long[]> gids = new ArrayList<>();
        for (int i = 0; i < table.length(); i++)
        {
            if (table.isValid(i))
            {
                gids.add(new long[]{i, table.hi(i), table.lo(i)});
            }
        }
        return gids;
    }

    /**
     * @return the device name ({@code hca_id})
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the process that owns the device
     */
    public long pid()
    {
        return pid;
    }

    /**
     * @return the firmware version string
     */
    public String fwVer()
    {
        return fwVer;
    }

    /**
     * @param field an ibv_device_attr(_ex) field name, e.g. {@code max_qp}
     * @return its value (unsigned fields as their bits)
     * @throws IllegalArgumentException if there is no such field
     */
    public long device(final String field)
    {
        return get(device, field, "device");
    }

    /**
     * @param field an ibv_port_attr field name of port 1, e.g. {@code active_mtu}
     * @return its value
     * @throws IllegalArgumentException if there is no such field
     */
    public long port(final String field)
    {
        return get(port, field, "port");
    }

    private static long get(final Map<String, Long> values, final String field, final String what)
    {
        final Long value = values.get(field);
        if (null == value)
        {
            throw new IllegalArgumentException("no " + what + " attribute " + field);
        }
        return value;
    }

    Map<String, Long> deviceFields()
    {
        return device;
    }

    Map<String, Long> portFields()
    {
        return port;
    }

    /**
     * @return number of valid GID table entries
     */
    public int gidCount()
    {
        return gids.size();
    }

    /**
     * @param i 0..gidCount-1
     * @return the table index of the i-th valid entry
     */
    public int gidIndex(final int i)
    {
        return (int)gids.get(i)[0];
    }

    /**
     * @param i 0..gidCount-1
     * @return bytes 0..7 of the i-th valid GID
     */
    public long gidHi(final int i)
    {
        return gids.get(i)[1];
    }

    /**
     * @param i 0..gidCount-1
     * @return bytes 8..15 of the i-th valid GID
     */
    public long gidLo(final int i)
    {
        return gids.get(i)[2];
    }
}
