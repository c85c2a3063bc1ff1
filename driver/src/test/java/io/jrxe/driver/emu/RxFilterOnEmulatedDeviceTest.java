package io.jrxe.driver.emu;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.mem.DirectDmaRegion;
import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.virtio.VirtioNetConfig;
import io.jrxe.driver.virtio.VirtioNetDriver;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetCounter;
import io.jrxe.net.NetStack;
import io.jrxe.net.NetStackContext;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.driver.emu.EmulatedNicCounters.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The virtio driver's receive filter through the emulated device: control commands go over controlq, the device
 * applies QEMU's receive_filter() to what the test sends from the other end of the wire, stepped by an invoker.
 */
class RxFilterOnEmulatedDeviceTest
{
    private static final long OWN = 0x5254_0000_0001L;
    private static final long FOREIGN = 0x0200_0000_0099L;
    private static final long BROADCAST = 0xffff_ffff_ffffL;
    private static final long ALL_NODES = 0x3333_0000_0001L;
    private static final long SOLICITED = 0x3333_ff00_000aL;
    private static final long OTHER_SOLICITED = 0x3333_ff00_0077L;
    private static final long IPV4_MULTICAST = 0x0100_5e00_0001L;
    private static final int STEPS = 100;

    private final EmulatedWire wire = EmulatedWire.pointToPoint(WireFaults.none());
    private final WirePort peer = wire.port(1);
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
    private final int[] ids = new int[64];
    private EmulatedVirtioNet device;
    private AgentInvoker invoker;
    private VirtioNetDriver driver;

    @AfterEach
    void close()
    {
        if (null != driver)
        {
            driver.close();
        }
        device.close();
    }

    private void open(final boolean controlQueue)
    {
        device = new EmulatedVirtioNet(new EmulatedVirtioNet.Context().port(wire.port(0)).mac(OWN)
            .controlQueue(controlQueue));
        invoker = device.invoker();
        driver = VirtioNetDriver.open(device, new VirtioNetConfig().dmaAllocator(DirectDmaRegion::new)
            .queueSize(64).bufferCount(256));
    }

    /** Asks for a filter and steps the device until the driver has it answered. */
    private void apply(final boolean promiscuous, final boolean allMulticast, final long... macs)
    {
        assertTrue(driver.rxFilter(promiscuous, allMulticast, macs, macs.length));
        for (int i = 0; i < STEPS && RxFilterStatus.PENDING == driver.rxFilterStatus(); i++)
        {
            invoker.invoke();
        }
        assertEquals(RxFilterStatus.APPLIED, driver.rxFilterStatus(), driver.rxFilterError());
    }

