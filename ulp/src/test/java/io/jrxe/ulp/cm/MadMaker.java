package io.jrxe.ulp.cm;

import io.jrxe.ulp.cm.mad.AprMessage;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.CmMessage;
import io.jrxe.ulp.cm.mad.CmaHeader;
import io.jrxe.ulp.cm.mad.DrepMessage;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.LapMessage;
import io.jrxe.ulp.cm.mad.MadHeader;
import io.jrxe.ulp.cm.mad.MraMessage;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.RtuMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.function.IntUnaryOperator;

/**
 * Builds the peer's MADs for {@link CmFuzzer} from decisions, with the encoders, so that the fuzzer steers the
 * fields the CM acts on (comm IDs, TIDs, service IDs, QPNs, transport, MTU, timeouts, which message an MRA or REJ
 * names) instead of hoping for them in random bytes; then, if it decides so, breaks the header or any bytes and
 * cuts or extends the datagram. It remembers what the peer has seen of the CM (its comm IDs and TIDs, the last MAD
 * it sent), so that the ordinary choice for a field is the value a well-behaved peer would put there: a REP names
 * the comm ID of the REQ the CM sent, an RTU the comm ID of its REP.
 */
final class MadMaker
{
    /** Which message: the index into {@link #KINDS}, then a Get/Set/other method, then any attribute. */
    static final String KIND = "kind";
    static final String TID = "tid";
    static final String CM_ID = "cmId";
    static final String PEER_ID = "peerId";
    static final String GUID = "guid";
    static final String SERVICE = "service";
    static final String PEER_QPN = "peerQpn";
    static final String CM_QPN = "cmQpn";
    static final String TRANSPORT = "transport";
    static final String MTU = "mtu";
    static final String TIMEOUT = "timeout";
    static final String RETRIES = "retries";
    static final String WHICH = "which";
    static final String CODE = "code";
    static final String PRIVATE = "private";
    static final String VALUE = "value";
    static final String METHOD = "method";
    static final String HEADER = "header";
    static final String MUTATIONS = "mutations";
    static final String LENGTH = "length";

    /** The CM messages, in the order of the KIND decision. */
    static final int[] KINDS = {CmAttributes.REQ, CmAttributes.MRA, CmAttributes.REJ, CmAttributes.REP,
        CmAttributes.RTU, CmAttributes.DREQ, CmAttributes.DREP, CmAttributes.SIDR_REQ, CmAttributes.SIDR_REP,
        CmAttributes.LAP, CmAttributes.APR};
    /** KIND of a MAD of another method (Get, Set, a response) for ClassPortInfo or a CM attribute. */
    static final int KIND_METHOD = KINDS.length;
    /** KIND of a Send of any attribute ID. */
    static final int KIND_ATTRIBUTE = KINDS.length + 1;

    static final long PEER_GUID = 0x0002_C903_00A0_0001L;
    static final int PEER_QPN_BASE = 0x41;
    private static final long PEER_TID_BASE = 0x5EED_0000_0000_0000L;
    private static final int PEER_ID_BASE = 0x00C0_0000;

    private final long serviceRc;
    private final long serviceUd;
    private final long peerGidHi;
    private final long peerGidLo;
    private final long cmGidHi;
    private final long cmGidLo;
    private final int peerIp;
    private final int cmIp;
    private final UnsafeBuffer out;
    private final MadHeader header = new MadHeader();
    private final ReqMessage req = new ReqMessage();
    private final MraMessage mra = new MraMessage();
    private final RejMessage rej = new RejMessage();
    private final RepMessage rep = new RepMessage();
    private final RtuMessage rtu = new RtuMessage();
    private final DreqMessage dreq = new DreqMessage();
    private final DrepMessage drep = new DrepMessage();
    private final SidrReqMessage sidrReq = new SidrReqMessage();
    private final SidrRepMessage sidrRep = new SidrRepMessage();
    private final LapMessage lap = new LapMessage();
    private final AprMessage apr = new AprMessage();
    private final CmaHeader cma = new CmaHeader();

