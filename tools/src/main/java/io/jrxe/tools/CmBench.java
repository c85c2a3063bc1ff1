package io.jrxe.tools;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cmapps.ConnectionRate;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jrxe bench cm}: RC connections per second through rdma_cm between two jrxe nodes on emulated NICs in one
 * JVM ({@link ConnectionRate}), one thread driving the devices, both engines and both CMs. Warm-up rounds first,
 * then measured rounds; prints each round and one line for scripts:
 * <pre>
 *   JRXE-BENCH-CM connections=2000 window=64 rounds=5 median_conn_per_sec=... best_conn_per_sec=...
 * </pre>
 */
@Command(name = "cm", mixinStandardHelpOptions = true,
    description = "rdma_cm connection set-up rate between two jrxe nodes in one JVM (emulated NICs).")
final class CmBench implements Callable<Integer>
{
    @Option(names = "--connections", description = "connections per round (default: ${DEFAULT-VALUE})")
    int connections = 2000;

    @Option(names = "--window", description = "connections under way at once (default: ${DEFAULT-VALUE})")
    int window = 64;

    @Option(names = "--rounds", description = "measured rounds (default: ${DEFAULT-VALUE})")
    int rounds = 5;

    @Option(names = "--warmup", description = "rounds before measuring (default: ${DEFAULT-VALUE})")
    int warmup = 3;

    @Override
    public Integer call()
    {
        if (connections < 1 || window < 1 || rounds < 1 || warmup < 0)
        {
            throw new IllegalArgumentException("--connections, --window and --rounds must be at least 1");
        }
        final NodePairContext ctx = new NodePairContext().maxQps(2 * connections + 64);
        try (NodePair pair = new NodePair(ctx);
            RdmaCm a = RdmaCm.open(pair.a(), new RdmaCm.Context().callerDrives(true));
            RdmaCm b = RdmaCm.open(pair.b(), new RdmaCm.Context().callerDrives(true)))
        {
            pair.resolve(1_000_000_000L);
            final ConnectionRate rate = new ConnectionRate(a, b, new InetSocketAddress(ip(NodePair.IP_B), 7471),
                () -> pair.step() + a.doWork() + b.doWork());
            final double[] measured = new double[rounds];
            for (int i = 0; i < warmup + rounds; i++)
            {
                final long reqsBefore = a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ);
                final long rtusBefore = b.counters().get(CmCounters.Group.CM_RX_MSGS, CmAttributes.RTU);
                final ConnectionRate.Result r = rate.run(connections, window);
                final boolean warm = i < warmup;
                // every connection of the round went through the wire: one REQ out of A, one RTU into B
                System.out.printf(Locale.ROOT, "%s round %d: %d connections set up in %.3f s = %.0f conn/s, " +
                    "torn down in %.3f s (REQs sent %d, RTUs received %d; left on A: %s, ids %d)%n",
                    warm ? "warm-up" : "measured", i + 1,
                    r.connections(), r.setupNs() / 1e9, r.perSecond(), r.teardownNs() / 1e9,
                    a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ) - reqsBefore,
                    b.counters().get(CmCounters.Group.CM_RX_MSGS, CmAttributes.RTU) - rtusBefore,
                    pair.a().device().liveObjects(), a.idCount());
                if (!warm)
                {
                    measured[i - warmup] = r.perSecond();
                }
            }
            java.util.Arrays.sort(measured);
            System.out.printf(Locale.ROOT, "JRXE-BENCH-CM connections=%d window=%d rounds=%d " +
                "median_conn_per_sec=%.0f best_conn_per_sec=%.0f cm_tx_retries=%d%n", connections, window, rounds,
                measured[rounds / 2], measured[rounds - 1], a.counters().total(CmCounters.Group.CM_TX_RETRIES) +
                b.counters().total(CmCounters.Group.CM_TX_RETRIES));
            return 0;
        }
    }

    private static InetAddress ip(final int ip)
    {
        try
        {
            return InetAddress.getByAddress(new byte[]{(byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8),
                (byte)ip});
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalStateException(e);
        }
    }
}
