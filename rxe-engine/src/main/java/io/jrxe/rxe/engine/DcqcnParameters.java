package io.jrxe.rxe.engine;

/**
 * DCQCN congestion control settings of one engine (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015), named after mlx5's: the kernel's debugfs {@code cc_params}
 * (drivers/infiniband/hw/mlx5/cong.c: rp_time_reset, rp_byte_reset, rp_threshold, rp_ai_rate, rp_hai_rate,
 * rp_min_dec_fac, rp_min_rate, rp_dce_tcp_g, rp_dce_tcp_rtt, rp_rate_reduce_monitor_period, rp_initial_alpha_value,
 * np_min_time_between_cnps, np_cnp_dscp) and NVIDIA's "DCQCN CC Parameters" page. Set them on
 * {@link RxeEngine.Context#dcqcn()}; the engine reads them once, at construction.
 * <pre>
 *   NP (receiver): CE-marked packet of QP q  -> CNP to q's peer, at most one per q per npMinTimeBetweenCnps
 *   RP (sender):   CNP    -> Rt = Rc; Rc = Rc * (1 - alpha / 2); alpha = (1 - g) alpha + g
 *                  alpha timer (no CNP for alphaUpdatePeriod)   -> alpha = (1 - g) alpha
 *                  rate timer (rpg_time_reset) / byte counter (rpg_byte_reset) -> one increase step:
 *                    max(T, BC) &lt; F: fast recovery   Rc = (Rt + Rc) / 2
 *                    min(T, BC) &gt; F: hyper increase  Rt += (min(T, BC) - F) * Rhai; Rc = (Rt + Rc) / 2
 *                    otherwise:      additive         Rt += Rai;                      Rc = (Rt + Rc) / 2
 * </pre>
 * Where the defaults come from: F = 5 and the 55 us alpha timer are the paper's; initial_alpha_value 1023,
 * rpg_min_dec_fac 50 %, rpg_min_rate 1 Mb/s and rate_reduce_monitor_period 4 us are on NVIDIA's page (checked);
 * rpg_time_reset 300 us, rpg_byte_reset 32767 B, rpg_ai_rate 5 Mb/s and rpg_hai_rate 50 Mb/s are the
 * ConnectX firmware defaults as commonly published, not re-checked here. np_min_time_between_cnps is 4 us here;
 * the kernel's debugfs knob of that name (a per-port minimum) defaults to 0, and the paper's deployment used 50 us.
 * Departures: alpha follows the paper's 55 us timer with g = 1/256 instead of mlx5's dce_tcp_rtt of 1 us with
 * dce_tcp_g 1019/1024 (a slower update, same idea); the limiter is per QP and is released once Rc is back at the
 * line rate.
 */
public final class DcqcnParameters
{
    private boolean enabled = true;
    private int lineRateMbps = 100_000;
    private long npMinTimeBetweenCnpsNs = 4_000;
    private int initialAlpha = 1023;
    private int alphaGain = 4;
    private long alphaUpdatePeriodNs = 55_000;
    private long rateReduceMonitorPeriodNs = 4_000;
    private long timeResetNs = 300_000;
    private long byteReset = 32_767;
    private int threshold = 5;
    private int aiRateMbps = 5;
    private int haiRateMbps = 50;
    private int minRateMbps = 1;
    private int minDecFactorPercent = 50;

    /** @return whether DCQCN runs: ECN-capable transmit, CNPs for CE marks (NP) and rate control on CNPs (RP) */
    public boolean enabled()
    {
        return enabled;
    }

    /**
     * @param value false switches the notification and reaction points off: packets go out Not-ECT, no CNP is
     *              sent, a received CNP is counted (cnp_rcvd) and ignored, no QP is paced by congestion
     * @return this
     */
    public DcqcnParameters enabled(final boolean value)
    {
        enabled = value;
        return this;
    }

    /** @return the rate a QP starts from on its first CNP and recovers to, Mb/s */
    public int lineRateMbps()
    {
        return lineRateMbps;
    }

    /**
     * @param value the port's speed in Mb/s (default 100 Gb/s): jrxe cannot read its link's speed, so it is set
     *              here; the first CNP cuts from it and recovery ends at it
     * @return this
     */
    public DcqcnParameters lineRateMbps(final int value)
    {
        lineRateMbps = value;
        return this;
    }

    /** @return mlx5 np min_time_between_cnps: at most one CNP per QP in this time, ns */
    public long npMinTimeBetweenCnpsNs()
    {
        return npMinTimeBetweenCnpsNs;
    }

    /**
     * @param value min_time_between_cnps in ns (default 4 us, the NIC firmware's; the kernel's debugfs knob of
     *              the same name defaults to 0)
     * @return this
     */
    public DcqcnParameters npMinTimeBetweenCnpsNs(final long value)
    {
        npMinTimeBetweenCnpsNs = value;
        return this;
    }

    /** @return initial_alpha_value: alpha on the first CNP, in 1/1024 */
    public int initialAlpha()
    {
        return initialAlpha;
    }

    /**
     * @param value initial_alpha_value in 1/1024 (default 1023, mlx5's; the paper starts at 1)
     * @return this
     */
    public DcqcnParameters initialAlpha(final int value)
    {
        initialAlpha = value;
        return this;
    }

