package io.jrxe.net;

/**
 * A fixed-size neighbor cache (ARP cache for IPv4, neighbor cache for IPv6) mapping a protocol address to a MAC,
 * with resolution retries and expiry, driven by times the caller passes in. Nothing is allocated after
 * construction.
 * <p>
 * A key is two {@code long}s: the IPv6 address, or {@code (0, ipv4 & 0xFFFFFFFF)}. Open addressing with linear
 * probing over parallel arrays; deletion shifts followers back so lookups never meet tombstones.
 * <pre>
 *                  resolve()                      learn()
 *    (absent) ----------------&gt; INCOMPLETE ---------------------&gt; REACHABLE --- timeout ---&gt; (absent)
 *                                |  ^    \ each retryInterval: solicit again      ^  learn() refreshes
 *                                |  +----/  (maxAttempts solicitations in all)
 *                                v
 *                              FAILED --- failedHold ---&gt; (absent)      STATIC: never expires, never relearned
 * </pre>
 */
final class NeighborTable
{
    /** Returned by lookups when no usable MAC is known. */
    static final long NO_MAC = -1L;

    static final byte FREE = 0;
    static final byte INCOMPLETE = 1;
    static final byte REACHABLE = 2;
    static final byte FAILED = 3;
    static final byte STATIC = 4;

    /** Sends solicitations (ARP requests, Neighbor Solicitations) and hears about failures; no lambdas. */
    interface Solicitor
    {
        void solicit(long hi, long lo);

        /** The last solicitation went unanswered. */
        void unresolved(long hi, long lo);

        /** No room for a new entry: the table is full of entries being resolved or static ones. */
        void tableFull(long hi, long lo);
    }

    /**
     * Hears of every MAC the table comes to hold, to pass it on (the primary stack's relay to its lanes); no
     * lambdas. Called on the table's thread.
     */
    interface Listener
    {
        /**
         * @param relayFlags how a copy of the table should take it: {@link NeighborRelay#STATIC}, or
         *                   {@link NeighborRelay#CREATE} and {@link NeighborRelay#OVERRIDE}
         */
        void learned(long hi, long lo, long mac, int relayFlags);
    }

    private final long[] keyHi;
    private final long[] keyLo;
    private final long[] macs;
    /** REACHABLE: expiry time; INCOMPLETE: next retry time; FAILED: end of hold time. */
    private final long[] deadlines;
    private final byte[] states;
    private final byte[] attempts;
    private final int mask;
    private final int maxEntries;
    private final long reachableNs;
    private final long retryIntervalNs;
    private final int maxAttempts;
    private final long failedHoldNs;
    private final Solicitor solicitor;
    private Listener listener;
    private int size;
    /** Entries in INCOMPLETE or FAILED state, the ones with timers. */
    private int timedCount;
    /** Lower bound on the earliest timer deadline; a scan recomputes it exactly. */
    private long nextTimerNs = Long.MAX_VALUE;

    NeighborTable(
        final int maxEntries,
        final long reachableNs,
        final long retryIntervalNs,
        final int maxAttempts,
        final long failedHoldNs,
        final Solicitor solicitor)
    {
        if (maxEntries < 1 || maxEntries > 1 << 20)
        {
            throw new IllegalArgumentException("neighbor table size must be 1 .. 2^20: " + maxEntries);
        }
        if (maxAttempts < 1 || maxAttempts > 100)
        {
            throw new IllegalArgumentException("resolution attempts must be 1 .. 100: " + maxAttempts);
        }
        final int capacity = Integer.highestOneBit(maxEntries * 2 - 1) << 1;
        this.keyHi = new long[capacity];
        this.keyLo = new long[capacity];
        this.macs = new long[capacity];
        this.deadlines = new long[capacity];
        this.states = new byte[capacity];
        this.attempts = new byte[capacity];
        this.mask = capacity - 1;
        this.maxEntries = maxEntries;
        this.reachableNs = reachableNs;
        this.retryIntervalNs = retryIntervalNs;
        this.maxAttempts = maxAttempts;
        this.failedHoldNs = failedHoldNs;
        this.solicitor = solicitor;
    }

    /** A table with the timers of the stack's configuration. */
    static NeighborTable of(final int maxEntries, final NetStackContext ctx, final Solicitor solicitor)
    {
        return new NeighborTable(
            maxEntries,
            ctx.neighborTimeoutNs(),
            ctx.resolveRetryIntervalNs(),
            ctx.resolveMaxAttempts(),
            ctx.resolveFailedHoldNs(),
            solicitor);
    }

    /** Set-up only: from now on every MAC the table comes to hold is told to {@code listener}. */
    void listener(final Listener listener)
    {
        this.listener = listener;
    }

    int size()
    {
        return size;
    }

    /** @return the MAC of a STATIC or unexpired REACHABLE entry, else {@link #NO_MAC} */
    long lookup(final long hi, final long lo, final long nowNs)
    {
        final int slot = find(hi, lo);
        if (slot < 0)
        {
            return NO_MAC;
        }
        final byte state = states[slot];
        if (STATIC == state || (REACHABLE == state && nowNs - deadlines[slot] < 0))
        {
            return macs[slot];
        }
        return NO_MAC;
    }

