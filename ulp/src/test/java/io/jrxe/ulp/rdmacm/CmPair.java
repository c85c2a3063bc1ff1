package io.jrxe.ulp.rdmacm;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.WorkCompletion;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Two jrxe nodes on the emulated wire, each with an {@link RdmaCm} driven by the test in virtual time: a step
 * runs both device models, both engines and both CMs; a step that did nothing advances the manual clock by 64 µs,
 * so CM timers (short ones here: response timeout 2^12 · 4.096 µs ≈ 17 ms, packet lifetime ≈ 1 ms, 3 retries)
 * fire deterministically.
 */
final class CmPair implements AutoCloseable
{
    static final long SECOND = 1_000_000_000L;
    static final int RESPONSE_TIMEOUT = 12;
    static final int PACKET_LIFETIME = 8;
    static final int MAX_RETRIES = 3;

    final ManualClock clock = new ManualClock();
    final NodePair pair;
    final RdmaCm a;
    final RdmaCm b;

    CmPair()
    {
        this(WireFaults.none());
    }

    CmPair(final WireFaults faults)
    {
        this(faults, false);
    }

    /** @param ipv6 give the nodes global IPv6 addresses too ({@link NodePair#IP6_A}, {@link NodePair#IP6_B}) */
    CmPair(final WireFaults faults, final boolean ipv6)
    {
        pair = new NodePair(new NodePairContext().clock(clock).faults(faults).ipv6(ipv6));
        a = RdmaCm.open(pair.a(), context(clock));
        b = RdmaCm.open(pair.b(), context(clock));
    }

    static RdmaCm.Context context(final ManualClock clock)
    {
        return new RdmaCm.Context().callerDrives(true).clock(clock)
            .cmTiming(RESPONSE_TIMEOUT, PACKET_LIFETIME, MAX_RETRIES);
    }

    int step()
    {
        return pair.step() + a.doWork() + b.doWork();
    }

    void runUntil(final BooleanSupplier condition, final long timeoutNs, final String what)
    {
        final long start = clock.nanoTime();
        long steps = 0;
        while (!condition.getAsBoolean())
        {
            if (clock.nanoTime() - start > timeoutNs || ++steps > 20_000_000L)
            {
                throw new IllegalStateException("no " + what + " within " + timeoutNs / 1_000_000 + " ms virtual");
            }
            if (0 == step())
            {
                clock.advance(64_000);
            }
        }
    }

    /** Run until the channel has an event, check its type, acknowledge it and return it. */
    CmEvent await(final EventChannel channel, final CmEventType expected)
    {
        runUntil(() -> channel.pending() > 0, 10 * SECOND, expected.str());
        final CmEvent event = channel.pollEvent();
        assertNotNull(event);
        assertEquals(expected, event.type(), () -> "got " + event);
        assertEquals(0, channel.ackEvent(event));
        return event;
    }

    /** Run until the CQ yields one completion. */
    WorkCompletion poll(final CompletionQueue cq)
    {
        final WorkCompletion[] one = {new WorkCompletion()};
        runUntil(() -> 1 == cq.poll(one, 1), 10 * SECOND, "completion on " + cq);
        return one[0];
    }

    /** Run in virtual time for a while (retransmissions, time-wait). */
    void runFor(final long ns)
    {
        final long end = clock.nanoTime() + ns;
        while (clock.nanoTime() < end)
        {
            if (0 == step())
            {
                clock.advance(64_000);
            }
        }
    }

    static InetSocketAddress address(final int ip, final int port)
    {
        return new InetSocketAddress(IpAddress.ofIpv4(ip).toInet(), port);
    }

    static InetSocketAddress address(final String literal, final int port)
    {
        try
        {
            return new InetSocketAddress(InetAddress.getByName(literal), port);
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close()
    {
        a.close();
        b.close();
        pair.close();
    }
}
