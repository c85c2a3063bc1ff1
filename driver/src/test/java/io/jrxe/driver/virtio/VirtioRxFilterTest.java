package io.jrxe.driver.virtio;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.mem.DirectDmaRegion;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static io.jrxe.driver.virtio.VirtioNetCtrl.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The driver's receive filter sequence over a real {@link ControlVirtqueue}, with the test as the device: it takes
 * each command chain from the ring, checks its layout and answers with an ack of its choosing.
 */
class VirtioRxFilterTest
{
    private static final long TIMEOUT_NS = 1_000_000_000L;
    private static final long ALL_NODES = 0x3333_0000_0001L;
    private static final long SOLICITED = 0x3333_ff00_000aL;

    private final CachedNanoClock clock = new CachedNanoClock();
    private final SplitVirtqueueTest.NotifyRecorder notify = new SplitVirtqueueTest.NotifyRecorder();
    private final DirectDmaRegion region =
        new DirectDmaRegion(SplitVirtqueue.ringBytes(8) + ControlVirtqueue.BUFFER_BYTES, new RecordingDmaMapper());
    private final SplitVirtqueue ring = new SplitVirtqueue(VirtioNet.CTRL_QUEUE, 8, region, 0, notify, 0x3008);
    private final ControlVirtqueue queue = new ControlVirtqueue(ring, region, SplitVirtqueue.ringBytes(8), clock);
    private final VirtioRxFilter filter = new VirtioRxFilter("ffff:00:01.0", queue, TIMEOUT_NS);
    private final DeviceSideRing device = DeviceSideRing.of(ring);

    /** A command as the device read it. */
    private record Command(int head, int commandClass, int command, byte[] data, long ackAddress)
    {
    }

    @AfterEach
    void close()
    {
        region.close();
    }

    /** Takes the one command in flight: header, optional data, then a 1-byte device-writable ack. */
    private Command take()
    {
        assertEquals(1, device.pending(), "one command at a time");
        final int head = device.take();
        int d = head;
        assertEquals(CTRL_HEADER_LENGTH, device.len(d));
        assertEquals(0, device.flags(d) & SplitVirtqueue.DESC_F_WRITE, "header is device-readable");
        final UnsafeBuffer header = new UnsafeBuffer(device.addr(d), CTRL_HEADER_LENGTH);
        d = device.next(d);
        byte[] data = new byte[0];
        if (0 == (device.flags(d) & SplitVirtqueue.DESC_F_WRITE))
        {
            data = new byte[device.len(d)];
            new UnsafeBuffer(device.addr(d), data.length).getBytes(0, data);
            d = device.next(d);
        }
        assertEquals(SplitVirtqueue.DESC_F_WRITE, device.flags(d), "ack: device-writable, the end of the chain");
        assertEquals(ACK_LENGTH, device.len(d));
        return new Command(head, header.getByte(0) & 0xff, header.getByte(1) & 0xff, data, device.addr(d));
    }

    private void answer(final Command c, final int ack)
    {
        new UnsafeBuffer(c.ackAddress, 1).putByte(0, (byte)ack);
        device.use(c.head, ACK_LENGTH);
        device.publishUsed();
    }

    private Command takeAndAnswer(final int ack)
    {
        final Command c = take();
        answer(c, ack);
        filter.poll();
        return c;
    }

    private static byte[] table(final long... multicast)
    {
        final UnsafeBuffer b = new UnsafeBuffer(new byte[macTableLength(0, multicast.length)]);
        b.putInt(0, 0, ByteOrder.LITTLE_ENDIAN);
        b.putInt(4, multicast.length, ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < multicast.length; i++)
        {
            for (int k = 0; k < 6; k++)
            {
                b.putByte(8 + 6 * i + k, (byte)(multicast[i] >>> (40 - 8 * k)));
            }
        }
        return b.byteArray();
    }