    // what the peer has seen of the CM in this input
    private final IntArrayList cmIds = new IntArrayList();
    private final LongArrayList tids = new LongArrayList();
    private boolean heardFromCm;
    private int lastAttribute;
    private long lastTid;
    private int lastCmId;
    private int lastPeerIdSeen;
    private int peerIds;
    private int peerTids;

    MadMaker(final byte[] mad, final long serviceRc, final long serviceUd, final long peerGidHi,
        final long peerGidLo, final long cmGidHi, final long cmGidLo, final int peerIp, final int cmIp)
    {
        this.out = new UnsafeBuffer(mad);
        this.serviceRc = serviceRc;
        this.serviceUd = serviceUd;
        this.peerGidHi = peerGidHi;
        this.peerGidLo = peerGidLo;
        this.cmGidHi = cmGidHi;
        this.cmGidLo = cmGidLo;
        this.peerIp = peerIp;
        this.cmIp = cmIp;
    }

    /** Forget the last input's CM. */
    void reset()
    {
        cmIds.clear();
        tids.clear();
        heardFromCm = false;
        lastAttribute = 0;
        lastTid = 0;
        lastCmId = 0;
        lastPeerIdSeen = 0;
        peerIds = 0;
        peerTids = 0;
    }

    /** A comm ID the CM has (created by or for its consumer), for CM_ID choices. */
    void knowCmId(final int commId)
    {
        if (!cmIds.containsInt(commId))
        {
            cmIds.addInt(commId);
        }
        if (!heardFromCm)
        {
            lastCmId = commId;
        }
    }

    /**
     * The peer received a MAD from the CM: its comm IDs and TID become the ordinary choices.
     *
     * @param mad a 256-byte MAD
     * @param at  its offset
     */
    void heard(final UnsafeBuffer mad, final int at)
    {
        header.wrap(mad, at);
        final int attribute = header.attributeId();
        if (MadHeader.METHOD_SEND != header.method() || CmCounters.typeIndex(attribute) < 0)
        {
            return;
        }
        heardFromCm = true;
        lastAttribute = attribute;
        lastTid = header.transactionId();
        if (!tids.containsLong(lastTid))
        {
            tids.addLong(lastTid);
        }
        if (CmAttributes.SIDR_REQ == attribute || CmAttributes.SIDR_REP == attribute)
        {
            sidrReq.wrap(mad, at); // both start with the RequestID
            lastCmId = sidrReq.requestId();
            lastPeerIdSeen = lastCmId;
        }
        else
        {
            rtu.wrap(mad, at); // LocalCommID and RemoteCommID are at the same place in every other message
            lastCmId = rtu.localCommId();
            lastPeerIdSeen = CmAttributes.REQ == attribute ? 0 : rtu.remoteCommId(); // a REQ: we have no ID yet
        }
        if (0 != lastCmId)
        {
            knowCmId(lastCmId);
        }
    }

    /** @return the comm ID the ordinary choice names (the CM's in its last MAD) */
    int lastCmId()
    {
        return lastCmId;
    }

