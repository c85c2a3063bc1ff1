package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmEventFailure;
import io.jrxe.ulp.cmapps.RdmaServerClient;
import io.jrxe.ulp.cmapps.RdmaServerClientResult;
import io.jrxe.ulp.cmapps.RdmaServerClientSettings;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * What {@code jrxe rdma-server} and {@code jrxe rdma-client} share, as the C tools share {@link RdmaServerClient}:
 * {@code -p}, the node, and the run: the C tools' {@code <tool>: start} and {@code <tool>: end N} around it, the line
 * for scripts between, a server's {@code JRXE-CM-LISTEN} once it listens.
 */
abstract class RdmaServerClientCommand implements Callable<Integer>
{
    @Option(names = "-p", paramLabel = "port_number", description = "port (default: ${DEFAULT-VALUE})")
    int port = RdmaServerClient.DEFAULT_PORT;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "bound on each blocking step: the request " +
        "(server) or resolution (client), the connection, each completion (default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 60;

    @Mixin
    CmAppRunner node = new CmAppRunner();

    private final boolean server;
    private final String tool;

    /**
     * @param server true for rdma_server, false for rdma_client
     */
    RdmaServerClientCommand(final boolean server)
    {
        this.server = server;
        this.tool = server ? "rdma_server" : "rdma_client";
    }

    @Override
    public Integer call()
    {
        settings(System.out); // option errors before the NIC is opened
        return node.run(cm -> run(cm, System.out, System.err, () -> { }));
    }

    /**
     * The tool on an open connection manager, separate from {@link #call()} so tests can run it on emulated NICs.
     *
     * @param listening called once a server listens, after its JRXE-CM-LISTEN line (never on a client)
     * @return the exit status
     */
    final int run(final RdmaCm cm, final PrintStream out, final PrintStream err, final Runnable listening)
    {
        return report(cm, settings(out).listening(CmAppRunner.announce(out, tool, PortSpace.TCP, port, listening)),
            out, err);
    }

    /**
     * @param out where the tool's notes go
     * @return the settings for these options
     * @throws IllegalArgumentException for a timeout under 1 second
     */
    RdmaServerClientSettings settings(final PrintStream out)
    {
        CmAppRunner.checkTimeout(timeoutSeconds);
        return new RdmaServerClientSettings().server(server).port(port).timeout(timeoutSeconds, TimeUnit.SECONDS)
            .out(out);
    }

    /** The C tools' {@code <tool>: start} / {@code <tool>: end N} around the run, and the line for scripts. */
    private int report(final RdmaCm cm, final RdmaServerClientSettings s, final PrintStream out,
        final PrintStream err)
    {
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
