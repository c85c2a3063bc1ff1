package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.rxe.engine.RcDataPathTest.sendWr;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine ends its own duty cycle with one flush of the packet I/O, whoever drives it (the node-level test of
 * the duty-cycle clock is {@code io.jrxe.rxe.node.RoceNodeDutyCycleTest}).
 */
class EngineDutyCycleTest
{
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
}
