package io.jrxe.rxe.devinfo;

import io.jrxe.net.Ipv4;
import io.jrxe.net.Ipv6;
import io.jrxe.rxe.stats.CountersFile;
import io.jrxe.rxe.verbs.DeviceCapFlags;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.RxeDevice;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a device's attributes as rdma-core's {@code ibv_devinfo [-v]} prints them for an rxe device
 * (libibverbs/examples/devinfo.c of rdma-core v44, the version of Debian bookworm that the QEMU suite runs): the same
 * fields in the same order, the same names, tabs, number bases and units. Lines that need a kernel rxe lacks
 * ({@code board_id} from sysfs; CQ moderation, device memory and raw packet caps when zero) are left out as
 * ibv_devinfo leaves them out. rdma-core versions after v44 add {@code max_comp_cntr} and {@code effective_speed}
 * lines only for devices that support those queries, which rxe does not.
 * <pre>
 * hca_id:	jrxe0
 * 	transport:			InfiniBand (0)
 * 	...
 * 		port:	1
 * 			state:			PORT_ACTIVE (4)
 * 			...
 * 			GID[  1]:		::ffff:10.9.0.1, RoCE v2
 * </pre>
 */
public final class IbvDevinfo
{
    private static final String FLAG_INDENT = "\t\t\t\t\t";

    /** device_cap_flags bits ibv_devinfo names, in its order; the others print as "Unknown flags". */
    private static final long[] CAP_BITS =
    {
        DeviceCapFlags.RESIZE_MAX_WR, DeviceCapFlags.BAD_PKEY_CNTR, DeviceCapFlags.BAD_QKEY_CNTR,
        DeviceCapFlags.RAW_MULTI, DeviceCapFlags.AUTO_PATH_MIG, DeviceCapFlags.CHANGE_PHY_PORT,
        DeviceCapFlags.UD_AV_PORT_ENFORCE, DeviceCapFlags.CURR_QP_STATE_MOD, DeviceCapFlags.SHUTDOWN_PORT,
        1L << 9, DeviceCapFlags.PORT_ACTIVE_EVENT, DeviceCapFlags.SYS_IMAGE_GUID, DeviceCapFlags.RC_RNR_NAK_GEN,
        DeviceCapFlags.SRQ_RESIZE, DeviceCapFlags.N_NOTIFY_CQ, DeviceCapFlags.MEM_WINDOW, DeviceCapFlags.UD_IP_CSUM,
        DeviceCapFlags.XRC, DeviceCapFlags.MEM_MGT_EXTENSIONS, DeviceCapFlags.MEM_WINDOW_TYPE_2A,
        DeviceCapFlags.MEM_WINDOW_TYPE_2B, DeviceCapFlags.RC_IP_CSUM, DeviceCapFlags.RAW_IP_CSUM,
        DeviceCapFlags.MANAGED_FLOW_STEERING
    };
    private static final String[] CAP_NAMES =
    {
        "RESIZE_MAX_WR", "BAD_PKEY_CNTR", "BAD_QKEY_CNTR", "RAW_MULTI", "AUTO_PATH_MIG", "CHANGE_PHY_PORT",
        "UD_AV_PORT_ENFORCE", "CURR_QP_STATE_MOD", "SHUTDOWN_PORT", "INIT_TYPE", "PORT_ACTIVE_EVENT",
        "SYS_IMAGE_GUID", "RC_RNR_NAK_GEN", "SRQ_RESIZE", "N_NOTIFY_CQ", "MEM_WINDOW", "UD_IP_CSUM", "XRC",
        "MEM_MGT_EXTENSIONS", "MEM_WINDOW_TYPE_2A", "MEM_WINDOW_TYPE_2B", "RC_IP_CSUM", "RAW_IP_CSUM",
        "MANAGED_FLOW_STEERING"
    };
    /** device_cap_flags_ex bits above 31 that v44 names. */
    private static final long[] CAP_EX_BITS = {DeviceCapFlags.RAW_SCATTER_FCS, DeviceCapFlags.PCI_WRITE_END_PADDING};
    private static final String[] CAP_EX_NAMES = {"RAW_SCATTER_FCS", "PCI_WRITE_END_PADDING"};

