package io.jrxe.tools;

import io.jrxe.ulp.cmapps.RdmaServerClient;
import picocli.CommandLine.Command;

/**
 * {@code jrxe rdma-server}: rdma-core's {@code rdma_server} on a VFIO-bound NIC through jrxe's rdma_cm
 * ({@link RdmaServerClient}): one connection on port 7471, the client's 16-byte message sent back. Prints the C
 * tool's {@code rdma_server: start} and {@code rdma_server: end N}, once it listens
 * {@code JRXE-CM-LISTEN tool=rdma_server ps=tcp port=7471}, and for scripts:
 * <pre>
 *   JRXE-RDMA-SERVER status=ok bytes=16
 * </pre>
 * An error event prints {@code JRXE-CM-EVENT <TYPE> status=<n>}. Exit status 0 on success, 1 otherwise.
 */
@Command(name = "rdma-server", mixinStandardHelpOptions = true, sortOptions = false,
    description = "rdma_server (librdmacm) over jrxe's VFIO NIC: synchronous rdma_cm, a 16-byte echo.")
final class RdmaServerCommand extends RdmaServerClientCommand
{
    RdmaServerCommand()
    {
        super(true);
    }
}
