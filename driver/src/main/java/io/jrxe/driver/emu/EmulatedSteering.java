package io.jrxe.driver.emu;

import io.jrxe.driver.rss.RssFlow;
import io.jrxe.driver.rss.RssHashTypes;
import io.jrxe.driver.rss.ToeplitzHash;
import org.agrona.DirectBuffer;

/**
 * Which receive queue a frame goes to on the emulated multiqueue device (virtio 1.x §5.1.6.5.5, §5.1.6.5.7), set
 * by controlq's MQ commands:
 * <pre>
 *   after reset, or after VQ_PAIRS_SET:  every frame -> receiveq1 (queue pair 0)
 *   after RSS_CONFIG:  frame --RssFlow(hash_types)--> hash --& mask--> indirection_table[] --> receiveq
 *                      no hash type applies (ARP, ...) ---------------------------------------> unclassified_queue
 * </pre>
 * Departure from the spec: without RSS, "automatic receive steering" (§5.1.6.5.5, a flow's frames to the receive
 * queue of the transmit queue it was last sent on) is not implemented; everything goes to receiveq1, which the
 * spec allows for a flow never sent on. VQ_PAIRS_SET turns RSS off, as QEMU's virtio_net_handle_mq() does
 * (it turns RSS off before any MQ command). RSS_CONFIG sets the pairs in use to max(max_tx_vq, largest queue in
 * the table + 1), so every queue the table names receives. Departure from QEMU: a refused RSS_CONFIG changes
 * nothing here, where QEMU is left with RSS off.
 * <p>
 * State of the device agent's thread (commands and frames are both handled there); {@link #pairs()} and
 * {@link #rssEnabled()} are also read by other threads for diagnostics. Allocation-free on the frame path.
 */
final class EmulatedSteering
{
    /** QEMU's VIRTIO_NET_RSS_MAX_TABLE_LEN. */
    static final int MAX_TABLE_LENGTH = 128;

    private final int maxPairs;
    private final ToeplitzHash toeplitz = new ToeplitzHash();
    private final RssFlow flow = new RssFlow(toeplitz);
    private final int[] table = new int[MAX_TABLE_LENGTH];
    private final int[] staged = new int[MAX_TABLE_LENGTH];
    private final byte[] stagedKey = new byte[ToeplitzHash.KEY_LENGTH];
    private volatile int pairs = 1;
    private volatile boolean rss;
    private int hashTypes;
    private int mask;
    private int unclassified;

    EmulatedSteering(final int maxPairs)
    {
        this.maxPairs = maxPairs;
    }

    int maxPairs()
    {
        return maxPairs;
    }

    /** Queue pairs in use: receive queues frames may go to. */
    int pairs()
    {
        return pairs;
    }

    boolean rssEnabled()
    {
        return rss;
    }

    /** Back to one pair, RSS off (§5.1.6.5.5: after reset only receiveq1 and transmitq1 are used). */
    void reset()
    {
        pairs = 1;
        rss = false;
    }

    /** VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET; false (VIRTIO_NET_ERR) outside 1..max_virtqueue_pairs, §5.1.6.5.5.2. */
    boolean pairs(final int requested)
    {
        if (requested < io.jrxe.driver.virtio.VirtioNetCtrl.MQ_VQ_PAIRS_MIN || requested > maxPairs)
        {
            return false;
        }
        pairs = requested;
        rss = false;
        return true;
    }

    /** Entry {@code i} of the table being staged by an RSS_CONFIG command (applied by {@link #applyRss}). */
    void stageEntry(final int i, final int queue)
    {
        staged[i] = queue;
    }

    byte[] stagedKey()
    {
        return stagedKey;
    }

    /**
     * Checks and applies a staged RSS_CONFIG (§5.1.6.5.7.1/.2: table length a power of two, queues that exist,
     * key within rss_max_key_size); all checks before anything is stored.
     *
     * @return null if taken, else why it is refused (the command then changes nothing)
     */
    String applyRss(final int types, final int tableLength, final int unclassifiedQueue, final int maxTxVq,
        final int keyLength)
    {
        if (0 == tableLength || tableLength > MAX_TABLE_LENGTH || 0 != (tableLength & (tableLength - 1)))
        {
            return "indirection table length " + tableLength + " is not a power of two up to " + MAX_TABLE_LENGTH;
        }
        if (unclassifiedQueue >= maxPairs)
        {
            return "unclassified_queue " + unclassifiedQueue + " is not a receive queue of " + maxPairs + " pairs";
        }
        int highest = unclassifiedQueue;
        for (int i = 0; i < tableLength; i++)
        {
            if (staged[i] >= maxPairs)
            {
                return "indirection_table[" + i + "] = " + staged[i] + " is not a receive queue";
            }
            highest = Math.max(highest, staged[i]);
        }
        if (maxTxVq < 1 || maxTxVq > maxPairs)
        {
            return "max_tx_vq " + maxTxVq + " is outside 1.." + maxPairs;
        }
        if (keyLength < 1 || keyLength > ToeplitzHash.KEY_LENGTH)
        {
            return "hash_key_length " + keyLength + " is outside 1.." + ToeplitzHash.KEY_LENGTH;
        }
        System.arraycopy(staged, 0, table, 0, tableLength);
        toeplitz.key(stagedKey, 0, keyLength);
        hashTypes = types & RssHashTypes.SUPPORTED;
        mask = tableLength - 1;
        unclassified = unclassifiedQueue;
        pairs = Math.max(maxTxVq, highest + 1);
        rss = true;
        return null;
    }

    /** The receive queue (pair number) of a frame. */
    int queueOf(final DirectBuffer frame, final int offset, final int length)
    {
        if (!rss)
        {
            return 0;
        }
        final long hash = flow.hash(hashTypes, frame, offset, length);
        return RssFlow.NO_HASH == hash ? unclassified : table[(int)(hash & mask)];
    }
}
