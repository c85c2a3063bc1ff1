package io.jrxe.tests;

import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePairContext;

import java.nio.file.Path;

/**
 * Settings of the library's {@link io.jrxe.rxe.node.NodePair} that the integration tests use; an engine-internal
 * error fails the test.
 */
final class TestPairs
{
    /** Virtual time and 10 s of it for ARP, a common bound of the deterministic tests. */
    static final long RESOLVE_NS = 10_000_000_000L;

    private TestPairs()
    {
    }

    /**
     * Everything stepped on the test thread in virtual time ({@link ManualClock}), 1 MiB of wire buffering per
     * direction: a run is a function of its inputs and the wire's seed.
     */
    static NodePairContext deterministic()
    {
        return new NodePairContext().clock(new ManualClock()).linkBuffering(1 << 20)
            .errorHandler(TestPairs::internalError);
    }

    /** Device models on their own threads, the nodes driven by the test thread, counters files in {@code dir}. */
    static NodePairContext threaded(final int nicMtu, final Path countersDirectory)
    {
        return new NodePairContext().startDevices(true).nicMtu(nicMtu).countersDirectory(countersDirectory)
            .maxQps(64).errorHandler(TestPairs::internalError);
    }

    private static void internalError(final Throwable ex)
    {
        throw new AssertionError("engine internal error", ex);
    }
}