    private static final String[] PORT_STATES = {null, "PORT_DOWN", "PORT_INIT", "PORT_ARMED", "PORT_ACTIVE"};
    private static final String[] MTUS = {null, "256", "512", "1024", "2048", "4096"};
    private static final String[] PHYS_STATES =
    {
        null, "SLEEP", "POLLING", "DISABLED", "PORT_CONFIGURATION TRAINNING", "LINK_UP", "LINK_ERROR_RECOVERY",
        "PHY TEST"
    };
    private static final String[] VLS = {null, "1", "2", "4", "8", "15"};
    private static final String[] LINK_LAYERS = {"Unspecified", "InfiniBand", "Ethernet"};

    private IbvDevinfo()
    {
    }

    /**
     * {@code jrxe devinfo}: prints the devices of the jrxe nodes running on this host, from the files they publish.
     *
     * @param directories where nodes publish ({@link DeviceInfoFile})
     * @param device      the one device to print ({@code -d}), or null for all
     * @param verbose     {@code -v}
     * @param out         where the devices go
     * @param err         where problems go
     * @return 0, or 1 if no node runs or the device was not found
     */
    public static int print(
        final List<Path> directories, final String device, final boolean verbose, final PrintStream out,
        final PrintStream err)
    {
        final List<DeviceInfo> running = running(directories, err);
        if (running.isEmpty())
        {
            err.println("No jrxe devices found: no running jrxe node has published one (" + DeviceInfoFile.SUFFIX +
                " files in " + directories + "); a node publishes its device while it runs, e.g. jrxe pingpong " +
                "or jrxe perf with --pci");
            return 1;
        }
        final List<String> names = new ArrayList<>();
        for (final DeviceInfo info : running)
        {
            names.add(info.name());
            if (null == device || device.equals(info.name()))
            {
                out.print(format(info, verbose));
            }
        }
        if (null != device && !names.contains(device))
        {
            err.println("IB device '" + device + "' wasn't found; running jrxe devices: " + names);
            return 1;
        }
        return 0;
    }

    /**
     * {@code jrxe devinfo -l}: the names of the running devices, as {@code ibv_devinfo -l} lists them.
     *
     * @param directories where nodes publish
     * @param out         where the list goes
     * @param err         where problems go
     * @return 0
     */
    public static int list(final List<Path> directories, final PrintStream out, final PrintStream err)
    {
        final List<DeviceInfo> running = running(directories, err);
        out.println(running.size() + " HCA" + (1 == running.size() ? "" : "s") + " found:");
        for (final DeviceInfo info : running)
        {
            out.println("\t" + info.name());
        }
        out.println();
        return 0;
    }

    private static List<DeviceInfo> running(final List<Path> directories, final PrintStream err)
    {
        final List<DeviceInfo> running = new ArrayList<>();
        for (final Path file : DeviceInfoFile.list(directories))
        {
            try
            {
                final DeviceInfo info = DeviceInfoFile.read(file);
                if (CountersFile.isAlive(info.pid()))
                {
                    running.add(info);
                }
                else
                {
                    err.println("(" + file + " is left over from process " + info.pid() + ", which is gone)");
                }
            }
            catch (final UncheckedIOException ex)
            {
                if (!(ex.getCause() instanceof NoSuchFileException)) // else its node closed after the listing
                {
                    err.println(file + ": " + ex.getMessage());
                }
            }
            catch (final IllegalStateException ex)
            {
                err.println(file + ": " + ex.getMessage());
            }
        }
        return running;
    }

    /**
     * @param name    the device name
     * @param device  a live device
     * @param verbose {@code -v}: every attribute and the GID table
     * @return what ibv_devinfo prints for it
     */
    public static String format(final String name, final RxeDevice device, final boolean verbose)
    {
        return format(DeviceInfo.of(name, device), verbose);
    }

