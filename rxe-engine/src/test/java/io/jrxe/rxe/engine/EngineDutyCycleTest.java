package io.jrxe.rxe.engine;

import io.jrxe.rxe.net.MemoryWire;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeContext;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine runs its whole duty cycle itself: one clock read, shared through the duty-cycle clock, and one flush
 * of the packet I/O at the end, whoever drives it.
 */
class EngineDutyCycleTest
{
    @Test
    void shouldReadTheClockOnceAndShareItThroughTheDutyCycleClock()
    {
        final CountingClock source = new CountingClock();
        final CachedNanoClock dutyCycle = new CachedNanoClock();
        final MemoryWire wire = new MemoryWire(1, EnginePair.IP_A, EnginePair.IP_B, 64);
        final RxeEngine engine = new RxeEngine(new RxeEngine.Context().nanoClock(source).dutyCycleClock(dutyCycle)
            .packetIo(wire.a()).poller(wire.a()), new RxeDevice(new RxeContext()));
        assertEquals(source.now, dutyCycle.nanoTime(), "set when the engine is built");
        final long readsBefore = source.reads;
        for (int i = 1; i <= 5; i++)
        {
            source.now += 1_000;
            engine.progress();
            assertEquals(readsBefore + i, source.reads, "one clock read per duty cycle");
            assertEquals(source.now, dutyCycle.nanoTime(), "the duty-cycle clock holds this cycle's reading");
        }
        engine.close();
    }

    @Test
    void shouldFlushThePacketIoOncePerDutyCycle()
    {
        try (EnginePair pair = new EnginePair(31))
        {
            final QueuePair[] qps = pair.connect(QpType.RC, 16, Mtu.MTU_1024, 1, 2, new EnginePair.QpTuning());
            final int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
            final EnginePair.Region src = pair.a.register(5000, access);
            final EnginePair.Region dst = pair.b.register(5000, access);
            pair.a.postSend(qps[0], sendWr(WrOpcode.RDMA_WRITE, 1, src, 0, 5000).remoteAddr(dst.address())
                .rkey(dst.mr.rkey()));
            final long flushesA = pair.a.endpoint.flushes();
            final long flushesB = pair.b.endpoint.flushes();
            final List<WorkCompletion> wcs = new ArrayList<>();
            int cycles = 0;
            while (wcs.isEmpty() && cycles < 1_000)
            {
                pair.a.engine.progress();
                pair.b.engine.progress();
                cycles++;
                pair.a.pollSend(wcs);
            }
            assertEquals(WcStatus.SUCCESS.code(), wcs.get(0).status());
            assertEquals(flushesA + cycles, pair.a.endpoint.flushes());
            assertEquals(flushesB + cycles, pair.b.endpoint.flushes());
        }
    }

    /** A clock that counts its reads. */
    private static final class CountingClock implements NanoClock
    {
        long now = 5_000_000_000L;
        long reads;

        @Override
        public long nanoTime()
        {
            reads++;
            return now;
        }
    }
}
