package io.jrxe.tools;

import io.jrxe.rxe.node.QpConnector;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PerftestBwMode;
import io.jrxe.ulp.oob.PerftestLatSession;
import io.jrxe.ulp.oob.PerftestReportFormatter.Unit;
import io.jrxe.ulp.oob.PerftestTest;
import io.jrxe.ulp.oob.Side;
import io.jrxe.ulp.perftest.PerftestLatPeer;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** What a run is asked to do; the defaults are perftest's. */
final class PerftestPeerSettings
{
    /** perftest's defaults: {@code DEF_TX_BW}, {@code DEF_RX_SEND}, {@code DEF_SIZE_BW}, {@code DEF_ITERS}. */
    static final int DEFAULT_TX_DEPTH = 128;
    static final int DEFAULT_RX_DEPTH = 512;
    static final int DEFAULT_SIZE = 65536;
    static final int DEFAULT_ITERS = 1000;
    /** perftest's {@code DEF_DURATION}: the period of {@code --run_infinitely} without {@code -D}. */
    static final int DEFAULT_PERIOD_SECONDS = 5;

    PerftestTest test = PerftestTest.WRITE_BW;
    String host;
    int port = OobContext.DEFAULT_PORT;
    int size = DEFAULT_SIZE;
    int iters = DEFAULT_ITERS;
    int txDepth = DEFAULT_TX_DEPTH;
    int rxDepth = DEFAULT_RX_DEPTH;
    int gidIndex = RoceNode.GID_INDEX_IPV4;
    Mtu mtu;
    boolean reportGbits;
    boolean rdmaCm;
    int timeoutSeconds = 300;
    int ackTimeout = QpConnector.DEFAULT_TIMEOUT;
    /** {@code -q}: QPs (bandwidth tests). */
    int qps = 1;
    /** {@code -b}: bidirectional (send_bw with any of -D/-a, write_bw and read_bw with -n). */
    boolean duplex;
    /** {@code -D}: seconds to run instead of iterations (bandwidth and latency tests), 0 for iterations. */
    int durationSeconds;
    /** {@code --run_infinitely}: a one-way write/read client prints a line per {@code -D} period until killed. */
    boolean runInfinitely;
    /** Stop a {@code --run_infinitely} client after this many periods (tests); 0 runs until killed. */
    long periods;
    /**
     * Latency tests, {@code --layout single}: the application's thread drives the node during each measured loop
     * ({@link io.jrxe.rxe.node.RunToCompletion}); the node's own thread drives it in between.
     */
    boolean runToCompletion;
    /** perftest's {@code -a}: sizes 2..2^{@link #maxSizeExponent} (latency tests, send_bw, one-way write/read). */
    boolean allSizes;
    /** The largest size of {@code -a} as a power of two: perftest's 23 (8 MiB); tests lower it. */
    int maxSizeExponent = PerftestLatSession.ALL_SIZES_MAX_EXPONENT;
    /** Latency tests: {@code -I}, -1 for perftest's default. */
    int maxInline = -1;
    /** Latency tests: {@code --cq-mod} of ib_send_lat (perftest's default is the tx depth, 1). */
    int cqMod = 1;
    /** Latency tests: write each size's HdrHistogram here ({@code --hgrm}), or null. */
    String hgrm;

    /**
     * Maps a command line onto settings: exactly one of {@code server} and {@code host}, an operation perftest
     * has a bandwidth test for.
     *
     * @throws IllegalArgumentException on a bad combination or value, saying what to fix
     */
    static PerftestPeerSettings of(final String host, final boolean server, final String op)
    {
        return of(host, server, op, false);
    }

    /**
     * As {@link #of(String, boolean, String)}, for a latency test ({@code ib_*_lat}) when {@code latency}, with
     * perftest's latency defaults (size 2, or 8 for atomic; tx depth 1).
     */
    static PerftestPeerSettings of(final String host, final boolean server, final String op, final boolean latency)
    {
        if (server == (null != host))
        {
            throw new IllegalArgumentException("give either --server or the HOST of a perftest server, not " +
                (server ? "both" : "neither"));
        }
        final PerftestPeerSettings s = new PerftestPeerSettings();
        s.host = host;
        s.test = testOf(op, latency);
        if (latency)
        {
            s.size = PerftestTest.ATOMIC_LAT == s.test ? 8 : 2;
            s.txDepth = 1;
        }
        return s;
    }

    static PerftestTest testOf(final String op)
    {
        return testOf(op, false);
    }

