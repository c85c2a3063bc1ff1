package io.jrxe.ulp.rdmacm;

import io.jrxe.driver.emu.WireFilter;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * A wire filter that drops chosen CM MADs: the next {@code n} MADs with a given attribute ID sent by one side.
 * <pre>
 *   frame: Eth 14 | IPv4 20 | UDP 8 (dport 4791) | BTH 12 (dest QPN at +5) | DETH 8 | MAD: ... AttributeID at +16
 *   offsets:  0       14        34                 42                          54      62           78
 * </pre>
 */
final class MadDropper implements WireFilter
{
    private static final int UDP_DPORT = 36;
    private static final int BTH_DQPN = 42 + 5;
    private static final int MAD = 62;
    private static final int ATTRIBUTE_ID = MAD + 16;

    private volatile int source = -1;
    private volatile int attributeId;
    private volatile int remaining;
    private volatile boolean blackhole;
    private volatile int dropped;

    /** Drop the next {@code count} MADs of {@code attribute} that {@code from} (0 = A, 1 = B) sends. */
    MadDropper drop(final int from, final int attribute, final int count)
    {
        source = from;
        attributeId = attribute;
        remaining = count;
        return this;
    }

    /** Drop everything {@code from} sends, MADs or not (a peer that is gone). */
    MadDropper silence(final int from)
    {
        source = from;
        blackhole = true;
        return this;
    }

    int dropped()
    {
        return dropped;
    }

    @Override
    public boolean drop(final int src, final int destination, final DirectBuffer frame, final int offset,
        final int length)
    {
        if (src != source)
        {
            return false;
        }
        if (blackhole)
        {
            dropped++;
            return true;
        }
        if (remaining <= 0 || length < MAD + 24 ||
            4791 != (frame.getShort(offset + UDP_DPORT, ByteOrder.BIG_ENDIAN) & 0xFFFF))
        {
            return false;
        }
        final int dqpn = ((frame.getByte(offset + BTH_DQPN) & 0xFF) << 16) |
            ((frame.getByte(offset + BTH_DQPN + 1) & 0xFF) << 8) | (frame.getByte(offset + BTH_DQPN + 2) & 0xFF);
        if (1 != dqpn || (frame.getShort(offset + ATTRIBUTE_ID, ByteOrder.BIG_ENDIAN) & 0xFFFF) != attributeId)
        {
            return false;
        }
        remaining--;
        dropped++;
        return true;
    }
}
