package io.jrxe.driver.virtio;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.RxFilterStatus;
import io.jrxe.driver.pci.DmaMapper;
import io.jrxe.driver.rss.RssHashTypes;

/**
 * controlq of a {@link VirtioNetDriver} and its two users: the receive filter ({@link VirtioRxFilter}) and, with
 * VIRTIO_NET_F_MQ, the queue pairs and RSS ({@link VirtioSteering}). The queue carries one command at a time; a
 * command of class MQ belongs to the steering, any other to the filter, and each user sends only when the queue is
 * free, so the pairs go out first after DRIVER_OK and the filter follows.
 * <pre>
 *   DRIVER_OK ─▶ VQ_PAIRS_SET ─▶ RSS_CONFIG ─▶ (filter) ALLMULTI ─▶ MAC_TABLE_SET ─▶ PROMISC      one at a time
 *   linkUp() / rxFilterStatus() / rssStatus() ─▶ poll(): take answers, send what is next
 * </pre>
 * Before CTRL_VQ is negotiated and the queue set up (or on a device without it) there is no queue: the filter
 * reports {@link NicDevice#NO_RX_FILTER}, RSS is unsupported. Control path, on the NIC owner's thread (pair 0's);
 * allocates nothing but set-up and failure messages.
 */
final class VirtioControlPath
{
    private ControlVirtqueue control;
    private VirtioRxFilter rxFilter;
    private VirtioSteering steering;

    boolean isOpen()
    {
        return null != control;
    }

    ControlVirtqueue queue()
    {
        return control;
    }

    /**
     * Allocates controlq (virtqueue {@code index}) and its users, once; setup after FEATURES_OK.
     *
     * @param pairs  queue pairs to enable (steering is set up only with {@code mq})
     * @param mq     VIRTIO_NET_F_MQ negotiated
     * @param rss    VIRTIO_NET_F_RSS negotiated
     * @return false if the device's controlq cannot hold one command (the NIC stays promiscuous, one pair)
     * @throws IllegalStateException if it cannot and more than one pair is wanted
     */
    boolean open(final VirtioPciTransport transport, final DmaMapper dma, final VirtioNetConfig config,
        final String name, final int index, final int pairs, final boolean mq, final boolean rss,
        final VirtioNetFeatures negotiation)
    {
        if (null != control)
        {
            return true;
        }
        control = ControlVirtqueue.open(transport, dma, config, index);
        if (null == control)
        {
            if (pairs > 1)
            {
                throw new IllegalStateException("virtio device " + name + ": controlq cannot hold a command " +
                    "chain of 3 descriptors, so " + pairs + " queue pairs cannot be enabled " +
                    "(VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET); set VirtioNetConfig.queuePairs(1)");
            }
            return false;
        }
        rxFilter = new VirtioRxFilter(name, control, config.controlTimeoutNs());
        if (mq)
        {
            // hash types: UDP over IPv4 and IPv6 (RoCEv2), as far as the device supports them
            steering = new VirtioSteering(name, control, config.controlTimeoutNs(), pairs, rss,
                rss ? RssHashTypes.ROCE & negotiation.readSupportedHashTypes() : 0,
                rss ? negotiation.readRssMaxKeySize() : 0, rss ? negotiation.readRssMaxTableLength() : 0);
        }
        return true;
    }

    /** The driver's own MAC for the filter's unicast table ({@link VirtioRxFilter#unicast}). */
    void unicast(final long mac)
    {
        rxFilter.unicast(mac);
    }

    /** After DRIVER_OK: the pairs first, the filter after them (control commands notify: not before). */
    void deviceReady()
    {
        if (null != steering)
        {
            steering.deviceReady();
        }
        rxFilter.deviceReady();
    }

    void deviceLost()
    {
        if (null != rxFilter)
        {
            rxFilter.deviceLost();
        }
        if (null != steering)
        {
            steering.deviceLost();
        }
    }

    /** After a device reset completed: forget the command in flight, empty the ring. */
    void reset()
    {
        if (null != control)
        {
            deviceLost();
            control.reset();
        }
    }

    /** Moves both users along: the steering, the filter (which waits for it), the steering again. */
    void poll()
    {
        if (null != steering)
        {
            steering.poll();
        }
        if (null != rxFilter)
        {
            rxFilter.poll();
        }
        if (null != steering)
        {
            steering.poll(); // the queue may have come free for the next steering command
        }
    }

    int rxFilterCapacity()
    {
        return null != rxFilter ? VirtioRxFilter.MAX_MULTICAST : NicDevice.NO_RX_FILTER;
    }

    boolean rxFilter(final boolean promiscuous, final boolean allMulticast, final long[] macs, final int count)
    {
        if (null == rxFilter)
        {
            return false;
        }
        rxFilter.request(promiscuous, allMulticast, macs, count);
        return true;
    }

    RxFilterStatus rxFilterStatus(final boolean closed)
    {
        if (null == rxFilter)
        {
            return RxFilterStatus.UNSUPPORTED;
        }
        if (!closed)
        {
            poll();
        }
        return rxFilter.status();
    }

    String rxFilterError()
    {
        return null == rxFilter ? null : rxFilter.error();
    }

    int rssTableCapacity()
    {
        return null == steering ? 0 : steering.maxTableLength();
    }

    int rssKeyCapacity()
    {
        return null == steering ? 0 : steering.maxKeyLength();
    }

    boolean rss(final byte[] key, final int keyLength, final int[] table, final int tableLength)
    {
        if (0 == rssTableCapacity())
        {
            return false;
        }
        steering.request(key, keyLength, table, tableLength);
        return true;
    }

    int rssTable(final int[] into)
    {
        return 0 == rssTableCapacity() ? 0 : steering.table(into);
    }

    int rssKey(final byte[] into)
    {
        return 0 == rssTableCapacity() ? 0 : steering.key(into);
    }

    RxFilterStatus rssStatus(final boolean closed)
    {
        if (null == steering)
        {
            return RxFilterStatus.UNSUPPORTED;
        }
        if (!closed)
        {
            poll();
        }
        return steering.status();
    }

    String rssError()
    {
        return null == steering ? null : steering.error();
    }

    /** Frees ring and command buffer: only once the device is reset. */
    void close()
    {
        if (null != control)
        {
            control.close();
        }
    }
}
