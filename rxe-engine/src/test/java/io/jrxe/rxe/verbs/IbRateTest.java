package io.jrxe.rxe.verbs;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IbRateTest
{
    /** Linux include/rdma/ib_verbs.h enum ib_rate and the switch tables of drivers/infiniband/core/verbs.c. */
    private static final String KERNEL_TABLE = """
        IB_RATE_PORT_CURRENT,0,-1,-1
        IB_RATE_2_5_GBPS,2,1,2500
        IB_RATE_5_GBPS,5,2,5000
        IB_RATE_10_GBPS,3,4,10000
        IB_RATE_20_GBPS,6,8,20000
        IB_RATE_30_GBPS,4,12,30000
        IB_RATE_40_GBPS,7,16,40000
        IB_RATE_60_GBPS,8,24,60000
        IB_RATE_80_GBPS,9,32,80000
        IB_RATE_120_GBPS,10,48,120000
        IB_RATE_14_GBPS,11,6,14062
        IB_RATE_56_GBPS,12,22,56250
        IB_RATE_112_GBPS,13,45,112500
        IB_RATE_168_GBPS,14,67,168750
        IB_RATE_25_GBPS,15,10,25781
        IB_RATE_100_GBPS,16,40,103125
        IB_RATE_200_GBPS,17,80,206250
        IB_RATE_300_GBPS,18,120,309375
        IB_RATE_28_GBPS,19,11,28125
        IB_RATE_50_GBPS,20,20,53125
        IB_RATE_400_GBPS,21,160,425000
        IB_RATE_600_GBPS,22,240,637500
        IB_RATE_800_GBPS,23,320,850000
        """;

    @Test
    void shouldMatchTheKernelTableEntryForEntry()
    {
        final String[] lines = KERNEL_TABLE.strip().split("\n");
        assertEquals(lines.length, IbRate.values().length, "one constant per kernel enum value");
        for (final String line : lines)
        {
            final String[] f = line.strip().split(",");
            final String javaName = f[0].equals("IB_RATE_PORT_CURRENT") ? "PORT_CURRENT" :
                "GBPS_" + f[0].substring("IB_RATE_".length(), f[0].length() - "_GBPS".length());
            final IbRate rate = IbRate.valueOf(javaName);
            assertEquals(Integer.parseInt(f[1]), rate.code(), f[0] + " code");
            assertEquals(Integer.parseInt(f[2]), rate.toMult(), f[0] + " ib_rate_to_mult");
            assertEquals(Integer.parseInt(f[3]), rate.toMbps(), f[0] + " ib_rate_to_mbps");
            assertSame(rate, IbRate.fromCode(rate.code()));
        }
    }

    @Test
    void shouldConvertEveryMultipleLikeMultToIbRate()
    {
        final Map<Integer, IbRate> byMult = new HashMap<>();
        for (final String line : KERNEL_TABLE.strip().split("\n"))
        {
            final String[] f = line.strip().split(",");
            if (!"-1".equals(f[2]))
            {
                byMult.put(Integer.parseInt(f[2]), IbRate.fromCode(Integer.parseInt(f[1])));
            }
        }
        for (int mult = -5; mult <= 1000; mult++)
        {
            assertSame(byMult.getOrDefault(mult, IbRate.PORT_CURRENT), IbRate.fromMult(mult), "mult " + mult);
        }
        assertSame(IbRate.PORT_CURRENT, IbRate.fromMult(Integer.MIN_VALUE));
        assertSame(IbRate.PORT_CURRENT, IbRate.fromMult(Integer.MAX_VALUE));
    }

    @Test
    void shouldRoundTripEveryRateThroughItsMultiple()
    {
        for (final IbRate rate : IbRate.values())
        {
            if (IbRate.PORT_CURRENT != rate)
            {
                assertSame(rate, IbRate.fromMult(rate.toMult()), rate.name());
            }
        }
    }

    @ParameterizedTest
    @CsvSource({ "1", "24", "25", "63", "-1", "256" })
    void shouldRefuseCodesThatAreNoRate(final int code)
    {
        final VerbsException ex = assertThrows(VerbsException.class, () -> IbRate.fromCode(code));
        assertEquals(Errno.EINVAL, ex.errno());
    }

    @Test
    void shouldGiveTheSeedsExamples()
    {
        assertEquals(2, IbRate.GBPS_5.toMult(), "ib_rate_to_mult(IB_RATE_5_GBPS) is 2");
        assertEquals(2500, IbRate.GBPS_2_5.toMbps(), "ib_rate_to_mbps(IB_RATE_2_5_GBPS) is 2500");
    }
}
