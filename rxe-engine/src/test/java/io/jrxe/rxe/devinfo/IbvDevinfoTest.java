package io.jrxe.rxe.devinfo;

import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.DevicePorts;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.RxeContext;
import io.jrxe.rxe.verbs.RxeDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The expected text is written from rdma-core v44's libibverbs/examples/devinfo.c printf formats (tabs, bases,
 * widths, names) filled with rxe's attribute values (rxe_param.h, rxe_query_port), not from this code's output.
 */
class IbvDevinfoTest
{
    private static final long MAC = 0x52_54_00_12_34_56L;

    /** ibv_devinfo's device lines for an rxe device (with and without -v). */
    private static final String DEVICE =
        "hca_id:\tjrxe0\n" +
        "\ttransport:\t\t\tInfiniBand (0)\n" +
        "\tfw_ver:\t\t\t\t0.0.0\n" +
        "\tnode_guid:\t\t\t5054:00ff:fe12:3456\n" +
        "\tsys_image_guid:\t\t\t5054:00ff:fe12:3456\n" +
        "\tvendor_id:\t\t\t0xffffff\n" +
        "\tvendor_part_id:\t\t\t0\n" +
        "\thw_ver:\t\t\t\t0x0\n" +
        "\tphys_port_cnt:\t\t\t1\n";

    /** ibv_devinfo's port lines for a 1500-byte netdev whose port is up (with and without -v). */
    private static final String PORT =
        "\t\tport:\t1\n" +
        "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n" +
        "\t\t\tmax_mtu:\t\t4096 (5)\n" +
        "\t\t\tactive_mtu:\t\t1024 (3)\n" +
        "\t\t\tsm_lid:\t\t\t0\n" +
        "\t\t\tport_lid:\t\t0\n" +
        "\t\t\tport_lmc:\t\t0x00\n" +
        "\t\t\tlink_layer:\t\tEthernet\n";

    /** ibv_devinfo (no -v) for an rxe device on a 1500-byte netdev whose port is up. */
    private static final String BRIEF = DEVICE + PORT + "\n";

