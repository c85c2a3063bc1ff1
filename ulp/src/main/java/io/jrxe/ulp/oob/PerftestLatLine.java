package io.jrxe.ulp.oob;

/**
 * One line of a perftest latency table: {@link PerftestLatReport} for a run of iterations, or
 * {@link PerftestLatDurationReport} for a run of {@code -D} seconds, each with the header perftest prints above it.
 */
public interface PerftestLatLine
{
    /** @return the message size in bytes. */
    long size();

    /** @return the iterations run (counted, in duration mode). */
    long iters();

    /** @return the table header this line goes under, with its newline. */
    String header();

    /** @return the line as perftest prints it, with its newline. */
    String line();
}