    /**
     * Writes the next MAD of the peer into the buffer given at construction.
     *
     * @param c     the decisions
     * @param qpnOf the CM's QPN of a connection by its comm ID (0 if unknown)
     * @return the datagram's length, 0 to {@link GsiPeer#MAX_LENGTH}
     */
    int make(final FuzzChoices c, final IntUnaryOperator qpnOf)
    {
        final int kind = c.pick(KIND, 0, KIND_ATTRIBUTE);
        if (kind < KINDS.length)
        {
            message(c, KINDS[kind], qpnOf);
        }
        else
        {
            final int method = kind == KIND_METHOD ? methodOf(c.pick(METHOD, 0, 4), c) : MadHeader.METHOD_SEND;
            final int attribute = kind != KIND_METHOD ? c.pick(VALUE, 0, 0xFFFF) :
                c.flag(VALUE) ? CmAttributes.REQ : CmAttributes.CLASS_PORT_INFO;
            header.wrap(out, 0).initCm(method, attribute, freshTid());
        }
        breakHeader(c);
        final int mutations = c.pick(MUTATIONS, 0, 7) - 4; // 0..4: none, then one to three bytes anywhere
        for (int i = 0; i < mutations; i++)
        {
            out.putByte(c.pick(MUTATIONS, 0, MadHeader.MAD_SIZE - 1), (byte)c.anyInt(MUTATIONS));
        }
        // a whole MAD, or (1 in 8) any length: short, empty, or longer than the CM's 256-byte receive buffers
        return 0 == c.pick(LENGTH, 0, 7) / 7 ? MadHeader.MAD_SIZE : c.pick(LENGTH, 0, GsiPeer.MAX_LENGTH);
    }

    private static int methodOf(final int which, final FuzzChoices c)
    {
        switch (which)
        {
            case 0: return MadHeader.METHOD_GET;
            case 1: return MadHeader.METHOD_SET;
            case 2: return MadHeader.METHOD_GET_RESP;
            case 3: return MadHeader.METHOD_SEND | MadHeader.METHOD_RESPONSE_BIT; // a response to a Send
            default: return c.pick(METHOD, 0, 0xFF);
        }
    }

    private void message(final FuzzChoices c, final int attribute, final IntUnaryOperator qpnOf)
    {
        switch (attribute)
        {
            case CmAttributes.REQ: req(c); break;
            case CmAttributes.MRA:
                ids(mra.wrap(out, 0).init(tid(c)), c);
                mra.messageMraed(which(c)).serviceTimeout((c.pick(TIMEOUT, 0, 31) + 10) & 31);
                break;
            case CmAttributes.REJ:
                ids(rej.wrap(out, 0).init(tid(c)), c);
                rej.messageRejected(which(c)).reason((c.pick(CODE, 0, 63) + 28) & 63); // 28: consumer defined
                break;
            case CmAttributes.REP: rep(c); break;
            case CmAttributes.RTU: ids(rtu.wrap(out, 0).init(tid(c)), c); break;
            case CmAttributes.DREQ:
                final int dreqCm = ids(dreq.wrap(out, 0).init(tid(c)), c);
                dreq.remoteQpn(cmQpn(c, dreqCm, qpnOf));
                break;
            case CmAttributes.DREP: ids(drep.wrap(out, 0).init(tid(c)), c); break;
            case CmAttributes.SIDR_REQ:
                sidrReq.wrap(out, 0).init(freshOrTid(c)).requestId(freshOrPeerId(c)).partitionKey(0xFFFF)
                    .serviceId(service(c, serviceUd, serviceRc));
                privateData(c, sidrReq);
                break;
            case CmAttributes.SIDR_REP:
                sidrRep.wrap(out, 0).init(tid(c)).requestId(cmId(c)).status(c.pick(CODE, 0, 7))
                    .qpn(peerQpn(c)).qkey(c.anyInt(VALUE)).serviceId(service(c, serviceUd, serviceRc));
                break;
            case CmAttributes.LAP:
                final int lapCm = ids(lap.wrap(out, 0).init(tid(c)), c);
                lap.remoteQpn(cmQpn(c, lapCm, qpnOf));
                break;
            default:
                ids(apr.wrap(out, 0).init(tid(c)), c);
                apr.apStatus(c.pick(CODE, 0, 15));
                break;
        }
    }