    /** ibv_devinfo -v for the same device: rxe's, with the XRC capability bit that jrxe adds. */
    private static final String VERBOSE = DEVICE +
        "\tmax_mr_size:\t\t\t0xffffffffffffffff\n" +
        "\tpage_size_cap:\t\t\t0xfffff000\n" +
        "\tmax_qp:\t\t\t\t1048560\n" +
        "\tmax_qp_wr:\t\t\t1048576\n" +
        "\tdevice_cap_flags:\t\t0x01323c76\n" +
        "\t\t\t\t\tBAD_PKEY_CNTR\n" +
        "\t\t\t\t\tBAD_QKEY_CNTR\n" +
        "\t\t\t\t\tAUTO_PATH_MIG\n" +
        "\t\t\t\t\tCHANGE_PHY_PORT\n" +
        "\t\t\t\t\tUD_AV_PORT_ENFORCE\n" +
        "\t\t\t\t\tPORT_ACTIVE_EVENT\n" +
        "\t\t\t\t\tSYS_IMAGE_GUID\n" +
        "\t\t\t\t\tRC_RNR_NAK_GEN\n" +
        "\t\t\t\t\tSRQ_RESIZE\n" +
        "\t\t\t\t\tMEM_WINDOW\n" +
        "\t\t\t\t\tXRC\n" +
        "\t\t\t\t\tMEM_MGT_EXTENSIONS\n" +
        "\t\t\t\t\tMEM_WINDOW_TYPE_2B\n" +
        "\tmax_sge:\t\t\t32\n" +
        "\tmax_sge_rd:\t\t\t32\n" +
        "\tmax_cq:\t\t\t\t1048576\n" +
        "\tmax_cqe:\t\t\t32767\n" +
        "\tmax_mr:\t\t\t\t524287\n" +
        "\tmax_pd:\t\t\t\t1048576\n" +
        "\tmax_qp_rd_atom:\t\t\t128\n" +
        "\tmax_ee_rd_atom:\t\t\t0\n" +
        "\tmax_res_rd_atom:\t\t258048\n" +
        "\tmax_qp_init_rd_atom:\t\t128\n" +
        "\tmax_ee_init_rd_atom:\t\t0\n" +
        "\tatomic_cap:\t\t\tATOMIC_HCA (1)\n" +
        "\tmax_ee:\t\t\t\t0\n" +
        "\tmax_rdd:\t\t\t0\n" +
        "\tmax_mw:\t\t\t\t524288\n" +
        "\tmax_raw_ipv6_qp:\t\t0\n" +
        "\tmax_raw_ethy_qp:\t\t0\n" +
        "\tmax_mcast_grp:\t\t\t0\n" +
        "\tmax_mcast_qp_attach:\t\t0\n" +
        "\tmax_total_mcast_qp_attach:\t0\n" +
        "\tmax_ah:\t\t\t\t32767\n" +
        "\tmax_fmr:\t\t\t0\n" +
        "\tmax_srq:\t\t\t1048576\n" +
        "\tmax_srq_wr:\t\t\t1048576\n" +
        "\tmax_srq_sge:\t\t\t27\n" +
        "\tmax_pkeys:\t\t\t64\n" +
        "\tlocal_ca_ack_delay:\t\t15\n" +
        "\tgeneral_odp_caps:\n" +
        "\trc_odp_caps:\n" +
        "\t\t\t\t\tNO SUPPORT\n" +
        "\tuc_odp_caps:\n" +
        "\t\t\t\t\tNO SUPPORT\n" +
        "\tud_odp_caps:\n" +
        "\t\t\t\t\tNO SUPPORT\n" +
        "\txrc_odp_caps:\n" +
        "\t\t\t\t\tNO SUPPORT\n" +
        "\tcompletion_timestamp_mask not supported\n" +
        "\tcore clock not supported\n" +
        "\tdevice_cap_flags_ex:\t\t0x1C001323C76\n" +
        "\t\t\t\t\tUnknown flags: 0x1C000000000\n" +
        "\ttso_caps:\n" +
        "\t\tmax_tso:\t\t\t0\n" +
        "\trss_caps:\n" +
        "\t\tmax_rwq_indirection_tables:\t\t\t0\n" +
        "\t\tmax_rwq_indirection_table_size:\t\t\t0\n" +
        "\t\trx_hash_function:\t\t\t\t0x0\n" +
        "\t\trx_hash_fields_mask:\t\t\t\t0x0\n" +
        "\tmax_wq_type_rq:\t\t\t0\n" +
        "\tpacket_pacing_caps:\n" +
        "\t\tqp_rate_limit_min:\t0kbps\n" +
        "\t\tqp_rate_limit_max:\t0kbps\n" +
        "\ttag matching not supported\n" +
        "\tnum_comp_vectors:\t\t1\n" +
        PORT +
        "\t\t\tmax_msg_sz:\t\t0x80000000\n" +
        "\t\t\tport_cap_flags:\t\t0x00010000\n" +
        "\t\t\tport_cap_flags2:\t0x0000\n" +
        "\t\t\tmax_vl_num:\t\t1 (1)\n" +
        "\t\t\tbad_pkey_cntr:\t\t0x0\n" +
        "\t\t\tqkey_viol_cntr:\t\t0x0\n" +
        "\t\t\tsm_sl:\t\t\t0\n" +
        "\t\t\tpkey_tbl_len:\t\t1\n" +
        "\t\t\tgid_tbl_len:\t\t1024\n" +
        "\t\t\tsubnet_timeout:\t\t0\n" +
        "\t\t\tinit_type_reply:\t0\n" +
        "\t\t\tactive_width:\t\t1X (1)\n" +
        "\t\t\tactive_speed:\t\t2.5 Gbps (1)\n" +
        "\t\t\tphys_state:\t\tLINK_UP (5)\n" +
        "\t\t\tGID[  0]:\t\tfe80::5054:ff:fe12:3456, RoCE v2\n" +
        "\t\t\tGID[  1]:\t\t::ffff:10.9.0.1, RoCE v2\n" +
        "\t\t\tGID[  2]:\t\t2001:db8::1, RoCE v2\n" +
        "\t\t\tGID[ 17]:\t\tfd00:0:1:2::a, RoCE v2\n" +
        "\n";

    @TempDir
    Path dir;

    private DevicePort port;

    private RxeDevice device()
    {
        final RxeDevice device = new RxeDevice(new RxeContext().macAddress(MAC));
        port = DevicePorts.claim(device);
        port.setGid(1, 0, GidTable.ipv4MappedLo(0x0a09_0001));
        port.setGid(2, 0x2001_0db8_0000_0000L, 1L);
        port.setGid(17, 0xfd00_0000_0001_0002L, 0xaL);
        port.portState(PortState.ACTIVE);
        return device;
    }

