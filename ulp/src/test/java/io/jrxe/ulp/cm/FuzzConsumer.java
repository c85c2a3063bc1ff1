package io.jrxe.ulp.cm;

import io.jrxe.rxe.verbs.QpType;
import io.jrxe.ulp.cm.mad.DreqMessage;
import io.jrxe.ulp.cm.mad.RejMessage;
import io.jrxe.ulp.cm.mad.RejReason;
import io.jrxe.ulp.cm.mad.RepMessage;
import io.jrxe.ulp.cm.mad.ReqMessage;
import io.jrxe.ulp.cm.mad.SidrRepMessage;
import io.jrxe.ulp.cm.mad.SidrReqMessage;
import io.jrxe.ulp.cm.mad.SidrStatus;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static io.jrxe.ulp.cm.CmFuzzer.check;

/**
 * B's consumer in {@link CmFuzzer}: what rdma_cm would do with the CM's events, each answer a decision (accept or
 * refuse now, later, or never; destroy), and the calls it makes between events ({@link #act}), only in the states
 * the {@link CmService} methods accept. It checks each event against the state the event means and against what it
 * did: no callback after a destroy, ESTABLISHED at most once. It counts the events, for the seeds' checks.
 */
final class FuzzConsumer implements CmHandler
{
    static final String ON_REQ = "onReq";
    static final String ON_SIDR_REQ = "onSidrReq";
    static final String ON_REP = "onRep";
    static final String ON_DREQ = "onDreq";
    static final String ON_ESTABLISHED = "onEstablished";

    /** Event counts, by {@link Event} ordinal. */
    enum Event
    {
        REQ, SIDR_REQ, REP, ESTABLISHED, REJ, TIMEOUT, DREQ, DREP, TIMEWAIT_EXIT, SIDR_REP
    }

    private final CmService cm;
    private final MadMaker maker;
    private final List<CmConnection> tracked = new ArrayList<>();
    private final Map<CmConnection, Boolean> destroyed = new IdentityHashMap<>();
    private final Map<CmConnection, Boolean> established = new IdentityHashMap<>();
    private final long[] events = new long[Event.values().length];
    private FuzzChoices c;
    private int nextQpn;

    FuzzConsumer(final CmService cm, final MadMaker maker)
    {
        this.cm = cm;
        this.maker = maker;
    }

    /** A new input: its decisions, nothing tracked. */
    void begin(final FuzzChoices choices)
    {
        c = choices;
        tracked.clear();
        destroyed.clear();
        established.clear();
        nextQpn = 0;
    }

    /** The input is over: no connection may call back any more. */
    void end()
    {
        tracked.clear();
    }

    /** @return how many times each event came, since the fuzzer was built */
    long events(final Event event)
    {
        return events[event.ordinal()];
    }

    /** @return events of every kind, since the fuzzer was built */
    long events()
    {
        long sum = 0;
        for (final long n : events)
        {
            sum += n;
        }
        return sum;
    }

    void track(final CmConnection conn)
    {
        tracked.add(conn);
        maker.knowCmId(conn.localCommId);
    }

    void destroy(final CmConnection conn)
    {
        destroyed.put(conn, Boolean.TRUE);
        cm.destroy(conn);
    }

    private void event(final Event event, final CmConnection conn, final CmState expected)
    {
        events[event.ordinal()]++;
        if (destroyed.containsKey(conn))
        {
            throw new AssertionError(event + " after the consumer destroyed " + conn);
        }
        if (expected != conn.state)
        {
            throw new AssertionError(event + " in state " + conn.state);
        }
    }

    /** The QP a consumer would create: RC or UC as asked, a QPN of its own. */
    private void qp(final CmConnection conn, final QpType type)
    {
        conn.qp(type, 0x100 + (nextQpn++ & 0xFF), 0x1000 + nextQpn, 1, 1);
    }

    @Override
    public void onReq(final CmConnection conn, final ReqMessage req)
    {
        event(Event.REQ, conn, CmState.REQ_RCVD);
        check(conn.passive && null == conn.handler, "a new passive connection");
        track(conn);
        final int answer = c.pick(ON_REQ, 0, 4);
        if (3 != answer)
        {
            conn.handler(this); // 3: rdma_cm without an id for it yet; B answers a DREQ for it itself
        }
        switch (answer)
        {
            case 0:
                qp(conn, 0 == req.transportServiceType() ? QpType.RC : QpType.UC);
                cm.sendRep(conn, null, 0);
                break;
            case 1: cm.sendRej(conn, RejReason.CONSUMER_DEFINED, null, 0); break;
            case 4: destroy(conn); break;
            default: break; // later, or never: the MRA timer and the peer's retries
        }
    }

    @Override
    public void onSidrReq(final CmConnection conn, final SidrReqMessage req)
    {
        event(Event.SIDR_REQ, conn, CmState.SIDR_REQ_RCVD);
        track(conn);
        conn.handler(this);
        switch (c.pick(ON_SIDR_REQ, 0, 3))
        {
            case 0:
                qp(conn, QpType.UD);
                cm.sendSidrRep(conn, SidrStatus.SUCCESS, null, 0);
                break;
            case 1: cm.sendSidrRep(conn, SidrStatus.REJECT, null, 0); break;
            case 3: destroy(conn); break;
            default: break;
        }
    }