    /** @return g of the alpha update, in 1/1024 */
    public int alphaGain()
    {
        return alphaGain;
    }

    /**
     * @param value g in 1/1024 (default 4: the paper's g = 1/256; mlx5's dce_tcp_g 1019 is 1 - g = 1019/1024)
     * @return this
     */
    public DcqcnParameters alphaGain(final int value)
    {
        alphaGain = value;
        return this;
    }

    /** @return the alpha update period, ns */
    public long alphaUpdatePeriodNs()
    {
        return alphaUpdatePeriodNs;
    }

    /**
     * @param value the alpha timer (default 55 us, the paper's; mlx5 dce_tcp_rtt)
     * @return this
     */
    public DcqcnParameters alphaUpdatePeriodNs(final long value)
    {
        alphaUpdatePeriodNs = value;
        return this;
    }

    /** @return rate_reduce_monitor_period: at most one cut per QP in this time, ns */
    public long rateReduceMonitorPeriodNs()
    {
        return rateReduceMonitorPeriodNs;
    }

    /**
     * @param value rate_reduce_monitor_period in ns (default 4 us, mlx5's)
     * @return this
     */
    public DcqcnParameters rateReduceMonitorPeriodNs(final long value)
    {
        rateReduceMonitorPeriodNs = value;
        return this;
    }

    /** @return rpg_time_reset: the rate increase timer, ns */
    public long timeResetNs()
    {
        return timeResetNs;
    }

    /**
     * @param value rpg_time_reset in ns (default 300 us, the firmware default; see above)
     * @return this
     */
    public DcqcnParameters timeResetNs(final long value)
    {
        timeResetNs = value;
        return this;
    }

    /** @return rpg_byte_reset: bytes sent per byte-counter increase step */
    public long byteReset()
    {
        return byteReset;
    }

    /**
     * @param value rpg_byte_reset in bytes (default 32767, the firmware default; see above)
     * @return this
     */
    public DcqcnParameters byteReset(final long value)
    {
        byteReset = value;
        return this;
    }

    /** @return rpg_threshold F: timer or byte stages of fast recovery */
    public int threshold()
    {
        return threshold;
    }

    /**
     * @param value rpg_threshold F (default 5, the paper's)
     * @return this
     */
    public DcqcnParameters threshold(final int value)
    {
        threshold = value;
        return this;
    }

    /** @return rpg_ai_rate: the additive increase step, Mb/s */
    public int aiRateMbps()
    {
        return aiRateMbps;
    }

    /**
     * @param value rpg_ai_rate in Mb/s (default 5, the firmware default; see above)
     * @return this
     */
    public DcqcnParameters aiRateMbps(final int value)
    {
        aiRateMbps = value;
        return this;
    }

    /** @return rpg_hai_rate: the hyper increase step, Mb/s */
    public int haiRateMbps()
    {
        return haiRateMbps;
    }

    /**
     * @param value rpg_hai_rate in Mb/s (default 50, the firmware default; see above)
     * @return this
     */
    public DcqcnParameters haiRateMbps(final int value)
    {
        haiRateMbps = value;
        return this;
    }

    /** @return rpg_min_rate: no cut goes below it, Mb/s */
    public int minRateMbps()
    {
        return minRateMbps;
    }

    /**
     * @param value rpg_min_rate in Mb/s (default 1, mlx5's)
     * @return this
     */
    public DcqcnParameters minRateMbps(final int value)
    {
        minRateMbps = value;
        return this;
    }

    /** @return rpg_min_dec_fac: one cut keeps at least this percentage of the rate */
    public int minDecFactorPercent()
    {
        return minDecFactorPercent;
    }

    /**
     * @param value rpg_min_dec_fac in percent (default 50, mlx5's)
     * @return this
     */
    public DcqcnParameters minDecFactorPercent(final int value)
    {
        minDecFactorPercent = value;
        return this;
    }

    /**
     * Checks the settings.
     *
     * @throws IllegalStateException naming the setting that is out of range
     */
    void validate()
    {
        if (lineRateMbps <= 0 || minRateMbps <= 0 || minRateMbps > lineRateMbps)
        {
            throw new IllegalStateException("DCQCN needs 0 < minRateMbps <= lineRateMbps: " + minRateMbps + ", " +
                lineRateMbps);
        }
        if (initialAlpha < 0 || initialAlpha > 1024 || alphaGain < 0 || alphaGain > 1024)
        {
            throw new IllegalStateException("DCQCN initialAlpha and alphaGain are in 1/1024, 0..1024: " +
                initialAlpha + ", " + alphaGain);
        }
        if (alphaUpdatePeriodNs <= 0 || timeResetNs <= 0 || byteReset <= 0 || npMinTimeBetweenCnpsNs < 0 ||
            rateReduceMonitorPeriodNs < 0)
        {
            throw new IllegalStateException("DCQCN periods and byteReset must be positive (the CNP and cut " +
                "intervals at least 0)");
        }
        if (threshold < 1 || aiRateMbps < 0 || haiRateMbps < 0 || minDecFactorPercent < 0 ||
            minDecFactorPercent > 100)
        {
            throw new IllegalStateException("DCQCN needs threshold >= 1, rates >= 0, minDecFactorPercent 0..100");
        }
    }
}
