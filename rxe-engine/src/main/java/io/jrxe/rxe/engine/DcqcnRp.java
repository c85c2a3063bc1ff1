package io.jrxe.rxe.engine;

/**
 * The DCQCN reaction point of one QP (Zhu et al. 2015, section 3.1 and Fig. 6): the current rate Rc, the target
 * rate Rt, alpha, and the two increase clocks (the rate timer {@code rpg_time_reset} and the byte counter
 * {@code rpg_byte_reset}). A QP that has never had a CNP, or whose rate has recovered to the line rate, is not
 * limited ({@link #limitMbps()} 0): like the NIC's limiter, it is taken on the first CNP and released at line rate.
 * <pre>
 *  CNP (at most one cut per rate_reduce_monitor_period):
 *     Rt = Rc;  Rc = max(Rc (1 - alpha/2), Rc * min_dec_fac, min_rate);  alpha = (1 - g) alpha + g
 *     T = BC = 0; rate timer and byte counter restart
 *  alpha timer, no CNP in the period:  alpha = (1 - g) alpha
 *  rate timer expiry (T++) or rpg_byte_reset bytes sent (BC++): one increase step
 *     max(T, BC) &lt; F          fast recovery     Rc = (Rt + Rc) / 2
 *     min(T, BC) &gt; F          hyper increase    Rt += (min(T, BC) - F) Rhai;  Rc = (Rt + Rc) / 2
 *     otherwise                additive increase Rt += Rai;                    Rc = (Rt + Rc) / 2
 * </pre>
 * The timers are kept as deadlines and caught up lazily ({@link #advance}) whenever the QP sends or gets a CNP, so
 * the QP needs no timer-wheel entries: the state at any time is what the timers would have made of it, because an
 * increase step depends only on the counts and rates, not on when it is computed. Alpha is fixed point in 1/1024
 * (mlx5's unit), rates are in Mb/s. Engine thread only; no allocation.
 */
final class DcqcnRp
{
    /** Alpha is in units of 1/1024. */
    static final int ALPHA_ONE = 1024;
    /** Steps caught up in one go; a QP idle longer than this many rate periods starts again unlimited. */
    static final int MAX_CATCH_UP = 4096;

    private boolean active;
    private int rcMbps;
    private int rtMbps;
    private int alpha;
    private long nextAlphaNs;
    private long nextIncreaseNs;
    private long lastCutNs;
    private int timerStages;
    private int byteStages;
    private long bytes;

    /** Forgets everything: the QP is unlimited again (its transport was reset). */
    void reset()
    {
        active = false;
        rcMbps = 0;
        rtMbps = 0;
        alpha = 0;
        timerStages = 0;
        byteStages = 0;
        bytes = 0;
    }

    /** @return the rate the QP is held to in Mb/s, 0 when it is not limited */
    int limitMbps()
    {
        return active ? rcMbps : 0;
    }

    /** @return the target rate Rt in Mb/s, 0 when the QP is not limited */
    int targetMbps()
    {
        return active ? rtMbps : 0;
    }

    /** @return alpha in 1/1024 */
    int alpha()
    {
        return alpha;
    }

    /** @return rate timer expiries since the last cut (T) */
    int timerStages()
    {
        return timerStages;
    }

    /** @return byte counter expiries since the last cut (BC) */
    int byteStages()
    {
        return byteStages;
    }

    /**
     * A CNP for this QP.
     *
     * @return true if it cut the rate, false if it came within rate_reduce_monitor_period of the last cut (it then
     * only counts for alpha)
     */
    boolean onCnp(final DcqcnParameters p, final long nowNs)
    {
        advance(p, nowNs);
        if (!active)
        {
            active = true;
            rcMbps = p.lineRateMbps();
            rtMbps = rcMbps;
            alpha = p.initialAlpha();
        }
        else if (nowNs - lastCutNs < p.rateReduceMonitorPeriodNs())
        {
            alpha = raise(alpha, p.alphaGain());
            nextAlphaNs = nowNs + p.alphaUpdatePeriodNs();
            return false;
        }
        rtMbps = rcMbps;
        final long cut = (long)rcMbps * (2 * ALPHA_ONE - alpha) / (2 * ALPHA_ONE); // Rc (1 - alpha / 2)
        final long floor = Math.max((long)rcMbps * p.minDecFactorPercent() / 100, p.minRateMbps());
        rcMbps = (int)Math.max(cut, floor);
        alpha = raise(alpha, p.alphaGain());
        nextAlphaNs = nowNs + p.alphaUpdatePeriodNs();
        nextIncreaseNs = nowNs + p.timeResetNs();
        lastCutNs = nowNs;
        timerStages = 0;
        byteStages = 0;
        bytes = 0;
        return true;
    }

    /** The QP sent a frame of {@code frameBytes}: the byte counter moves, an increase step per rpg_byte_reset. */
    void onSent(final DcqcnParameters p, final long nowNs, final int frameBytes)
    {
        advance(p, nowNs);
        if (!active)
        {
            return;
        }
        bytes += frameBytes;
        final long reset = p.byteReset();
        while (active && bytes >= reset)
        {
            bytes -= reset;
            byteStages++;
            increase(p);
        }
    }

    /** Catches the alpha timer and the rate timer up with {@code nowNs}. */
    void advance(final DcqcnParameters p, final long nowNs)
    {
        if (!active)
        {
            return;
        }
        final long alphaPeriod = p.alphaUpdatePeriodNs();
        if (nowNs >= nextAlphaNs)
        {
            final long periods = (nowNs - nextAlphaNs) / alphaPeriod + 1;
            if (periods > MAX_CATCH_UP)
            {
                alpha = 0;
            }
            else
            {
                for (long i = 0; i < periods && 0 != alpha; i++)
                {
                    alpha = decay(alpha, p.alphaGain());
                }
            }
            nextAlphaNs += periods * alphaPeriod;
        }
        final long ratePeriod = p.timeResetNs();
        if (nowNs >= nextIncreaseNs)
        {
            if ((nowNs - nextIncreaseNs) / ratePeriod >= MAX_CATCH_UP)
            {
                active = false; // idle for thousands of periods: a new flow, unlimited until its next CNP
                return;
            }
            while (active && nowNs >= nextIncreaseNs)
            {
                nextIncreaseNs += ratePeriod;
                timerStages++;
                increase(p);
            }
        }
    }

    private void increase(final DcqcnParameters p)
    {
        final int f = p.threshold();
        final int max = Math.max(timerStages, byteStages);
        final int min = Math.min(timerStages, byteStages);
        long rt = rtMbps;
        if (max < f)
        {
            // fast recovery: Rt stays, Rc halves its distance to it
        }
        else if (min > f)
        {
            rt += (long)(min - f) * p.haiRateMbps();
        }
        else
        {
            rt += p.aiRateMbps();
        }
        final int line = p.lineRateMbps();
        rtMbps = (int)Math.min(rt, line);
        rcMbps = (int)(((long)rtMbps + rcMbps + 1) >>> 1); // rounded up, so fast recovery reaches Rt
        if (rcMbps >= line)
        {
            active = false; // back at line rate: the limiter is released
            rcMbps = line;
        }
    }

    /** alpha = (1 - g) alpha + g, in 1/1024. */
    static int raise(final int alpha, final int gain)
    {
        return (alpha * (ALPHA_ONE - gain) + gain * ALPHA_ONE) / ALPHA_ONE;
    }

    /** alpha = (1 - g) alpha, in 1/1024. */
    static int decay(final int alpha, final int gain)
    {
        return alpha * (ALPHA_ONE - gain) / ALPHA_ONE;
    }
}