    static PerftestTest testOf(final String op, final boolean latency)
    {
        if (latency)
        {
            return latTestOf(op);
        }
        switch (op.toLowerCase(Locale.ROOT))
        {
            case "send":
                return PerftestTest.SEND_BW;
            case "write":
                return PerftestTest.WRITE_BW;
            case "read":
                return PerftestTest.READ_BW;
            default:
                throw new IllegalArgumentException("perftest peer mode runs --op send, write or read, not '" +
                    op + "'");
        }
    }

    private static PerftestTest latTestOf(final String op)
    {
        return switch (op.toLowerCase(Locale.ROOT))
        {
            case "send" -> PerftestTest.SEND_LAT;
            case "write" -> PerftestTest.WRITE_LAT;
            case "read" -> PerftestTest.READ_LAT;
            case "atomic" -> PerftestTest.ATOMIC_LAT;
            default -> throw new IllegalArgumentException("perftest peer mode with --lat runs --op send, " +
                "write, read or atomic, not '" + op + "'");
        };
    }

    private void checkModes()
    {
        if (qps < 1 || qps > 64)
        {
            throw new IllegalArgumentException("-q must be in [1, 64], got " + qps);
        }
        if (durationSeconds < 0)
        {
            throw new IllegalArgumentException("-D takes a positive number of seconds, got " + durationSeconds);
        }
        if (allSizes && (durationSeconds > 0 || runInfinitely))
        {
            // force_dependecies: "Duration mode currently doesn't support running on all sizes."
            throw new IllegalArgumentException("-a cannot be combined with -D or --run_infinitely: perftest's " +
                "duration mode does not support running on all sizes");
        }
        if (test.latency())
        {
            if (1 != qps || duplex || runInfinitely)
            {
                throw new IllegalArgumentException("-q, -b and --run_infinitely are for the bandwidth tests: " +
                    "perftest's latency tests run one QP, one way");
            }
            return;
        }
        if (runInfinitely && (duplex || !test.serverIsPassive()))
        {
            throw new IllegalArgumentException("--run_infinitely is implemented for one-way ib_write_bw and " +
                "ib_read_bw, not " + test.tool() + (duplex ? " with -b" : ""));
        }
        bwMode();
    }

    /**
     * The options that shape the bandwidth conversation.
     *
     * @throws IllegalArgumentException for a combination that is not implemented
     */
    PerftestBwMode bwMode()
    {
        return new PerftestBwMode(duplex, durationSeconds > 0 && !runInfinitely,
            allSizes ? PerftestBwMode.allSizes(maxSizeExponent) : List.of((long)size)).checkFor(test);
    }

    /** @return the tx depth of a latency run. */
    int latTxDepth()
    {
        return txDepth;
    }

    /** @return the library's settings of a latency run (checked). */
    PerftestLatPeer.Settings latSettings()
    {
        final PerftestLatPeer.Settings s = new PerftestLatPeer.Settings();
        s.test = test;
        s.iters = iters;
        s.txDepth = txDepth;
        s.rxDepth = rxDepth;
        s.cqMod = cqMod;
        s.maxInline = maxInline;
        s.maxSize = allSizes ? 1L << maxSizeExponent : size;
        s.gidIndex = gidIndex;
        s.ackTimeout = ackTimeout;
        s.runTimeoutNs = TimeUnit.SECONDS.toNanos(timeoutSeconds);
        s.durationSeconds = durationSeconds;
        return s.check();
    }

    PerftestPeerSettings check()
    {
        if (test.latency())
        {
            latSettings();
            PerftestLatSession.sizes(test, size, allSizes);
        }
        else if (null != hgrm)
        {
            throw new IllegalArgumentException("--hgrm is for the latency tests in peer mode (--lat)");
        }
        checkModes();
        if (size < 1 || iters < 1 || txDepth < 1 || rxDepth < 1)
        {
            throw new IllegalArgumentException("size, iterations, tx depth and rx depth must be positive: " +
                size + ", " + iters + ", " + txDepth + ", " + rxDepth);
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("port must be 1..65535, got " + port);
        }
        if (ackTimeout < 1 || ackTimeout > 31)
        {
            throw new IllegalArgumentException("the ACK timeout code (perftest -u) must be 1..31, got " +
                ackTimeout);
        }
        if (timeoutSeconds < 1)
        {
            throw new IllegalArgumentException("timeout must be at least 1 second, got " + timeoutSeconds);
        }
        return this;
    }

    Side side()
    {
        return null == host ? Side.SERVER : Side.CLIENT;
    }

    Unit unit()
    {
        return reportGbits ? Unit.GB_PER_SEC : Unit.MB_PER_SEC;
    }
}
