package io.jrxe.ulp.cm;

import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.CmaHeader;
import io.jrxe.ulp.cm.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * B's {@link CmService} under a hostile peer, for {@code CmReceiveFuzzTest}: node A's bare QP1 ({@link GsiPeer})
 * sends MADs made by {@link MadMaker} through the real path (A's engine, the emulated wire, B's engine, B's
 * {@link MadPort} and {@link CmReceiver}), while B's consumer ({@link FuzzConsumer}) connects, accepts, rejects,
 * disconnects and destroys, and virtual time passes so the CM's timers fire. Every decision comes from a
 * {@link FuzzChoices}. One input is a sequence of steps from a clean CM back to a clean CM:
 * <pre>
 *   begin: listen on an RC and a UD service
 *   step*: the peer sends a MAD | B connects (REQ or SIDR_REQ) | B's consumer acts on a connection
 *          | time passes | the peer sends its last datagram again          -- then the pair settles
 *   end:   B destroys every connection, time passes until no timer is left, a Get(ClassPortInfo) is answered
 * </pre>
 * Invariants after every step (an {@link AssertionError} when one breaks; the pair's error handler throws on an
 * engine internal error):
 * <ul>
 *   <li>each datagram the peer sent got exactly one verdict: received ({@code cm_rx_msgs} of its attribute) or
 *       dropped before that for the reason its length or header calls for (short, long, version, method or
 *       attribute); after it, at most one further drop reason or duplicate, and without either it must have done
 *       something (a MAD sent, the consumer told, a connection or timer changed); other steps receive nothing;</li>
 *   <li>every MAD B sent is a 256-byte CM MAD, a Send of a CM message or a GetResp; B's {@code cm_tx_msgs} moved
 *       by exactly the Sends the peer received; a GetResp answers exactly the Get (or Set) of this step: its
 *       ClassPortInfo, or the request's header back with the status due; nothing waits for a send slot, no send
 *       failed;</li>
 *   <li>the connection tables agree: every entry of each is a live connection under its own key, and no more
 *       timers are queued than connections holding one; callbacks carry the state the event means, none comes
 *       after the consumer destroyed the connection, and a connection is established at most once;</li>
 *   <li>at the end: no connection, table entry, timer or AH is left, and the CM still answers.</li>
 * </ul>
 */
final class CmFuzzer implements AutoCloseable
{
    static final String OP = "op";
    static final String ADVANCE = "advance";
    static final String IPV6 = "ipv6";
    static final String CONNECTION = "connection";
    static final String ACTION = "action";
    static final String CONNECT = "connect";

    /** The first four OP values: the peer sends a MAD (half of the steps when the fuzzer picks evenly). */
    static final int OP_SEND = 0;
    static final int OP_CONNECT = 4;
    static final int OP_ACT = 5;
    static final int OP_ADVANCE = 6;
    static final int OP_REPEAT = 7;

    /** rdma_cm's service IDs: TCP port space port 7174 (rping), UDP port space port 7174. */
    static final long SERVICE_RC = 0x0000_0000_0106_1C06L;
    static final long SERVICE_UD = 0x0000_0000_0111_1C06L;
    static final int MAX_STEPS = 48;
    /** Ends an input's time-wait and retransmissions; more clock jumps than this is a CM that never goes quiet. */
    private static final int MAX_DRAIN_ROUNDS = 2_000;
    private static final int MAX_SETTLE_STEPS = 100_000;
    private static final long PROBE_TID = 0x0BE0_0000_0000_0001L;

