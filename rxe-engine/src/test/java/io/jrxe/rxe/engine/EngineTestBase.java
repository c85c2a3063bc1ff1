package io.jrxe.rxe.engine;

import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Shared set-up of the two-engine tests: a seeded {@link EnginePair}, completion lists, and the checks on close. */
abstract class EngineTestBase
{
    static final int ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ |
        AccessFlags.REMOTE_ATOMIC;
    static final long MS = 1_000_000;

    final EnginePair pair;
    final List<WorkCompletion> sendWcs = new ArrayList<>();
    final List<WorkCompletion> recvWcs = new ArrayList<>();

    EngineTestBase(final long seed)
    {
        pair = new EnginePair(seed);
    }

    /** Both engines with these DCQCN settings. */
    EngineTestBase(final long seed, final DcqcnParameters dcqcn)
    {
        pair = new EnginePair(seed, 4096, null, dcqcn);
    }

    /** Both engines also write counters files ("A", "B") into {@code countersDirectory}. */
    EngineTestBase(final long seed, final Path countersDirectory)
    {
        pair = new EnginePair(seed, 4096, countersDirectory);
    }

    /** Delivers a frame to B: it is dropped, counted once under {@code reason}, and not counted as received. */
    void expectDropAtB(final byte[] frame, final RxeCounter reason)
    {
        final EngineCounters b = pair.b.engine.counters();
        final long before = b.get(reason);
        final long received = b.get(RxeCounter.RCVD_PKTS);
        pair.wire.b().deliver(frame);
        assertEquals(before + 1, b.get(reason), reason.label());
        assertEquals(received, b.get(RxeCounter.RCVD_PKTS), "dropped as " + reason.label() + " yet received");
    }

    @AfterEach
    void closePair()
    {
        try
        {
            assertEquals(List.of(), pair.internalErrors, "the engines caught internal errors");
        }
        finally
        {
            pair.close();
        }
    }
}
