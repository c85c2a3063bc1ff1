package io.jrxe.ulp.examples;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.NodeThreads;
import io.jrxe.ulp.rdmacm.RdmaCm;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The echo server on node B (10.9.0.2) and the echo client on node A (10.9.0.1), two jrxe nodes on emulated NICs
 * with their engines and CMs on threads of their own. On real NICs the same two calls run on
 * {@link io.jrxe.rxe.node.PciNode}s.
 */
public final class EchoExample
{
    private EchoExample()
    {
    }

    /**
     * @param messages what the client sends
     * @return the echoes
     * @throws Exception if a side fails
     */
    public static List<String> run(final List<String> messages) throws Exception
    {
        try (NodePair nodes = new NodePair(new NodePairContext().startDevices(true));
            NodeThreads engines = NodeThreads.start(NodeThreads.Layout.NODE, NodeThreads.Idle.BACKOFF::create, nodes);
            RdmaCm cmA = RdmaCm.open(nodes.a());
            RdmaCm cmB = RdmaCm.open(nodes.b()))
        {
            final EchoServer echoServer = EchoServer.listen(cmB, 7471); // listening before the client connects
            final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() ->
            {
                try (EchoServer s = echoServer)
                {
                    return s.serveOne();
                }
                catch (final InterruptedException e)
                {
                    throw new IllegalStateException(e);
                }
            });
            final InetAddress b = InetAddress.getByAddress(new byte[]{10, 9, 0, 2});
            final List<String> echoes = EchoClient.echo(cmA, new InetSocketAddress(b, 7471), messages);
            final int served = server.get(30, TimeUnit.SECONDS);
            if (served != messages.size())
            {
                throw new IllegalStateException("server echoed " + served + " of " + messages.size());
            }
            return echoes;
        }
        catch (final ExecutionException e)
        {
            throw (Exception)e.getCause();
        }
    }

    /**
     * @param args messages to echo (default: three)
     * @throws Exception if a side fails
     */
    public static void main(final String[] args) throws Exception
    {
        final List<String> messages = 0 == args.length ? List.of("hello", "over", "rdma_cm") : List.of(args);
        for (final String echo : run(messages))
        {
            System.out.println("echo: " + echo);
        }
    }
}