    private final ManualClock clock = new ManualClock();
    private final NodePair pair;
    private final CmService cm;
    private final GsiPeer peer;
    private final AddressHandle toCm4;
    private final AddressHandle toCm6;
    private final long cmGid6Hi;
    private final long cmGid6Lo;
    private final long peerGid6Hi;
    private final long peerGid6Lo;
    private final byte[] mad = new byte[GsiPeer.MAX_LENGTH];
    private final UnsafeBuffer madBuffer = new UnsafeBuffer(mad);
    private final byte[] cmaBytes = new byte[CmaHeader.LENGTH];
    private final CmaHeader cma = new CmaHeader().wrap(new UnsafeBuffer(cmaBytes), 0);
    private final MadMaker maker;
    private final FuzzConsumer consumer;
    private final MadHeader sent = new MadHeader();
    private final MadHeader heard = new MadHeader();
    private final long[] before = new long[CmCounters.COUNT];
    private final String liveObjects;
    private final GsiPeer.Receiver onDatagram = this::onDatagram;
    private int lastLength = -1;
    private AddressHandle lastAh;
    private int sendsHeard;
    private int getRespsHeard;
    private final byte[] getResp = new byte[MadHeader.HEADER_LENGTH];
    private final MadHeader answer = new MadHeader().wrap(new UnsafeBuffer(getResp), 0);
    private int nextQpn;
    private long stateBefore;
    private long eventsBefore;
    private boolean clean = true;

    CmFuzzer()
    {
        pair = new NodePair(new NodePairContext().clock(clock).ipv6(true).errorHandler(CmFuzzer::internalError));
        try
        {
            cm = new CmService(pair.b().device(), new CmService.Context().clock(clock)
                .cmResponseTimeout(12).packetLifetime(8).maxCmRetries(2));
            peer = new GsiPeer(pair.a().device());
            final byte[] b6 = address(NodePair.IP6_B);
            final byte[] a6 = address(NodePair.IP6_A);
            cmGid6Hi = GidTable.bytesToLong(b6, 0);
            cmGid6Lo = GidTable.bytesToLong(b6, 8);
            peerGid6Hi = GidTable.bytesToLong(a6, 0);
            peerGid6Lo = GidTable.bytesToLong(a6, 8);
            toCm4 = peer.createAh(new AhAttr().dgid(0, GidTable.ipv4MappedLo(NodePair.IP_B))
                .sgidIndex(RoceNode.GID_INDEX_IPV4).hopLimit(64).portNum(RxeDevice.PORT));
            toCm6 = peer.createAh(new AhAttr().dgid(cmGid6Hi, cmGid6Lo).sgidIndex(RoceNode.GID_INDEX_IPV4 + 1)
                .hopLimit(64).portNum(RxeDevice.PORT));
            pair.a().stack().resolve6(cmGid6Hi, cmGid6Lo);
            pair.b().stack().resolve6(peerGid6Hi, peerGid6Lo);
            pair.resolve(1_000_000_000L);
            pair.runUntil(() -> pair.a().stack().isResolved6(cmGid6Hi, cmGid6Lo) &&
                pair.b().stack().isResolved6(peerGid6Hi, peerGid6Lo), 1_000_000_000L, "ND");
            maker = new MadMaker(mad, SERVICE_RC, SERVICE_UD, 0, GidTable.ipv4MappedLo(NodePair.IP_A), 0,
                GidTable.ipv4MappedLo(NodePair.IP_B), NodePair.IP_A, NodePair.IP_B);
            consumer = new FuzzConsumer(cm, maker);
            liveObjects = pair.b().device().liveObjects();
        }
        catch (final RuntimeException | Error ex)
        {
            pair.close();
            throw ex;
        }
    }

    private static byte[] address(final String literal)
    {
        try
        {
            return InetAddress.getByName(literal).getAddress();
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(literal, ex);
        }
    }

    private static void internalError(final Throwable ex)
    {
        throw new AssertionError("engine internal error", ex);
    }

    /** @return false after an input that failed: the CM's state is unknown, build a new fuzzer */
    boolean isClean()
    {
        return clean;
    }

    CmService cm()
    {
        return cm;
    }

    FuzzConsumer consumer()
    {
        return consumer;
    }

    /**
     * One input: steps while it has decisions (at most {@link #MAX_STEPS}), then the end-of-input checks.
     *
     * @param c the decisions
     */
    void run(final FuzzChoices c)
    {
        clean = false;
        lastLength = -1;
        maker.reset();
        consumer.begin(c);
        check(cm.listen(SERVICE_RC, consumer) && cm.listen(SERVICE_UD, consumer), "a listener of the last input");
        for (int steps = 0; steps < MAX_STEPS && c.more(); steps++)
        {
            step(c);
        }
        end();
        clean = true;
    }

