package io.jrxe.tools;

import io.jrxe.rxe.node.PciNode;
import io.jrxe.ulp.cmapps.CmEventFailure;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.function.ToIntFunction;

/**
 * The node every rdma_cm tool command runs on ({@code jrxe ucmatose}, {@code udaddy}, {@code rping},
 * {@code rdma-server}, {@code rdma-client}), mixed into each: the VFIO NIC and its addresses and what the engine
 * thread does when idle. {@link #run} opens the NIC, starts its engine thread, opens its connection manager, runs
 * the tool and closes them in reverse order. The static helpers are what the commands print and check the same way:
 * the line a listening server prints, the line for an error event, addresses and {@code --timeout}.
 */
final class CmAppRunner
{
    /** How long the node keeps running after the tool, so the last CM message (a DREP) leaves before it closes. */
    private static final long LINGER_MS = 200;

    @Mixin
    NodeOptions nodeOptions = new NodeOptions();

    @Option(names = "--idle", description = "what the engine thread does when idle: spin, yield, backoff, or park " +
        "(default: ${DEFAULT-VALUE}: woken by doorbells and the NIC's interrupt)")
    PerfThreads.Idle idle = PerfThreads.Idle.park;

    /**
     * @param tool the tool, on the node's connection manager
     * @return the tool's exit status
     */
    int run(final ToIntFunction<RdmaCm> tool)
    {
        try (PciNode pci = new PciNode(nodeOptions.toContext(idle.create())))
        {
            pci.node().start();
            try (RdmaCm cm = RdmaCm.open(pci.node()))
            {
                final int status = tool.applyAsInt(cm);
                linger();
                return status;
            }
        }
    }

    /** The line scripts look for when an error event ended the run (a port nobody listens on: REJECTED 8). */
    static void printEvent(final PrintStream out, final CmEventFailure e)
    {
        out.println("JRXE-CM-EVENT " + e.type().name() + " status=" + e.status());
        out.flush();
    }

    /**
     * What a server does once its id listens: print {@code JRXE-CM-LISTEN tool=<tool> ps=<space> port=<port>} (the
     * CI scripts wait for it before starting the peer), then run {@code next}.
     */
    static Runnable announce(final PrintStream out, final String tool, final PortSpace space, final int port,
        final Runnable next)
    {
        return () ->
        {
            out.println("JRXE-CM-LISTEN tool=" + tool + " ps=" + space.name().toLowerCase(Locale.ROOT) +
                " port=" + port);
            out.flush();
            next.run();
        };
    }

    /**
     * @param text a host name or address, or null
     * @param option the option it came from, for the message
     * @return the address, or null for none
     * @throws IllegalArgumentException if it does not resolve
     */
    static InetAddress address(final String text, final String option)
    {
        if (null == text)
        {
            return null;
        }
        try
        {
            return InetAddress.getByName(text);
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalArgumentException(option + " " + text + ": unknown host");
        }
    }

    /** @throws IllegalArgumentException unless {@code --timeout} is at least 1 second */
    static void checkTimeout(final int seconds)
    {
        if (seconds < 1)
        {
            throw new IllegalArgumentException("--timeout must be at least 1 second, got " + seconds);
        }
    }

    /** Not synchronisation: a grace period for the engine thread to transmit what the CM queued last. */
    private static void linger()
    {
        try
        {
            Thread.sleep(LINGER_MS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