    @Test
    void filteringSendsAllmultiThenTheTableThenPromiscuousOff()
    {
        filter.deviceReady();
        assertEquals(RxFilterStatus.NOT_SET, filter.status());
        assertEquals(0, device.pending(), "nothing asked, nothing sent");

        filter.request(false, false, new long[]{ALL_NODES, SOLICITED}, 2);
        assertEquals(RxFilterStatus.PENDING, filter.status());
        final Command allmulti = takeAndAnswer(OK);
        assertEquals(CLASS_RX, allmulti.commandClass);
        assertEquals(RX_ALLMULTI, allmulti.command);
        assertArrayEquals(new byte[]{0}, allmulti.data);
        assertEquals(RxFilterStatus.PENDING, filter.status());

        final Command table = takeAndAnswer(OK);
        assertEquals(CLASS_MAC, table.commandClass);
        assertEquals(MAC_TABLE_SET, table.command);
        assertArrayEquals(table(ALL_NODES, SOLICITED), table.data, "le32 0, le32 2, the two MACs in wire order");

        final Command promisc = takeAndAnswer(OK);
        assertEquals(CLASS_RX, promisc.commandClass);
        assertEquals(RX_PROMISC, promisc.command);
        assertArrayEquals(new byte[]{0}, promisc.data, "promiscuous mode off, and last");
        assertEquals(RxFilterStatus.APPLIED, filter.status());
        assertEquals(1, filter.applied());
        assertEquals(0, device.pending());
        assertEquals(3, notify.writes.size(), "one notification per command");
        assertEquals("12296:2", notify.writes.get(0), "the notify register of queue 2 gets its index");
    }

    @Test
    void promiscuousModeGoesOnFirst()
    {
        filter.deviceReady();
        filter.request(true, false, new long[0], 0);
        final Command first = takeAndAnswer(OK);
        assertEquals(RX_PROMISC, first.command);
        assertArrayEquals(new byte[]{1}, first.data);
        assertEquals(RX_ALLMULTI, takeAndAnswer(OK).command);
        assertArrayEquals(table(), takeAndAnswer(OK).data, "empty tables");
        assertEquals(RxFilterStatus.APPLIED, filter.status());
    }

    @Test
    void theDriversOwnMacGoesIntoTheUnicastTableWhenTheDeviceDoesNotKnowIt()
    {
        filter.unicast(0x0200_0000_0042L);
        filter.deviceReady();
        filter.request(false, true, new long[0], 0);
        final Command allmulti = takeAndAnswer(OK);
        assertArrayEquals(new byte[]{1}, allmulti.data, "all-multicast on");
        final byte[] data = takeAndAnswer(OK).data;
        assertArrayEquals(new byte[]{1, 0, 0, 0, 2, 0, 0, 0, 0, 0x42, 0, 0, 0, 0}, data);
    }

    @Test
    void aRefusedCommandFailsTheRequestAndStopsBeforePromiscuousModeGoesOff()
    {
        filter.deviceReady();
        filter.request(false, false, new long[]{ALL_NODES}, 1);
        takeAndAnswer(OK);
        takeAndAnswer(ERR);
        assertEquals(RxFilterStatus.FAILED, filter.status());
        assertTrue(filter.error().contains("VIRTIO_NET_ERR to VIRTIO_NET_CTRL_MAC_TABLE_SET (0 unicast, 1 multicast"),
            filter.error());
        assertTrue(filter.error().contains("ffff:00:01.0"), filter.error());
        assertEquals(0, device.pending(), "PROMISC(0) is never sent: the NIC stays promiscuous");

        filter.request(false, false, new long[]{ALL_NODES}, 1);
        assertNull(filter.error(), "a new request starts clean");
        takeAndAnswer(OK);
        takeAndAnswer(OK);
        takeAndAnswer(OK);
        assertEquals(RxFilterStatus.APPLIED, filter.status());
    }

