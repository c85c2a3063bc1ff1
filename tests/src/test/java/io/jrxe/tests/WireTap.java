package io.jrxe.tests;

import io.jrxe.driver.emu.WireFilter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A {@link WireFilter} that records every RoCE frame offered to the wire (direction, opcode, QP, PSN, AETH
 * syndrome, virtual time) and drops the ones its current rule picks. Non-RoCE frames (ARP) pass unrecorded.
 * Runs on the thread stepping the devices: the test thread of a deterministic {@link io.jrxe.rxe.node.NodePair}.
 */
final class WireTap implements WireFilter
{
    /** One RoCE frame as it was offered to a link. */
    record Frame(long timeNs, int source, int destination, int opcode, int destQp, int psn, int syndrome,
        boolean dropped)
    {
        boolean fromA()
        {
            return 0 == source;
        }
    }

    private final NanoClock clock;
    private final List<Frame> frames = new ArrayList<>();
    private Predicate<Frame> rule;

    WireTap(final NanoClock clock)
    {
        this.clock = clock;
    }

    /** Drops every frame matching {@code rule} from now on (null: drop nothing). */
    WireTap dropAll(final Predicate<Frame> rule)
    {
        this.rule = rule;
        return this;
    }

    /** Drops the next {@code count} frames matching {@code rule}, then nothing. */
    WireTap dropNext(final int count, final Predicate<Frame> rule)
    {
        final int[] left = {count};
        this.rule = f ->
        {
            if (left[0] > 0 && rule.test(f))
            {
                left[0]--;
                return true;
            }
            return false;
        };
        return this;
    }

    @Override
    public boolean drop(
        final int source, final int destination, final DirectBuffer frame, final int offset, final int length)
    {
        if (!RoceFrame.isRoce(frame, offset, length))
        {
            return false;
        }
        final Frame seen = new Frame(clock.nanoTime(), source, destination, RoceFrame.opcode(frame, offset),
            RoceFrame.destQp(frame, offset), RoceFrame.psn(frame, offset), RoceFrame.syndrome(frame, offset), false);
        final boolean drop = null != rule && rule.test(seen);
        frames.add(drop ? new Frame(seen.timeNs(), source, destination, seen.opcode(), seen.destQp(), seen.psn(),
            seen.syndrome(), true) : seen);
        return drop;
    }

    List<Frame> frames(final Predicate<Frame> which)
    {
        final List<Frame> out = new ArrayList<>();
        for (final Frame f : frames)
        {
            if (which.test(f))
            {
                out.add(f);
            }
        }
        return out;
    }

    long count(final Predicate<Frame> which)
    {
        return frames(which).size();
    }
}
