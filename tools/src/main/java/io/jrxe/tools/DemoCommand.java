package io.jrxe.tools;

import io.jrxe.net.Ipv4;
import io.jrxe.net.NetStack;
import io.jrxe.net.NetStackContext;
import io.jrxe.net.PcapWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code jrxe demo}: two emulated virtio-net NICs in one JVM, each driven by jrxe's virtio driver and stack,
 * resolve each other by ARP and ping each other; counters are printed and any missing or corrupted reply fails
 * the run.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Two emulated NICs resolve and ping each other through jrxe's driver and stack.")
final class DemoCommand implements Callable<Integer>
{
    static final int IP_A = Ipv4.parse("10.9.0.1");
    static final int IP_B = Ipv4.parse("10.9.0.2");

    @Option(names = "--pings", description = "echo requests each way (default: ${DEFAULT-VALUE})")
    int pings = 10;

    @Option(names = "--pcap", description = "write every frame node A sends and receives to this pcap file")
    Path pcap;

    @Option(names = "--timeout", description = "seconds to wait for all replies (default: ${DEFAULT-VALUE})")
    double timeout = 10;

    @Mixin
    WireOptions wire = new WireOptions();

    @Override
    public Integer call() throws IOException
    {
        try (EmulatedPair pair = new EmulatedPair(wire.faults(), 0, 0);
            PcapWriter writer = null == pcap ? null : new PcapWriter(pcap, true))
        {
            final NetStack a = new NetStack(pair.a, new NetStackContext().ipv4Address(IP_A).pcapWriter(writer));
            final NetStack b = new NetStack(pair.b, new NetStackContext().ipv4Address(IP_B));
            System.out.println("demo: node A " + Ipv4.format(IP_A) + " on " + pair.a.name() + ", node B " +
                Ipv4.format(IP_B) + " on " + pair.b.name() + (wire.any() ? ", wire faults " + wire.faults() : ""));

            final Pinger ab = new Pinger(a, b, IP_B, pings);
            final Pinger ba = new Pinger(b, a, IP_A, pings);
            final long deadline = System.nanoTime() + (long)(timeout * 1e9);
            while ((!ab.done() || !ba.done()) && System.nanoTime() - deadline < 0)
            {
                ab.step();
                ba.step();
                a.poll();
                b.poll();
            }
            ab.report("A -> B");
            ba.report("B -> A");
            System.out.println("node A nic: " + pair.a.stats());
            System.out.println("node A net: " + a.appendCounters(new StringBuilder(), true).toString().replace('\n', ' '));
            System.out.println("node B nic: " + pair.b.stats());
            System.out.println("node B net: " + b.appendCounters(new StringBuilder(), true).toString().replace('\n', ' '));
            final boolean lossy = wire.loss > 0 || wire.corrupt > 0;
            final boolean ok = ab.corrupted == 0 && ba.corrupted == 0 &&
                (lossy ? ab.replies + ba.replies > 0 : ab.replies == pings && ba.replies == pings);
            System.out.println("demo: " + (ok ? "PASS" : "FAIL"));
            return ok ? 0 : 1;
        }
    }
}