    @Override
    public void onRep(final CmConnection conn, final RepMessage rep)
    {
        event(Event.REP, conn, CmState.REP_RCVD);
        switch (c.pick(ON_REP, 0, 3))
        {
            case 0: cm.sendRtu(conn, null, 0); break;
            case 1: cm.sendRej(conn, RejReason.CONSUMER_DEFINED, null, 0); break;
            case 3: destroy(conn); break;
            default: break;
        }
    }

    @Override
    public void onEstablished(final CmConnection conn)
    {
        event(Event.ESTABLISHED, conn, CmState.ESTABLISHED);
        if (null != established.put(conn, Boolean.TRUE))
        {
            throw new AssertionError("ESTABLISHED twice: " + conn);
        }
        switch (c.pick(ON_ESTABLISHED, 0, 2))
        {
            case 1: cm.sendDreq(conn, null, 0); break;
            case 2: destroy(conn); break;
            default: break;
        }
    }

    @Override
    public void onRej(final CmConnection conn, final RejMessage rej)
    {
        events[Event.REJ.ordinal()]++;
        check(!destroyed.containsKey(conn), "REJ after a destroy");
        if (CmState.IDLE != conn.state && CmState.TIMEWAIT != conn.state)
        {
            throw new AssertionError("REJ left " + conn.state);
        }
    }

    @Override
    public void onTimeout(final CmConnection conn, final CmState failed)
    {
        events[Event.TIMEOUT.ordinal()]++;
        check(!destroyed.containsKey(conn), "a time-out after a destroy");
        if (CmState.IDLE != conn.state && CmState.TIMEWAIT != conn.state)
        {
            throw new AssertionError("a time-out left " + conn.state);
        }
    }

    @Override
    public void onDreq(final CmConnection conn, final DreqMessage dreq)
    {
        event(Event.DREQ, conn, CmState.DREQ_RCVD);
        check(dreq.remoteQpn() == conn.localQpn, "a DREQ for another QP");
        switch (c.pick(ON_DREQ, 0, 2))
        {
            case 0: cm.sendDrep(conn, null, 0); break;
            case 2: destroy(conn); break;
            default: break;
        }
    }

    @Override
    public void onDrep(final CmConnection conn)
    {
        event(Event.DREP, conn, CmState.TIMEWAIT);
    }

    @Override
    public void onTimewaitExit(final CmConnection conn)
    {
        event(Event.TIMEWAIT_EXIT, conn, CmState.IDLE);
    }

    @Override
    public void onSidrRep(final CmConnection conn, final SidrRepMessage rep)
    {
        event(Event.SIDR_REP, conn, CmState.IDLE);
    }

    /** Between events: one of the consumer's calls on a connection of this input, if its state allows it. */
    void act(final FuzzChoices choices)
    {
        if (tracked.isEmpty())
        {
            return;
        }
        final CmConnection conn = tracked.get(choices.pick(CmFuzzer.CONNECTION, 0, tracked.size() - 1));
        final CmState s = conn.state;
        switch (choices.pick(CmFuzzer.ACTION, 0, 7))
        {
            case 0:
                destroy(conn);
                break;
            case 1:
                if (CmState.ESTABLISHED == s || CmState.REP_SENT == s || CmState.MRA_REP_RCVD == s)
                {
                    cm.sendDreq(conn, null, 0);
                }
                break;
            case 2:
                if (CmState.REP_RCVD == s || CmState.MRA_REP_SENT == s)
                {
                    cm.sendRtu(conn, null, 0);
                }
                break;
            case 3:
                if (CmState.REQ_RCVD == s || CmState.MRA_REQ_SENT == s)
                {
                    qp(conn, QpType.RC);
                    cm.sendRep(conn, null, 0);
                }
                break;
            case 4:
                if (s.isConnecting())
                {
                    cm.sendRej(conn, RejReason.CONSUMER_DEFINED, null, 0);
                }
                break;
            case 5:
                if (CmState.DREQ_RCVD == s)
                {
                    cm.sendDrep(conn, null, 0);
                }
                break;
            case 6:
                if (CmState.SIDR_REQ_RCVD == s)
                {
                    qp(conn, QpType.UD);
                    cm.sendSidrRep(conn, SidrStatus.SUCCESS, null, 0);
                }
                break;
            default:
                cm.sendMra(conn, choices.pick(CmFuzzer.ACTION, 0, 31)); // MRA only from REQ_RCVD; else nothing
                if (CmState.REQ_RCVD == s && CmState.MRA_REQ_SENT != conn.state)
                {
                    throw new AssertionError("sendMra from " + s);
                }
                if (CmState.REQ_RCVD != s && s != conn.state)
                {
                    throw new AssertionError("sendMra moved " + s + " to " + conn.state);
                }
                break;
        }
    }
}
