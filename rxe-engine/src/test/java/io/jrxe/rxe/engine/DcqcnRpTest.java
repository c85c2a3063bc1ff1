package io.jrxe.rxe.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DCQCN reaction point on its own, with time given explicitly (the engine passes its duty cycle's clock): the
 * cut on a CNP, alpha's rise and decay, fast recovery for F rate periods, then additive and hyper increase, the byte
 * counter's stages, the minimum rate, and the release at line rate.
 */
class DcqcnRpTest
{
    private static final long T0 = 1_000_000_000L;
    private final DcqcnParameters p = new DcqcnParameters().lineRateMbps(10_000);
    private final DcqcnRp rp = new DcqcnRp();

    @Test
    void aCnpCutsFromLineRateByHalfAlphaAndSetsTheTargetToTheOldRate()
    {
        assertEquals(0, rp.limitMbps(), "unlimited before a CNP");
        assertTrue(rp.onCnp(p, T0));
        assertEquals(10_000L * (2048 - 1023) / 2048, rp.limitMbps(), "Rc = line (1 - alpha / 2), alpha 1023/1024");
        assertEquals(10_000, rp.targetMbps(), "Rt = the rate before the cut");
        assertEquals(DcqcnRp.raise(1023, 4), rp.alpha(), "alpha = (1 - g) alpha + g");
    }

    @Test
    void cnpsWithinTheMonitorPeriodCutOnce()
    {
        rp.onCnp(p, T0);
        final int once = rp.limitMbps();
        assertFalse(rp.onCnp(p, T0 + p.rateReduceMonitorPeriodNs() - 1));
        assertEquals(once, rp.limitMbps());
        assertTrue(rp.onCnp(p, T0 + p.rateReduceMonitorPeriodNs()));
        assertTrue(rp.limitMbps() < once);
    }

    @Test
    void alphaDecaysEveryPeriodWithoutACnp()
    {
        rp.onCnp(p, T0);
        final int alpha = rp.alpha();
        rp.advance(p, T0 + p.alphaUpdatePeriodNs() - 1);
        assertEquals(alpha, rp.alpha(), "not before the period ends");
        rp.advance(p, T0 + 3 * p.alphaUpdatePeriodNs());
        assertEquals(DcqcnRp.decay(DcqcnRp.decay(DcqcnRp.decay(alpha, 4), 4), 4), rp.alpha(), "three periods");
        // a smaller alpha cuts less
        final int before = rp.limitMbps();
        rp.onCnp(p, T0 + 3 * p.alphaUpdatePeriodNs());
        final long expected = (long)before * (2048 - DcqcnRp.decay(DcqcnRp.decay(DcqcnRp.decay(alpha, 4), 4), 4)) /
            2048;
        assertEquals(expected, rp.limitMbps());
    }

    @Test
    void fastRecoveryForFPeriodsThenAdditiveThenHyperIncrease()
    {
        final DcqcnParameters q = new DcqcnParameters().lineRateMbps(100_000).byteReset(Long.MAX_VALUE / 4);
        rp.onCnp(q, T0);
        long t = T0 + q.rateReduceMonitorPeriodNs();
        rp.onCnp(q, t); // a second cut: Rt is now below the line rate, so increases are not capped
        final int rt = rp.targetMbps();
        int rc = rp.limitMbps();
        for (int i = 1; i < q.threshold(); i++) // T = 1 .. F-1: fast recovery, Rt fixed
        {
            t += q.timeResetNs();
            rp.advance(q, t);
            rc = (rt + rc + 1) / 2;
            assertEquals(rc, rp.limitMbps(), "fast recovery step " + i);
            assertEquals(rt, rp.targetMbps());
        }
        // T = F .. : BC stays 0 (no bytes), so min(T, BC) = 0 <= F: additive increase, Rt += Rai
        for (int i = 0; i < 3; i++)
        {
            t += q.timeResetNs();
            rp.advance(q, t);
            assertEquals(rt + (i + 1) * q.aiRateMbps(), rp.targetMbps(), "additive step " + i);
        }
        // bytes: BC climbs past F as well, then hyper increase adds (min(T, BC) - F) * Rhai
        final DcqcnRp hyper = new DcqcnRp();
        final DcqcnParameters h = new DcqcnParameters().lineRateMbps(100_000).byteReset(1000);
        hyper.onCnp(h, T0);
        long th = T0 + h.rateReduceMonitorPeriodNs();
        hyper.onCnp(h, th);
        final int rt0 = hyper.targetMbps();
        for (int i = 0; i < h.threshold() + 1; i++)
        {
            th += h.timeResetNs();
            hyper.advance(h, th); // T = 1 .. F + 1
        }
        // T = F + 1 > F with BC = 0: additive once (at T = F and T = F + 1)
        assertEquals(rt0 + 2 * h.aiRateMbps(), hyper.targetMbps());
        for (int i = 0; i < h.threshold() + 1; i++)
        {
            hyper.onSent(h, th, 1000); // BC = 1 .. F + 1
        }
        // BC 1..F: max > F... additive each (F steps); BC = F + 1: min(T, BC) = F + 1 > F, hyper: + 1 * Rhai
        assertEquals(rt0 + 2 * h.aiRateMbps() + h.threshold() * h.aiRateMbps() + h.haiRateMbps(),
            hyper.targetMbps());
    }

    @Test
    void theByteCounterStepsOncePerByteReset()
    {
        rp.onCnp(p, T0);
        final int rc = rp.limitMbps();
        rp.onSent(p, T0, (int)p.byteReset() - 1);
        assertEquals(0, rp.byteStages());
        assertEquals(rc, rp.limitMbps());
        rp.onSent(p, T0, 1);
        assertEquals(1, rp.byteStages());
        assertEquals((rp.targetMbps() + rc + 1) / 2, rp.limitMbps(), "a fast recovery step");
    }

    @Test
    void cutsStopAtTheMinimumRateAndRecoveryReleasesTheLimiterAtLineRate()
    {
        final DcqcnParameters q = new DcqcnParameters().lineRateMbps(1_000).minRateMbps(100)
            .rateReduceMonitorPeriodNs(0);
        long t = T0;
        for (int i = 0; i < 20; i++)
        {
            rp.onCnp(q, t++);
        }
        assertEquals(100, rp.limitMbps(), "rpg_min_rate");
        // with the byte counter, hyper increase brings it back; at line rate it is unlimited again
        for (int i = 0; i < 10_000 && 0 != rp.limitMbps(); i++)
        {
            t += q.timeResetNs();
            rp.onSent(q, t, (int)q.byteReset());
        }
        assertEquals(0, rp.limitMbps(), "back at line rate: no longer limited");
    }

    @Test
    void aQpIdleForThousandsOfPeriodsIsUnlimitedAgain()
    {
        rp.onCnp(p, T0);
        rp.advance(p, T0 + (DcqcnRp.MAX_CATCH_UP + 2) * p.timeResetNs());
        assertEquals(0, rp.limitMbps());
    }
}