    @Test
    void shouldPrintWhatIbvDevinfoPrintsForRxe()
    {
        assertEquals(BRIEF, IbvDevinfo.format("jrxe0", device(), false));
    }

    @Test
    void shouldPrintWhatIbvDevinfoVerbosePrintsForRxe()
    {
        assertEquals(VERBOSE, IbvDevinfo.format("jrxe0", device(), true));
    }

    @Test
    void shouldShowAPortWithoutCarrierAsDownAndPolling()
    {
        final RxeDevice device = device();
        port.portState(PortState.DOWN);
        final String text = IbvDevinfo.format("jrxe0", device, true);
        assertTrue(text.contains("\t\t\tstate:\t\t\tPORT_DOWN (1)\n"), text);
        assertTrue(text.contains("\t\t\tphys_state:\t\tPOLLING (2)\n"), text);
    }

    @Test
    void shouldWriteGidsAsInetNtopDoes()
    {
        assertEquals("::ffff:192.168.10.2", IbvDevinfo.gidText(0, 0x0000_ffff_c0a8_0a02L));
        assertEquals("fe80::1", IbvDevinfo.gidText(0xfe80_0000_0000_0000L, 1));
        assertEquals("::1", IbvDevinfo.gidText(0, 1), "a zero run of seven groups: no dotted quad");
        assertEquals("::10.0.0.1", IbvDevinfo.gidText(0, 0x0a00_0001L), "IPv4-compatible");
        assertEquals("2001:db8:0:1::", IbvDevinfo.gidText(0x2001_0db8_0000_0001L, 0));
        assertEquals("1:0:0:1::1", IbvDevinfo.gidText(0x0001_0000_0000_0001L, 1), "the first of two longest runs");
    }

    @Test
    void shouldReadBackWhatANodePublishes()
    {
        final DeviceInfoFile file = new DeviceInfoFile(dir, "jrxe0", device());
        file.publish();
        assertTrue(Files.exists(file.path()));
        final DeviceInfo read = DeviceInfoFile.read(file.path());
        assertEquals(VERBOSE, IbvDevinfo.format(read, true));
        assertEquals(ProcessHandle.current().pid(), read.pid());
        assertEquals(List.of(file.path()), DeviceInfoFile.list(List.of(dir, dir.resolve("missing"))));
        file.close();
        assertFalse(Files.exists(file.path()), "a closed node has no device");
    }

    @Test
    void shouldRefuseAFileItCannotRead() throws Exception
    {
        final Path bad = dir.resolve("x" + DeviceInfoFile.SUFFIX);
        Files.writeString(bad, "version 99\nname x\n");
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> DeviceInfoFile.read(bad));
        assertTrue(ex.getMessage().contains("version 99"), ex.getMessage());
    }

    @Test
    void shouldPrintRunningDevicesAndSayWhenThereAreNone() throws Exception
    {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

        assertEquals(1, IbvDevinfo.print(List.of(dir), null, false, out, err));
        assertTrue(errBytes.toString(StandardCharsets.UTF_8).startsWith("No jrxe devices found"));

        new DeviceInfoFile(dir, "jrxe0", device()).publish();
        final Path stale = dir.resolve("gone" + DeviceInfoFile.SUFFIX);
        Files.writeString(stale, Files.readString(dir.resolve("jrxe0" + DeviceInfoFile.SUFFIX))
            .replace("pid " + ProcessHandle.current().pid(), "pid " + Integer.MAX_VALUE)
            .replace("name jrxe0", "name gone"));
        errBytes.reset();
        assertEquals(0, IbvDevinfo.print(List.of(dir), null, false, out, err));
        assertEquals(BRIEF, outBytes.toString(StandardCharsets.UTF_8), "only the device of a live process");
        assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("left over from process"));

        assertEquals(1, IbvDevinfo.print(List.of(dir), "rxe9", false, out, err));
        assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("IB device 'rxe9' wasn't found"));

        outBytes.reset();
        assertEquals(0, IbvDevinfo.list(List.of(dir), out, err));
        assertEquals("1 HCA found:\n\tjrxe0\n\n", outBytes.toString(StandardCharsets.UTF_8));
    }
}
