package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmEventFailure;
import io.jrxe.ulp.cmapps.RdmaServerClient;
import io.jrxe.ulp.cmapps.RdmaServerClientResult;
import io.jrxe.ulp.cmapps.RdmaServerClientSettings;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

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
final class RdmaServerCommand implements Callable<Integer>
{
    @Option(names = "-p", paramLabel = "port_number", description = "port (default: ${DEFAULT-VALUE})")
    int port = RdmaServerClient.DEFAULT_PORT;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "bound on each blocking step: the " +
        "request, the connection, each completion (default: ${DEFAULT-VALUE})")
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
        return CmAppRunner.onNode(nodeOptions, idle, cm -> run(cm, System.out, System.err, () -> { }));
    }

    /**
     * @param listening called once the server listens, after its JRXE-CM-LISTEN line
     * @return the exit status
     */
    int run(final RdmaCm cm, final PrintStream out, final PrintStream err, final Runnable listening)
    {
        return report(cm, settings(out).listening(() ->
        {
            CmAppRunner.printListening(out, "rdma_server", port);
            listening.run();
        }), out, err);
    }

    private RdmaServerClientSettings settings(final PrintStream out)
    {
        return settings(true, port, timeoutSeconds, out);
    }

    static RdmaServerClientSettings settings(final boolean server, final int port, final int timeoutSeconds,
        final PrintStream out)
    {
        if (timeoutSeconds < 1)
        {
            throw new IllegalArgumentException("--timeout must be at least 1 second, got " + timeoutSeconds);
        }
        return new RdmaServerClientSettings().server(server).port(port).timeout(timeoutSeconds, TimeUnit.SECONDS)
            .out(out);
    }

    /**
     * The C tools' {@code <tool>: start} / {@code <tool>: end N} around the run, and the line for scripts.
     *
     * @return the exit status
     */
    static int report(final RdmaCm cm, final RdmaServerClientSettings s, final PrintStream out,
        final PrintStream err)
    {
        final String tool = s.server() ? "rdma_server" : "rdma_client";
        out.println(tool + ": start");
        int status = -1;
        try
        {
            final RdmaServerClientResult r = new RdmaServerClient(cm, s).run();
            out.println(r.summary());
            status = r.ok() ? 0 : -1;
        }
        catch (final CmEventFailure e)
        {
            CmAppRunner.printEvent(out, e);
        }
        catch (final RuntimeException e)
        {
            err.println("jrxe " + tool + ": " + e.getMessage());
        }
        out.println(tool + ": end " + status);
        out.flush();
        return 0 == status ? 0 : 1;
    }
}
