package io.jrxe.tools;

import io.jrxe.ulp.cmapps.RdmaServerClient;
import io.jrxe.ulp.cmapps.RdmaServerClientSettings;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * {@code jrxe rdma-client}: rdma-core's {@code rdma_client} on a VFIO-bound NIC through jrxe's rdma_cm
 * ({@link RdmaServerClient}): connect to {@code -s server_address} port 7471, send 16 bytes, receive 16. Unlike the
 * C tool, {@code -s} is required: its default, 127.0.0.1, is not a RoCE peer of a jrxe node. Prints
 * {@code rdma_client: start}, {@code rdma_client: end N} and for scripts:
 * <pre>
 *   JRXE-RDMA-CLIENT status=ok bytes=16
 * </pre>
 * An error event prints {@code JRXE-CM-EVENT <TYPE> status=<n>} (REJECTED 8: nobody listens). Exit status 0 on
 * success, 1 otherwise.
 */
@Command(name = "rdma-client", mixinStandardHelpOptions = true, sortOptions = false,
    description = "rdma_client (librdmacm) over jrxe's VFIO NIC: synchronous rdma_cm, a 16-byte echo.")
final class RdmaClientCommand implements Callable<Integer>
{
    @Option(names = "-s", paramLabel = "server_address", required = true, description = "the server's address")
    String server;

    @Option(names = "-p", paramLabel = "port_number", description = "port (default: ${DEFAULT-VALUE})")
    int port = RdmaServerClient.DEFAULT_PORT;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "bound on each blocking step: resolution, " +
        "the connection, each completion (default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 60;

    @Option(names = "--idle", description = "what the engine thread does when idle: spin, yield or backoff " +
        "(default: ${DEFAULT-VALUE})")
    PerfThreads.Idle idle = PerfThreads.Idle.backoff;

    @Mixin
    NodeOptions nodeOptions = new NodeOptions();

    @Override
    public Integer call()
    {
        settings(System.out); // option errors before the NIC is opened
        return CmAppRunner.onNode(nodeOptions, idle, cm -> run(cm, System.out, System.err));
    }

    /** @return the exit status */
    int run(final RdmaCm cm, final PrintStream out, final PrintStream err)
    {
        return RdmaServerCommand.report(cm, settings(out), out, err);
    }

    private RdmaServerClientSettings settings(final PrintStream out)
    {
        return RdmaServerCommand.settings(false, port, timeoutSeconds, out).serverName(server).check();
    }
}
