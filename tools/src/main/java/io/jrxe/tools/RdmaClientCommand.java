package io.jrxe.tools;

import io.jrxe.ulp.cmapps.RdmaServerClient;
import io.jrxe.ulp.cmapps.RdmaServerClientSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;

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
final class RdmaClientCommand extends RdmaServerClientCommand
{
    @Option(names = "-s", paramLabel = "server_address", required = true, description = "the server's address")
    String server;

    RdmaClientCommand()
    {
        super(false);
    }

    /** rdma_client's {@code -s}, and the settings checked at once: the server's are checked as its run starts. */
    @Override
    RdmaServerClientSettings settings(final PrintStream out)
    {
        return super.settings(out).serverName(server).check();
    }
}
