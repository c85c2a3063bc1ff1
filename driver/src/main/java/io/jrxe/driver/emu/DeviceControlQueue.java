package io.jrxe.driver.emu;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.jrxe.driver.virtio.VirtioNet.F_MQ;
import static io.jrxe.driver.virtio.VirtioNet.F_RSS;
import static io.jrxe.driver.virtio.VirtioNetCtrl.*;

/**
 * The device's side of controlq (virtio 1.1 §5.1.6.5), processed as QEMU's {@code virtio_net_handle_ctrl()} does:
 * after a notification, every available chain is taken, its header and data read from the device-readable part,
 * the command applied to the {@link EmulatedRxFilter}, and one ack byte written to the start of the device-writable
 * part (used.len 1). The layout of a command is in {@link io.jrxe.driver.virtio.VirtioNetCtrl}.
 * <ul>
 *   <li>A chain without a 2-byte header or a writable byte is a driver error: QEMU's "virtio-net ctrl missing
 *       headers", DEVICE_NEEDS_RESET, the chain not completed.</li>
 *   <li>VIRTIO_NET_CTRL_RX (§5.1.6.5.1): one data byte, non-zero is on; PROMISC, ALLMULTI and the RX_EXTRA modes
 *       (QEMU takes them whatever was negotiated); no data byte or another command: VIRTIO_NET_ERR.</li>
 *   <li>VIRTIO_NET_CTRL_MAC (§5.1.6.5.2): MAC_ADDR_SET takes 6 bytes as the device's MAC (filter and config
 *       space, as QEMU, which does not check CTRL_MAC_ADDR either); MAC_TABLE_SET takes the unicast table, then the
 *       multicast table, which must end the data exactly. A table beyond the 64 entries left is not stored and lets
 *       all frames of its kind through (QEMU's uni_overflow / multi_overflow). A malformed command leaves the table
 *       as it was and is answered VIRTIO_NET_ERR.</li>
 *   <li>VIRTIO_NET_CTRL_MQ (§5.1.6.5.5, §5.1.6.5.7), with F_MQ (VQ_PAIRS_SET) or F_RSS (RSS_CONFIG) negotiated:
 *       VQ_PAIRS_SET takes 1..max_virtqueue_pairs pairs and turns RSS off; RSS_CONFIG takes hash types, table,
 *       unclassified queue, max_tx_vq and key, all checked before any is stored ({@link EmulatedSteering}). Out of
 *       range, short data, or the feature not negotiated: VIRTIO_NET_ERR, nothing changes.</li>
 *   <li>Other classes (VLAN, ANNOUNCE, GUEST_OFFLOADS: features this device does not offer): VIRTIO_NET_ERR.</li>
 * </ul>
 * Runs on the device agent's thread; allocates nothing but the message of a refused MQ command.
 */
final class DeviceControlQueue
{
    /** Largest controlq QEMU offers (virtio_add_queue(vdev, 64, ...)). */
    static final int MAX_SIZE = 64;
    private static final String MISSING_HEADERS =
        "virtio-net ctrl missing headers: a command needs a 2-byte header and a 1-byte ack (virtio 1.1 §5.1.6.5)";

    private final DeviceVirtqueue queue;
    private final VirtioNetRegisters registers;
    private final EmulatedRxFilter filter;
    private final EmulatedNicCounters counters;
    private final EmulatedSteering steering;
    private final int index;
    private final UnsafeBuffer header = new UnsafeBuffer(new byte[8]);
    private final UnsafeBuffer macBytes = new UnsafeBuffer(new byte[EmulatedRxFilter.TABLE_ENTRIES * MAC_LENGTH]);
    private final long[] macs = new long[EmulatedRxFilter.TABLE_ENTRIES];
    private final UnsafeBuffer ack = new UnsafeBuffer(new byte[ACK_LENGTH]);
    private final UnsafeBuffer table = new UnsafeBuffer(new byte[2 * EmulatedSteering.MAX_TABLE_LENGTH]);
    /** Why the last MQ command was refused, or null (diagnostics). */
    private volatile String mqError;
    /** Why the last {@link #process()} stopped the device, or null. */
    private String error;
    private boolean iommuFault;

    /**
     * @param index controlq's virtqueue index (2 * max_virtqueue_pairs, §5.1.2)
     */
    DeviceControlQueue(final int index, final EmulatedIommu iommu, final VirtioNetRegisters registers,
        final EmulatedRxFilter filter, final EmulatedSteering steering, final EmulatedNicCounters counters)
    {
        this.index = index;
        this.steering = steering;
        this.queue = new DeviceVirtqueue(index, MAX_SIZE, iommu);
        this.registers = registers;
        this.filter = filter;
        this.counters = counters;
    }

    DeviceVirtqueue queue()
    {
        return queue;
    }

    /** A driver error that needs DEVICE_NEEDS_RESET, found by the last {@link #process()}; null if none. */
    String error()
    {
        return error;
    }