    /**
     * @param info    a device's attributes
     * @param verbose {@code -v}: every attribute and the GID table
     * @return what ibv_devinfo prints for it, ending with the blank line after the port
     */
    public static String format(final DeviceInfo info, final boolean verbose)
    {
        final StringBuilder out = new StringBuilder(verbose ? 4096 : 512);
        out.append("hca_id:\t").append(info.name()).append('\n');
        label(out, 1, "transport").append("InfiniBand (").append(DeviceInfo.TRANSPORT_IB).append(")\n");
        if (!info.fwVer().isEmpty())
        {
            label(out, 1, "fw_ver").append(info.fwVer()).append('\n');
        }
        label(out, 1, "node_guid").append(guid(info.device("node_guid"))).append('\n');
        label(out, 1, "sys_image_guid").append(guid(info.device("sys_image_guid"))).append('\n');
        label(out, 1, "vendor_id").append("0x").append(hex(info.device("vendor_id"), 4)).append('\n');
        decimals(out, 1, info, true, "vendor_part_id");
        label(out, 1, "hw_ver").append("0x").append(Long.toHexString(info.device("hw_ver")).toUpperCase())
            .append('\n');
        decimals(out, 1, info, true, "phys_port_cnt");
        if (verbose)
        {
            formatDeviceDetails(info, out);
        }
        formatPort(info, verbose, out);
        return out.toString();
    }

    private static void formatDeviceDetails(final DeviceInfo info, final StringBuilder out)
    {
        label(out, 1, "max_mr_size").append("0x").append(Long.toHexString(info.device("max_mr_size"))).append('\n');
        label(out, 1, "page_size_cap").append("0x").append(Long.toHexString(info.device("page_size_cap")))
            .append('\n');
        decimals(out, 1, info, true, "max_qp", "max_qp_wr");
        final long capFlags = info.device("device_cap_flags");
        label(out, 1, "device_cap_flags").append("0x").append(hex(capFlags, 8)).append('\n');
        flags(out, capFlags, CAP_BITS, CAP_NAMES);
        decimals(out, 1, info, true, "max_sge", "max_sge_rd", "max_cq", "max_cqe", "max_mr", "max_pd",
            "max_qp_rd_atom", "max_ee_rd_atom", "max_res_rd_atom", "max_qp_init_rd_atom", "max_ee_init_rd_atom");
        final long atomicCap = info.device("atomic_cap");
        label(out, 1, "atomic_cap").append(name(new String[]{"ATOMIC_NONE", "ATOMIC_HCA", "ATOMIC_GLOB"},
            atomicCap, "invalid atomic capability")).append(" (").append(atomicCap).append(")\n");
        decimals(out, 1, info, true, "max_ee", "max_rdd", "max_mw", "max_raw_ipv6_qp", "max_raw_ethy_qp",
            "max_mcast_grp", "max_mcast_qp_attach", "max_total_mcast_qp_attach", "max_ah", "max_fmr");
        if (0 != info.device("max_fmr"))
        {
            decimals(out, 1, info, true, "max_map_per_fmr");
        }
        decimals(out, 1, info, true, "max_srq");
        if (0 != info.device("max_srq"))
        {
            decimals(out, 1, info, true, "max_srq_wr", "max_srq_sge");
        }
        decimals(out, 1, info, true, "max_pkeys", "local_ca_ack_delay");
        formatUnsupportedExtensions(info, out);
        decimals(out, 1, info, true, "num_comp_vectors");
    }

