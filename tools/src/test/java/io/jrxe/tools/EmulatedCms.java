package io.jrxe.tools;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.net.Ipv4;
import io.jrxe.ulp.rdmacm.RdmaCm;

import java.nio.file.Path;

/**
 * Two {@link EmulatedNodes} with their engines started and a connection manager open on each, for the rdma_cm
 * tools' tests: the servers run on node A, the clients on node B. Closing closes the connection managers, then the
 * nodes.
 */
final class EmulatedCms implements AutoCloseable
{
    /** Node A's address, where the tests' servers listen. */
    static final String SERVER_IP = Ipv4.format(EmulatedNodes.IP_A);

    final EmulatedNodes nodes;
    /** Node A's. */
    final RdmaCm a;
    /** Node B's. */
    final RdmaCm b;

    /**
     * @param countersDir where the nodes' counters files go (kept for the test to read)
     */
    EmulatedCms(final Path countersDir)
    {
        nodes = new EmulatedNodes(WireFaults.none(), countersDir);
        try
        {
            nodes.a.start();
            nodes.b.start();
            a = RdmaCm.open(nodes.a);
            b = RdmaCm.open(nodes.b);
        }
        catch (final RuntimeException e)
        {
            nodes.close(); // the test's try never got a resource to close
            throw e;
        }
    }

    @Override
    public void close()
    {
        try
        {
            a.close();
            b.close();
        }
        finally
        {
            nodes.close();
        }
    }
}