    /** State of the entry for the key, {@link #FREE} if absent. An expired REACHABLE entry is still REACHABLE. */
    byte state(final long hi, final long lo)
    {
        final int slot = find(hi, lo);
        return slot < 0 ? FREE : states[slot];
    }

    /**
     * Looks up the key and, if no usable MAC is known and no resolution is under way or on hold, starts one:
     * the first solicitation goes out now.
     *
     * @return the MAC, or {@link #NO_MAC} while unresolved
     */
    long resolve(final long hi, final long lo, final long nowNs)
    {
        int slot = find(hi, lo);
        if (slot >= 0)
        {
            final byte state = states[slot];
            if (STATIC == state || (REACHABLE == state && nowNs - deadlines[slot] < 0))
            {
                return macs[slot];
            }
            if (INCOMPLETE == state || FAILED == state)
            {
                return NO_MAC;
            }
        }
        else
        {
            slot = insert(hi, lo, nowNs);
            if (slot < 0)
            {
                return NO_MAC;
            }
        }
        states[slot] = INCOMPLETE;
        attempts[slot] = 1;
        deadlines[slot] = nowNs + retryIntervalNs;
        macs[slot] = NO_MAC;
        timedCount++;
        if (1 == timedCount || deadlines[slot] - nextTimerNs < 0)
        {
            nextTimerNs = deadlines[slot];
        }
        solicitor.solicit(hi, lo);
        return NO_MAC;
    }

    /**
     * {@link #resolve} for a sender that can hold its packet: starts resolution if no usable MAC is known and none is
     * under way or on hold.
     *
     * @return true while resolution is under way (INCOMPLETE); false when the MAC is known or resolution has
     * failed, so that a send proceeds (and is dropped, as on a network without the peer)
     */
    boolean resolving(final long hi, final long lo, final long nowNs)
    {
        return NO_MAC == resolve(hi, lo, nowNs) && INCOMPLETE == state(hi, lo);
    }

    /**
     * Records a MAC heard from the network.
     *
     * @param create   add the entry if absent (the message was addressed to us)
     * @param override replace a different MAC of a REACHABLE entry (ARP always; ND only with the O flag)
     * @return true if the entry now holds {@code mac}
     */
    boolean learn(
        final long hi, final long lo, final long mac, final long nowNs, final boolean create, final boolean override)
    {
        int slot = find(hi, lo);
        if (slot >= 0)
        {
            final byte state = states[slot];
            if (STATIC == state)
            {
                return false;
            }
            if (REACHABLE == state && !override && macs[slot] != mac && nowNs - deadlines[slot] < 0)
            {
                return false;
            }
            if (INCOMPLETE == state || FAILED == state)
            {
                timedCount--;
            }
        }
        else
        {
            if (!create)
            {
                return false;
            }
            slot = insert(hi, lo, nowNs);
            if (slot < 0)
            {
                return false;
            }
        }
        states[slot] = REACHABLE;
        macs[slot] = mac;
        deadlines[slot] = nowNs + reachableNs;
        if (null != listener)
        {
            listener.learned(hi, lo, mac, NeighborRelay.CREATE | NeighborRelay.OVERRIDE);
        }
        return true;
    }

    /**
     * A solicited advertisement for a key this table holds no entry for (RFC 4861 §7.2.5 has it ignored): another
     * table fed by this one (a lane's, whose solicitation it answers) may be resolving the key, so the listener
     * hears of it as an update for an existing entry only.
     */
    void offerUnheld(final long hi, final long lo, final long mac, final boolean override)
    {
        if (null != listener && find(hi, lo) < 0)
        {
            listener.learned(hi, lo, mac, override ? NeighborRelay.OVERRIDE : 0);
        }
    }

    /**
     * A permanent entry; replaces whatever the table held for the key.
     *
     * @throws IllegalStateException if the table is full of static and incomplete entries
     */
    void addStatic(final long hi, final long lo, final long mac, final long nowNs)
    {
        if (!tryAddStatic(hi, lo, mac, nowNs))
        {
            throw new IllegalStateException(
                "neighbor table full of static entries (" + maxEntries + "): raise the cache size");
        }
    }

    /** {@link #addStatic}, for the data path: false (counted by the solicitor as table full) instead of a throw. */
    boolean tryAddStatic(final long hi, final long lo, final long mac, final long nowNs)
    {
        int slot = find(hi, lo);
        if (slot < 0)
        {
            slot = insert(hi, lo, nowNs);
            if (slot < 0)
            {
                return false;
            }
        }
        else if (INCOMPLETE == states[slot] || FAILED == states[slot])
        {
            timedCount--;
        }
        states[slot] = STATIC;
        macs[slot] = mac;
        if (null != listener)
        {
            listener.learned(hi, lo, mac, NeighborRelay.STATIC);
        }
        return true;
    }