    /** The ibv_device_attr_ex parts jrxe (like rxe) has none of: ODP, clocks, offloads, tag matching. */
    private static void formatUnsupportedExtensions(final DeviceInfo info, final StringBuilder out)
    {
        out.append("\tgeneral_odp_caps:\n");
        for (final String transport : new String[]{"rc", "uc", "ud", "xrc"})
        {
            out.append('\t').append(transport).append("_odp_caps:\n").append(FLAG_INDENT).append("NO SUPPORT\n");
        }
        out.append("\tcompletion_timestamp_mask not supported\n");
        out.append("\tcore clock not supported\n");
        final long capFlagsEx = info.device("device_cap_flags_ex");
        label(out, 1, "device_cap_flags_ex").append("0x").append(Long.toHexString(capFlagsEx).toUpperCase())
            .append('\n');
        flags(out, capFlagsEx & 0xffff_ffff_0000_0000L, CAP_EX_BITS, CAP_EX_NAMES);
        out.append("\ttso_caps:\n\t\tmax_tso:\t\t\t0\n");
        out.append("\trss_caps:\n")
            .append("\t\tmax_rwq_indirection_tables:\t\t\t0\n")
            .append("\t\tmax_rwq_indirection_table_size:\t\t\t0\n")
            .append("\t\trx_hash_function:\t\t\t\t0x0\n")
            .append("\t\trx_hash_fields_mask:\t\t\t\t0x0\n");
        out.append("\tmax_wq_type_rq:\t\t\t0\n");
        out.append("\tpacket_pacing_caps:\n\t\tqp_rate_limit_min:\t0kbps\n\t\tqp_rate_limit_max:\t0kbps\n");
        out.append("\ttag matching not supported\n");
    }

    private static void formatPort(final DeviceInfo info, final boolean verbose, final StringBuilder out)
    {
        out.append("\t\tport:\t").append(1).append('\n');
        named(out, "state", info.port("state"), name(PORT_STATES, info.port("state"), "invalid state"));
        named(out, "max_mtu", info.port("max_mtu"), name(MTUS, info.port("max_mtu"), "invalid MTU"));
        named(out, "active_mtu", info.port("active_mtu"), name(MTUS, info.port("active_mtu"), "invalid MTU"));
        decimals(out, 3, info, false, "sm_lid", "port_lid");
        label(out, 3, "port_lmc").append("0x").append(hex(info.port("port_lmc"), 2)).append('\n');
        final long linkLayer = info.port("link_layer");
        label(out, 3, "link_layer").append(name(LINK_LAYERS, linkLayer, "Unknown")).append('\n');
        if (verbose)
        {
            label(out, 3, "max_msg_sz").append("0x").append(Long.toHexString(info.port("max_msg_sz"))).append('\n');
            label(out, 3, "port_cap_flags").append("0x").append(hex(info.port("port_cap_flags"), 8)).append('\n');
            label(out, 3, "port_cap_flags2").append("0x").append(hex(info.port("port_cap_flags2"), 4)).append('\n');
            named(out, "max_vl_num", info.port("max_vl_num"), name(VLS, info.port("max_vl_num"), "invalid value"));
            label(out, 3, "bad_pkey_cntr").append("0x").append(Long.toHexString(info.port("bad_pkey_cntr")))
                .append('\n');
            label(out, 3, "qkey_viol_cntr").append("0x").append(Long.toHexString(info.port("qkey_viol_cntr")))
                .append('\n');
            decimals(out, 3, info, false, "sm_sl", "pkey_tbl_len", "gid_tbl_len", "subnet_timeout",
                "init_type_reply");
            named(out, "active_width", info.port("active_width"), width(info.port("active_width")) + "X");
            named(out, "active_speed", info.port("active_speed"), speed(info.port("active_speed")));
            named(out, "phys_state", info.port("phys_state"),
                name(PHYS_STATES, info.port("phys_state"), "invalid physical state"));
            formatGids(info, linkLayer, out);
        }
        out.append('\n');
    }

    private static void formatGids(final DeviceInfo info, final long linkLayer, final StringBuilder out)
    {
        for (int i = 0; i < info.gidCount(); i++)
        {
            if (0 == info.gidLo(i))
            {
                continue; // null_gid(): ibv_devinfo skips entries whose interface id is zero
            }
            final String index = Integer.toString(info.gidIndex(i));
            label(out, 3, "GID[" + "   ".substring(Math.min(3, index.length())) + index + "]")
                .append(gidText(info.gidHi(i), info.gidLo(i)));
            if (DeviceInfo.LINK_LAYER_ETHERNET == linkLayer)
            {
                out.append(", RoCE v2");
            }
            out.append('\n');
        }
    }

