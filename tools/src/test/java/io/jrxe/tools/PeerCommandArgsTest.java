package io.jrxe.tools;

import io.jrxe.ulp.oob.PerftestTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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
        final PerftestPeer.Settings s = PerftestPeer.Settings.of("peer", false, "write");
        s.ackTimeout = 32;
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, s::check);
        assertTrue(ex.getMessage().contains("perftest -u"), ex.getMessage());
        s.ackTimeout = 18;
        assertEquals(18, s.check().ackTimeout);
    }

    @Test
    void perfRdmaCmNeedsPeerMode()
    {
        final PrintStream originalErr = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try
        {
            assertEquals(1, Jrxe.execute("perf", "--op", "write", "-R"));
        }
        finally
        {
            System.setErr(originalErr);
        }
        final String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("--rdma-cm needs peer mode"), text);
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
    void commandsWithoutAVfioNicSayWhatIsMissing()
    {
        final PrintStream originalErr = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try
        {
            assertEquals(1, Jrxe.execute("pingpong", "-n", "5"));
            assertEquals(1, Jrxe.execute("perf", "--server", "--ip", "10.9.0.2/24"));
        }
        finally
        {
            System.setErr(originalErr);
        }
        final String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("jrxe pingpong: a VFIO NIC needs --pci"), text);
        assertTrue(text.contains("jrxe perf: a VFIO NIC needs --pci"), text);
    }

    private static PerftestPeer.Settings settings(final String host, final boolean server, final String op)
    {
        return PerftestPeer.Settings.of(host, server, op).check();
    }
}