    @Test
    void aCompletionWithoutAckIsAFailure()
    {
        filter.deviceReady();
        filter.request(false, false, new long[0], 0);
        final Command c = take();
        device.use(c.head, 0); // used.len 0: the device wrote nothing
        device.publishUsed();
        filter.poll();
        assertEquals(RxFilterStatus.FAILED, filter.status());
        assertTrue(filter.error().contains("without writing its ack"), filter.error());
    }

    @Test
    void aNewRequestWhileACommandIsInFlightStartsOverWhenItIsAnswered()
    {
        filter.deviceReady();
        filter.request(false, false, new long[]{ALL_NODES}, 1);
        final Command first = take();
        filter.request(false, false, new long[]{SOLICITED}, 1);
        filter.poll();
        assertEquals(0, device.pending(), "nothing more while the first command is out");
        answer(first, OK);
        filter.poll();
        assertEquals(RX_ALLMULTI, takeAndAnswer(OK).command, "the new request from its first command");
        assertArrayEquals(table(SOLICITED), takeAndAnswer(OK).data);
        assertEquals(RX_PROMISC, takeAndAnswer(OK).command);
        assertEquals(RxFilterStatus.APPLIED, filter.status());
        assertEquals(1, filter.applied(), "only the second request was applied");
    }

    @Test
    void anUnansweredCommandTimesOutAndALateAnswerFreesTheQueue()
    {
        clock.update(1_000);
        filter.deviceReady();
        filter.request(false, false, new long[0], 0);
        final Command c = take();
        clock.advance(TIMEOUT_NS);
        assertFalse(filter.poll(), "not yet: exactly the timeout");
        assertEquals(RxFilterStatus.PENDING, filter.status());
        clock.advance(1);
        assertTrue(filter.poll());
        assertEquals(RxFilterStatus.FAILED, filter.status());
        assertTrue(filter.error().contains("no answer to VIRTIO_NET_CTRL_RX_ALLMULTI within 1000 ms"), filter.error());

        answer(c, OK);
        assertTrue(filter.poll(), "the late answer is taken");
        assertEquals(RxFilterStatus.FAILED, filter.status(), "and does not revive the request");
        filter.request(false, false, new long[0], 0);
        takeAndAnswer(OK);
        takeAndAnswer(OK);
        takeAndAnswer(OK);
        assertEquals(RxFilterStatus.APPLIED, filter.status());
    }

    @Test
    void aRequestBeforeTheDeviceRunsIsSentWhenItDoesAndAgainAfterAReset()
    {
        filter.request(false, false, new long[]{ALL_NODES}, 1);
        assertEquals(RxFilterStatus.PENDING, filter.status());
        assertEquals(0, device.pending(), "no notification before DRIVER_OK");
        filter.deviceReady();
        takeAndAnswer(OK);
        takeAndAnswer(OK);
        takeAndAnswer(OK);
        assertEquals(RxFilterStatus.APPLIED, filter.status());

        filter.deviceLost();
        assertEquals(RxFilterStatus.PENDING, filter.status(), "a reset device is promiscuous again");
        queue.reset();
        final DeviceSideRing fresh = DeviceSideRing.of(ring);
        filter.deviceReady();
        assertEquals(1, fresh.pending(), "the last request goes out again");
    }

    @Test
    void refusesLongListsAndUnicastMacs()
    {
        final long[] many = new long[VirtioRxFilter.MAX_MULTICAST + 1];
        java.util.Arrays.fill(many, ALL_NODES);
        final Exception tooMany = assertThrows(IllegalArgumentException.class,
            () -> filter.request(false, false, many, many.length));
        assertTrue(tooMany.getMessage().contains("all-multicast"), tooMany.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> filter.request(false, false, new long[]{0x5254_0000_0001L}, 1));
        assertEquals(RxFilterStatus.NOT_SET, filter.status(), "a refused request changes nothing");
    }
}
