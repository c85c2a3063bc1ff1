package io.jrxe.tools;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.NicStats;
import io.jrxe.driver.mem.DmaMemory;
import io.jrxe.driver.pci.VfioPciFunction;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.Ethernet;
import io.jrxe.net.NetStack;
import io.jrxe.net.NetStackContext;
import io.jrxe.net.PcapWriter;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrxe nic --pci <addr> --ip <addr/len>}: runs jrxe's stack on a VFIO-bound NIC until interrupted,
 * answering ARP, ND and ping, and printing counters every few seconds.
 * <p>
 * Output lines for scripts (the CI harness reads them):
 * <pre>
 * JRXE-NIC READY pci=0000:00:03.0 mac=52:54:00:00:00:02 ip=10.9.0.2/24 mtu=1500 link=up
 * JRXE-NIC STATS rx_packets=N tx_packets=N rx_bytes=N tx_bytes=N rx_dropped=N tx_ring_full=N interrupts=N link=up|down
 *     rx_filter=applied|pending|failed|unsupported|not_set promisc=0|1 allmulti=0|1 mc_macs=N [net counters]
 * </pre>
 * On SIGINT/SIGTERM a final STATS line is printed, the device is reset and released, and the exit status is 0.
 */
@Command(name = "nic", mixinStandardHelpOptions = true,
    description = "Run the L2/L3 stack on a VFIO-bound NIC (ARP/ND/ping) and print counters.")
final class NicCommand implements Callable<Integer>
{
    @Option(names = "--pci", required = true, description = "PCI address of a NIC bound to vfio-pci")
    String pci;

    @Option(names = "--ip", required = true, description = "IPv4 address/prefix, e.g. 10.9.0.2/24")
    String ip;

    @Option(names = "--ip6", description = "an IPv6 address to answer for (besides the link-local one)")
    String ip6;

    @Option(names = "--pcap", description = "write every frame sent and received to this pcap file")
    Path pcap;

    @Option(names = "--promisc", description = "keep the NIC promiscuous (every frame on the link, e.g. for " +
        "--pcap) instead of filtering to its own MAC, broadcast and its multicast groups")
    boolean promiscuous;

    @Option(names = "--stats-interval", description = "seconds between STATS lines (default: ${DEFAULT-VALUE})")
    double statsInterval = 2.0;

    @Option(names = "--duration", description = "stop after this many seconds (default: until interrupted)")
    Double duration;

    private volatile boolean running = true;

    @Override
    public Integer call() throws IOException
    {
        StopSignals.install(this::stop);
        try (VfioPciFunction function = VfioPciFunction.open(pci);
            PcapWriter writer = null == pcap ? null : new PcapWriter(pcap, true))
        {
            final NicDevice nic = NicDevices.open(function, new VirtioNetConfig().dmaAllocator(new DmaMemory()));
            try
            {
                final NetStackContext ctx = Addresses.configure(new NetStackContext(), ip, ip6).pcapWriter(writer)
                    .promiscuous(promiscuous);
                final NetStack stack = new NetStack(nic, ctx);
                System.out.println("JRXE-NIC READY pci=" + function.address() + " mac=" +
                    Ethernet.formatMac(nic.macAddress()) + " ip=" + ip + " mtu=" + nic.mtu() + " link=" +
                    (nic.linkUp() ? "up" : "down"));
                System.out.flush();
                run(stack);
                printStats(stack);
            }
            finally
            {
                nic.close();
            }
        }
        return 0;
    }

    private void run(final NetStack stack)
    {
        final IdleStrategy idle = new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
            TimeUnit.MICROSECONDS.toNanos(200));
        final long intervalNs = (long)(statsInterval * 1e9);
        final long start = System.nanoTime();
        final long end = null == duration ? Long.MAX_VALUE : start + (long)(duration * 1e9);
        long nextStats = start + intervalNs;
        int loops = 0;
        while (running)
        {
            final int work = stack.poll();
            idle.idle(work);
            // Clock reads amortised: the stack reads its own clock once per poll; this loop checks every 64 polls.
            if (0 == (++loops & 63))
            {
                final long now = System.nanoTime();
                if (now - nextStats >= 0)
                {
                    printStats(stack);
                    nextStats = now + intervalNs;
                }
                if (now - end >= 0)
                {
                    break;
                }
            }
        }
    }

    /** The STATS line: NIC counters, the receive filter, then the stack's non-zero counters, on one line. */
    static void printStats(final NetStack stack)
    {
        final NicStats s = stack.device().stats();
        final StringBuilder line = new StringBuilder(256).append("JRXE-NIC STATS ")
            .append("rx_packets=").append(s.rxPackets)
            .append(" tx_packets=").append(s.txPackets)
            .append(" rx_bytes=").append(s.rxBytes)
            .append(" tx_bytes=").append(s.txBytes)
            .append(" rx_dropped=").append(s.rxDropped)
            .append(" tx_ring_full=").append(s.txRingFull)
            .append(" interrupts=").append(s.interrupts)
            .append(" link=").append(stack.device().linkUp() ? "up" : "down")
            .append(' ');
        stack.appendRxFilter(line).append(' ');
        final int countersStart = line.length();
        stack.appendCounters(line, true);
        for (int i = countersStart; i < line.length(); i++)
        {
            if ('\n' == line.charAt(i))
            {
                line.setCharAt(i, ' ');
            }
        }
        System.out.println(line.toString().trim());
        System.out.flush();
    }

    /** SIGINT/SIGTERM: the loop finishes, prints the final counters, resets and releases the device, exits 0. */
    private void stop()
    {
        running = false;
    }
}