    private void step(final FuzzChoices c)
    {
        snapshot();
        final int op = c.pick(OP, 0, OP_REPEAT);
        int length = -1;
        if (op < OP_CONNECT)
        {
            length = maker.make(c, this::qpnOf);
            lastAh = c.flag(IPV6) ? toCm6 : toCm4;
            lastLength = length;
            peer.send(mad, length, lastAh);
        }
        else if (OP_REPEAT == op && lastLength >= 0)
        {
            length = lastLength; // a retransmission: the same bytes to the same address
            peer.send(mad, length, lastAh);
        }
        else if (OP_CONNECT == op)
        {
            connect(c);
        }
        else if (OP_ACT == op)
        {
            consumer.act(c);
        }
        else if (OP_ADVANCE == op)
        {
            advance(c);
        }
        settle();
        checkStep(length);
    }

    /** B's consumer opens an exchange with the peer: a REQ (RC or UC) or a SIDR_REQ, over IPv4 or IPv6. */
    private void connect(final FuzzChoices c)
    {
        final int what = c.pick(CONNECT, 0, 2);
        final boolean ipv6 = c.flag(IPV6);
        final CmConnection conn = cm.create(consumer);
        consumer.track(conn);
        conn.serviceId(0 == c.pick(MadMaker.SERVICE, 0, 1) ? SERVICE_RC : SERVICE_UD);
        if (ipv6)
        {
            conn.path(cmGid6Hi, cmGid6Lo, peerGid6Hi, peerGid6Lo, 0, 64);
        }
        else
        {
            conn.path(0, GidTable.ipv4MappedLo(NodePair.IP_B), 0, GidTable.ipv4MappedLo(NodePair.IP_A), 0, 64);
        }
        final int sgid = ipv6 ? RoceNode.GID_INDEX_IPV4 + 1 : RoceNode.GID_INDEX_IPV4;
        cma.cmaVersion(CmaHeader.CMA_VERSION).ipVersion(4).port(0x8000).srcIpv4(NodePair.IP_B).dstIpv4(NodePair.IP_A);
        if (2 == what)
        {
            conn.qp(QpType.UD, 0x300 + (nextQpn++ & 0xFF), 0, 0, 0).qkey(0x1234_5678);
            cm.sendSidrReq(conn, cmaBytes, CmaHeader.LENGTH, sgid);
        }
        else
        {
            conn.qp(0 == what ? QpType.RC : QpType.UC, 0x200 + (nextQpn++ & 0xFF), c.anyInt(MadMaker.VALUE), 1, 1)
                .transport(3, 7, 7, 14, true, false);
            cm.sendReq(conn, cmaBytes, CmaHeader.LENGTH, sgid);
        }
    }

    private void advance(final FuzzChoices c)
    {
        final long now = clock.nanoTime();
        switch (c.pick(ADVANCE, 0, 3))
        {
            case 0: // to the next timer: a retransmission, an MRA, the end of time-wait
                final long next = cm.timers.nextDeadlineNs();
                clock.advance(Long.MAX_VALUE == next ? 1_000_000L : Math.max(0, next - now));
                break;
            case 1: clock.advance(c.pick(ADVANCE, 1, 1_000_000)); break;
            case 2: clock.advance(1_000_000_000L); break;
            default: clock.advance(c.pick(ADVANCE, 0, Integer.MAX_VALUE - 1)); break;
        }
    }

    /** The CM's QPN of a connection by comm ID, for a DREQ or LAP that names it rightly. */
    private int qpnOf(final int commId)
    {
        final CmConnection conn = cm.byLocalId.get(commId);
        return null == conn ? 0 : conn.localQpn;
    }

    /** Both nodes, the CM and the peer until a whole round does nothing (the wire has no delay). */
    private void settle()
    {
        sendsHeard = 0;
        getRespsHeard = 0;
        int idle = 0;
        for (int i = 0; idle < 2; i++)
        {
            check(i < MAX_SETTLE_STEPS, "the pair and the CM never went idle");
            final int work = pair.step() + cm.doWork() + peer.poll(onDatagram);
            idle = 0 == work ? idle + 1 : 0;
        }
    }

