package io.jrxe.net;

import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One NetStack over a {@link LoopbackNic} with controllable clocks, plus helpers to drive and inspect it. */
final class TestNet implements AutoCloseable
{
    static final String IP6_A = "2001:db8::a";
    static final String IP6_B = "2001:db8::b";

    final CachedNanoClock clock = new CachedNanoClock();
    final CachedEpochClock epochClock = new CachedEpochClock();
    final LoopbackNic nic;
    final NetStack stack;
    final NetStackContext ctx;

    TestNet(final LoopbackNic nic, final int ip, final String ip6, final Consumer<NetStackContext> configure)
    {
        this.nic = nic;
        clock.update(1_000_000_000L);
        epochClock.update(1_700_000_000_123L);
        ctx = new NetStackContext()
            .ipv4Address(ip)
            .ipv4PrefixLength(24)
            .gratuitousArp(false)
            .nanoClock(clock)
            .epochClock(epochClock)
            .errorHandler(ex ->
            {
                throw new AssertionError("handler error", ex);
            });
        if (null != ip6)
        {
            ctx.addIpv6Address(ip6);
        }
        configure.accept(ctx);
        stack = new NetStack(nic, ctx);
    }

    TestNet(final long mac, final int ip, final String ip6)
    {
        this(new LoopbackNic("nic-" + Long.toHexString(mac), mac), ip, ip6, c -> {});
    }

    static TestNet a()
    {
        return new TestNet(Frames.MAC_A, Frames.IP_A, IP6_A);
    }

    static TestNet b()
    {
        return new TestNet(Frames.MAC_B, Frames.IP_B, IP6_B);
    }

    /** Injects the frame, polls once, returns the last frame sent in that poll or null. */
    byte[] exchange(final byte[] frame)
    {
        nic.clearTransmitted();
        nic.inject(frame);
        stack.poll();
        return nic.lastTransmitted();
    }

    /** Advances the clock and polls. */
    int advance(final long nanos)
    {
        clock.advance(nanos);
        return stack.poll();
    }

    long[] snapshot()
    {
        final long[] values = new long[NetCounter.count()];
        for (final NetCounter c : NetCounter.values())
        {
            values[c.id()] = stack.counter(c);
        }
        return values;
    }

    /** Counters that changed since {@code before}, by label, in id order. */
    Map<String, Long> changes(final long[] before)
    {
        final Map<String, Long> changed = new LinkedHashMap<>();
        for (final NetCounter c : NetCounter.values())
        {
            final long delta = stack.counter(c) - before[c.id()];
            if (0 != delta)
            {
                changed.put(c.label(), delta);
            }
        }
        return changed;
    }

    long count(final NetCounter counter)
    {
        return stack.counter(counter);
    }

    void assertAllBuffersFree()
    {
        // buffers still waiting in the device's rx queue belong to the device
        assertEquals(nic.pool().capacity(), nic.pool().available() + nic.rxQueued(),
            "packet buffers leaked or double freed");
    }

    long linkLocalHi()
    {
        return stack.ipv6Hi(0);
    }

    long linkLocalLo()
    {
        return stack.ipv6Lo(0);
    }

    byte[] linkLocal()
    {
        return Frames.v6(linkLocalHi(), linkLocalLo());
    }

    @Override
    public void close()
    {
        nic.close();
    }
}
