package io.jrxe.tools;

import io.jrxe.rxe.devinfo.DeviceInfoFile;
import io.jrxe.rxe.spi.DevicePorts;
import io.jrxe.rxe.verbs.PortState;
import io.jrxe.rxe.verbs.RxeContext;
import io.jrxe.rxe.verbs.RxeDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DevinfoCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldSayClearlyThatNoNodeRuns()
    {
        final CapturedRun run = CapturedRun.of("devinfo", "--dir", dir.toString());
        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("No jrxe devices found: no running jrxe node"), run.toString());
    }

    @Test
    void shouldPrintAPublishedDeviceAsIbvDevinfoDoes()
    {
        final RxeDevice device = new RxeDevice(new RxeContext());
        DevicePorts.claim(device).portState(PortState.ACTIVE); // what a node does when its link is up
        try (DeviceInfoFile file = new DeviceInfoFile(dir, "jrxe7", device))
        {
            file.publish();
            final CapturedRun brief = CapturedRun.of("devinfo", "--dir", dir.toString());
            assertEquals(0, brief.exitCode, brief.toString());
            assertTrue(brief.out.startsWith("hca_id:\tjrxe7\n\ttransport:\t\t\tInfiniBand (0)\n"), brief.toString());
            assertTrue(brief.out.contains("\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"), brief.toString());

            final CapturedRun verbose = CapturedRun.of("devinfo", "-v", "-d", "jrxe7", "--dir", dir.toString());
            assertEquals(0, verbose.exitCode, verbose.toString());
            assertTrue(verbose.out.contains("\tmax_qp_wr:\t\t\t1048576\n"), verbose.toString());
            assertTrue(verbose.out.contains("\t\t\tGID[  0]:\t\tfe80::"), verbose.toString());

            final CapturedRun other = CapturedRun.of("devinfo", "-d", "rxe0", "--dir", dir.toString());
            assertEquals(1, other.exitCode);
            assertTrue(other.err.contains("IB device 'rxe0' wasn't found"), other.toString());

            final CapturedRun list = CapturedRun.of("devinfo", "-l", "--dir", dir.toString());
            assertEquals("1 HCA found:\n\tjrxe7\n\n", list.out, list.toString());
        }
    }
}