    private void req(final FuzzChoices c)
    {
        final int transport = c.pick(TRANSPORT, 0, 3);
        req.wrap(out, 0).init(freshOrTid(c)).localCommId(freshOrPeerId(c)).serviceId(service(c, serviceRc, serviceUd))
            .localCaGuid(guid(c)).localQpn(peerQpn(c)).startingPsn(c.anyInt(VALUE) & 0xFF_FFFF)
            .responderResources(c.pick(VALUE, 0, 255)).initiatorDepth(c.pick(VALUE, 0, 255))
            .transportServiceType(transport).extendedTransportType(3 == transport ? 1 : 0)
            .pathMtu((c.pick(MTU, 0, 15) + 3) & 15).retryCount(7).rnrRetryCount(c.pick(RETRIES, 0, 7))
            .remoteCmResponseTimeout((c.pick(TIMEOUT, 0, 31) + 12) & 31)
            .localCmResponseTimeout((c.pick(TIMEOUT, 0, 31) + 12) & 31)
            .maxCmRetries((c.pick(RETRIES, 0, 15) + 2) & 15).srq(c.flag(VALUE)).endToEndFlowControl(true)
            .partitionKey(0xFFFF).primaryLocalLid(0xFFFF).primaryRemoteLid(0xFFFF)
            .primaryRemoteGid(cmGidHi, cmGidLo).primaryHopLimit(64).primaryLocalAckTimeout(c.pick(TIMEOUT, 0, 31))
            .primaryTrafficClass(0).primaryFlowLabel(0).primarySubnetLocal(false);
        // the GID the CM keys stale connections on: ours, or any
        if (c.flag(GUID))
        {
            req.primaryLocalGid(c.anyLong(GUID), c.anyLong(GUID));
        }
        else
        {
            req.primaryLocalGid(peerGidHi, peerGidLo);
        }
        privateData(c, req);
    }

    private void rep(final FuzzChoices c)
    {
        ids(rep.wrap(out, 0).init(tid(c)), c);
        rep.localQkey(c.anyInt(VALUE)).localQpn(peerQpn(c)).startingPsn(c.anyInt(VALUE) & 0xFF_FFFF)
            .responderResources(c.pick(VALUE, 0, 255)).initiatorDepth(c.pick(VALUE, 0, 255))
            .targetAckDelay(c.pick(TIMEOUT, 0, 31)).failoverAccepted(c.pick(CODE, 0, 3))
            .endToEndFlowControl(true).rnrRetryCount(c.pick(RETRIES, 0, 7)).srq(c.flag(VALUE)).localCaGuid(guid(c));
    }

    /** rdma_cm's header (our address to the CM's, a port), none, or anything. */
    private void privateData(final FuzzChoices c, final CmMessage<?> m)
    {
        switch (c.pick(PRIVATE, 0, 2))
        {
            case 0:
                cma.wrap(out, m.privateDataIndex()).cmaVersion(CmaHeader.CMA_VERSION).ipVersion(4)
                    .port(0xC000 | c.pick(VALUE, 0, 0x3FFF)).srcIpv4(peerIp).dstIpv4(cmIp);
                break;
            case 1:
                break;
            default:
                out.putLong(m.privateDataIndex(), c.anyLong(PRIVATE));
                out.putLong(m.privateDataIndex() + 8, c.anyLong(PRIVATE));
                break;
        }
    }

    /** LocalCommID ours, RemoteCommID the CM's; returns the CM's. */
    private int ids(final CmMessage<?> m, final FuzzChoices c)
    {
        final int cm = cmId(c);
        m.localCommId(peerId(c)).remoteCommId(cm);
        return cm;
    }

    /** The comm ID the CM gave us (its last MAD's), one it has, anything, or 0. */
    private int cmId(final FuzzChoices c)
    {
        switch (c.pick(CM_ID, 0, 3))
        {
            case 0: return lastCmId;
            case 1: return cmIds.isEmpty() ? lastCmId : cmIds.getInt(c.pick(CM_ID, 0, cmIds.size() - 1));
            case 2: return c.anyInt(CM_ID);
            default: return 0;
        }
    }