    /**
     * Control path: copies the STATIC and unexpired REACHABLE entries into {@code into} (static stays static,
     * a reachable one replaces what {@code into} holds).
     *
     * @return entries copied
     */
    int copyUsableTo(final NeighborTable into, final long nowNs)
    {
        int copied = 0;
        for (int slot = 0; slot <= mask; slot++)
        {
            final byte state = states[slot];
            if (STATIC == state)
            {
                into.addStatic(keyHi[slot], keyLo[slot], macs[slot], nowNs);
                copied++;
            }
            else if (REACHABLE == state && nowNs - deadlines[slot] < 0 &&
                into.learn(keyHi[slot], keyLo[slot], macs[slot], nowNs, true, true))
            {
                copied++;
            }
        }
        return copied;
    }

    /**
     * Runs due retry and hold timers: resends solicitations, marks entries FAILED after the last attempt and
     * removes FAILED entries whose hold time has passed. Cheap when nothing is due.
     *
     * @return number of solicitations sent plus failures reported
     */
    int onTimer(final long nowNs)
    {
        if (0 == timedCount || nowNs - nextTimerNs < 0)
        {
            return 0;
        }
        int work = 0;
        long next = Long.MAX_VALUE;
        boolean anyTimed = false;
        for (int slot = 0; slot <= mask; slot++)
        {
            final byte state = states[slot];
            if (INCOMPLETE != state && FAILED != state)
            {
                continue;
            }
            if (nowNs - deadlines[slot] >= 0)
            {
                if (FAILED == state)
                {
                    timedCount--;
                    removeSlot(slot);
                    slot--; // re-examine: a follower may have shifted into this slot
                    continue;
                }
                work++;
                if (attempts[slot] < maxAttempts)
                {
                    attempts[slot]++;
                    deadlines[slot] = nowNs + retryIntervalNs;
                    solicitor.solicit(keyHi[slot], keyLo[slot]);
                }
                else
                {
                    states[slot] = FAILED;
                    deadlines[slot] = nowNs + failedHoldNs;
                    solicitor.unresolved(keyHi[slot], keyLo[slot]);
                }
            }
            if (!anyTimed || deadlines[slot] - next < 0)
            {
                next = deadlines[slot];
                anyTimed = true;
            }
        }
        nextTimerNs = next;
        return work;
    }

    private int find(final long hi, final long lo)
    {
        int slot = hash(hi, lo);
        while (FREE != states[slot])
        {
            if (keyHi[slot] == hi && keyLo[slot] == lo)
            {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /** Claims a slot for an absent key, evicting when full; the caller sets state, mac and deadline. */
    private int insert(final long hi, final long lo, final long nowNs)
    {
        if (size >= maxEntries && !evict(nowNs))
        {
            solicitor.tableFull(hi, lo);
            return -1;
        }
        int slot = hash(hi, lo);
        while (FREE != states[slot])
        {
            slot = (slot + 1) & mask;
        }
        keyHi[slot] = hi;
        keyLo[slot] = lo;
        states[slot] = REACHABLE;
        deadlines[slot] = nowNs;
        size++;
        return slot;
    }

    /**
     * Frees the entry with the earliest deadline among REACHABLE (expired ones first by construction) and FAILED
     * entries. INCOMPLETE entries are kept so resolutions in progress finish; STATIC entries are never evicted.
     */
    private boolean evict(final long nowNs)
    {
        int victim = -1;
        long earliest = 0;
        for (int slot = 0; slot <= mask; slot++)
        {
            final byte state = states[slot];
            if ((REACHABLE == state || FAILED == state) && (victim < 0 || deadlines[slot] - earliest < 0))
            {
                victim = slot;
                earliest = deadlines[slot];
            }
        }
        if (victim < 0)
        {
            return false;
        }
        if (FAILED == states[victim])
        {
            timedCount--;
        }
        removeSlot(victim);
        return true;
    }

    /** Backward-shift deletion for linear probing (Knuth vol. 3, 6.4 Algorithm R). */
    private void removeSlot(final int slot)
    {
        states[slot] = FREE;
        size--;
        int hole = slot;
        int next = slot;
        while (true)
        {
            next = (next + 1) & mask;
            if (FREE == states[next])
            {
                return;
            }
            final int home = hash(keyHi[next], keyLo[next]);
            // move the entry if its home is not cyclically inside (hole, next]
            if (((next - home) & mask) >= ((next - hole) & mask))
            {
                keyHi[hole] = keyHi[next];
                keyLo[hole] = keyLo[next];
                macs[hole] = macs[next];
                deadlines[hole] = deadlines[next];
                states[hole] = states[next];
                attempts[hole] = attempts[next];
                states[next] = FREE;
                hole = next;
            }
        }
    }

    private int hash(final long hi, final long lo)
    {
        final long h = (hi ^ Long.rotateLeft(lo, 29)) * 0x9E37_79B9_7F4A_7C15L;
        return (int)(h >>> 32) & mask;
    }
}