    /** The last {@link #process()} met DMA outside the IOMMU mappings. */
    boolean iommuFault()
    {
        return iommuFault;
    }

    /**
     * After a notification of controlq: answers every available command and publishes the used entries.
     *
     * @return commands answered; check {@link #error()} and {@link #iommuFault()} after
     */
    int process()
    {
        error = null;
        iommuFault = false;
        if (!registers.takeKick(index) || !queue.live())
        {
            return 0;
        }
        final int pending = queue.pending();
        if (pending < 0)
        {
            error = DeviceVirtqueue.error(-pending);
            return 0;
        }
        int done = 0;
        for (; done < pending; done++)
        {
            final int rc = queue.walk();
            if (DeviceVirtqueue.OK != rc)
            {
                error = DeviceVirtqueue.error(rc);
                break;
            }
            if (queue.readable() < CTRL_HEADER_LENGTH || queue.writable() < ACK_LENGTH)
            {
                error = MISSING_HEADERS;
                break;
            }
            if (!queue.gather(0, header, 0, CTRL_HEADER_LENGTH))
            {
                iommuFault = true;
                break;
            }
            final int status = execute(header.getByte(0) & 0xff, header.getByte(1) & 0xff,
                queue.readable() - CTRL_HEADER_LENGTH);
            if (iommuFault)
            {
                break;
            }
            ack.putByte(0, (byte)status);
            if (!queue.scatter(0, ack, 0, ACK_LENGTH))
            {
                iommuFault = true;
                break;
            }
            queue.complete(ACK_LENGTH);
            counters.increment(EmulatedNicCounters.CTRL_COMMANDS);
            if (OK != status)
            {
                counters.increment(EmulatedNicCounters.CTRL_ERRORS);
            }
        }
        if (queue.publish() > 0 && !queue.interruptSuppressed())
        {
            registers.raiseQueueInterrupt(index);
        }
        return done;
    }

    /** @return the ack; sets {@link #iommuFault} if the data could not be read */
    private int execute(final int commandClass, final int command, final long dataLength)
    {
        if (CLASS_RX == commandClass)
        {
            if (dataLength < 1 || !read(CTRL_HEADER_LENGTH, header, 0, 1))
            {
                return ERR;
            }
            return filter.rxMode(command, 0 != header.getByte(0)) ? OK : ERR;
        }
        if (CLASS_MAC == commandClass)
        {
            if (MAC_ADDR_SET == command)
            {
                if (dataLength < MAC_LENGTH || !read(CTRL_HEADER_LENGTH, macBytes, 0, MAC_LENGTH))
                {
                    return ERR;
                }
                final long mac = mac(macBytes, 0);
                filter.mac(mac);
                registers.mac(mac);
                return OK;
            }
            return MAC_TABLE_SET == command ? macTable(dataLength) : ERR;
        }
        if (CLASS_MQ == commandClass)
        {
            return multiqueue(command, dataLength);
        }
        return ERR;
    }

    /** Why the device last refused an MQ command, or null. */
    String mqError()
    {
        return mqError;
    }

    private int multiqueue(final int command, final long dataLength)
    {
        final long negotiated = registers.driverFeatures();
        if (MQ_VQ_PAIRS_SET == command)
        {
            if (0 == (negotiated & 1L << F_MQ))
            {
                return refuse("VQ_PAIRS_SET without VIRTIO_NET_F_MQ negotiated");
            }
            if (dataLength < 2 || !read(CTRL_HEADER_LENGTH, header, 0, 2))
            {
                return refuse("VQ_PAIRS_SET without its le16 virtqueue_pairs");
            }
            final int pairs = header.getShort(0, ByteOrder.LITTLE_ENDIAN) & 0xffff;
            // §5.1.6.5.5.2 / QEMU: 1..max_virtqueue_pairs, else VIRTIO_NET_ERR
            return steering.pairs(pairs) ? OK : refuse("VQ_PAIRS_SET " + pairs + " is outside " + MQ_VQ_PAIRS_MIN +
                ".." + steering.maxPairs());
        }
        if (MQ_RSS_CONFIG == command)
        {
            return 0 == (negotiated & 1L << F_RSS) ? refuse("RSS_CONFIG without VIRTIO_NET_F_RSS negotiated") :
                rssConfig(dataLength);
        }
        return refuse("MQ command " + command + " is not implemented (VIRTIO_NET_CTRL_MQ_HASH_CONFIG needs " +
            "VIRTIO_NET_F_HASH_REPORT, not offered)");
    }

