package io.jrxe.driver.emu;

import io.jrxe.driver.rss.RssHashTypes;
import io.jrxe.driver.rss.ToeplitzHash;
import org.agrona.concurrent.AgentInvoker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioNetCtrl.*;
import static io.jrxe.driver.virtio.VirtioPci.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The multiqueue commands of controlq on the device side (virtio 1.x §5.1.6.5.5, §5.1.6.5.7), driven by
 * {@link RingDriver} with hand-made commands, including the ones a correct driver never sends.
 */
class DeviceMultiqueueTest
{
    private static final int SIZE = 16;
    private static final int PAIRS = 2;
    private static final long MQ = 1L << F_MQ | 1L << F_RSS;

    private final EmulatedWire wire = EmulatedWire.pointToPoint(WireFaults.none());
    private final EmulatedVirtioNet device = new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
        .port(wire.port(0)).maxQueueSize(SIZE).maxQueuePairs(PAIRS));
    private final AgentInvoker invoker = device.invoker();
    private final RingDriver driver = new RingDriver(device, SIZE, 2 * PAIRS + 1);
    private int slot;

    @AfterEach
    void close()
    {
        device.close();
        driver.close();
    }

    private int execute(final int command, final byte[] data)
    {
        return execute(driver, command, data);
    }

    private int execute(final RingDriver to, final int command, final byte[] data)
    {
        final byte[] c = new byte[2 + data.length];
        c[0] = (byte)CLASS_MQ;
        c[1] = (byte)command;
        System.arraycopy(data, 0, c, 2, data.length);
        final int i = slot++;
        to.sendCtrl(i, c);
        invoker.invoke();
        return to.ctrlAck(i);
    }

    private static byte[] le16(final int value)
    {
        return new byte[]{(byte)value, (byte)(value >>> 8)};
    }

    /** virtio_net_rss_config with a 40-byte key. */
    private static byte[] rssConfig(final int hashTypes, final int unclassified, final int maxTxVq, final int... table)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 4; i++)
        {
            out.write(hashTypes >>> (8 * i));
        }
        out.writeBytes(le16(table.length - 1));
        out.writeBytes(le16(unclassified));
        for (final int entry : table)
        {
            out.writeBytes(le16(entry));
        }
        out.writeBytes(le16(maxTxVq));
        out.write(ToeplitzHash.KEY_LENGTH);
        out.writeBytes(ToeplitzHash.microsoftKey());
        return out.toByteArray();
    }

    @Test
    void offersMultiqueueAndRssWithItsLimitsInTheConfig()
    {
        driver.start(RingDriver.FEATURES | VirtioNetRegisters.CONTROL_FEATURES | MQ);
        assertEquals(STATUS_FEATURES_OK, driver.status() & STATUS_FEATURES_OK, "MQ and RSS with CTRL_VQ accepted");
        assertEquals(2 * PAIRS + 1, driver.bar.read16(COMMON_NUM_QUEUES), "receiveq/transmitq x 2 and controlq");
        final int config = VirtioNetRegisters.DEVICE_OFFSET;
        assertEquals(PAIRS, driver.bar.read16(config + CONFIG_MAX_VIRTQUEUE_PAIRS));
        assertEquals(ToeplitzHash.KEY_LENGTH, driver.bar.read8(config + CONFIG_RSS_MAX_KEY_SIZE));
        assertEquals(EmulatedSteering.MAX_TABLE_LENGTH,
            driver.bar.read16(config + CONFIG_RSS_MAX_INDIRECTION_TABLE_LENGTH));
        assertEquals(RssHashTypes.SUPPORTED, driver.bar.read32(config + CONFIG_SUPPORTED_HASH_TYPES));
    }

    @Test
    void mqWithoutControlQueueIsRefusedAtFeaturesOk()
    {
        driver.writeStatus(0);
        driver.writeStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER);
        driver.writeFeatures(RingDriver.FEATURES | MQ);
        driver.writeStatus(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK);
        assertEquals(0, driver.status() & STATUS_FEATURES_OK, "§5.1.3.1: MQ and RSS require CTRL_VQ");
    }

    @Test
    void vqPairsSetOutOfRangeIsAnsweredErrAndChangesNothing()
    {
        driver.start(RingDriver.FEATURES | VirtioNetRegisters.CONTROL_FEATURES | MQ);
        assertEquals(1, device.queuePairs(), "one pair after reset, §5.1.6.5.5");
        assertEquals(ERR, execute(MQ_VQ_PAIRS_SET, le16(PAIRS + 1)));
        assertTrue(device.multiqueueError().contains("outside 1..2"), device.multiqueueError());
        assertEquals(ERR, execute(MQ_VQ_PAIRS_SET, le16(0)), "below VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MIN");
        assertEquals(ERR, execute(MQ_VQ_PAIRS_SET, new byte[]{2}), "a byte short");
        assertEquals(1, device.queuePairs());
        assertEquals(OK, execute(MQ_VQ_PAIRS_SET, le16(PAIRS)));
        assertEquals(PAIRS, device.queuePairs());
        assertEquals(3, device.counters().get(EmulatedNicCounters.CTRL_ERRORS));
    }

    @Test
    void rssConfigIsCheckedBeforeItIsTakenAndVqPairsSetTurnsItOff()
    {
        driver.start(RingDriver.FEATURES | VirtioNetRegisters.CONTROL_FEATURES | MQ);
        assertEquals(ERR, execute(MQ_RSS_CONFIG, rssConfig(RssHashTypes.ROCE, 0, PAIRS, 0, 1, 2, 1)));
        assertTrue(device.multiqueueError().contains("indirection_table[2] = 2"), device.multiqueueError());
        assertEquals(ERR, execute(MQ_RSS_CONFIG, rssConfig(RssHashTypes.ROCE, 0, PAIRS, 0, 1, 0)),
            "3 entries: not a power of two");
        assertEquals(ERR, execute(MQ_RSS_CONFIG, rssConfig(RssHashTypes.ROCE, 2, PAIRS, 0, 1)),
            "unclassified queue beyond the pairs");
        assertEquals(ERR, execute(MQ_RSS_CONFIG, rssConfig(RssHashTypes.ROCE, 0, PAIRS + 1, 0, 1)), "max_tx_vq");
        assertFalse(device.rssEnabled());
        assertEquals(1, device.queuePairs());
        assertEquals(OK, execute(MQ_RSS_CONFIG, rssConfig(RssHashTypes.ROCE, 0, 1, 0, 1)));
        assertTrue(device.rssEnabled());
        assertEquals(PAIRS, device.queuePairs(), "pairs = max(max_tx_vq, largest table entry + 1)");
        assertEquals(OK, execute(MQ_VQ_PAIRS_SET, le16(PAIRS)));
        assertFalse(device.rssEnabled(), "VQ_PAIRS_SET turns RSS off, as in QEMU");
    }

    @Test
    void mqCommandsNeedTheirFeatureNegotiated()
    {
        // without F_MQ or F_RSS the driver finds controlq at queue 2 (§5.1.2), whatever max_virtqueue_pairs is
        try (RingDriver single = new RingDriver(device, SIZE))
        {
            single.start(RingDriver.FEATURES | VirtioNetRegisters.CONTROL_FEATURES);
            assertEquals(ERR, execute(single, MQ_VQ_PAIRS_SET, le16(1)));
            assertTrue(device.multiqueueError().contains("VIRTIO_NET_F_MQ"), device.multiqueueError());
            assertEquals(ERR, execute(single, MQ_RSS_CONFIG, rssConfig(RssHashTypes.ROCE, 0, 1, 0, 1)));
            assertFalse(device.rssEnabled());
        }
    }

    @Test
    void contextChecksPairs()
    {
        final EmulatedWire other = EmulatedWire.pointToPoint(WireFaults.none());
        assertThrows(IllegalArgumentException.class, () -> new EmulatedVirtioNet(new EmulatedVirtioNet.Context()
            .port(other.port(0)).maxQueuePairs(0)));
        final IllegalArgumentException noCtrl = assertThrows(IllegalArgumentException.class, () ->
            new EmulatedVirtioNet(new EmulatedVirtioNet.Context().port(other.port(1)).maxQueuePairs(2)
                .controlQueue(false)));
        assertTrue(noCtrl.getMessage().contains("control queue"), noCtrl.getMessage());
    }
}