    /** What the peer receives from B: only whole CM MADs, Sends of CM messages or GetResps. */
    private void onDatagram(final UnsafeBuffer buffer, final int offset, final int length)
    {
        if (MadHeader.MAD_SIZE != length)
        {
            throw new AssertionError("B sent a datagram of " + length + " bytes");
        }
        heard.wrap(buffer, offset);
        if (MadHeader.METHOD_GET_RESP == heard.method())
        {
            getRespsHeard++; // checked against the Get in checkStep: a status answer echoes its header
            buffer.getBytes(offset, getResp, 0, MadHeader.HEADER_LENGTH);
            return;
        }
        check(MadHeader.BASE_VERSION == heard.baseVersion() && MadHeader.MGMT_CLASS_CM == heard.mgmtClass() &&
            MadHeader.CM_CLASS_VERSION == heard.classVersion(), "B sent a MAD of another version or class");
        if (MadHeader.METHOD_SEND != heard.method())
        {
            throw new AssertionError("B sent method " + heard.method());
        }
        if (CmCounters.typeIndex(heard.attributeId()) < 0)
        {
            throw new AssertionError("B sent attribute " + heard.attributeId());
        }
        sendsHeard++;
        maker.heard(buffer, offset);
    }

    private void snapshot()
    {
        stateBefore = state();
        eventsBefore = consumer.events();
        for (int i = 0; i < CmCounters.COUNT; i++)
        {
            before[i] = cm.counters().value(i);
        }
    }

    private long moved(final CmCounters.Drop reason)
    {
        final int id = CmCounters.Group.values().length * CmCounters.TYPES + reason.ordinal();
        return cm.counters().value(id) - before[id];
    }

    private long moved(final CmCounters.Group group)
    {
        long sum = 0;
        for (int i = 0; i < CmCounters.TYPES; i++)
        {
            final int id = group.ordinal() * CmCounters.TYPES + i;
            sum += cm.counters().value(id) - before[id];
        }
        return sum;
    }

    /** A digest of the connections: which exist, in which state, holding which timer; and the tables' sizes. */
    private long state()
    {
        long digest = cm.byRemoteId.size() * 1_000_003L + cm.byRemoteQp.size() * 10_007L + cm.timerCount();
        for (final CmConnection conn : cm.byLocalId.values())
        {
            final long one = ((long)System.identityHashCode(conn) << 32) ^ System.identityHashCode(conn.timer) ^
                ((long)conn.state.ordinal() << 24);
            digest += one * 0x9E37_79B9_7F4A_7C15L;
        }
        return digest;
    }