    /** Our comm ID in a reply: the one the CM knows us by, one of ours, or anything. */
    private int peerId(final FuzzChoices c)
    {
        switch (c.pick(PEER_ID, 0, 2))
        {
            case 0: return 0 != lastPeerIdSeen ? lastPeerIdSeen : (lastPeerIdSeen = PEER_ID_BASE + ++peerIds);
            case 1: return PEER_ID_BASE + c.pick(PEER_ID, 0, Math.max(0, peerIds - 1));
            default: return c.anyInt(PEER_ID);
        }
    }

    /** Our comm ID in a request: a new one, one of ours again (a retransmission), or anything. */
    private int freshOrPeerId(final FuzzChoices c)
    {
        switch (c.pick(PEER_ID, 0, 2))
        {
            case 0: return PEER_ID_BASE + ++peerIds;
            case 1: return PEER_ID_BASE + c.pick(PEER_ID, 0, Math.max(0, peerIds));
            default: return c.anyInt(PEER_ID);
        }
    }

    /** A reply's TID: the CM's last, one the CM used, ours, anything. */
    private long tid(final FuzzChoices c)
    {
        switch (c.pick(TID, 0, 3))
        {
            case 0: return heardFromCm ? lastTid : PEER_TID_BASE + peerTids;
            case 1: return tids.isEmpty() ? lastTid : tids.getLong(c.pick(TID, 0, tids.size() - 1));
            case 2: return PEER_TID_BASE + peerTids;
            default: return c.anyLong(TID);
        }
    }

    /** A request's TID: a new one, our last again, or anything. */
    private long freshOrTid(final FuzzChoices c)
    {
        switch (c.pick(TID, 0, 2))
        {
            case 0: return freshTid();
            case 1: return PEER_TID_BASE + peerTids;
            default: return c.anyLong(TID);
        }
    }

    private long freshTid()
    {
        return PEER_TID_BASE + ++peerTids;
    }

    private long service(final FuzzChoices c, final long ordinary, final long other)
    {
        switch (c.pick(SERVICE, 0, 2))
        {
            case 0: return ordinary;
            case 1: return other;
            default: return c.anyLong(SERVICE);
        }
    }

    private long guid(final FuzzChoices c)
    {
        switch (c.pick(GUID, 0, 2))
        {
            case 0: return PEER_GUID;
            case 1: return PEER_GUID + 1;
            default: return c.anyLong(GUID);
        }
    }

    private int peerQpn(final FuzzChoices c)
    {
        final int which = c.pick(PEER_QPN, 0, 2);
        return which < 2 ? PEER_QPN_BASE + which : c.anyInt(PEER_QPN) & 0xFF_FFFF;
    }

    /** The QPN of the connection a DREQ or LAP names (IBA 12.6.10: it must be the CM's), or anything. */
    private static int cmQpn(final FuzzChoices c, final int cmId, final IntUnaryOperator qpnOf)
    {
        return 0 == c.pick(CM_QPN, 0, 1) ? qpnOf.applyAsInt(cmId) : c.anyInt(CM_QPN) & 0xFF_FFFF;
    }

    /** Which message an MRA or REJ is about: the one the CM sent last, or 0..3. */
    private int which(final FuzzChoices c)
    {
        final int which = c.pick(WHICH, 0, 4);
        if (0 != which)
        {
            return which - 1;
        }
        return CmAttributes.REQ == lastAttribute ? 0 : CmAttributes.REP == lastAttribute ? 1 : 2;
    }

    /** Sometimes a header the CM must refuse: another base version, class, class version or method. */
    private void breakHeader(final FuzzChoices c)
    {
        header.wrap(out, 0);
        switch (c.pick(HEADER, 0, 11))
        {
            case 8: header.baseVersion(c.pick(HEADER, 0, 0xFF)); break;
            case 9: header.mgmtClass(c.pick(HEADER, 0, 0xFF)); break;
            case 10: header.classVersion(c.pick(HEADER, 0, 0xFF)); break;
            case 11: header.method(c.pick(HEADER, 0, 0xFF)); break;
            default: break;
        }
    }
}
