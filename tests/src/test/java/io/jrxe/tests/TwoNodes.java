package io.jrxe.tests;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.NicDevices;
import io.jrxe.driver.emu.EmulatedNetwork;
import io.jrxe.driver.emu.WireFaults;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.net.NetStackContext;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.RxeContext;
import org.agrona.CloseHelper;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * Two complete jrxe nodes (virtio driver, L2/L3 stack, verbs device, engine) on two emulated virtio-net NICs
 * joined by the fault-injecting wire. The devices run on their own threads; the nodes are driven by the test
 * thread through {@link #progress()}.
 */
final class TwoNodes implements AutoCloseable
{
    static final int IP_A = 0x0a09_0001;
    static final int IP_B = 0x0a09_0002;

    final EmulatedNetwork network;
    final NicDevice nicA;
    final NicDevice nicB;
    final RoceNode a;
    final RoceNode b;

    TwoNodes(final WireFaults faults, final int mtu, final Path countersDir)
    {
        final EmulatedNetwork.Context ctx = new EmulatedNetwork.Context().nicCount(2);
        ctx.wire().faults(faults);
        ctx.nic().mtu(mtu);
        network = new EmulatedNetwork(ctx);
        final VirtioNetConfig config = new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new)
            .bufferSize(mtu > 1500 ? 10240 : 2048).bufferCount(4096);
        nicA = NicDevices.open(network.nic(0), config);
        nicB = NicDevices.open(network.nic(1), config);
        network.start();
        a = node("jrxe-a", nicA, IP_A, countersDir);
        b = node("jrxe-b", nicB, IP_B, countersDir);
    }

    private static RoceNode node(final String name, final NicDevice nic, final int ip, final Path countersDir)
    {
        return new RoceNode(new RoceNode.Context().nic(nic).deviceName(name)
            .net(new NetStackContext().ipv4Address(ip).ipv4PrefixLength(24))
            .rxe(new RxeContext().keySeed(ip))
            .countersFile(null != countersDir).countersDirectory(countersDir)
            .maxQps(64)
            .errorHandler(ex ->
            {
                throw new AssertionError("engine internal error", ex);
            }));
    }

    int progress()
    {
        return a.progress() + b.progress();
    }

    /** Drives both nodes until the condition holds or the deadline passes (then fails with the message). */
    void runUntil(final BooleanSupplier condition, final long timeoutMs, final String what)
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
            }
            if (0 == progress())
            {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(a, b, nicA, nicB, network);
    }
}
