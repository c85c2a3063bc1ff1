package io.jrxe.ulp.oob;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.verbs.Mtu;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The steps of perftest's TCP conversation (no {@code -R}), each one a call, so that verbs setup can go between them.
 * Wire behaviour follows perftest 4.5-0.17 ({@code VERSION "6.06"}, Debian bookworm), checked against the
 * {@code perftest_communication.c} sources and the order of calls in the Debian {@code ib_send_bw},
 * {@code ib_write_bw} and {@code ib_read_bw} binaries. Every step is one {@code ctx_xchg_data}: the
 * {@link Side#CLIENT} writes its part and then reads the peer's, the {@link Side#SERVER} reads first (and validates)
 * and then writes.
 * <pre>
 *   step                 bytes each way                               perftest function
 *   exchangeVersions     16: version text + NULs                       exchange_versions, check_version_compatibility
 *   exchangeSysData      4 + 4: cycle buffer, cache line, big-endian    check_sys_data (only if remote &gt;= 5.32)
 *   exchangeMtu          2: ibv_mtu enum as "%d" + NUL                   check_mtu (4 bytes if remote &lt; 5.31)
 *   exchangeDest         59 or 108 per QP                               ctx_hand_shake (ethernet_write/read_keys)
 *   sync                 the first QP's key message again               ctx_hand_shake(&amp;my_dest[0], ...)
 *   exchangeReport       8 (size) 8 (iters) 8 8 8 (doubles), big-endian xchg_bw_reports
 *   close                sync, then "done\0" (5 bytes), then close     ctx_close_connection
 * </pre>
 * Peers older than 5.70 are refused after the version exchange, as perftest 6.06 refuses them, so the older wire
 * variants perftest still carries (no system data below 5.32, a 4-byte MTU below 5.31, 4-byte iterations below
 * 5.33) never apply and are not implemented.
 * <p>
 * The order the tools use the steps in is in {@link PerftestBwSession}. This class enforces the setup order
 * (versions, system data, MTU, destinations) and then allows syncs and reports in any order until {@link #close()}.
 * <p>
 * With rdma_cm ({@code -R}) the same steps run over a {@link PerftestCmChannel}: {@code ctx_xchg_data} and
 * {@code ctx_hand_shake} then SEND the same bytes, except that key messages are the binary
 * {@code struct pingpong_dest} ({@link PerftestDest#encodeBinary}), the GID-type check is skipped (perftest makes it
 * only without rdma_cm), {@link #syncBeforeQps()} brackets the data connection, and no "done" follows the close.
 * Not implemented: the data-validation key formats, and the parameter negotiation of perftest 6.28 and later, which
 * such a peer skips because this side announces 6.06.
 */
public final class PerftestExchange
{
    private enum State
    {
        NEW, VERSIONS, SYS_DATA, MTU, DESTS, CLOSED
    }

    private static final double VERSION_NEGOTIATION = 6.28;
    private static final int MTU_FIELD_LENGTH = 2;

    private final PerftestChannel channel;
    private final Side side;
    private final boolean withGid;
    private final PerftestVersion localVersion;
    private final boolean exchangeVersions;
    private final boolean reportPerPort;
    private PerftestVersion remoteVersion;
    private PerftestDest firstLocalDest;
    private State state = State.NEW;

    /**
     * An exchange with the defaults of a RoCE run: GID key format, version 6.06, versions exchanged, no per-port
     * reports.
     *
     * @param channel connection to the peer.
     * @param side    this side's role.
     */
    public PerftestExchange(final OobChannel channel, final Side side)
    {
        this(new PerftestTcpChannel(channel), side);
    }

    /**
     * An exchange with the defaults of a RoCE run (see {@link #PerftestExchange(OobChannel, Side)}) on any channel,
     * e.g. the rdma_cm one of {@code -R}.
     *
     * @param channel connection to the peer.
     * @param side    this side's role.
     */
    public PerftestExchange(final PerftestChannel channel, final Side side)
    {
        this(channel, side, true, PerftestVersion.V6_06, true, false);
    }

    /**
     * @param channel          connection to the peer.
     * @param side             this side's role.
     * @param withGid          108-byte GID key messages (RoCE, or {@code -x}); false for 59-byte ones (IB only).
     * @param localVersion     version to announce; must be below 6.28 (parameter negotiation is not implemented).
     * @param exchangeVersions false to mirror a peer run with {@code --dont_xchg_versions}: no version, system data
     *                         or MTU bytes are exchanged and the peer is assumed to run {@code localVersion}.
     * @param reportPerPort    mirror {@code --report-per-port}: the BW report carries the four per-port fields.
     */
    public PerftestExchange(
        final OobChannel channel,
        final Side side,
        final boolean withGid,
        final PerftestVersion localVersion,
        final boolean exchangeVersions,
        final boolean reportPerPort)
    {
        this(new PerftestTcpChannel(channel), side, withGid, localVersion, exchangeVersions, reportPerPort);
    }

    /**
     * @param channel          connection to the peer.
     * @param side             this side's role.
     * @param withGid          108-byte GID key messages; false for 59-byte ones (ignored on a channel with
     *                         {@link PerftestChannel#binaryKeys()}).
     * @param localVersion     version to announce; must be below 6.28.
     * @param exchangeVersions false to mirror a peer run with {@code --dont_xchg_versions}.
     * @param reportPerPort    mirror {@code --report-per-port}.
     */
    public PerftestExchange(
        final PerftestChannel channel,
        final Side side,
        final boolean withGid,
        final PerftestVersion localVersion,
        final boolean exchangeVersions,
        final boolean reportPerPort)
    {
        if (localVersion.atLeast(VERSION_NEGOTIATION))
        {
            throw new IllegalArgumentException("perftest " + localVersion.text() + " would make a peer >= 6.28 " +
                "negotiate parameters, which is not implemented; announce a version below 6.28, e.g. 6.06");
        }
        this.channel = channel;
        this.side = side;
        this.withGid = withGid;
        this.localVersion = localVersion;
        this.exchangeVersions = exchangeVersions;
        this.reportPerPort = reportPerPort;
    }

    /** @return this side's role. */
    public Side side()
    {
        return side;
    }

    /** @return whether key messages use the 108-byte GID format. */
    public boolean withGid()
    {
        return withGid;
    }

    /** @return the peer's version, or null before {@link #exchangeVersions()}. */
    public PerftestVersion remoteVersion()
    {
        return remoteVersion;
    }

    /**
     * {@code exchange_versions} and {@code check_version_compatibility}: swap the 16-byte version fields.
     *
     * @return the peer's version.
     * @throws OobException if the field is malformed or the peer is older than 5.70, which perftest refuses.
     */
    public PerftestVersion exchangeVersions() throws OobException
    {
        expectState(State.NEW, "exchangeVersions");
        if (exchangeVersions)
        {
            remoteVersion = xchg(localVersion.encode(), PerftestVersion.FIELD_LENGTH, "perftest version",
                channel.ioTimeoutNs(), PerftestVersion::decode);
        }
        else
        {
            remoteVersion = localVersion;
        }
        state = State.VERSIONS;
        if (!remoteVersion.atLeast(PerftestVersion.MIN_COMPATIBLE))
        {
            throw new OobException("the peer runs perftest version " + remoteVersion.text() + "; version " +
                localVersion.text() + " is not compatible with versions older than 5.70 (perftest stops with " +
                "\"Current implementation is not compatible with versions older than 5.70\")");
        }
        return remoteVersion;
    }

    /**
     * {@code check_sys_data}: swap cycle buffer and cache line size and take the maximum of each (nothing is sent
     * when versions are not exchanged).
     *
     * @param local this side's values.
     * @return the values both sides use from now on.
     * @throws OobException on I/O failure or a non-positive value from the peer.
     */
    public PerftestSysData exchangeSysData(final PerftestSysData local) throws OobException
    {
        expectState(State.VERSIONS, "exchangeSysData");
        PerftestSysData result = local;
        if (exchangeVersions)
        {
            final int cycleBuffer = xchgPositiveInt(local.cycleBuffer(), "perftest cycle buffer size");
            final int cacheLine = xchgPositiveInt(local.cacheLineSize(), "perftest cache line size");
            result = new PerftestSysData(Math.max(cycleBuffer, local.cycleBuffer()),
                Math.max(cacheLine, local.cacheLineSize()));
        }
        state = State.SYS_DATA;
        return result;
    }

    /**
     * {@code check_mtu}: swap the active MTU ({@code ibv_mtu} enum as decimal text) and take the smaller one.
     *
     * @param local this side's active MTU (or the one chosen with {@code -m}).
     * @return the path MTU both sides use.
     * @throws OobException on I/O failure or if the peer's value is not an MTU code 1..5 (perftest would silently
     *                      keep its own; a correct peer never sends that).
     */
    public Mtu exchangeMtu(final Mtu local) throws OobException
    {
        expectState(State.SYS_DATA, "exchangeMtu");
        Mtu result = local;
        if (exchangeVersions)
        {
            // check_mtu: char cur[sizeof(int)]; sprintf(cur, "%d", mtu); sends sizeof(char[2]) to peers >= 5.31
            final byte[] mine = new byte[MTU_FIELD_LENGTH];
            mine[0] = (byte)('0' + local.code());
            final Mtu remote = xchg(mine, MTU_FIELD_LENGTH, "perftest MTU", channel.ioTimeoutNs(),
                PerftestExchange::decodeMtu);
            result = remote.code() < local.code() ? remote : local;
        }
        state = State.MTU;
        return result;
    }

    /**
     * {@code ctx_hand_shake} for one QP: swap key messages. The first call also makes perftest's
     * {@code ctx_check_gid_compatibility} check.
     *
     * @param local this side's QP data.
     * @return the peer's QP data.
     * @throws OobException if the message is malformed or the GID types disagree.
     */
    public PerftestDest exchangeDest(final PerftestDest local) throws OobException
    {
        if (State.MTU != state)
        {
            expectState(State.DESTS, "exchangeDest");
        }
        final PerftestDest remote = handShake(local, channel.ioTimeoutNs());
        if (null == firstLocalDest)
        {
            firstLocalDest = local;
            // perftest checks GID types only when rdma_cm is off (with -R the CM chose the path)
            if (!channel.binaryKeys() && !local.gidCompatible(remote))
            {
                throw new OobException("GID types differ: this side " + gidType(local) + ", the peer " +
                    gidType(remote) + " (perftest stops with \"Found Incompatibility issue with GID types\"; " +
                    "use the same IP version on both sides)");
            }
        }
        state = State.DESTS;
        return remote;
    }

    /**
     * {@link #exchangeDest(PerftestDest)} for each QP in order (perftest's loop over {@code num_of_qps}).
     *
     * @param locals this side's QPs.
     * @return the peer's QPs, same order.
     * @throws OobException as {@link #exchangeDest(PerftestDest)}.
     */
    public List<PerftestDest> exchangeDests(final List<PerftestDest> locals) throws OobException
    {
        final List<PerftestDest> remotes = new ArrayList<>(locals.size());
        for (final PerftestDest local : locals)
        {
            remotes.add(exchangeDest(local));
        }
        return remotes;
    }

    /**
     * The hand-shakes around perftest's data connection with rdma_cm ({@code create_rdma_cm_connection}): before and
     * after it each side sends {@code my_dest[0]}, which is still all zeros then, and ignores what it reads. Only
     * between {@link #exchangeMtu} and the first {@link #exchangeDest}.
     *
     * @throws OobException on timeout or a message of the wrong length.
     */
    public void syncBeforeQps() throws OobException
    {
        expectState(State.MTU, "syncBeforeQps");
        // all of it zero, gid_index and padding too: my_dest was memset, and rdma_write_keys copies every field
        final byte[] zero = channel.binaryKeys() ? new byte[PerftestDest.BINARY_SIZE] :
            PerftestDest.ZERO.encode(withGid);
        xchg(zero, zero.length, PerftestDest.MESSAGE_NAME, channel.ioTimeoutNs(), theirs -> theirs);
    }

    /**
     * A barrier: re-send the first QP's key message and read the peer's, bounded by
     * {@link OobContext#ioTimeoutNs()}.
     *
     * @return the peer's first QP data as it re-sent it.
     * @throws OobException on timeout or a malformed message.
     */
    public PerftestDest sync() throws OobException
    {
        return sync(channel.ioTimeoutNs());
    }

    /**
     * A barrier with its own bound, for the wait that spans the peer's traffic (a passive write_bw/read_bw server
     * waits here until the client has finished).
     *
     * @param timeoutNs bound for the peer's message.
     * @return the peer's first QP data as it re-sent it.
     * @throws OobException on timeout or a malformed message.
     */
    public PerftestDest sync(final long timeoutNs) throws OobException
    {
        expectState(State.DESTS, "sync");
        return handShake(firstLocalDest, timeoutNs);
    }

    /**
     * {@code xchg_bw_reports}: swap the report fields one exchange at a time.
     *
     * @param local this side's report ({@link BwReport#EMPTY} on a passive server).
     * @return the peer's report.
     * @throws OobException on I/O failure.
     */
    public BwReport exchangeReport(final BwReport local) throws OobException
    {
        return exchangeReport(local, channel.ioTimeoutNs());
    }

    /**
     * {@link #exchangeReport(BwReport)} with its own bound for the first field, for a bidirectional run where the
     * report exchange follows the traffic directly and the peer may still be sending ({@code -b}).
     *
     * @param local     this side's report.
     * @param timeoutNs bound for the peer's first field.
     * @return the peer's report.
     * @throws OobException on I/O failure.
     */
    public BwReport exchangeReport(final BwReport local, final long timeoutNs) throws OobException
    {
        expectState(State.DESTS, "exchangeReport");
        final long size = xchgLong(local.size(), "BW report size", timeoutNs);
        final long iters = xchgLong(local.iters(), "BW report iterations");
        final double bwPeak = xchgDouble(local.bwPeak(), "BW report peak");
        final double bwAvg = xchgDouble(local.bwAvg(), "BW report average");
        final double msgRate = xchgDouble(local.msgRateAvg(), "BW report message rate");
        if (!reportPerPort)
        {
            return new BwReport(size, iters, bwPeak, bwAvg, msgRate, 0, 0, 0, 0);
        }
        final double bwP1 = xchgDouble(local.bwAvgP1(), "BW report port 1 average");
        final double msgRateP1 = xchgDouble(local.msgRateAvgP1(), "BW report port 1 message rate");
        final double bwP2 = xchgDouble(local.bwAvgP2(), "BW report port 2 average");
        final double msgRateP2 = xchgDouble(local.msgRateAvgP2(), "BW report port 2 message rate");
        return new BwReport(size, iters, bwPeak, bwAvg, msgRate, bwP1, msgRateP1, bwP2, msgRateP2);
    }

    /**
     * {@code ctx_close_connection}: a last barrier, then over TCP "done\0" (5 bytes), then close. perftest 6.06
     * writes its own "done" and closes without reading ours; later versions send none; with rdma_cm none is sent.
     * Failures after the barrier mean only that the peer has gone, which it is entitled to do.
     *
     * @return true if the peer's "done" arrived, false if it closed without one.
     * @throws OobException if the barrier fails or the peer sent something other than "done\0".
     */
    public boolean close() throws OobException
    {
        return close(channel.ioTimeoutNs());
    }

    /**
     * {@link #close()} with its own bound for the last barrier, for a side that may reach it long before the peer
     * (e.g. an ib_send_bw client that finished sending while the server still drains its receive queue).
     *
     * @param timeoutNs bound for the peer's last key message.
     * @return true if the peer's "done" arrived, false if it closed without one.
     * @throws OobException if the barrier fails or the peer sent something other than "done\0".
     */
    public boolean close(final long timeoutNs) throws OobException
    {
        expectState(State.DESTS, "close");
        try
        {
            sync(timeoutNs);
            state = State.CLOSED;
            return channel.finishClose();
        }
        finally
        {
            state = State.CLOSED;
            channel.close();
        }
    }

    /**
     * Closes the connection with no closing hand-shake and no "done": the end of {@code ib_write_lat}, whose
     * {@code main} never calls {@code ctx_close_connection} (both sides simply exit after their last ping-pong).
     */
    public void finish()
    {
        expectState(State.DESTS, "finish");
        state = State.CLOSED;
        channel.close();
    }

    /**
     * Closes the connection without the closing barrier, after a failure: the perftest peer sees the connection
     * drop and stops.
     */
    public void abort()
    {
        state = State.CLOSED;
        channel.close();
    }

    private PerftestDest handShake(final PerftestDest local, final long timeoutNs) throws OobException
    {
        if (channel.binaryKeys())
        {
            // gid_index: jrxe's rdma_cm always addresses through the IPv4-mapped GID
            return xchg(local.encodeBinary(RoceNode.GID_INDEX_IPV4), PerftestDest.BINARY_SIZE,
                PerftestDest.MESSAGE_NAME, timeoutNs, PerftestDest::decodeBinary);
        }
        return xchg(local.encode(withGid), PerftestDest.messageLength(withGid), PerftestDest.MESSAGE_NAME, timeoutNs,
            msg -> PerftestDest.decode(msg, withGid));
    }

    @FunctionalInterface
    private interface Decoder<T>
    {
        T decode(byte[] theirs) throws OobException;
    }

    /**
     * One {@code ctx_xchg_data}. The server decodes and checks what it read before it answers, so a malformed
     * message is never answered (perftest parses key messages before answering too; other fields it answers first,
     * but the connection is closed on the failure either way).
     */
    private <T> T xchg(
        final byte[] mine, final int theirLength, final String what, final long timeoutNs, final Decoder<T> decoder)
        throws OobException
    {
        final byte[] theirs = new byte[theirLength];
        if (Side.CLIENT == side)
        {
            channel.write(mine, what);
            channel.readFully(theirs, what, timeoutNs);
            return decoder.decode(theirs);
        }
        channel.readFully(theirs, what, timeoutNs);
        final T value = decoder.decode(theirs);
        channel.write(mine, what);
        return value;
    }

    private long xchgLong(final long value, final String what) throws OobException
    {
        return xchgLong(value, what, channel.ioTimeoutNs());
    }

    private long xchgLong(final long value, final String what, final long timeoutNs) throws OobException
    {
        final byte[] mine = ByteBuffer.allocate(Long.BYTES).putLong(value).array();
        return xchg(mine, Long.BYTES, what, timeoutNs, b -> ByteBuffer.wrap(b).getLong());
    }

    private int xchgPositiveInt(final int value, final String what) throws OobException
    {
        final byte[] mine = ByteBuffer.allocate(Integer.BYTES).putInt(value).array();
        return xchg(mine, Integer.BYTES, what, channel.ioTimeoutNs(), b ->
        {
            final int theirs = ByteBuffer.wrap(b).getInt();
            if (theirs <= 0)
            {
                throw WireText.malformed(b, what, "must be a positive big-endian int, got " + theirs);
            }
            return theirs;
        });
    }

    private static Mtu decodeMtu(final byte[] theirs) throws OobException
    {
        final Mtu remote = 0 == theirs[1] ? Mtu.ofCode(theirs[0] - '0') : null;
        if (null == remote)
        {
            throw WireText.malformed(theirs, "perftest MTU", "expected an ibv_mtu code 1..5 and a NUL");
        }
        return remote;
    }

    private double xchgDouble(final double value, final String what) throws OobException
    {
        return Double.longBitsToDouble(xchgLong(Double.doubleToRawLongBits(value), what));
    }

    private static String gidType(final PerftestDest dest)
    {
        return Gid.TYPE_IPV4_MAPPED == Gid.type(dest.gid()) ?
            "IPv4-mapped " + Gid.toString(dest.gid()) :
            "IPv6 " + Gid.toString(dest.gid());
    }

    private void expectState(final State expected, final String step)
    {
        if (state != expected)
        {
            throw new IllegalStateException(step + "() called in state " + state + "; perftest's order is " +
                "exchangeVersions, exchangeSysData, exchangeMtu, exchangeDest per QP, then sync/exchangeReport, close");
        }
    }
}
