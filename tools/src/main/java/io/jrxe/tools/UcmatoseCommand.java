package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmTestSettings;
import io.jrxe.ulp.cmapps.Cmatose;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code jrxe ucmatose}: rdma-core's {@code ucmatose} (cmatose.c) on a VFIO-bound NIC through jrxe's rdma_cm,
 * wire-compatible with the C tool in both roles ({@link Cmatose}). Without {@code -s} it is the server.
 * <pre>
 *   peer$ ucmatose -c 10                                       (server)
 *   jrxe$ jrxe ucmatose --pci 0000:00:03.0 --ip 10.9.0.2/24 -s 10.9.0.1 -c 10
 * </pre>
 * A server prints {@code JRXE-CM-LISTEN tool=ucmatose ps=tcp port=7471} once it listens. Both sides print the C
 * tool's progress lines and one line for scripts:
 * <pre>
 *   JRXE-UCMATOSE role=client connections=10 messages=10 size=100 status=ok connect_seconds=0.042 conn_per_sec=238.1
 *   seconds=0.310                                                                                    (one line)
 * </pre>
 * An error event (rejected, unreachable, address error) prints {@code JRXE-CM-EVENT REJECTED status=8} instead.
 * Exit status 0 on success, 1 otherwise.
 */
@Command(name = "ucmatose", mixinStandardHelpOptions = true, sortOptions = false,
    description = "ucmatose (librdmacm cmatose) over jrxe's VFIO NIC: RC connections through rdma_cm " +
        "(server without -s, client with -s).")
final class UcmatoseCommand extends CmTestCommand
{
    @Option(names = "-p", paramLabel = "port_number", description = "port (default: ${DEFAULT-VALUE})")
    int port = Cmatose.DEFAULT_PORT;

    @Option(names = "-P", paramLabel = "port_space", description = "tcp or ib (default: ${DEFAULT-VALUE})")
    String portSpace = "tcp";

    @Option(names = "--rounds", description = "server: run the test this many times in a row, listening again " +
        "each time (one JVM for a series of client runs, e.g. a baseline; default: ${DEFAULT-VALUE})")
    int rounds = 1;

    UcmatoseCommand()
    {
        super("ucmatose");
    }

    @Override
    int test(final RdmaCm cm, final CmTestSettings s, final PrintStream out)
    {
        if (rounds < 1 || (rounds > 1 && s.isClient()))
        {
            throw new IllegalArgumentException("--rounds is for the server, at least 1, got " + rounds);
        }
        int status = 0;
        for (int round = 0; round < rounds; round++)
        {
            status = Math.max(status, CmToolOptions.report(out, "JRXE-UCMATOSE", () -> new Cmatose(cm, s).run(),
                r -> " connect_seconds=" + CmToolOptions.seconds(r.connectSeconds()) + " conn_per_sec=" +
                    String.format(Locale.ROOT, "%.1f", r.connectionsPerSecond()) + " seconds=" +
                    CmToolOptions.seconds(r.seconds())));
        }
        return status;
    }

    @Override
    CmTestSettings settings(final PrintStream out)
    {
        return options.apply(Cmatose.settings(), out).port(port).portSpace(portSpace(portSpace)).check("cmatose");
    }

    /** cmatose's -P: "ib" (any case, as strncasecmp) is the IB space, "tcp" the TCP one. */
    static PortSpace portSpace(final String text)
    {
        final String t = text.toLowerCase(Locale.ROOT);
        if (t.startsWith("ib"))
        {
            return PortSpace.IB;
        }
        if (t.startsWith("tcp"))
        {
            return PortSpace.TCP;
        }
        throw new IllegalArgumentException("-P wants tcp or ib, got " + text);
    }
}