    /** Sends one frame to each destination from the wire's other end, and returns the destinations received. */
    private List<Long> deliver(final long... destinations)
    {
        for (final long dst : destinations)
        {
            for (int i = 0; i < 6; i++)
            {
                frame.putByte(i, (byte)(dst >>> (40 - 8 * i)));
                frame.putByte(6 + i, (byte)(0x0200_0000_0077L >>> (40 - 8 * i)));
            }
            frame.putShort(12, (short)0x88b5, ByteOrder.BIG_ENDIAN);
            assertTrue(peer.send(wire.clock().nanoTime(), frame, 0, frame.capacity()));
        }
        invoker.invoke();
        final List<Long> received = new ArrayList<>();
        final PacketPool pool = driver.pool();
        final int n = driver.rxBatch(ids, ids.length);
        for (int i = 0; i < n; i++)
        {
            final int at = pool.dataOffset(ids[i]);
            received.add((pool.buffer().getInt(at, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL) << 16 |
                (pool.buffer().getShort(at + 4, ByteOrder.BIG_ENDIAN) & 0xffff));
            pool.free(ids[i]);
        }
        return received;
    }

    private long filtered()
    {
        return device.counters().get(RX_DROPPED_FILTERED);
    }

    @Test
    void controlCommandsRoundTripThroughTheDevice()
    {
        open(true);
        assertEquals(VirtioNetRegisters.CONTROL_FEATURES,
            driver.negotiatedFeatures() & VirtioNetRegisters.CONTROL_FEATURES, "CTRL_VQ and CTRL_RX negotiated");
        assertEquals(32, driver.rxFilterCapacity());
        assertEquals(RxFilterStatus.NOT_SET, driver.rxFilterStatus());
        assertTrue(device.promiscuous(), "QEMU's state after reset");

        apply(false, false, ALL_NODES, SOLICITED);
        assertFalse(device.promiscuous());
        assertFalse(device.allMulticast());
        assertEquals(2, device.macTableEntries(), "no unicast entry: the device knows the driver's MAC");
        assertEquals(3, device.counters().get(CTRL_COMMANDS), "ALLMULTI, MAC_TABLE_SET, PROMISC");
        assertEquals(0, device.counters().get(CTRL_ERRORS));
        assertEquals(0, device.counters().get(DEVICE_ERRORS));
        assertNull(driver.rxFilterError());
    }

    @Test
    void foreignUnicastIsDroppedAndCountedWithPromiscuousOffAndDeliveredWithItOn()
    {
        open(true);
        assertEquals(List.of(FOREIGN), deliver(FOREIGN), "promiscuous until the driver says otherwise");

        apply(false, false);
        assertEquals(List.of(OWN, BROADCAST), deliver(FOREIGN, OWN, BROADCAST));
        assertEquals(1, filtered(), "the foreign frame, dropped by the device and counted");
        assertEquals(3, device.counters().get(RX_FRAMES), "the one before the filter and the two it took");

        apply(true, false);
        assertTrue(device.promiscuous());
        assertEquals(List.of(FOREIGN, OWN), deliver(FOREIGN, OWN));
        assertEquals(1, filtered(), "nothing dropped in promiscuous mode");
    }

    @Test
    void multicastInTheTableIsReceivedOtherMulticastIsNot()
    {
        open(true);
        apply(false, false, ALL_NODES, SOLICITED);
        assertEquals(List.of(ALL_NODES, SOLICITED), deliver(ALL_NODES, OTHER_SOLICITED, SOLICITED, IPV4_MULTICAST));
        assertEquals(2, filtered());

        apply(false, false, OTHER_SOLICITED);
        assertEquals(1, device.macTableEntries(), "the table is replaced, not added to");
        assertEquals(List.of(OTHER_SOLICITED), deliver(ALL_NODES, OTHER_SOLICITED));
        assertEquals(3, filtered());
    }

    @Test
    void allMulticastTakesEveryMulticastButNotForeignUnicast()
    {
        open(true);
        apply(false, true);
        assertTrue(device.allMulticast());
        assertEquals(List.of(ALL_NODES, IPV4_MULTICAST, BROADCAST), deliver(ALL_NODES, IPV4_MULTICAST, FOREIGN,
            BROADCAST));
        assertEquals(1, filtered());
    }

    @Test
    void aDeviceWithoutTheFeatureLeavesTheDriverPromiscuousAndTheApiSaysSo()
    {
        open(false);
        assertEquals(0, driver.negotiatedFeatures() & VirtioNetRegisters.CONTROL_FEATURES);
        assertEquals(NicDevice.NO_RX_FILTER, driver.rxFilterCapacity());
        assertFalse(driver.rxFilter(false, false, new long[0], 0), "no filter to program");
        assertEquals(RxFilterStatus.UNSUPPORTED, driver.rxFilterStatus());
        assertEquals(List.of(FOREIGN, OWN), deliver(FOREIGN, OWN), "every frame, as before");
        assertEquals(0, filtered());
        assertEquals(0, device.counters().get(CTRL_COMMANDS));

        final NetStack stack = new NetStack(driver, new NetStackContext().ipv4Address(Ipv4.parse("10.1.0.1"))
            .gratuitousArp(false));
        assertEquals(0, stack.poll(), "nothing to ask of a NIC without a filter");
        assertEquals(RxFilterStatus.UNSUPPORTED, stack.rxFilterStatus());
        assertTrue(stack.appendRxFilter(new StringBuilder()).toString().startsWith("rx_filter=unsupported promisc=1"));
        assertEquals(0, stack.counter(NetCounter.RX_FILTER_UPDATES) + stack.counter(NetCounter.RX_FILTER_ERRORS));
    }

    @Test
    void aResetDeviceIsPromiscuousAgainAndTheDriverSendsItsFilterAgain()
    {
        open(true);
        apply(false, false, ALL_NODES);
        device.reset(); // a function-level reset behind the driver's back
        assertTrue(device.promiscuous(), "reset: promiscuous, empty table");
        assertEquals(0, device.macTableEntries());
        assertFalse(driver.linkUp());
        assertEquals(RxFilterStatus.PENDING, driver.rxFilterStatus(), "the device lost it");

        driver.reset();
        for (int i = 0; i < STEPS && RxFilterStatus.PENDING == driver.rxFilterStatus(); i++)
        {
            invoker.invoke();
        }
        assertEquals(RxFilterStatus.APPLIED, driver.rxFilterStatus());
        assertFalse(device.promiscuous());
        assertEquals(1, device.macTableEntries());
        assertEquals(List.of(ALL_NODES), deliver(FOREIGN, ALL_NODES));
    }

    @Test
    void theStackAsksForItsOwnMulticastGroupsAtItsFirstPoll()
    {
        open(true);
        // link-local fe80::5054:ff:fe00:1 and 2001:db8::1 share the solicited-node group ff02::1:ff00:1
        final NetStack stack = new NetStack(driver, new NetStackContext().ipv4Address(Ipv4.parse("10.1.0.1"))
            .addIpv6Address("2001:db8::1").addIpv6Address("2001:db8::2:77").gratuitousArp(false));
        for (int i = 0; i < STEPS && RxFilterStatus.APPLIED != stack.rxFilterStatus(); i++)
        {
            stack.poll();
            invoker.invoke();
        }
        assertEquals(RxFilterStatus.APPLIED, stack.rxFilterStatus());
        assertEquals(1, stack.counter(NetCounter.RX_FILTER_UPDATES));
        assertFalse(device.promiscuous());
        assertEquals(3, device.macTableEntries(), "all-nodes, ff02::1:ff00:1 once, ff02::1:ff02:77");
        assertEquals("rx_filter=applied promisc=0 allmulti=0 mc_macs=3",
            stack.appendRxFilter(new StringBuilder()).toString());
        assertEquals(List.of(ALL_NODES, 0x3333_ff00_0001L, 0x3333_ff02_0077L),
            deliver(ALL_NODES, 0x3333_ff00_0001L, 0x3333_ff02_0077L, OTHER_SOLICITED, FOREIGN));
        assertEquals(2, filtered());
    }
}
