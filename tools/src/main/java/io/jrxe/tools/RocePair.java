package io.jrxe.tools;

import io.jrxe.driver.emu.EmulatedVirtioNet;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetStackContext;
import io.jrxe.net.PcapWriter;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.RxeContext;
import org.agrona.CloseHelper;
import org.agrona.LangUtil;
import org.agrona.concurrent.Agent;

import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * Two whole jrxe RoCE nodes (virtio driver, L2/L3 stack, verbs device, engine) on the two emulated NICs of an
 * {@link EmulatedPair}. The devices are not started: the caller schedules them, either on its own thread
 * ({@link #progress()}: devices, then both engines) or on threads of its choosing ({@link #deviceAgent(int)},
 * {@link RoceNode#agent()}). The device agents have no start or close work, so either way suits them.
 */
final class RocePair implements AutoCloseable
{
    static final int IP_A = Ipv4.parse("10.9.0.1");
    static final int IP_B = Ipv4.parse("10.9.0.2");

    /** Driver buffers per NIC: deep enough for a window of 64 KiB messages in flight at MTU 4096. */
    private static final int BUFFER_COUNT = 4096;

    /**
     * Frames a node takes from its NIC per duty cycle: as many as an emulated device delivers per cycle (its
     * default batch), so that with devices and engines taking turns the rx ring cannot fill up and drop.
     */
    private static final int RX_BATCH = 64;

    final EmulatedPair nics;
    final RoceNode a;
    final RoceNode b;
    private final Agent deviceA;
    private final Agent deviceB;

    /**
     * @param faults       wire faults
     * @param pathMtu      the largest path MTU the QPs will use; sets the NIC MTU (1500, or 9000 above 1024)
     * @param inFlightBytes the most payload bytes the workload keeps in flight per direction; the wire buffers
     *                      at least twice that (as a lossless fabric would), so only injected faults lose frames
     * @param pcap         writer for every frame node A sends and receives, or null
     * @param errorHandler engine-internal errors (bugs)
     */
    RocePair(
        final WireFaults faults,
        final Mtu pathMtu,
        final long inFlightBytes,
        final PcapWriter pcap,
        final Consumer<Throwable> errorHandler)
    {
        final int nicMtu = nicMtuFor(pathMtu);
        nics = new EmulatedPair(faults, nicMtu, nicMtu > 1500 ? 10240 : 0, BUFFER_COUNT,
            linkBuffering(inFlightBytes, pathMtu), false);
        RoceNode first = null;
        try
        {
            first = node("jrxe-a", nics, 0, IP_A, pcap, errorHandler);
            a = first;
            b = node("jrxe-b", nics, 1, IP_B, null, errorHandler);
            deviceA = nics.network.nic(0).agent();
            deviceB = nics.network.nic(1).agent();
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(first);
            nics.close();
            throw ex;
        }
    }

    /**
     * The NIC MTU that lets rxe's active MTU reach {@code pathMtu}: rxe keeps {@link Mtu#RXE_MAX_HDR_LENGTH}
     * bytes of the netdev MTU for headers (rxe_set_mtu), so 1500 carries up to 1024 and 9000 carries 4096.
     */
    static int nicMtuFor(final Mtu pathMtu)
    {
        return pathMtu.bytes() + Mtu.RXE_MAX_HDR_LENGTH <= 1500 ? 1500 : 9000;
    }

    /**
     * Twice the in-flight bytes plus the framing of each packet (Ethernet, IP, UDP, BTH, RETH, ICRC and the ring's
     * record header: under 128 bytes), rounded up to a power of two, at least the wire's default 256 KiB and at
     * most 256 MiB per direction.
     */
    static int linkBuffering(final long inFlightBytes, final Mtu pathMtu)
    {
        final long packets = inFlightBytes / pathMtu.bytes() + 1;
        final long bytes = 2 * (inFlightBytes + packets * 128);
        return (int)Math.min(1L << 28, Math.max(1L << 18, Long.highestOneBit(bytes - 1) << 1));
    }

    private static RoceNode node(
        final String name,
        final EmulatedPair nics,
        final int index,
        final int ip,
        final PcapWriter pcap,
        final Consumer<Throwable> errorHandler)
    {
        return new RoceNode(new RoceNode.Context()
            .nic(0 == index ? nics.a : nics.b)
            .deviceName(name)
            .net(new NetStackContext().ipv4Address(ip).ipv4PrefixLength(24).pcapWriter(pcap)
                .rxBatchSize(RX_BATCH).txBatchSize(RX_BATCH))
            .rxe(new RxeContext().keySeed(ip))
            .countersFile(false)
            .maxQps(256)
            .errorHandler(errorHandler));
    }

    /** The device model of NIC {@code index} (0: A, 1: B), for a thread of the caller's. */
    Agent deviceAgent(final int index)
    {
        final EmulatedVirtioNet nic = nics.network.nic(index);
        return nic.agent();
    }

    /**
     * One duty cycle of everything on the caller's thread: both devices, then both engines. Use either this or
     * agents on threads, never both at the same time.
     *
     * @return work done, 0 when idle
     */
    int progress()
    {
        try
        {
            return deviceA.doWork() + deviceB.doWork() + a.progress() + b.progress();
        }
        catch (final Exception ex)
        {
            LangUtil.rethrowUnchecked(ex);
            return 0;
        }
    }

    /**
     * Resolves the nodes' MACs (ARP) with one ping each way, driven on the caller's thread, so that the first RoCE
     * packets do not wait for resolution (and a retransmit timeout).
     *
     * @throws IllegalStateException if the pings are not answered in time
     */
    void resolve(final long timeoutNs)
    {
        final Pinger ab = new Pinger(a.stack(), b.stack(), IP_B, 1);
        final Pinger ba = new Pinger(b.stack(), a.stack(), IP_A, 1);
        final long deadline = System.nanoTime() + timeoutNs;
        while (!ab.done() || !ba.done())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("the nodes did not answer each other's ARP and ping");
            }
            ab.step();
            ba.step();
            progress();
        }
    }

    /** Prints the rxe counters (rxe's hw_counters names) of both nodes; read them only while the engines rest. */
    void printCounters(final PrintStream out)
    {
        out.printf("%-24s %14s %14s%n", "rxe counter", a.name(), b.name());
        for (int id = 0; id < RxeCounter.count(); id++)
        {
            final RxeCounter counter = RxeCounter.byId(id);
            final long va = a.engine().counters().get(counter);
            final long vb = b.engine().counters().get(counter);
            if (counter.isRxeCounter() || 0 != va || 0 != vb)
            {
                out.printf("%-24s %14d %14d%n", counter.label(), va, vb);
            }
        }
        out.println("nic " + a.name() + ": " + nics.a.stats());
        out.println("nic " + b.name() + ": " + nics.b.stats());
        out.println("device A: " + nics.network.nic(0).counters());
        out.println("device B: " + nics.network.nic(1).counters());
        out.println("wire A->B: " + nics.network.wire().counters(0, 1));
        out.println("wire B->A: " + nics.network.wire().counters(1, 0));
    }

    /** Engine-internal errors of both engines (should stay 0). */
    long internalErrors()
    {
        return a.engine().counters().internalErrors() + b.engine().counters().internalErrors();
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(a, b, nics);
    }
}
