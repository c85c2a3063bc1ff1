package io.jrxe.tools;

import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.stats.RxeCounter;

import java.io.PrintStream;

/**
 * Prints the counters of a {@link NodePair} after a run: the rxe counters of both nodes (rxe's hw_counters names),
 * then the drivers', the device models' and the wire's. Read them only while the engines rest.
 */
final class PairCounters
{
    private PairCounters()
    {
    }

    static void print(final NodePair pair, final PrintStream out)
    {
        out.printf("%-24s %14s %14s%n", "rxe counter", pair.a().name(), pair.b().name());
        for (int id = 0; id < RxeCounter.count(); id++)
        {
            final RxeCounter counter = RxeCounter.byId(id);
            final long va = pair.a().engine().counters().get(counter);
            final long vb = pair.b().engine().counters().get(counter);
            if (counter.isRxeCounter() || 0 != va || 0 != vb)
            {
                out.printf("%-24s %14d %14d%n", counter.label(), va, vb);
            }
        }
        out.println("nic " + pair.a().name() + ": " + pair.nicA().stats());
        out.println("nic " + pair.b().name() + ": " + pair.nicB().stats());
        out.println("device A: " + pair.network().nic(0).counters());
        out.println("device B: " + pair.network().nic(1).counters());
        out.println("wire A->B: " + pair.wire().counters(0, 1));
        out.println("wire B->A: " + pair.wire().counters(1, 0));
    }
}
