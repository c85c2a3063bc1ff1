package io.jrxe.ulp.cm.mad;

import java.nio.ByteOrder;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * REJ reasons and AP status codes against Linux include/rdma/ib_cm.h, and ClassPortInfo.
 */
class CodesTest
{
    /** enum ib_cm_rej_reason, copied value by value from the kernel header. */
    private static final Map<String, Integer> LINUX_REJ_REASONS = Map.ofEntries(
        Map.entry("NO_QP", 1), Map.entry("NO_EEC", 2), Map.entry("NO_RESOURCES", 3), Map.entry("TIMEOUT", 4),
        Map.entry("UNSUPPORTED", 5), Map.entry("INVALID_COMM_ID", 6), Map.entry("INVALID_COMM_INSTANCE", 7),
        Map.entry("INVALID_SERVICE_ID", 8), Map.entry("INVALID_TRANSPORT_TYPE", 9), Map.entry("STALE_CONN", 10),
        Map.entry("RDC_NOT_EXIST", 11), Map.entry("INVALID_GID", 12), Map.entry("INVALID_LID", 13),
        Map.entry("INVALID_SL", 14), Map.entry("INVALID_TRAFFIC_CLASS", 15), Map.entry("INVALID_HOP_LIMIT", 16),
        Map.entry("INVALID_PACKET_RATE", 17), Map.entry("INVALID_ALT_GID", 18), Map.entry("INVALID_ALT_LID", 19),
        Map.entry("INVALID_ALT_SL", 20), Map.entry("INVALID_ALT_TRAFFIC_CLASS", 21),
        Map.entry("INVALID_ALT_HOP_LIMIT", 22), Map.entry("INVALID_ALT_PACKET_RATE", 23),
        Map.entry("PORT_CM_REDIRECT", 24), Map.entry("PORT_REDIRECT", 25), Map.entry("INVALID_MTU", 26),
        Map.entry("INSUFFICIENT_RESP_RESOURCES", 27), Map.entry("CONSUMER_DEFINED", 28),
        Map.entry("INVALID_RNR_RETRY", 29), Map.entry("DUPLICATE_LOCAL_COMM_ID", 30),
        Map.entry("INVALID_CLASS_VERSION", 31), Map.entry("INVALID_FLOW_LABEL", 32),
        Map.entry("INVALID_ALT_FLOW_LABEL", 33), Map.entry("VENDOR_OPTION_NOT_SUPPORTED", 35));

    @Test
    void shouldNumberEveryRejReasonAsLinux()
    {
        assertEquals(LINUX_REJ_REASONS.size(), RejReason.values().length);
        for (final RejReason r : RejReason.values())
        {
            assertEquals(LINUX_REJ_REASONS.get(r.name()), r.code(), r.name());
        }
    }

    @Test
    void shouldFindEveryRejReasonByCodeAndNoOther()
    {
        for (final Map.Entry<String, Integer> e : LINUX_REJ_REASONS.entrySet())
        {
            assertSame(RejReason.valueOf(e.getKey()), RejReason.of(e.getValue()), e.getKey());
        }
        for (final int unknown : new int[] {0, 34, 36, 255, 0xFFFF, -1, Integer.MIN_VALUE})
        {
            assertNull(RejReason.of(unknown), "code " + unknown);
        }
    }

    @Test
    void shouldDescribeReasonsWithTheirCodes()
    {
        assertEquals("INVALID_SERVICE_ID (8)", RejReason.INVALID_SERVICE_ID.describe());
        assertEquals("CONSUMER_DEFINED (28)", RejReason.describe(28));
        assertEquals("UNKNOWN (34)", RejReason.describe(34));
    }

    @Test
    void shouldNumberTheApStatusAsLinux()
    {
        assertEquals(0, AprMessage.AP_STATUS_SUCCESS);
        assertEquals(1, AprMessage.AP_STATUS_INVALID_COMM_ID);
        assertEquals(2, AprMessage.AP_STATUS_UNSUPPORTED);
        assertEquals(2, AprMessage.AP_STATUS_NOT_SUPPORTED);
        assertEquals(3, AprMessage.AP_STATUS_REJECT);
        assertEquals(4, AprMessage.AP_STATUS_REDIRECT);
        assertEquals(5, AprMessage.AP_STATUS_IS_CURRENT);
        assertEquals(6, AprMessage.AP_STATUS_INVALID_QPN_EECN);
        assertEquals(7, AprMessage.AP_STATUS_INVALID_LID);
        assertEquals(8, AprMessage.AP_STATUS_INVALID_GID);
        assertEquals(9, AprMessage.AP_STATUS_INVALID_FLOW_LABEL);
        assertEquals(10, AprMessage.AP_STATUS_INVALID_TCLASS);
        assertEquals(11, AprMessage.AP_STATUS_INVALID_HOP_LIMIT);
        assertEquals(12, AprMessage.AP_STATUS_INVALID_PACKET_RATE);
        assertEquals(13, AprMessage.AP_STATUS_INVALID_SL);
    }

    @Test
    void shouldPlaceClassPortInfoFieldsAtTheStartOfTheDataArea()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        buffer.setMemory(0, MadHeader.MAD_SIZE, (byte)0xFF);
        final ClassPortInfo cpi = new ClassPortInfo().wrap(buffer, 0)
            .baseVersion(1).classVersion(2).capabilityMask(0x0102).respTimeValue(0x12);

        assertEquals(0x01020102, buffer.getInt(24, ByteOrder.BIG_ENDIAN));
        assertEquals(0xFFFFFFE0 | 0x12, buffer.getInt(28, ByteOrder.BIG_ENDIAN), "CapabilityMask2 kept");
        assertEquals(0x12, cpi.respTimeValue());
        assertEquals(0x7FFFFFF, cpi.capabilityMask2());

        cpi.capabilityMask2(0x4000001).respTimeValue(0xFF);
        assertEquals((0x4000001 << 5) | 0x1F, buffer.getInt(28, ByteOrder.BIG_ENDIAN));
        assertEquals(1, cpi.baseVersion());
        assertEquals(2, cpi.classVersion());
        assertEquals(0x0102, cpi.capabilityMask());
        assertEquals(0x4000001, cpi.capabilityMask2());
        assertEquals(0x1F, cpi.respTimeValue());
        assertEquals(CmAttributes.CLASS_PORT_INFO, ClassPortInfo.ATTRIBUTE_ID);
        assertEquals(0, cpi.privateDataLength());
        assertEquals(0, cpi.localCommId());
        assertThrows(UnsupportedOperationException.class, () -> cpi.localCommId(1));
    }
}
