package io.jrxe.rxe.engine;

import io.jrxe.rxe.spi.SendWqe;

/**
 * Static rate pacing of a QP's request packets: a QP whose path (RC/UC: the AV of modify-QP) or address handle
 * (UD: the AV the WQE copied) has a static rate never sends faster than {@code IbRate.toMbps()}.
 * <p>
 * jrxe departs from rxe here: rxe stores no static rate and paces nothing (its AV drops the field). Issue 9 asks
 * for the rate to be honoured, as the IBA's static rate control intends (a source does not inject packets to a
 * path faster than the path's static rate; IBA vol. 1 ch. 9, static rate control; the compliance statement
 * number was not checked against the spec text).
 * <p>
 * One token bucket per QP, kept in virtual-time form (the GCRA): {@code paceNextNs} is when the bucket holds one
 * packet's worth again. A packet may leave when {@code paceNextNs <= now}; each frame sent (Ethernet header to
 * ICRC, as handed to the NIC) pushes it by {@code bytes * 8000 / Mb/s} ns, rounded up with the remainder carried
 * so that the rounding never accumulates. The bucket holds {@link #BURST_NS} of credit plus one packet, so over any
 * interval T a QP sends at most {@code rate * (T + BURST_NS)} plus one packet: a duty cycle or a PACE timer that
 * comes late by up to one timer tick is made up, so the QP reaches its rate; an idle QP earns no more credit than
 * that (after a longer pause its clock restarts at {@code now - BURST_NS}). A
 * UD QP has one bucket for all its destinations: a packet to a fast AH may wait for a slow one's (conservative: no
 * destination's rate is exceeded).
 * <pre>
 *   paceNextNs          now                      send B bytes at now:  paceNextNs = max(paceNextNs, now - BURST)
 *   ----|----------------|---->  t                                               + ceil(B * 8000 / rate)
 *       may send (&lt;= now)         otherwise: PACE timer at paceNextNs, then the QP runs again
 * </pre>
 * DCQCN uses the same bucket: the requester paces at the lower of the static rate and the QP's congestion rate
 * ({@link DcqcnRp}), so a CNP's cut takes effect from the next packet.
 * <p>
 * Only requests are paced: the ACKs, READ responses and atomic responses a QP sends as a responder are not (their
 * rate is the requesting peer's to pace).
 * <p>
 * Time is the duty cycle's clock reading ({@link RxeEngine#nowNs()}): no clock reads of its own, no allocation.
 */
final class Pacer
{
    /** Credit a QP may bank: one timer-wheel tick (RxeEngine.Context default), so timer lateness is made up. */
    static final long BURST_NS = 1L << 14;
    /** ns per byte at 1 Mb/s: 8 bits / 10^6 b/s = 8000 ns. */
    private static final long NS_PER_BYTE_AT_1_MBPS = 8000L;

    private final RxeEngine engine;

    Pacer(final RxeEngine engine)
    {
        this.engine = engine;
    }

    /**
     * @return the rate the WQE's packets are held to in Mb/s, or a value &lt;= 0 when they are not paced
     * ({@code IbRate.PORT_CURRENT})
     */
    static int rateMbps(final QpContext c, final SendWqe wqe)
    {
        return c.isDatagram() ? wqe.av().staticRate().toMbps() : c.pathRateMbps;
    }

    /**
     * @return true if the QP may send a packet now; otherwise its PACE timer is armed for when it may (the caller
     * stops sending, the timer puts the QP back on the run list)
     */
    boolean admit(final QpContext c)
    {
        if (c.paceNextNs <= engine.nowNs())
        {
            return true;
        }
        engine.timers().arm(c.slot, TransportTimers.PACE, c.paceNextNs);
        return false;
    }

    /** Charges a frame of {@code frameBytes} that the QP sent at {@code rateMbps}. */
    void charge(final QpContext c, final int rateMbps, final int frameBytes)
    {
        final long earliest = engine.nowNs() - BURST_NS;
        if (c.paceNextNs < earliest)
        {
            c.paceNextNs = earliest;
            c.paceCarry = 0;
        }
        // exact next time = paceNextNs - paceCarry / rate; paceCarry in [0, rate)
        final long need = frameBytes * NS_PER_BYTE_AT_1_MBPS - c.paceCarry;
        final long ns = (need + rateMbps - 1) / rateMbps;
        c.paceCarry = ns * rateMbps - need;
        c.paceNextNs += ns;
    }
}
