package io.jrxe.tools;

import io.jrxe.ulp.oob.PerftestTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad command lines of {@code pingpong} and {@code perf} peer mode fail before any device is touched, saying why. */
class PeerCommandArgsTest
{
    @Test
    void perfPeerNeedsExactlyOneOfServerAndHost()
    {
        final IllegalArgumentException neither = assertThrows(IllegalArgumentException.class,
            () -> settings(null, false, "write"));
        assertTrue(neither.getMessage().contains("neither"), neither.getMessage());
        final IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
            () -> settings("peer", true, "write"));
        assertTrue(both.getMessage().contains("both"), both.getMessage());
        assertEquals(PerftestTest.READ_BW, settings("peer", false, "READ").test);
        assertEquals(PerftestTest.SEND_BW, settings(null, true, "send").test);
    }

    @Test
    void perfPeerModeRefusesOperationsPerftestHasNoBandwidthPeerFor()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> settings("peer", false, "atomic"));
        assertTrue(ex.getMessage().contains("--op send, write or read"), ex.getMessage());
    }

    @Test
    void perfPeerModeRefusesAnAckTimeoutOutsideTheFiveBitCode()
    {
        final PerftestPeerSettings s = PerftestPeerSettings.of("peer", false, "write");
        s.ackTimeout = 32;
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, s::check);
        assertTrue(ex.getMessage().contains("perftest -u"), ex.getMessage());
        s.ackTimeout = 18;
        assertEquals(18, s.check().ackTimeout);
    }

    @Test
    void perfRdmaCmNeedsPeerMode()
    {
        final CapturedRun run = CapturedRun.of("perf", "--op", "write", "-R");
        assertEquals(1, run.exitCode, run::toString);
        assertTrue(run.err.contains("--rdma-cm needs peer mode"), run::toString);
    }

    @Test
    void pingpongRefusesAnMtuTheToolWouldRefuse()
    {
        final PingpongCommand cmd = new PingpongCommand();
        cmd.mtu = 1500;
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, cmd::checkOptions);
        assertTrue(ex.getMessage().contains("--mtu must be one of"), ex.getMessage());
    }

    @Test
    void pingpongRefusesOptionsXsrqDoesNotHave()
    {
        final PingpongCommand validating = new PingpongCommand();
        validating.xsrq = true;
        validating.validate = true;
        assertTrue(assertThrows(IllegalArgumentException.class, validating::checkOptions).getMessage()
            .contains("--validate is ibv_rc_pingpong's -c"));
        final PingpongCommand clients = new PingpongCommand();
        clients.clients = 3;
        assertTrue(assertThrows(IllegalArgumentException.class, clients::checkOptions).getMessage()
            .contains("--clients is for an --xsrq server"), "without --xsrq");
        clients.xsrq = true;
        clients.host = "server";
        assertTrue(assertThrows(IllegalArgumentException.class, clients::checkOptions).getMessage()
            .contains("on a client"));
        clients.host = null;
        clients.checkOptions(); // an --xsrq server of three clients is fine
    }

    @Test
    void commandsWithoutAVfioNicSayWhatIsMissing()
    {
        final CapturedRun pingpong = CapturedRun.of("pingpong", "-n", "5");
        assertEquals(1, pingpong.exitCode, pingpong::toString);
        assertTrue(pingpong.err.contains("jrxe pingpong: a VFIO NIC needs --pci"), pingpong::toString);
        final CapturedRun perf = CapturedRun.of("perf", "--server", "--ip", "10.9.0.2/24");
        assertEquals(1, perf.exitCode, perf::toString);
        assertTrue(perf.err.contains("jrxe perf: a VFIO NIC needs --pci"), perf::toString);
    }

    private static PerftestPeerSettings settings(final String host, final boolean server, final String op)
    {
        return PerftestPeerSettings.of(host, server, op).check();
    }
}
