package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmEventFailure;
import io.jrxe.ulp.cmapps.Rping;
import io.jrxe.ulp.cmapps.RpingResult;
import io.jrxe.ulp.cmapps.RpingSettings;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrxe rping}: rdma-core's {@code rping} on a VFIO-bound NIC through jrxe's rdma_cm, wire-compatible with
 * the C tool in both roles ({@link Rping}), with its options: {@code -s} or {@code -c}, {@code -a}, {@code -p},
 * {@code -C}, {@code -S}, {@code -v}, {@code -V} (so no {@code -V} for the version here: {@code jrxe --version}).
 * <pre>
 *   peer$ rping -s -a 10.9.0.1 -v                                            (server)
 *   jrxe$ jrxe rping --pci 0000:00:03.0 --ip 10.9.0.2/24 -c -a 10.9.0.1 -C 10 -V -v
 * </pre>
 * Prints rping's lines ({@code ping data: ...}, {@code server ping data: ...}, and on stderr
 * {@code client DISCONNECT EVENT...}, {@code cma event ..., error N}, {@code data mismatch!}), a server's
 * {@code JRXE-CM-LISTEN tool=rping ps=tcp port=7174} once it listens, and one line for scripts:
 * <pre>
 *   JRXE-RPING role=client count=10 size=64 validate=ok seconds=0.01
 * </pre>
 * An error event prints {@code JRXE-CM-EVENT REJECTED status=8} (nobody listens on the port) instead. Exit status 0
 * on success, 1 on an error event, a timeout or a failed {@code -V}.
 */
@Command(name = "rping", sortOptions = false,
    description = "rping (librdmacm) over jrxe's VFIO NIC: RDMA CM connection and RDMA READ/WRITE ping-pong " +
        "(-s server, -c client).")
final class RpingCommand implements Callable<Integer>
{
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Role role = new Role();

    @Option(names = "-a", paramLabel = "addr", description = "server: the address to bind (default: any); " +
        "client: the server's address")
    String address;

    @Option(names = "-p", paramLabel = "port", description = "port (default: ${DEFAULT-VALUE})")
    int port = Rping.DEFAULT_PORT;

    @Option(names = "-C", paramLabel = "count", description = "ping count times; 0 pings until Ctrl-C " +
        "(default: ${DEFAULT-VALUE}); the server serves until the client leaves, as rping's")
    int count;

    @Option(names = "-S", paramLabel = "size", description = "ping data size, " + Rping.MIN_SIZE + ".." +
        Rping.MAX_SIZE + " (default: ${DEFAULT-VALUE})")
    int size = Rping.DEFAULT_SIZE;

    @Option(names = "-v", description = "display ping data to stdout")
    boolean verbose;

    @Option(names = "-V", description = "validate ping data (the client compares what came back)")
    boolean validate;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "bound on each wait: a connection " +
        "request, an event, a completion (default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 60;

    @Mixin
    CmAppRunner node = new CmAppRunner();

    private volatile boolean stopped;

    /** rping's -s / -c: exactly one. */
    static final class Role
    {
        @Option(names = "-s", required = true, description = "server side")
        boolean server;

        @Option(names = "-c", required = true, description = "client side")
        boolean client;
    }

    @Override
    public Integer call()
    {
        settings(System.out, System.err); // option errors before the NIC is opened
        if (!role.server)
        {
            StopSignals.install(() -> stopped = true); // -C 0: Ctrl-C ends the pings, the client disconnects
        }
        return node.run(cm -> run(cm, System.out, System.err, () -> { }));
    }

    /**
     * The whole tool on an open connection manager, separate from {@link #call()} so tests can run it on emulated
     * NICs.
     *
     * @param listening called once a server listens, after its JRXE-CM-LISTEN line
     * @return the exit status
     */
    int run(final RdmaCm cm, final PrintStream out, final PrintStream err, final Runnable listening)
    {
        final RpingSettings s =
            settings(out, err).listening(CmAppRunner.announce(out, "rping", PortSpace.TCP, port, listening));
        try
        {
            final RpingResult r = new Rping(cm, s).run();
            out.println(r.summary());
            out.flush();
            return r.ok() ? 0 : 1;
        }
        catch (final CmEventFailure e)
        {
            CmAppRunner.printEvent(out, e);
            return 1;
        }
        catch (final RdmaCmException e)
        {
            err.println("jrxe rping: " + e.getMessage());
            return 1;
        }
    }

    RpingSettings settings(final PrintStream out, final PrintStream err)
    {
        CmAppRunner.checkTimeout(timeoutSeconds);
        return new RpingSettings().server(role.server).address(CmAppRunner.address(address, "-a")).port(port)
            .count(count).size(size).verbose(verbose).validate(validate).timeout(timeoutSeconds, TimeUnit.SECONDS)
            .out(out).err(err).stop(() -> stopped).check();
    }
}
