package io.jrxe.driver.virtio;

import io.jrxe.driver.RxFilterStatus;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.jrxe.driver.virtio.VirtioNetCtrl.*;

/**
 * The receive filter of a virtio-net device with VIRTIO_NET_F_CTRL_RX (virtio 1.1 §5.1.6.5.1, §5.1.6.5.2): turns a
 * request (promiscuous, all-multicast, a multicast list) into three control commands and sends them one after the
 * other, each once the previous one was answered:
 * <pre>
 *   filtering:    ALLMULTI(x) -> MAC_TABLE_SET(unicast, multicast) -> PROMISC(0)
 *   promiscuous:  PROMISC(1)  -> ALLMULTI(x) -> MAC_TABLE_SET(unicast, multicast)
 * </pre>
 * Promiscuous mode goes off last, once the device has taken the table, and on first when asked for, so the NIC
 * never drops what is asked for while the commands go out one by one. A command the device refuses
 * (VIRTIO_NET_ERR) or does not answer within the timeout ends the request as {@link RxFilterStatus#FAILED}: the
 * commands before it took effect, the rest are not sent (a first request that fails leaves the NIC promiscuous).
 * A request made while a command is in flight replaces the one being sent: its sequence starts over once that
 * command is answered.
 * <p>
 * The unicast table holds the driver's MAC when it is not the device's (VIRTIO_NET_F_MAC not negotiated: the
 * driver made one up), so frames to it still pass (§5.1.6.5.2.1: the device takes its own MAC and the table's).
 * After a device reset the device is promiscuous again (QEMU's reset state); the driver calls
 * {@link #deviceReady()} and the last request is sent again.
 * controlq may be shared with {@link VirtioSteering}: a command of class MQ in flight is its, and a request waits
 * for the queue to be free. Control path, on the driver's thread; nothing here allocates except the message of a
 * failure.
 */
final class VirtioRxFilter
{
    /** Multicast MACs one request may name (QEMU's table holds 64 MACs in all: this leaves room for unicast). */
    static final int MAX_MULTICAST = 32;
    /** Bytes of data the largest MAC_TABLE_SET carries: 1 unicast and {@link #MAX_MULTICAST} multicast MACs. */
    static final int MAX_TABLE_BYTES = macTableLength(1, MAX_MULTICAST);
    static final long NO_MAC = -1L;

    private static final int STEP_PROMISC = 0;
    private static final int STEP_ALLMULTI = 1;
    private static final int STEP_TABLE = 2;
    private static final int[] FILTERING = {STEP_ALLMULTI, STEP_TABLE, STEP_PROMISC};
    private static final int[] PROMISCUOUS = {STEP_PROMISC, STEP_ALLMULTI, STEP_TABLE};
    private static final int IDLE = -1;

    private final String deviceName;
    private final ControlVirtqueue queue;
    private final long timeoutNs;
    private final long[] multicast = new long[MAX_MULTICAST];
    private int multicastCount;
    private boolean promiscuous = true;
    private boolean allMulticast;
    private long unicast = NO_MAC;
    private boolean requested;
    /** The device is running (DRIVER_OK, no error): commands may be sent. */
    private boolean live;
    private int[] order = FILTERING;
    /** Index into {@link #order} of the command in flight, or IDLE. */
    private int position = IDLE;
    /** A newer request waits for the command in flight to be answered. */
    private boolean restart;
    private RxFilterStatus status = RxFilterStatus.NOT_SET;
    private String error;
    private long applied;

    /**
     * @param deviceName the PCI address, for messages
     * @param queue      the control queue
     * @param timeoutNs  how long one command may wait for its answer
     */
    VirtioRxFilter(final String deviceName, final ControlVirtqueue queue, final long timeoutNs)
    {
        if (ControlVirtqueue.DATA_CAPACITY < MAX_TABLE_BYTES)
        {
            throw new IllegalStateException("the control buffer cannot hold a full MAC table");
        }
        this.deviceName = deviceName;
        this.queue = queue;
        this.timeoutNs = timeoutNs;
    }

    /**
     * The driver's own MAC when the device does not know it (VIRTIO_NET_F_MAC not negotiated), else
     * {@link #NO_MAC}: it goes into the unicast table of the next request.
     */
    void unicast(final long mac)
    {
        this.unicast = mac;
    }

    /** Requests applied so far (every command answered VIRTIO_NET_OK). */
    long applied()
    {
        return applied;
    }

    boolean promiscuous()
    {
        return promiscuous;
    }

    boolean allMulticast()
    {
        return allMulticast;
    }

    int multicastCount()
    {
        return multicastCount;
    }

    RxFilterStatus status()
    {
        return status;
    }

    String error()
    {
        return error;
    }

    /**
     * Takes a request and starts sending it (or queues it behind the command in flight, or, while the device is
     * not live, keeps it for {@link #deviceReady()}).
     *
     * @throws IllegalArgumentException if {@code count} is out of 0..{@link #MAX_MULTICAST} or a MAC is not
     *                                  multicast (§5.1.6.5.2.2: the second table holds multicast addresses)
     */
    void request(final boolean promiscuous, final boolean allMulticast, final long[] macs, final int count)
    {
        if (count < 0 || count > MAX_MULTICAST)
        {
            throw new IllegalArgumentException("rxFilter: " + count + " multicast MACs, the table of " + deviceName +
                " takes 0.." + MAX_MULTICAST + " (ask for all-multicast instead)");
        }
        for (int i = 0; i < count; i++)
        {
            if (0 == (macs[i] & 0x0100_0000_0000L) || 0 != (macs[i] >>> 48))
            {
                throw new IllegalArgumentException("rxFilter: multicastMacs[" + i + "] = 0x" +
                    Long.toHexString(macs[i]) + " is not a 48-bit multicast MAC (group bit of the first byte)");
            }
        }
        System.arraycopy(macs, 0, multicast, 0, count);
        this.multicastCount = count;
        this.promiscuous = promiscuous;
        this.allMulticast = allMulticast;
        this.requested = true;
        this.error = null;
        status = RxFilterStatus.PENDING;
        if (!live)
        {
            return;
        }
        if (queue.busy())
        {
            restart = true;
            return;
        }
        start();
    }