    /**
     * A RoCE v2 GID as glibc's {@code inet_ntop(AF_INET6)} writes it: RFC 5952 text, with the last 32 bits as a
     * dotted quad for {@code ::ffff:a.b.c.d} and {@code ::a.b.c.d}.
     *
     * @param hi bytes 0..7
     * @param lo bytes 8..15
     * @return the text
     */
    public static String gidText(final long hi, final long lo)
    {
        final int ipv4 = (int)lo;
        if (GidTable.isIpv4Mapped(hi, lo))
        {
            return "::ffff:" + Ipv4.format(ipv4);
        }
        if (0 == hi && 0 == (lo >>> 32) && 0 != (ipv4 >>> 16))
        {
            return "::" + Ipv4.format(ipv4); // IPv4-compatible: the zero run is exactly the first six groups
        }
        return Ipv6.format(hi, lo);
    }

    private static String guid(final long guid)
    {
        return hex(guid >>> 48, 4) + ':' + hex((guid >>> 32) & 0xffff, 4) + ':' + hex((guid >>> 16) & 0xffff, 4) +
            ':' + hex(guid & 0xffff, 4);
    }

    private static String hex(final long value, final int width)
    {
        final String hex = Long.toHexString(value);
        return hex.length() >= width ? hex : "00000000".substring(0, width - hex.length()) + hex;
    }

    /**
     * Appends the indent, {@code name:} and the tabs ibv_devinfo puts after it: values start at column 40 in the
     * device section (indent 1) and 48 in the port section (indent 3), with 8-column tabs and at least one tab.
     */
    private static StringBuilder label(final StringBuilder out, final int indent, final String name)
    {
        for (int i = 0; i < indent; i++)
        {
            out.append('\t');
        }
        out.append(name).append(':');
        final int valueColumn = 1 == indent ? 40 : 48;
        int column = 8 * indent + name.length() + 1;
        do
        {
            out.append('\t');
            column = (column / 8 + 1) * 8;
        }
        while (column < valueColumn);
        return out;
    }

    /** One {@code name: value} line per field, printf's {@code %d}. */
    private static void decimals(
        final StringBuilder out, final int indent, final DeviceInfo info, final boolean device, final String... fields)
    {
        for (final String field : fields)
        {
            label(out, indent, field).append(device ? info.device(field) : info.port(field)).append('\n');
        }
    }

    /** A port line as {@code "%s (%d)"}: the value's name, then its code. */
    private static void named(final StringBuilder out, final String field, final long code, final String text)
    {
        label(out, 3, field).append(text).append(" (").append(code).append(")\n");
    }

    private static void flags(final StringBuilder out, final long value, final long[] bits, final String[] names)
    {
        long known = 0;
        for (int i = 0; i < bits.length; i++)
        {
            known |= bits[i];
            if (0 != (value & bits[i]))
            {
                out.append(FLAG_INDENT).append(names[i]).append('\n');
            }
        }
        if (0 != (value & ~known))
        {
            out.append(FLAG_INDENT).append("Unknown flags: 0x").append(Long.toHexString(value & ~known).toUpperCase())
                .append('\n');
        }
    }

    private static String name(final String[] names, final long code, final String invalid)
    {
        return code >= 0 && code < names.length && null != names[(int)code] ? names[(int)code] : invalid;
    }

    private static String width(final long width)
    {
        switch ((int)width)
        {
            case 1: return "1";
            case 2: return "4";
            case 4: return "8";
            case 8: return "12";
            case 16: return "2";
            default: return "invalid width";
        }
    }

    private static String speed(final long speed)
    {
        switch ((int)speed)
        {
            case 1: return "2.5 Gbps";
            case 2: return "5.0 Gbps";
            case 4:
            case 8: return "10.0 Gbps";
            case 16: return "14.0 Gbps";
            case 32: return "25.0 Gbps";
            case 64: return "50.0 Gbps";
            case 128: return "100.0 Gbps";
            default: return "invalid speed";
        }
    }
}
