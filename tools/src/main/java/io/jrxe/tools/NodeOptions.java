package io.jrxe.tools;

import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.node.PciNode;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.RxeContext;
import org.agrona.concurrent.IdleStrategy;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * Options of the commands that run a jrxe RoCE node on a VFIO-bound NIC ({@code pingpong}, perftest peer mode):
 * which NIC, which addresses, and where its counters and captures go.
 */
final class NodeOptions
{
    @Option(names = "--pci", description = "PCI address of a NIC bound to vfio-pci (jrxe bind)")
    String pci;

    @Option(names = "--ip", description = "IPv4 address/prefix of jrxe's NIC, e.g. 10.9.0.2/24")
    String ip;

    @Option(names = "--ip6", description = "an IPv6 address for the NIC (besides the link-local one)")
    String ip6;

    @Option(names = "--name", description = "device name, names the counters file for jrxe stat " +
        "(default: ${DEFAULT-VALUE})")
    String name = "jrxe0";

    @Option(names = "--keep-counters", description = "keep the counters file after exit, for jrxe stat")
    boolean keepCounters;

    @Option(names = "--jmx", description = "also publish the counters as JMX MBeans (jconsole: io.jrxe)")
    boolean jmx;

    @Option(names = "--qp-latency", description = "keep per-QP latency histograms (WR post to completion, " +
        "request to ACK) for jrxe stat --qp --latency; about 60 KiB of heap per QP")
    boolean qpLatency;

    @Option(names = "--pcap", description = "write every frame sent and received to this pcap file")
    Path pcap;

    @Option(names = "--promisc", description = "keep the NIC promiscuous (every frame on the link, e.g. for " +
        "--pcap) instead of filtering to the node's own MAC, broadcast and its multicast groups")
    boolean promiscuous;

    @Option(names = "--buffer-size", description = "driver buffer bytes per frame; 10240 for a 9000-byte MTU " +
        "(default: ${DEFAULT-VALUE})")
    int bufferSize = 2048;

    /**
     * Not required by picocli so that a command with an emulated mode can mix these in; required here.
     *
     * @throws IllegalArgumentException if --pci or --ip is missing
     */
    NodeOptions check()
    {
        if (null == pci || null == ip)
        {
            throw new IllegalArgumentException("a VFIO NIC needs --pci <address> (bound with jrxe bind) and " +
                "--ip <address/prefix>");
        }
        return this;
    }

    /**
     * The library's settings for these options: {@link PciNode} opens the node.
     *
     * @param engineIdle what the engine thread does when idle, if the caller starts it
     * @throws IllegalArgumentException if --pci or --ip is missing or malformed
     */
    PciNode.Context toContext(final IdleStrategy engineIdle)
    {
        check();
        return new PciNode.Context().pciAddress(pci).bufferSize(bufferSize).pcap(pcap)
            .net(Addresses.configure(new NetStackContext(), ip, ip6).promiscuous(promiscuous))
            .node(new RoceNode.Context().deviceName(name).rxe(new RxeContext().keySeed(System.nanoTime()))
                .keepCountersFile(keepCounters).jmx(jmx).qpLatency(qpLatency).idleStrategy(engineIdle));
    }
}
