package io.jrxe.tools;

import io.jrxe.rxe.node.PciNode;
import io.jrxe.ulp.cmapps.CmEventFailure;
import io.jrxe.ulp.rdmacm.RdmaCm;

import java.io.PrintStream;
import java.util.function.ToIntFunction;

/**
 * What {@code jrxe rping}, {@code jrxe rdma-server} and {@code jrxe rdma-client} do with a node: open the VFIO NIC,
 * start its engine thread, open its connection manager, run the tool, and close them in reverse order; and how they
 * report the two kinds of failure the library throws with a message worth printing alone.
 */
final class CmAppRunner
{
    /** How long the node keeps running after the tool, so the last CM message (a DREP) leaves before it closes. */
    private static final long LINGER_MS = 200;

    private CmAppRunner()
    {
    }

    /**
     * @param nodeOptions the NIC and its addresses
     * @param idle what the engine thread does when idle
     * @param tool the tool, on the node's connection manager
     * @return the tool's exit status
     */
    static int onNode(final NodeOptions nodeOptions, final PerfThreads.Idle idle, final ToIntFunction<RdmaCm> tool)
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

    /** The line a server prints once its id listens (the CI's cue to start the peer). */
    static void printListening(final PrintStream out, final String tool, final int port)
    {
        out.println("JRXE-CM-LISTEN tool=" + tool + " ps=tcp port=" + port); // as ucmatose's
        out.flush();
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
