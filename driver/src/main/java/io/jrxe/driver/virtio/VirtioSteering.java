package io.jrxe.driver.virtio;

import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.rss.RssSourcePorts;
import io.jrxe.driver.rss.ToeplitzHash;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.jrxe.driver.virtio.VirtioNetCtrl.*;

/**
 * Multiqueue set-up of a virtio-net device with VIRTIO_NET_F_MQ (virtio 1.x §5.1.6.5.5) and, when negotiated,
 * receive-side scaling (VIRTIO_NET_F_RSS, §5.1.6.5.7), sent on controlq like {@link VirtioRxFilter}'s commands and
 * sharing the queue with it (a command of class MQ is this class's, any other the filter's):
 * <pre>
 *   device ready:   VQ_PAIRS_SET(N) -> RSS_CONFIG(hash types, table, unclassified 0, max_tx_vq N, key)
 *   new table/key:  RSS_CONFIG
 * </pre>
 * Until the device has taken VQ_PAIRS_SET every frame arrives on receiveq1 (§5.1.6.5.5: after reset only the first
 * pair is used); after it, until RSS_CONFIG, the device steers as it likes; after RSS_CONFIG the indirection
 * table decides. A refused command (VIRTIO_NET_ERR) or one unanswered within the timeout ends the request as
 * {@link RxFilterStatus#FAILED} with a message saying which. After a device reset the whole sequence is sent again.
 * Control path, on the thread that owns the NIC; allocates nothing but the message of a failure.
 */
final class VirtioSteering
{
    /** Indirection entries jrxe programs at most (QEMU's VIRTIO_NET_RSS_MAX_TABLE_LEN). */
    static final int MAX_TABLE_LENGTH = RssSourcePorts.DEFAULT_TABLE_LENGTH;

    private final String deviceName;
    private final ControlVirtqueue queue;
    private final long timeoutNs;
    private final int pairs;
    private final boolean rss;
    private final int hashTypes;
    private final int maxKeyLength;
    private final int maxTableLength;
    private final byte[] key = new byte[ToeplitzHash.KEY_LENGTH];
    private int keyLength;
    private final int[] table = new int[MAX_TABLE_LENGTH];
    private int tableLength;
    private boolean live;
    /** Commands still to send, in order: pairs then RSS. */
    private boolean sendPairs;
    private boolean sendRss;
    private boolean inFlight;
    private RxFilterStatus status = RxFilterStatus.PENDING;
    private String error;

    /**
     * @param pairs          queue pairs to enable
     * @param rss            F_RSS negotiated
     * @param hashTypes      hash types to ask for (those the device supports)
     * @param maxKeyLength   rss_max_key_size
     * @param maxTableLength rss_max_indirection_table_length
     */
    VirtioSteering(final String deviceName, final ControlVirtqueue queue, final long timeoutNs, final int pairs,
        final boolean rss, final int hashTypes, final int maxKeyLength, final int maxTableLength)
    {
        this.deviceName = deviceName;
        this.queue = queue;
        this.timeoutNs = timeoutNs;
        this.pairs = pairs;
        this.rss = rss;
        this.hashTypes = hashTypes;
        this.maxKeyLength = Math.min(maxKeyLength, ToeplitzHash.KEY_LENGTH);
        this.maxTableLength = Math.min(Integer.highestOneBit(Math.max(1, maxTableLength)), MAX_TABLE_LENGTH);
        if (rss && ControlVirtqueue.DATA_CAPACITY < rssConfigLength(MAX_TABLE_LENGTH, ToeplitzHash.KEY_LENGTH))
        {
            throw new IllegalStateException("the control buffer cannot hold a full RSS_CONFIG");
        }
        keyLength = this.maxKeyLength;
        final byte[] standard = ToeplitzHash.microsoftKey();
        System.arraycopy(standard, 0, key, 0, keyLength);
        tableLength = this.maxTableLength;
        RssSourcePorts.roundRobin(table, tableLength, pairs); // RssSourcePorts.forDefaults() assumes this table
    }

    boolean rss()
    {
        return rss;
    }

    int maxTableLength()
    {
        return rss ? maxTableLength : 0;
    }

    int maxKeyLength()
    {
        return rss ? maxKeyLength : 0;
    }

    RxFilterStatus status()
    {
        return status;
    }

    String error()
    {
        return error;
    }

    /** Copies the table the device has (or is being sent) into {@code into}; returns its length. */
    int table(final int[] into)
    {
        System.arraycopy(table, 0, into, 0, tableLength);
        return tableLength;
    }

    /** Copies the key into {@code into}; returns its length. */
    int key(final byte[] into)
    {
        System.arraycopy(key, 0, into, 0, keyLength);
        return keyLength;
    }

