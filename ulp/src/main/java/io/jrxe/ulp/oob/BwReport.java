package io.jrxe.ulp.oob;

/**
 * perftest's {@code struct bw_report_data}, the numbers {@code xchg_bw_reports} exchanges. Bandwidths are in the
 * sender's unit: MB/s of 2^20 bytes by default, Gb/s of 10^9 bits when the sender runs with {@code --report_gbits}; the
 * receiver cannot tell which, so both sides must use the same setting. Message rates are in Mpps.
 * <p>
 * On the wire ({@code xchg_bw_reports}) each field is its own exchange, big-endian ({@code hton_long},
 * {@code hton_double}), in this order; the per-port fields only when {@code --report-per-port}:
 * <pre>
 *   size (8) | iters (8, or 4 if the peer's version &lt; 5.33) | bw_peak (8) | bw_avg (8) | msgRate_avg (8)
 *   [ bw_avg_p1 (8) | msgRate_avg_p1 (8) | bw_avg_p2 (8) | msgRate_avg_p2 (8) ]
 * </pre>
 *
 * @param size          message size in bytes.
 * @param iters         iterations counted (iterations times QPs).
 * @param bwPeak        peak bandwidth.
 * @param bwAvg         average bandwidth.
 * @param msgRateAvg    average message rate in Mpps.
 * @param bwAvgP1       average bandwidth of port 1 (dual-port runs).
 * @param msgRateAvgP1  message rate of port 1.
 * @param bwAvgP2       average bandwidth of port 2.
 * @param msgRateAvgP2  message rate of port 2.
 */
public record BwReport(
    long size,
    long iters,
    double bwPeak,
    double bwAvg,
    double msgRateAvg,
    double bwAvgP1,
    double msgRateAvgP1,
    double bwAvgP2,
    double msgRateAvgP2)
{
    /** All zero: what a passive write_bw/read_bw server sends (perftest sends an uninitialised struct there). */
    public static final BwReport EMPTY = new BwReport(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * A single-port report.
     *
     * @param size       message size in bytes.
     * @param iters      iterations counted.
     * @param bwPeak     peak bandwidth.
     * @param bwAvg      average bandwidth.
     * @param msgRateAvg average message rate in Mpps.
     * @return the report with zero per-port fields.
     */
    public static BwReport of(
        final long size, final long iters, final double bwPeak, final double bwAvg, final double msgRateAvg)
    {
        return new BwReport(size, iters, bwPeak, bwAvg, msgRateAvg, 0, 0, 0, 0);
    }
}