    /**
     * @param length the datagram the peer sent in this step, -1 for none
     */
    private void checkStep(final int length)
    {
        final long received = moved(CmCounters.Group.CM_RX_MSGS);
        final long refused = moved(CmCounters.Drop.SHORT) + moved(CmCounters.Drop.BAD_VERSION) +
            moved(CmCounters.Drop.UNKNOWN_ATTRIBUTE) + moved(CmCounters.Drop.RECV_ERROR);
        final long later = moved(CmCounters.Drop.UNKNOWN_COMM_ID) + moved(CmCounters.Drop.BAD_STATE) +
            moved(CmCounters.Drop.BAD_QPN) + moved(CmCounters.Drop.INVALID);
        final long duplicates = moved(CmCounters.Group.CM_RX_DUPLICATES);
        int expectedGetResps = 0;
        if (length < 0)
        {
            check(0 == received + refused + later + duplicates, "a step without a MAD moved receive counters");
        }
        else
        {
            if (1 != received + refused)
            {
                throw new AssertionError("a " + length + "-byte datagram got " + received + " receipts and " +
                    refused + " refusals");
            }
            sent.wrap(madBuffer, 0);
            final boolean versions = MadHeader.BASE_VERSION == sent.baseVersion() &&
                MadHeader.MGMT_CLASS_CM == sent.mgmtClass() && MadHeader.CM_CLASS_VERSION == sent.classVersion();
            final int method = sent.method();
            final long reason;
            if (length > MadHeader.MAD_SIZE)
            {
                reason = moved(CmCounters.Drop.RECV_ERROR); // longer than the receive buffer's MAD
            }
            else if (length < MadHeader.MAD_SIZE)
            {
                reason = moved(CmCounters.Drop.SHORT);
            }
            else if (!versions)
            {
                reason = moved(CmCounters.Drop.BAD_VERSION);
                // IBA 13.4.7: a Get of the CM class in another version is answered, with status BAD_VERSION
                expectedGetResps = MadHeader.METHOD_GET == method && MadHeader.MGMT_CLASS_CM == sent.mgmtClass() ?
                    1 : 0;
            }
            else if (MadHeader.METHOD_SEND != method || CmCounters.typeIndex(sent.attributeId()) < 0)
            {
                reason = moved(CmCounters.Drop.UNKNOWN_ATTRIBUTE);
                expectedGetResps = MadHeader.METHOD_GET == method || MadHeader.METHOD_SET == method ? 1 : 0;
            }
            else
            {
                reason = cm.counters().get(CmCounters.Group.CM_RX_MSGS, sent.attributeId()) -
                    before[CmCounters.Group.CM_RX_MSGS.ordinal() * CmCounters.TYPES +
                    CmCounters.typeIndex(sent.attributeId())];
            }
            if (1 != reason)
            {
                throw new AssertionError("attribute 0x" + Integer.toHexString(sent.attributeId()) + ", method " +
                    method + ", " + length + " bytes: not counted where its header says");
            }
            if (later + duplicates > received)
            {
                throw new AssertionError("one MAD, " + (later + duplicates) + " drop or duplicate counts");
            }
            // a MAD received and not counted as dropped or duplicate did something: sent, told, moved or timed
            if (1 == received && 0 == later + duplicates && 0 == sendsHeard && consumer.events() == eventsBefore &&
                state() == stateBefore)
            {
                throw new AssertionError("attribute 0x" + Integer.toHexString(sent.attributeId()) +
                    " received, neither counted as dropped nor acted on");
            }
        }
        if (getRespsHeard != expectedGetResps)
        {
            throw new AssertionError(getRespsHeard + " GetResps, " + expectedGetResps + " due");
        }
        if (1 == getRespsHeard)
        {
            checkGetResp();
        }
        if (moved(CmCounters.Group.CM_TX_MSGS) != sendsHeard)
        {
            throw new AssertionError("B counted " + moved(CmCounters.Group.CM_TX_MSGS) + " sends, the peer received " +
                sendsHeard);
        }
        if (0 != cm.port.pendingCount() || 0 != cm.port.sendFailures())
        {
            throw new AssertionError("B's sends: " + cm.port.pendingCount() + " waiting, " + cm.port.sendFailures() +
                " failed");
        }
        check(0 == peer.sendErrors() && 0 == peer.receiveErrors() && !peer.sending(), "the peer's QP");
        checkTables();
    }

    /**
     * The answer to this step's Get or Set (IBA 13.4.7): ClassPortInfo for a Get of it in the CM's versions, else the
     * request's own header with method GetResp and a status (as ib_mad's generate_unmatched_resp does).
     */
    private void checkGetResp()
    {
        check(answer.transactionId() == sent.transactionId(), "a GetResp without the Get's TID");
        final boolean versions = MadHeader.BASE_VERSION == sent.baseVersion() &&
            MadHeader.MGMT_CLASS_CM == sent.mgmtClass() && MadHeader.CM_CLASS_VERSION == sent.classVersion();
        if (versions && MadHeader.METHOD_GET == sent.method() && CmAttributes.CLASS_PORT_INFO == sent.attributeId())
        {
            check(MadHeader.STATUS_SUCCESS == answer.status() && MadHeader.BASE_VERSION == answer.baseVersion() &&
                MadHeader.MGMT_CLASS_CM == answer.mgmtClass() && MadHeader.CM_CLASS_VERSION == answer.classVersion() &&
                CmAttributes.CLASS_PORT_INFO == answer.attributeId(), "the GetResp of ClassPortInfo");
            return;
        }
        final int status = versions ? MadHeader.STATUS_UNSUPPORTED_METHOD_ATTRIBUTE : MadHeader.STATUS_BAD_VERSION;
        if (status != answer.status())
        {
            throw new AssertionError("GetResp status " + answer.status());
        }
        for (int i = 0; i < MadHeader.HEADER_LENGTH; i++)
        {
            if (3 != i && 4 != i && 5 != i && getResp[i] != madBuffer.getByte(i)) // but method and status
            {
                throw new AssertionError("the GetResp's header byte " + i + " is not the request's");
            }
        }
    }

