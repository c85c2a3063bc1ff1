package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmTestSettings;
import io.jrxe.ulp.cmapps.Udaddy;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code jrxe udaddy}: rdma-core's {@code udaddy} on a VFIO-bound NIC through jrxe's rdma_cm, wire-compatible with
 * the C tool in both roles ({@link Udaddy}): UD QPs resolved with SIDR on the UDP port space, port 7174. Without
 * {@code -s} it is the server. As in udaddy, {@code -p} is the port space's number (0x111, UDP) and {@code -P} its
 * name; the C tool has no option for the port, jrxe's is {@code --port}.
 * <pre>
 *   peer$ udaddy -c 2                                          (server)
 *   jrxe$ jrxe udaddy --pci 0000:00:03.0 --ip 10.9.0.2/24 -s 10.9.0.1 -c 2
 * </pre>
 * A server prints {@code JRXE-CM-LISTEN tool=udaddy ps=udp port=7174} once it listens. Both sides print the C
 * tool's progress lines and {@code JRXE-UDADDY role=client connections=2 messages=10 size=100
 * status=ok}; an error event (SIDR refused or unanswered ...) prints {@code JRXE-CM-EVENT UNREACHABLE status=1}
 * instead. Exit status 0 on success, 1 otherwise.
 */
@Command(name = "udaddy", mixinStandardHelpOptions = true, sortOptions = false,
    description = "udaddy (librdmacm) over jrxe's VFIO NIC: UD QPs resolved with SIDR through rdma_cm " +
        "(server without -s, client with -s).")
final class UdaddyCommand extends CmTestCommand
{
    @Option(names = "-p", paramLabel = "port_space", description = "port space number, udaddy's backwards-" +
        "compatible option: 0x111 (UDP) is the one jrxe has")
    String portSpaceNumber;

    @Option(names = "-P", paramLabel = "port_space", description = "udp (default: ${DEFAULT-VALUE}); ipoib has no " +
        "meaning on RoCE")
    String portSpace = "udp";

    @Option(names = "--port", description = "port (default: ${DEFAULT-VALUE}, fixed in the C tool)")
    int port = Udaddy.DEFAULT_PORT;

    UdaddyCommand()
    {
        super("udaddy");
    }

    @Override
    int test(final RdmaCm cm, final CmTestSettings s, final PrintStream out)
    {
        return CmToolOptions.report(out, "JRXE-UDADDY", () -> new Udaddy(cm, s).run(), r -> "");
    }

    @Override
    CmTestSettings settings(final PrintStream out)
    {
        checkPortSpace();
        return options.apply(Udaddy.settings(), out).port(port).check("udaddy");
    }

    private void checkPortSpace()
    {
        if (!portSpace.toLowerCase(Locale.ROOT).startsWith("udp"))
        {
            throw new IllegalArgumentException("-P: jrxe's udaddy runs on the UDP port space only (ipoib needs an " +
                "IPoIB device), got " + portSpace);
        }
        if (null != portSpaceNumber && PortSpace.UDP.value() != CmToolOptions.number(portSpaceNumber, "-p"))
        {
            throw new IllegalArgumentException("-p: jrxe's udaddy runs on the UDP port space only (0x111), got " +
                portSpaceNumber);
        }
    }
}
