package io.jrxe.rxe.verbs;

/**
 * Static rate of an address vector ({@code enum ib_rate}, the value {@code rdma_ah_attr.static_rate} carries), with
 * the kernel's conversions {@code ib_rate_to_mult}, {@code ib_rate_to_mbps} and {@code mult_to_ib_rate}
 * (include/rdma/ib_verbs.h, drivers/infiniband/core/verbs.c).
 * <p>
 * The codes are ABI values and not in rate order: the SDR..QDR rates came first, FDR, EDR, HDR and NDR rates were
 * appended later. Per constant: code, multiple of 2.5 Gb/s, Mb/s.
 * <pre>
 *   code  rate      mult  Mb/s        code  rate      mult  Mb/s
 *    0    current    -1    -1          12   56        22    56250
 *    2    2.5         1    2500        13   112       45    112500
 *    5    5           2    5000        14   168       67    168750
 *    3    10          4    10000       15   25        10    25781
 *    6    20          8    20000       16   100       40    103125
 *    4    30         12    30000       17   200       80    206250
 *    7    40         16    40000       18   300      120    309375
 *    8    60         24    60000       19   28        11    28125
 *    9    80         32    80000       20   50        20    53125
 *   10    120        48    120000      21   400      160    425000
 *   11    14          6    14062       22   600      240    637500
 *                                      23   800      320    850000
 * </pre>
 * The multiples follow current Linux: rates that are not a multiple of 2.5 Gb/s (FDR 14, EDR 25, ...) round to
 * the nearest multiple ({@code 14 -> 6}); Linux before these rates were added to {@code ib_rate_to_mult}
 * returned -1 for them. Mb/s is the data rate after line coding (64b/66b for FDR and faster, so 14 Gb/s FDR
 * carries 14062 Mb/s), as {@code ib_rate_to_mbps} returns it.
 */
public enum IbRate
{
    /** {@code IB_RATE_PORT_CURRENT}: no static rate, the port's current rate. */
    PORT_CURRENT(0, -1, -1),
    GBPS_2_5(2, 1, 2500),
    GBPS_5(5, 2, 5000),
    GBPS_10(3, 4, 10000),
    GBPS_20(6, 8, 20000),
    GBPS_30(4, 12, 30000),
    GBPS_40(7, 16, 40000),
    GBPS_60(8, 24, 60000),
    GBPS_80(9, 32, 80000),
    GBPS_120(10, 48, 120000),
    GBPS_14(11, 6, 14062),
    GBPS_56(12, 22, 56250),
    GBPS_112(13, 45, 112500),
    GBPS_168(14, 67, 168750),
    GBPS_25(15, 10, 25781),
    GBPS_100(16, 40, 103125),
    GBPS_200(17, 80, 206250),
    GBPS_300(18, 120, 309375),
    GBPS_28(19, 11, 28125),
    GBPS_50(20, 20, 53125),
    GBPS_400(21, 160, 425000),
    GBPS_600(22, 240, 637500),
    GBPS_800(23, 320, 850000);

    private static final IbRate[] VALUES = values();
    private static final IbRate[] BY_CODE = new IbRate[GBPS_800.code + 1];

    static
    {
        for (final IbRate rate : VALUES)
        {
            BY_CODE[rate.code] = rate;
        }
    }

    private final int code;
    private final int mult;
    private final int mbps;

    IbRate(final int code, final int mult, final int mbps)
    {
        this.code = code;
        this.mult = mult;
        this.mbps = mbps;
    }

    /** @return the {@code enum ib_rate} value (what {@code static_rate} holds). */
    public int code()
    {
        return code;
    }

    /**
     * {@code ib_rate_to_mult}: the rate as a multiple of 2.5 Gb/s, e.g. 2 for {@link #GBPS_5}.
     *
     * @return the multiple, or -1 for {@link #PORT_CURRENT}, as the kernel returns for a rate it cannot convert.
     */
    public int toMult()
    {
        return mult;
    }

    /**
     * {@code ib_rate_to_mbps}: the data rate in Mb/s, e.g. 2500 for {@link #GBPS_2_5}.
     *
     * @return Mb/s, or -1 for {@link #PORT_CURRENT}.
     */
    public int toMbps()
    {
        return mbps;
    }

    /**
     * {@code mult_to_ib_rate}: the rate that is {@code mult} times 2.5 Gb/s.
     *
     * @param mult multiple of 2.5 Gb/s.
     * @return the rate, or {@link #PORT_CURRENT} if no rate has that multiple (as the kernel answers).
     */
    public static IbRate fromMult(final int mult)
    {
        if (mult > 0)
        {
            for (final IbRate rate : VALUES)
            {
                if (rate.mult == mult)
                {
                    return rate;
                }
            }
        }
        return PORT_CURRENT;
    }

    /**
     * The rate with an {@code enum ib_rate} value, e.g. from a received {@code static_rate}.
     *
     * @param code the value.
     * @return the rate.
     * @throws VerbsException EINVAL if no rate has that value (1 and 24 and above are not rates).
     */
    public static IbRate fromCode(final int code)
    {
        final IbRate rate = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        if (null == rate)
        {
            throw new VerbsException(Errno.EINVAL, "static rate " + code + " is no enum ib_rate value: use 0 " +
                "(port current) or 2.." + GBPS_800.code);
        }
        return rate;
    }
}
