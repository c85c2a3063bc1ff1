package io.jrxe.tests;

import java.nio.file.Path;

/** Checks on the counters after a soak. */
final class SoakCounters
{
    private SoakCounters()
    {
    }

    static void assertConsistent(final Path countersDir, final DeterministicNodes nodes, final MixedRcWorkload w)
    {
    }
}