    /** Every table entry is a live connection under its own key; no timer without a connection holding it. */
    private void checkTables()
    {
        int holding = 0;
        for (final Map.Entry<Integer, CmConnection> e : cm.byLocalId.entrySet())
        {
            final CmConnection conn = e.getValue();
            if (e.getKey() != conn.localCommId || CmState.IDLE == conn.state)
            {
                throw new AssertionError("byLocalId: " + conn);
            }
            holding += null != conn.timer ? 1 : 0;
        }
        for (final Map.Entry<CmService.RemoteId, CmConnection> e : cm.byRemoteId.entrySet())
        {
            final CmConnection conn = e.getValue();
            if (cm.byLocalId.get(conn.localCommId) != conn || e.getKey().caGuid() != conn.remoteCaGuid ||
                e.getKey().commId() != conn.remoteCommId)
            {
                throw new AssertionError("byRemoteId: " + e.getKey() + " -> " + conn);
            }
        }
        for (final Map.Entry<CmService.RemoteQp, CmConnection> e : cm.byRemoteQp.entrySet())
        {
            final CmConnection conn = e.getValue();
            if (cm.byLocalId.get(conn.localCommId) != conn || !conn.passive || e.getKey().gidHi() != conn.remoteGidHi ||
                e.getKey().gidLo() != conn.remoteGidLo || e.getKey().qpn() != conn.remoteQpn)
            {
                throw new AssertionError("byRemoteQp: " + e.getKey() + " -> " + conn);
            }
        }
        if (cm.timerCount() > holding)
        {
            throw new AssertionError(cm.timerCount() + " timers, " + holding + " connections holding one");
        }
    }

    /** The consumer destroys everything; time passes until the CM is quiet; it must be empty and still answer. */
    private void end()
    {
        snapshot();
        final List<CmConnection> live = new ArrayList<>(cm.byLocalId.values());
        live.sort((x, y) -> Integer.compare(x.localCommId, y.localCommId)); // HashMap order is no order
        for (final CmConnection conn : live)
        {
            consumer.destroy(conn);
        }
        settle();
        checkStep(-1);
        for (int round = 0; cm.timerCount() > 0; round++)
        {
            if (round >= MAX_DRAIN_ROUNDS)
            {
                throw new AssertionError("the CM never went quiet: " + cm.timerCount() + " timers");
            }
            snapshot();
            clock.advance(Math.max(0, cm.timers.nextDeadlineNs() - clock.nanoTime()));
            settle();
            checkStep(-1);
        }
        if (0 != cm.connectionCount() || !cm.byRemoteId.isEmpty() || !cm.byRemoteQp.isEmpty())
        {
            throw new AssertionError("left: " + cm.byLocalId.values() + " " + cm.byRemoteId + " " + cm.byRemoteQp);
        }
        cm.unlisten(SERVICE_RC);
        cm.unlisten(SERVICE_UD);
        consumer.end();
        snapshot();
        sent.wrap(madBuffer, 0).initCm(MadHeader.METHOD_GET, CmAttributes.CLASS_PORT_INFO, PROBE_TID);
        peer.send(mad, MadHeader.MAD_SIZE, toCm4);
        settle();
        check(1 == getRespsHeard && PROBE_TID == answer.transactionId(), "the CM did not answer a Get(ClassPortInfo)");
        final String objects = pair.b().device().liveObjects();
        if (!liveObjects.equals(objects))
        {
            throw new AssertionError("B's device had " + liveObjects + ", now " + objects);
        }
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new AssertionError(what);
        }
    }

    @Override
    public void close()
    {
        try
        {
            peer.destroyAh(toCm4);
            peer.destroyAh(toCm6);
            peer.close();
            cm.close();
        }
        finally
        {
            pair.close();
        }
    }
}