    private int rssConfig(final long dataLength)
    {
        if (dataLength < RSS_HEADER_LENGTH || !read(CTRL_HEADER_LENGTH, header, 0, RSS_HEADER_LENGTH))
        {
            return refuse("RSS_CONFIG shorter than its 8-byte header");
        }
        final int hashTypes = header.getInt(0, ByteOrder.LITTLE_ENDIAN);
        final int tableLength = (header.getShort(4, ByteOrder.LITTLE_ENDIAN) & 0xffff) + 1;
        final int unclassified = header.getShort(6, ByteOrder.LITTLE_ENDIAN) & 0xffff;
        if (tableLength > EmulatedSteering.MAX_TABLE_LENGTH)
        {
            return refuse("RSS_CONFIG indirection table of " + tableLength + " entries, at most " +
                EmulatedSteering.MAX_TABLE_LENGTH);
        }
        final long tableAt = CTRL_HEADER_LENGTH + RSS_HEADER_LENGTH;
        if (dataLength < rssConfigLength(tableLength, 0) || !read(tableAt, table, 0, 2 * tableLength))
        {
            return refuse("RSS_CONFIG shorter than its indirection table and trailer");
        }
        for (int i = 0; i < tableLength; i++)
        {
            steering.stageEntry(i, table.getShort(2 * i, ByteOrder.LITTLE_ENDIAN) & 0xffff);
        }
        final long trailerAt = tableAt + 2L * tableLength;
        if (!read(trailerAt, header, 0, RSS_TRAILER_LENGTH))
        {
            return ERR;
        }
        final int maxTxVq = header.getShort(0, ByteOrder.LITTLE_ENDIAN) & 0xffff;
        final int keyLength = header.getByte(2) & 0xff;
        if (keyLength > steering.stagedKey().length || dataLength < rssConfigLength(tableLength, keyLength))
        {
            return refuse("RSS_CONFIG hash_key_length " + keyLength + " beyond its data or the key size");
        }
        if (keyLength > 0 && !read(trailerAt + RSS_TRAILER_LENGTH, macBytes, 0, keyLength))
        {
            return ERR;
        }
        macBytes.getBytes(0, steering.stagedKey(), 0, keyLength);
        final String why = steering.applyRss(hashTypes, tableLength, unclassified, maxTxVq, keyLength);
        return null == why ? OK : refuse("RSS_CONFIG: " + why);
    }

    /** Notes why an MQ command is refused (allocates the message: control path, driver error) and says ERR. */
    private int refuse(final String why)
    {
        mqError = why;
        return ERR;
    }

    /** QEMU's MAC_TABLE_SET: both tables are checked before either is stored. */
    private int macTable(final long dataLength)
    {
        long at = CTRL_HEADER_LENGTH;
        long remaining = dataLength;
        if (remaining < TABLE_ENTRIES_LENGTH || !read(at, header, 0, TABLE_ENTRIES_LENGTH))
        {
            return ERR;
        }
        final long unicast = header.getInt(0, ByteOrder.LITTLE_ENDIAN) & 0xffff_ffffL;
        at += TABLE_ENTRIES_LENGTH;
        remaining -= TABLE_ENTRIES_LENGTH;
        if (unicast * MAC_LENGTH > remaining)
        {
            return ERR;
        }
        int inUse = 0;
        final boolean unicastOverflow = unicast > EmulatedRxFilter.TABLE_ENTRIES;
        if (!unicastOverflow)
        {
            if (!readMacs(at, (int)unicast, 0))
            {
                return ERR;
            }
            inUse = (int)unicast;
        }
        at += unicast * MAC_LENGTH;
        remaining -= unicast * MAC_LENGTH;
        final int firstMulticast = inUse;
        if (remaining < TABLE_ENTRIES_LENGTH || !read(at, header, 0, TABLE_ENTRIES_LENGTH))
        {
            return ERR;
        }
        final long multicast = header.getInt(0, ByteOrder.LITTLE_ENDIAN) & 0xffff_ffffL;
        at += TABLE_ENTRIES_LENGTH;
        remaining -= TABLE_ENTRIES_LENGTH;
        if (multicast * MAC_LENGTH != remaining)
        {
            return ERR; // the multicast table ends the data exactly, as QEMU checks
        }
        final boolean multicastOverflow = multicast > EmulatedRxFilter.TABLE_ENTRIES - inUse;
        if (!multicastOverflow)
        {
            if (!readMacs(at, (int)multicast, inUse))
            {
                return ERR;
            }
            inUse += (int)multicast;
        }
        filter.table(macs, firstMulticast, unicastOverflow, inUse - firstMulticast, multicastOverflow);
        return OK;
    }

    private boolean readMacs(final long at, final int count, final int into)
    {
        if (!read(at, macBytes, 0, count * MAC_LENGTH))
        {
            return false;
        }
        for (int i = 0; i < count; i++)
        {
            macs[into + i] = mac(macBytes, i * MAC_LENGTH);
        }
        return true;
    }

    /** Reads from the chain's readable part; false (and {@link #iommuFault} set) on an IOMMU fault. */
    private boolean read(final long at, final UnsafeBuffer into, final int offset, final int length)
    {
        if (queue.gather(at, into, offset, length))
        {
            return true;
        }
        iommuFault = true;
        return false;
    }

    private static long mac(final UnsafeBuffer bytes, final int at)
    {
        return (bytes.getInt(at, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL) << 16 |
            (bytes.getShort(at + 4, ByteOrder.BIG_ENDIAN) & 0xffff);
    }
}
