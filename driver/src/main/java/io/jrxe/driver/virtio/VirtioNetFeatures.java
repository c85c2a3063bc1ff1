package io.jrxe.driver.virtio;

import io.jrxe.driver.mem.PacketPool;

import java.util.concurrent.ThreadLocalRandom;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * What {@link VirtioNetDriver} agrees with a virtio-net device (virtio 1.1 §3.1.1 steps 4..6) and reads from its
 * configuration (§5.1.4): VERSION_1 and ACCESS_PLATFORM (required); MAC, MTU and STATUS when offered; CTRL_VQ with
 * CTRL_RX when both are offered and the device has a third queue for controlq (§5.1.2), for the receive filter;
 * with {@link VirtioNetConfig#queuePairs()} above 1 also MQ (required then) and RSS when offered; nothing else.
 * With N = 1 pair (the default) neither MQ nor RSS is asked for, so controlq stays queue 2. Setup-time code, on
 * the driver's thread.
 */
final class VirtioNetFeatures
{
    private static final int MAX_CONFIG_READ_ATTEMPTS = 100;
    private static final long CONTROL = featureMask(F_CTRL_VQ) | featureMask(F_CTRL_RX);
    private static final long MULTIQUEUE = featureMask(F_MQ) | featureMask(F_RSS);

    private final VirtioPciTransport transport;
    private final VirtioNetConfig config;
    private final String name;

    VirtioNetFeatures(final VirtioPciTransport transport, final VirtioNetConfig config, final String name)
    {
        this.transport = transport;
        this.config = config;
        this.name = name;
    }

    /**
     * Reads what the device offers, writes what the driver takes and sets FEATURES_OK (after ACKNOWLEDGE and
     * DRIVER).
     *
     * @return the features both agreed on
     * @throws IllegalStateException if the device lacks a required feature, its MTU does not fit the buffers, or
     *                               it refuses FEATURES_OK
     */
    long negotiate()
    {
        final long offered = transport.deviceFeatures();
        if (0 == (offered & featureMask(F_VERSION_1)))
        {
            throw new IllegalStateException("virtio device " + name + " does not offer VIRTIO_F_VERSION_1 " +
                "(feature bit 32; offered 0x" + Long.toHexString(offered) + "): it is a legacy device. jrxe " +
                "drives virtio 1.x modern devices only (QEMU: virtio-net-pci,disable-legacy=on)");
        }
        if (0 == (offered & featureMask(F_ACCESS_PLATFORM)))
        {
            throw new IllegalStateException("virtio device " + name + " does not offer " +
                "VIRTIO_F_ACCESS_PLATFORM (feature bit 33; offered 0x" + Long.toHexString(offered) + "): " +
                "without it the device ignores the IOMMU while this driver gives it IOVAs " +
                "(QEMU: virtio-net-pci,iommu_platform=on)");
        }
        long wanted = featureMask(F_VERSION_1) | featureMask(F_ACCESS_PLATFORM);
        if (transport.deviceConfigLength() > 0)
        {
            wanted |= featureMask(F_MAC) | featureMask(F_MTU) | featureMask(F_STATUS);
        }
        // §5.1.3.1: CTRL_RX requires CTRL_VQ, and the queue serves nothing else here: both or neither. Without MQ
        // controlq is queue 2 (§5.1.2), so the device must have three.
        if (CONTROL == (offered & CONTROL) && transport.numQueues() > CTRL_QUEUE)
        {
            wanted |= CONTROL;
        }
        if (config.queuePairs() > 1)
        {
            wanted |= checkMultiqueue(offered);
        }
        final long accepted = offered & wanted;
        if (0 != (accepted & featureMask(F_MTU)))
        {
            // §5.1.4.2: with F_MTU negotiated the rx buffers must hold an mtu-sized frame; fail rather than drop.
            checkMtuFits(readMtu());
        }
        transport.driverFeatures(accepted);
        final int status = STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK;
        transport.deviceStatus(status);
        final int readBack = transport.deviceStatus();
        if (0 == (readBack & STATUS_FEATURES_OK))
        {
            // §3.1.1 step 6: FEATURES_OK cleared means the device cannot work with this feature subset.
            throw new IllegalStateException("virtio device " + name + " did not accept features 0x" +
                Long.toHexString(accepted) + " (of offered 0x" + Long.toHexString(offered) +
                "): FEATURES_OK did not stay set, device_status 0x" + Integer.toHexString(readBack) +
                ". The device requires a feature this driver does not implement");
        }
        return accepted;
    }

    /**
     * With more than one queue pair wanted: the device must offer MQ with CTRL_VQ and enough pairs (§5.1.4:
     * max_virtqueue_pairs is valid once F_MQ or F_RSS is offered), and queues 0..2N for them and controlq.
     *
     * @return MQ, and RSS if offered
     */
    private long checkMultiqueue(final long offered)
    {
        final int wanted = config.queuePairs();
        if (0 == (offered & featureMask(F_MQ)) || CONTROL != (offered & CONTROL))
        {
            throw new IllegalStateException("virtio device " + name + " does not offer VIRTIO_NET_F_MQ with " +
                "CTRL_VQ and CTRL_RX (offered 0x" + Long.toHexString(offered) + ") but VirtioNetConfig.queuePairs " +
                "is " + wanted + ": set queuePairs(1), or give the device queues (QEMU: -netdev ...,queues=" +
                wanted + " -device virtio-net-pci,mq=on,vectors=" + (2 * wanted + 2) + "; emulated: " +
                "Context.maxQueuePairs(" + wanted + "))");
        }
        final int max = readMaxQueuePairs();
        if (max < wanted)
        {
            throw new IllegalStateException("virtio device " + name + " has max_virtqueue_pairs " + max +
                ", fewer than VirtioNetConfig.queuePairs " + wanted + ": ask for at most " + max +
                " pairs, or give the device more (QEMU: queues=" + wanted + "; emulated: Context.maxQueuePairs)");
        }
        if (transport.numQueues() <= ctrlQueue(max))
        {
            throw new IllegalStateException("virtio device " + name + " has " + transport.numQueues() +
                " virtqueues, fewer than the " + (ctrlQueue(max) + 1) + " of max_virtqueue_pairs " + max +
                " pairs and controlq (§5.1.2)");
        }
        return offered & MULTIQUEUE;
    }

    int readMaxQueuePairs()
    {
        return transport.deviceConfig16(CONFIG_MAX_VIRTQUEUE_PAIRS);
    }

    int readRssMaxKeySize()
    {
        return transport.deviceConfig8(CONFIG_RSS_MAX_KEY_SIZE);
    }

    int readRssMaxTableLength()
    {
        return transport.deviceConfig16(CONFIG_RSS_MAX_INDIRECTION_TABLE_LENGTH);
    }

    int readSupportedHashTypes()
    {
        return transport.deviceConfig16(CONFIG_SUPPORTED_HASH_TYPES) |
            transport.deviceConfig16(CONFIG_SUPPORTED_HASH_TYPES + 2) << 16;
    }

    private void checkMtuFits(final int deviceMtu)
    {
        if (deviceMtu < MIN_MTU)
        {
            throw new IllegalStateException("virtio device " + name + " reports MTU " + deviceMtu +
                ", below the minimum " + MIN_MTU + " of virtio 1.1 §5.1.4.1");
        }
        final int dataCapacity = config.bufferSize() - PacketPool.HEADER_LENGTH;
        if (deviceMtu + ETHERNET_HEADER_LENGTH > dataCapacity)
        {
            throw new IllegalStateException("virtio device " + name + " has MTU " + deviceMtu +
                ", frames up to " + (deviceMtu + ETHERNET_HEADER_LENGTH) + " bytes do not fit buffers of " +
                dataCapacity + " data bytes: raise VirtioNetConfig.bufferSize to at least " +
                ((PacketPool.HEADER_LENGTH + ETHERNET_HEADER_LENGTH + deviceMtu + 63) & -64));
        }
    }

    int readMtu()
    {
        return transport.deviceConfig16(CONFIG_MTU);
    }

    /** Multi-byte config reads are consistent only if config_generation did not change meanwhile, §2.4.1. */
    long readMac()
    {
        for (int attempt = 0; attempt < MAX_CONFIG_READ_ATTEMPTS; attempt++)
        {
            final int generation = transport.configGeneration();
            long mac = 0;
            for (int i = 0; i < 6; i++)
            {
                mac = mac << 8 | transport.deviceConfig8(CONFIG_MAC + i);
            }
            if (generation == transport.configGeneration())
            {
                return mac;
            }
        }
        throw new IllegalStateException("virtio device " + name + ": config_generation kept changing while " +
            "reading the MAC address");
    }

    /** The configured fallback MAC, or a random one: locally administered (bit 1 of byte 0), unicast (bit 0). */
    long fallbackMac()
    {
        if (0 != config.fallbackMacAddress())
        {
            return config.fallbackMacAddress() & 0xffff_ffff_ffffL;
        }
        return (ThreadLocalRandom.current().nextLong() & 0xfcff_ffff_ffffL) | 0x0200_0000_0000L;
    }
}