    /**
     * A new indirection table and key, sent as RSS_CONFIG.
     *
     * @throws IllegalArgumentException naming what is out of range
     */
    void request(final byte[] newKey, final int newKeyLength, final int[] newTable, final int newTableLength)
    {
        if (newKeyLength < 1 || newKeyLength > maxKeyLength)
        {
            throw new IllegalArgumentException("RSS key of " + newKeyLength + " bytes, " + deviceName + " takes 1.." +
                maxKeyLength);
        }
        if (newTableLength < 1 || newTableLength > maxTableLength || 0 != (newTableLength & (newTableLength - 1)))
        {
            throw new IllegalArgumentException("RSS indirection table of " + newTableLength + " entries, " +
                deviceName + " takes a power of two up to " + maxTableLength);
        }
        for (int i = 0; i < newTableLength; i++)
        {
            if (newTable[i] < 0 || newTable[i] >= pairs)
            {
                // §5.1.6.5.7.1: the driver MUST fill the table only with indices of enabled queues
                throw new IllegalArgumentException("RSS indirection_table[" + i + "] = " + newTable[i] +
                    " is not one of the " + pairs + " queue pairs in use");
            }
        }
        System.arraycopy(newKey, 0, key, 0, newKeyLength);
        keyLength = newKeyLength;
        System.arraycopy(newTable, 0, table, 0, newTableLength);
        tableLength = newTableLength;
        sendRss = true;
        status = RxFilterStatus.PENDING;
        error = null;
        poll();
    }

    /** The device runs (after DRIVER_OK, also after a reset): the whole sequence goes out again. */
    void deviceReady()
    {
        live = true;
        inFlight = false;
        sendPairs = true;
        sendRss = rss;
        status = RxFilterStatus.PENDING;
        error = null;
        poll();
    }

    /** The device failed or is being reset: nothing more is sent until {@link #deviceReady()}. */
    void deviceLost()
    {
        live = false;
        inFlight = false;
    }

    /**
     * Takes the answer to this class's command in flight and sends the next one when controlq is free.
     *
     * @return true if something happened
     */
    boolean poll()
    {
        if (!live)
        {
            return false;
        }
        if (inFlight)
        {
            final int answer = queue.poll();
            if (ControlVirtqueue.NO_ANSWER == answer)
            {
                if (RxFilterStatus.PENDING == status && queue.waitedNs() > timeoutNs)
                {
                    fail("no answer to " + name(CLASS_MQ, queue.command()) + " within " + timeoutNs / 1_000_000 +
                        " ms: the device does not process its control virtqueue (virtio 1.x §5.1.6.5)");
                    return true;
                }
                return false;
            }
            inFlight = false;
            if (VirtioNetCtrl.OK != answer)
            {
                fail(ControlVirtqueue.BROKEN == answer ? "returned an impossible controlq used entry" :
                    ControlVirtqueue.NO_ACK == answer ? "completed " + name(CLASS_MQ, queue.command()) +
                    " without writing its ack" : "answered VIRTIO_NET_ERR to " + describe(queue.command()));
                return true;
            }
        }
        if (queue.busy())
        {
            return false; // the receive filter's command: wait for it
        }
        if (sendPairs)
        {
            sendPairs = false;
            final UnsafeBuffer buffer = queue.buffer();
            buffer.putShort(queue.dataOffset(), (short)pairs, ByteOrder.LITTLE_ENDIAN);
            submit(MQ_VQ_PAIRS_SET, 2);
            return true;
        }
        if (sendRss)
        {
            sendRss = false;
            submit(MQ_RSS_CONFIG, putRssConfig());
            return true;
        }
        if (RxFilterStatus.PENDING == status)
        {
            status = RxFilterStatus.APPLIED;
            return true;
        }
        return false;
    }

    private void submit(final int command, final int length)
    {
        queue.submit(CLASS_MQ, command, length);
        inFlight = true;
    }

    /** struct virtio_net_rss_config (layout in {@link VirtioNetCtrl}). */
    private int putRssConfig()
    {
        final UnsafeBuffer buffer = queue.buffer();
        final int at = queue.dataOffset();
        buffer.putInt(at, hashTypes, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(at + 4, (short)(tableLength - 1), ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(at + 6, (short)0, ByteOrder.LITTLE_ENDIAN); // unclassified frames (ARP, ...) to receiveq1
        int p = at + RSS_HEADER_LENGTH;
        for (int i = 0; i < tableLength; i++)
        {
            buffer.putShort(p, (short)table[i], ByteOrder.LITTLE_ENDIAN);
            p += 2;
        }
        buffer.putShort(p, (short)pairs, ByteOrder.LITTLE_ENDIAN); // max_tx_vq: every pair transmits
        buffer.putByte(p + 2, (byte)keyLength);
        buffer.putBytes(p + RSS_TRAILER_LENGTH, key, 0, keyLength);
        return p + RSS_TRAILER_LENGTH + keyLength - at;
    }

    private String describe(final int command)
    {
        return MQ_VQ_PAIRS_SET == command ? name(CLASS_MQ, command) + " " + pairs + " (the device's " +
            "max_virtqueue_pairs allows fewer?)" : name(CLASS_MQ, command) + " (" + tableLength + " entries, key of " +
            keyLength + " bytes, hash types 0x" + Integer.toHexString(hashTypes) + ")";
    }

    private void fail(final String why)
    {
        sendPairs = false;
        sendRss = false;
        status = RxFilterStatus.FAILED;
        error = "virtio device " + deviceName + " " + why + "; frames may all arrive on queue pair 0";
    }
}
