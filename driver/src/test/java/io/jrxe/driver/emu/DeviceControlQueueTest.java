package io.jrxe.driver.emu;

import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;

import static io.jrxe.driver.emu.EmulatedNicCounters.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioNetCtrl.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * controlq on the device side, driven by {@link RingDriver} with hand-made chains, as QEMU's
 * virtio_net_handle_ctrl() answers them; the receive filter is checked with frames from the wire's other end.
 */
class DeviceControlQueueTest
{
    private static final int SIZE = 16;
    private static final long MAC = 0x52_54_00_00_00_01L;
    private static final long FOREIGN = 0x02_00_00_00_00_99L;
    private static final long ALL_NODES = 0x33_33_00_00_00_01L;
    private static final long OTHER_MULTICAST = 0x01_00_5e_00_00_01L;
    private static final long BROADCAST = 0xff_ff_ff_ff_ff_ffL;

    private final EmulatedWire wire = EmulatedWire.pointToPoint(WireFaults.none());
    private final EmulatedVirtioNet device = new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
        .port(wire.port(0)).maxQueueSize(SIZE).mac(MAC));
    private final AgentInvoker invoker = device.invoker();
    private final RingDriver driver = new RingDriver(device, SIZE);
    private final WirePort peer = wire.port(1);
    private int ctrlSlot;
    private int rxSlot;

    @BeforeEach
    void start()
    {
        driver.start(RingDriver.FEATURES | VirtioNetRegisters.CONTROL_FEATURES);
    }

    @AfterEach
    void close()
    {
        device.close();
        driver.close();
    }

    private static byte[] command(final int commandClass, final int command, final int... data)
    {
        final byte[] bytes = new byte[data.length];
        for (int i = 0; i < data.length; i++)
        {
            bytes[i] = (byte)data[i];
        }
        return command(commandClass, command, bytes);
    }

    private static byte[] command(final int commandClass, final int command, final byte[] data)
    {
        final byte[] c = new byte[2 + data.length];
        c[0] = (byte)commandClass;
        c[1] = (byte)command;
        System.arraycopy(data, 0, c, 2, data.length);
        return c;
    }

    /** MAC_TABLE_SET data: le32 count and MACs for each table, with the counts given separately (to lie). */
    private static byte[] tables(final int unicastCount, final long[] unicast, final int multicastCount,
        final long[] multicast)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        le32(out, unicastCount);
        for (final long mac : unicast)
        {
            mac(out, mac);
        }
        le32(out, multicastCount);
        for (final long mac : multicast)
        {
            mac(out, mac);
        }
        return out.toByteArray();
    }

    private static void le32(final ByteArrayOutputStream out, final int value)
    {
        for (int i = 0; i < 4; i++)
        {
            out.write(value >>> (8 * i));
        }
    }

    private static void mac(final ByteArrayOutputStream out, final long mac)
    {
        for (int i = 0; i < 6; i++)
        {
            out.write((int)(mac >>> (40 - 8 * i)));
        }
    }

    /** Sends a command, runs the device, returns the ack (checking the used entry: one byte written). */
    private int execute(final byte[] command)
    {
        final int slot = ctrlSlot++;
        final int usedBefore = driver.usedIdx(CTRL_QUEUE);
        driver.sendCtrl(slot, command);
        invoker.invoke();
        assertEquals(usedBefore + 1, driver.usedIdx(CTRL_QUEUE), "the command was used");
        assertEquals(2 * slot, driver.usedId(CTRL_QUEUE, usedBefore));
        assertEquals(ACK_LENGTH, driver.usedLen(CTRL_QUEUE, usedBefore), "used.len: the ack byte");
        return driver.ctrlAck(slot);
    }

    private boolean needsReset()
    {
        return 0 != (device.deviceStatus() & STATUS_DEVICE_NEEDS_RESET);
    }

    /** Sends a frame to {@code dst} from the peer; true if the device put it into an rx buffer. */
    private boolean received(final long dst)
    {
        driver.postRx(rxSlot++ % SIZE, RingDriver.SLOT);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[60]);
        frame.putInt(0, (int)(dst >>> 16), ByteOrder.BIG_ENDIAN);
        frame.putShort(4, (short)dst, ByteOrder.BIG_ENDIAN);
        frame.putShort(12, (short)0x88b5, ByteOrder.BIG_ENDIAN);
        final long before = device.counters().get(RX_FRAMES);
        assertTrue(peer.send(wire.clock().nanoTime(), frame, 0, 60));
        invoker.invoke();
        return device.counters().get(RX_FRAMES) == before + 1;
    }

    @Test
    void promiscuousOffIsAnsweredOkAndTakesEffect()
    {
        assertTrue(device.promiscuous(), "after reset, as QEMU");
        assertTrue(received(FOREIGN));
        assertEquals(OK, execute(command(CLASS_RX, RX_PROMISC, 0)));
        assertFalse(device.promiscuous());
        assertFalse(received(FOREIGN));
        assertEquals(1, device.counters().get(RX_DROPPED_FILTERED));
        assertTrue(received(MAC), "the device's own MAC passes without a table entry");
        assertTrue(received(BROADCAST));
        assertEquals(OK, execute(command(CLASS_RX, RX_PROMISC, 2)), "any non-zero byte is on, as in QEMU");
        assertTrue(device.promiscuous());
        assertEquals(2, device.counters().get(CTRL_COMMANDS));
        assertEquals(0, device.counters().get(CTRL_ERRORS));
    }

    @Test
    void commandsWaitForANotification()
    {
        final byte[] c = command(CLASS_RX, RX_PROMISC, 0);
        driver.buffer.putBytes(driver.slotOffset(CTRL_QUEUE, 0), c);
        driver.putDesc(CTRL_QUEUE, 0, driver.slotAddress(CTRL_QUEUE, 0), c.length, DESC_F_NEXT, 1);
        driver.putDesc(CTRL_QUEUE, 1, driver.slotAddress(CTRL_QUEUE, 0) + RingDriver.ACK_AT, 1, DESC_F_WRITE, 0);
        driver.pushAvail(CTRL_QUEUE, 0);
        invoker.invoke();
        assertEquals(0, driver.usedIdx(CTRL_QUEUE));
        assertTrue(device.promiscuous());
        driver.notifyQueue(CTRL_QUEUE);
        invoker.invoke();
        assertEquals(1, driver.usedIdx(CTRL_QUEUE));
        assertFalse(device.promiscuous());
    }

    @Test
    void unknownAndShortCommandsAreAnsweredErrAndChangeNothing()
    {
        assertEquals(ERR, execute(command(CLASS_RX, 9, 1)), "no such RX command");
        assertEquals(ERR, execute(command(7, 0, 1)), "a class this device does not offer");
        assertEquals(ERR, execute(command(CLASS_RX, RX_PROMISC)), "no data byte");
        assertEquals(ERR, execute(command(CLASS_MAC, MAC_ADDR_SET, 2, 0, 0, 0, 0)),
            "5 of 6 MAC bytes");
        assertEquals(ERR, execute(command(CLASS_MAC, 5)), "no such MAC command");
        assertEquals(5, device.counters().get(CTRL_ERRORS));
        assertTrue(device.promiscuous());
        assertFalse(needsReset(), "a refused command is no device error");
    }

    @Test
    void macTableSetTakesBothTablesOrNothing()
    {
        assertEquals(OK, execute(command(CLASS_RX, RX_PROMISC, 0)));
        assertEquals(OK, execute(command(CLASS_MAC, MAC_TABLE_SET,
            tables(1, new long[]{FOREIGN}, 1, new long[]{ALL_NODES}))));
        assertEquals(2, device.macTableEntries());
        assertTrue(received(FOREIGN), "a unicast entry");
        assertTrue(received(ALL_NODES), "a multicast entry");
        assertFalse(received(OTHER_MULTICAST));

        final byte[][] malformed = {
            tables(0, new long[0], 2, new long[]{OTHER_MULTICAST}),            // multicast table cut short
            append(tables(0, new long[0], 1, new long[]{OTHER_MULTICAST}), 0), // a byte after it
            tables(3, new long[]{OTHER_MULTICAST}, 0, new long[0]),            // unicast table cut short
            new byte[]{1, 0},                                                 // not even a count
        };
        for (final byte[] data : malformed)
        {
            assertEquals(ERR, execute(command(CLASS_MAC, MAC_TABLE_SET, data)));
        }
        assertEquals(2, device.macTableEntries(), "the old table stays");
        assertTrue(received(ALL_NODES));
        assertFalse(received(OTHER_MULTICAST));
        assertEquals(OK, execute(command(CLASS_MAC, MAC_TABLE_SET, tables(0, new long[0], 0, new long[0]))));
        assertEquals(0, device.macTableEntries());
        assertFalse(received(FOREIGN));
    }

    private static byte[] append(final byte[] data, final int extra)
    {
        final byte[] longer = java.util.Arrays.copyOf(data, data.length + 1);
        longer[data.length] = (byte)extra;
        return longer;
    }

    @Test
    void anOverflowingMulticastTableLetsEveryMulticastThrough()
    {
        final long[] many = new long[EmulatedRxFilter.TABLE_ENTRIES + 1];
        for (int i = 0; i < many.length; i++)
        {
            many[i] = 0x33_33_ff_00_00_00L + i;
        }
        assertEquals(OK, execute(command(CLASS_RX, RX_PROMISC, 0)));
        assertEquals(OK, execute(command(CLASS_MAC, MAC_TABLE_SET, tables(0, new long[0], many.length, many))));
        assertEquals(0, device.macTableEntries(), "not stored, QEMU's multi_overflow instead");
        assertTrue(received(OTHER_MULTICAST));
        assertFalse(received(FOREIGN), "unicast is still filtered");
    }

    @Test
    void allMulticastAndTheExtraModesActAsInQemu()
    {
        assertEquals(OK, execute(command(CLASS_RX, RX_NOBCAST, 1)));
        assertTrue(received(BROADCAST), "promiscuous mode overrides everything");
        assertEquals(OK, execute(command(CLASS_RX, RX_PROMISC, 0)));
        assertFalse(received(BROADCAST), "nobcast");
        assertFalse(received(ALL_NODES));
        assertEquals(OK, execute(command(CLASS_RX, RX_ALLMULTI, 1)));
        assertTrue(device.allMulticast());
        assertTrue(received(ALL_NODES));
        assertEquals(OK, execute(command(CLASS_RX, RX_NOMULTI, 1)));
        assertFalse(received(ALL_NODES), "nomulti wins over allmulti");
        assertEquals(OK, execute(command(CLASS_RX, RX_ALLUNI, 1)));
        assertTrue(received(FOREIGN));
        assertEquals(OK, execute(command(CLASS_RX, RX_NOUNI, 1)));
        assertFalse(received(MAC), "nouni: not even the device's own MAC");
    }

    @Test
    void macAddrSetChangesTheDevicesMacUntilReset()
    {
        assertEquals(OK, execute(command(CLASS_RX, RX_PROMISC, 0)));
        assertEquals(OK, execute(command(CLASS_MAC, MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x99)));
        assertEquals(0x02, driver.bar.read8(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MAC), "config space too");
        assertEquals(0x99, driver.bar.read8(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MAC + 5));
        assertTrue(received(FOREIGN));
        assertFalse(received(MAC));

        driver.writeStatus(0);
        assertTrue(device.promiscuous(), "reset: promiscuous again");
        assertEquals(0x52, driver.bar.read8(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MAC), "and the MAC is back");
        assertEquals(0x01, driver.bar.read8(VirtioNetRegisters.DEVICE_OFFSET + CONFIG_MAC + 5));
    }

    @Test
    void theHeaderAndDataMayBeSplitAnyWay()
    {
        // header byte by byte, data in a third descriptor, ack fourth (VERSION_1 implies ANY_LAYOUT, §2.6.4)
        final int at = driver.slotOffset(CTRL_QUEUE, 0);
        final long address = driver.slotAddress(CTRL_QUEUE, 0);
        driver.buffer.putBytes(at, new byte[]{CLASS_RX, RX_PROMISC, 0});
        driver.putDesc(CTRL_QUEUE, 3, address, 1, DESC_F_NEXT, 5);
        driver.putDesc(CTRL_QUEUE, 5, address + 1, 1, DESC_F_NEXT, 1);
        driver.putDesc(CTRL_QUEUE, 1, address + 2, 1, DESC_F_NEXT, 7);
        driver.putDesc(CTRL_QUEUE, 7, address + RingDriver.ACK_AT, 4, DESC_F_WRITE, 0);
        driver.pushAvail(CTRL_QUEUE, 3);
        driver.notifyQueue(CTRL_QUEUE);
        invoker.invoke();
        assertEquals(1, driver.usedIdx(CTRL_QUEUE));
        assertEquals(3, driver.usedId(CTRL_QUEUE, 0));
        assertEquals(1, driver.usedLen(CTRL_QUEUE, 0));
        assertEquals(OK, driver.buffer.getByte(at + RingDriver.ACK_AT));
        assertFalse(device.promiscuous());
    }

    @Test
    void aCommandWithoutAckByteIsADriverErrorThatNeedsReset()
    {
        final byte[] c = command(CLASS_RX, RX_PROMISC, 0);
        driver.buffer.putBytes(driver.slotOffset(CTRL_QUEUE, 0), c);
        driver.putDesc(CTRL_QUEUE, 0, driver.slotAddress(CTRL_QUEUE, 0), c.length, 0, 0);
        driver.pushAvail(CTRL_QUEUE, 0);
        driver.notifyQueue(CTRL_QUEUE);
        invoker.invoke();
        assertTrue(needsReset(), "QEMU: virtio-net ctrl missing headers");
        assertTrue(device.lastError().contains("missing headers"), device.lastError());
        assertEquals(0, driver.usedIdx(CTRL_QUEUE), "the chain is not used");
        assertTrue(device.promiscuous(), "and not executed");
        assertEquals(1, device.counters().get(DEVICE_ERRORS));
    }
}