    /**
     * Moves the request along: takes the answer to the command in flight and sends the next one.
     *
     * @return true if something happened (an answer taken, a command sent, a failure found)
     */
    boolean poll()
    {
        if (!live)
        {
            return false;
        }
        if (!queue.busy())
        {
            if (restart)
            {
                restart = false; // a request that waited for another user's command (VirtioSteering) to end
                start();
                return true;
            }
            return false;
        }
        if (CLASS_MQ == queue.commandClass())
        {
            return false; // VirtioSteering's command: it takes the answer
        }
        final int answer = queue.poll();
        if (ControlVirtqueue.NO_ANSWER == answer)
        {
            if (IDLE != position || restart)
            {
                if (queue.waitedNs() > timeoutNs)
                {
                    fail("no answer to " + name(queue.commandClass(), queue.command()) + " within " +
                        timeoutNs / 1_000_000 + " ms: the device does not process its control virtqueue " +
                        "(virtio 1.1 §5.1.6.5)");
                    return true;
                }
            }
            return false;
        }
        if (ControlVirtqueue.BROKEN == answer)
        {
            fail("the control virtqueue returned an impossible used entry; the device needs a reset");
            return true;
        }
        if (restart)
        {
            restart = false;
            start();
            return true;
        }
        if (IDLE == position)
        {
            return true; // the late answer to a command given up on: the queue is free again
        }
        if (VirtioNetCtrl.OK != answer)
        {
            fail(ControlVirtqueue.NO_ACK == answer ?
                "completed " + name(queue.commandClass(), queue.command()) + " without writing its ack" :
                "answered VIRTIO_NET_ERR to " + describe(queue.commandClass(), queue.command()));
            return true;
        }
        if (++position == order.length)
        {
            position = IDLE;
            status = RxFilterStatus.APPLIED;
            applied++;
        }
        else
        {
            send(order[position]);
        }
        return true;
    }

    /** The device runs (after DRIVER_OK, also after a reset): the last request, if any, is sent again. */
    void deviceReady()
    {
        live = true;
        position = IDLE;
        restart = false;
        if (requested)
        {
            status = RxFilterStatus.PENDING;
            error = null;
            if (queue.busy())
            {
                restart = true; // controlq carries VirtioSteering's command: this request follows it
            }
            else
            {
                start();
            }
        }
    }

    /** The device failed or is being reset: nothing more is sent until {@link #deviceReady()}. */
    void deviceLost()
    {
        live = false;
        position = IDLE;
        restart = false;
        if (RxFilterStatus.APPLIED == status && requested)
        {
            status = RxFilterStatus.PENDING; // a reset takes the device back to promiscuous: to be sent again
        }
    }

    private void start()
    {
        order = promiscuous ? PROMISCUOUS : FILTERING;
        position = 0;
        send(order[0]);
    }

    private void send(final int step)
    {
        final UnsafeBuffer buffer = queue.buffer();
        final int at = queue.dataOffset();
        switch (step)
        {
            case STEP_PROMISC:
                buffer.putByte(at, (byte)(promiscuous ? 1 : 0));
                queue.submit(CLASS_RX, RX_PROMISC, 1);
                break;
            case STEP_ALLMULTI:
                buffer.putByte(at, (byte)(allMulticast ? 1 : 0));
                queue.submit(CLASS_RX, RX_ALLMULTI, 1);
                break;
            default:
                final int unicastCount = NO_MAC == unicast ? 0 : 1;
                int p = at;
                buffer.putInt(p, unicastCount, ByteOrder.LITTLE_ENDIAN);
                p += TABLE_ENTRIES_LENGTH;
                if (1 == unicastCount)
                {
                    p = putMac(buffer, p, unicast);
                }
                buffer.putInt(p, multicastCount, ByteOrder.LITTLE_ENDIAN);
                p += TABLE_ENTRIES_LENGTH;
                for (int i = 0; i < multicastCount; i++)
                {
                    p = putMac(buffer, p, multicast[i]);
                }
                queue.submit(CLASS_MAC, MAC_TABLE_SET, p - at);
                break;
        }
    }

    /** A MAC in wire order: the first byte on the wire is bits 47..40. */
    private static int putMac(final UnsafeBuffer buffer, final int at, final long mac)
    {
        for (int i = 0; i < MAC_LENGTH; i++)
        {
            buffer.putByte(at + i, (byte)(mac >>> (40 - 8 * i)));
        }
        return at + MAC_LENGTH;
    }

    private void fail(final String why)
    {
        position = IDLE;
        restart = false;
        status = RxFilterStatus.FAILED;
        error = "virtio device " + deviceName + " " + why + "; the commands before it took effect, the rest " +
            "were not sent";
    }

    private String describe(final int commandClass, final int command)
    {
        if (CLASS_MAC == commandClass && MAC_TABLE_SET == command)
        {
            return name(commandClass, command) + " (" + (NO_MAC == unicast ? 0 : 1) + " unicast, " + multicastCount +
                " multicast MACs)";
        }
        return name(commandClass, command);
    }
}
