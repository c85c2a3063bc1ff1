package io.jrxe.driver.emu;

import org.agrona.concurrent.AgentInvoker;
import org.junit.jupiter.api.Test;

import java.util.function.BooleanSupplier;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

/** NICs on one wire, driven by {@link RingDriver}s, stepped by an invoker or on their own threads. */
class EmulatedNetworkTest
{
    private static final int SIZE = 64;

    private static void await(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out waiting for " + what);
            }
            Thread.yield();
        }
    }

    private static byte[] frame(final long dst, final long src, final int seq)
    {
        final byte[] f = new byte[64];
        for (int i = 0; i < 6; i++)
        {
            f[i] = (byte)(dst >>> (40 - 8 * i));
            f[6 + i] = (byte)(src >>> (40 - 8 * i));
        }
        f[12] = (byte)0x88;
        f[13] = (byte)0xb5; // local experimental ethertype
        f[14] = (byte)(seq >>> 8);
        f[15] = (byte)seq;
        return f;
    }

    @Test
    void nicsHaveLabMacsAndAddresses()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(3, WireFaults.none()))
        {
            for (int i = 0; i < 3; i++)
            {
                final EmulatedVirtioNet nic = network.nic(i);
                assertEquals(0x52_54_00_00_00_01L + i, nic.macAddress());
                assertEquals("ffff:00:0" + (i + 1) + ".0", nic.address());
                assertEquals(i, nic.port().index());
                assertEquals(i + 1, nic.bar(4).read8(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MAC + 5));
            }
            assertEquals(3, network.wire().portCount());
        }
    }

    @Test
    void framesCrossTheWireSteppedByTheInvoker()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            RingDriver a = new RingDriver(network.nic(0), SIZE);
            RingDriver b = new RingDriver(network.nic(1), SIZE))
        {
            final AgentInvoker invoker = network.invoker();
            a.start();
            b.start();
            for (int i = 0; i < SIZE; i++)
            {
                b.postRx(i, RingDriver.SLOT);
            }
            for (int seq = 0; seq < 10; seq++)
            {
                a.sendTx(seq, frame(EmulatedNetwork.mac(1), EmulatedNetwork.mac(0), seq));
            }
            invoker.invoke(); // a transmits, b receives in the same pass (a's cycle runs first)
            assertEquals(10, a.usedIdx(TX_QUEUE));
            assertEquals(10, b.usedIdx(RX_QUEUE));
            for (int k = 0; k < 10; k++)
            {
                final int at = b.slotOffset(RX_QUEUE, b.usedId(RX_QUEUE, k)) + HEADER_LENGTH;
                assertEquals(k, b.buffer.getByte(at + 15));
            }
            assertThrows(IllegalStateException.class, network::start);
        }
    }

    @Test
    void framesCrossTheWireWithDevicesOnTheirOwnThreads()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            RingDriver a = new RingDriver(network.nic(0), SIZE);
            RingDriver b = new RingDriver(network.nic(1), SIZE))
        {
            a.start();
            b.start();
            network.start();
            assertThrows(IllegalStateException.class, network::invoker);
            final int frames = 1000;
            final long deadline = System.nanoTime() + 20_000_000_000L;
            int posted = 0;
            int sent = 0;
            while (b.usedIdx(RX_QUEUE) != frames)
            {
                // keep b's rx ring full, and send a frame only once b has posted the buffer it will take: b's
                // used index moves on between the two checks, so "fewer in flight than SIZE" alone is not enough
                while (posted < frames && posted - b.usedIdx(RX_QUEUE) < SIZE)
                {
                    b.postRx(posted % SIZE, RingDriver.SLOT);
                    posted++;
                }
                if (sent < posted && sent - a.usedIdx(TX_QUEUE) < SIZE)
                {
                    a.sendTx(sent % SIZE, frame(EmulatedNetwork.mac(1), EmulatedNetwork.mac(0), sent));
                    sent++;
                }
                else
                {
                    Thread.yield();
                }
                if (System.nanoTime() - deadline >= 0)
                {
                    fail("timed out: sent " + sent + " received " + b.usedIdx(RX_QUEUE) + " a.txUsed=" +
                        a.usedIdx(TX_QUEUE) + " posted=" + posted + "\nA " + network.nic(0).counters() + "\nB " +
                        network.nic(1).counters() + "\nwire " + network.wire().counters(0, 1));
                }
            }
            assertEquals(frames, network.nic(1).counters().get(EmulatedNicCounters.RX_FRAMES));
            assertEquals(0, network.nic(1).counters().get(EmulatedNicCounters.RX_DROPPED_NO_BUFFER));
            for (int k = frames - SIZE; k < frames; k++)
            {
                final int at = b.slotOffset(RX_QUEUE, b.usedId(RX_QUEUE, k)) + HEADER_LENGTH;
                assertEquals(k, (b.buffer.getByte(at + 14) & 0xff) << 8 | (b.buffer.getByte(at + 15) & 0xff));
            }
        }
    }

    @Test
    void resetWhileTheDeviceThreadRunsIsImmediateAndSafe()
    {
        try (EmulatedNetwork network = EmulatedNetwork.create(2, WireFaults.none());
            RingDriver a = new RingDriver(network.nic(0), SIZE))
        {
            network.start();
            for (int round = 0; round < 50; round++)
            {
                a.start(); // includes writing 0: the reset must be complete when the write returns
                assertEquals(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK, a.status());
                for (int i = 0; i < 8; i++)
                {
                    a.sendTx(i, frame(EmulatedNetwork.mac(1), EmulatedNetwork.mac(0), i));
                }
                if (0 == (round & 1))
                {
                    await(() -> a.usedIdx(TX_QUEUE) == 8, "tx completion in round");
                }
            }
            assertEquals(50, network.nic(0).counters().get(EmulatedNicCounters.RESETS));
            assertEquals(0, network.nic(0).counters().get(EmulatedNicCounters.DEVICE_ERRORS));
            assertEquals(0, network.nic(0).counters().get(EmulatedNicCounters.IOMMU_FAULTS));
        }
    }
}
