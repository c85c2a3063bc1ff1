package io.jrxe.ulp.rdmacm;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.ulp.cm.CmCounters;
import io.jrxe.ulp.cm.mad.CmAttributes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_cm when MADs go missing, come twice or late: each lost message is retransmitted after its CM timeout and a
 * duplicate is answered from the state it finds (IBA 12.9.8.3: duplicate REQ re-sends the REP, duplicate REP
 * re-sends the RTU, a DREQ in time-wait re-sends the DREP); a peer that is gone ends in UNREACHABLE after
 * MaxCMRetries, never a hang; 1000 connections leave no id, QP, CQ, MR, AH or comm ID behind.
 */
class RdmaCmFaultTest
{
    private static final int PORT = 7471;

    private static CmPair pairWith(final MadDropper dropper)
    {
        return new CmPair(WireFaults.none().filter(dropper));
    }

    @Test
    void shouldRetransmitALostReq()
    {
        final MadDropper dropper = new MadDropper().drop(0, CmAttributes.REQ, 1);
        try (CmPair cm = pairWith(dropper))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            final CmId[] ids = f.establish(PORT);
            assertEquals(1, dropper.dropped());
            assertEquals(1, cm.a.counters().get(CmCounters.Group.CM_TX_RETRIES, CmAttributes.REQ));
            assertEquals(1, cm.b.counters().get(CmCounters.Group.CM_RX_MSGS, CmAttributes.REQ));
            f.teardown(ids[0], ids[1]);
        }
    }

    @Test
    void shouldResendTheRepForADuplicateReqWhenTheRepIsLost()
    {
        final MadDropper dropper = new MadDropper().drop(1, CmAttributes.REP, 1);
        try (CmPair cm = pairWith(dropper))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            final CmId[] ids = f.establish(PORT);
            final CmCounters b = cm.b.counters();
            final CmCounters a = cm.a.counters();
            assertEquals(1, dropper.dropped());
            assertTrue(b.get(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REQ) +
                b.get(CmCounters.Group.CM_TX_RETRIES, CmAttributes.REP) >= 1, "the REP went out again");
            // the REQ's retry and the REP's own may both bring a REP: every one after the first is a duplicate
            assertEquals(a.get(CmCounters.Group.CM_RX_MSGS, CmAttributes.REP) - 1,
                a.get(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REP));
            f.teardown(ids[0], ids[1]);
        }
    }

    @Test
    void shouldResendTheRtuForADuplicateRepWhenTheRtuIsLost()
    {
        final MadDropper dropper = new MadDropper().drop(0, CmAttributes.RTU, 1);
        try (CmPair cm = pairWith(dropper))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            final CmId[] ids = f.establish(PORT);
            assertEquals(1, dropper.dropped());
            assertEquals(1, cm.b.counters().get(CmCounters.Group.CM_TX_RETRIES, CmAttributes.REP));
            assertEquals(1, cm.a.counters().get(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.REP));
            assertEquals(2, cm.a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.RTU));
            f.teardown(ids[0], ids[1]);
        }
    }

    @Test
    void shouldAnswerARetriedDreqWhenTheDrepIsLost()
    {
        final MadDropper dropper = new MadDropper();
        try (CmPair cm = pairWith(dropper))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            final CmId[] ids = f.establish(PORT);
            dropper.drop(1, CmAttributes.DREP, 1);
            f.teardown(ids[0], ids[1]);
            assertEquals(1, dropper.dropped());
            assertEquals(1, cm.a.counters().get(CmCounters.Group.CM_TX_RETRIES, CmAttributes.DREQ));
            // B answers the retried DREQ from time-wait, or, once time-wait is over, as an unknown connection
            assertEquals(1, cm.b.counters().get(CmCounters.Group.CM_RX_DUPLICATES, CmAttributes.DREQ) +
                cm.b.counters().get(CmCounters.Drop.UNKNOWN_COMM_ID));
            assertEquals(2, cm.b.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.DREP));
        }
    }

    @Test
    void shouldReportUnreachableWhenThePeerIsGoneAndLeakNothing()
    {
        final MadDropper dropper = new MadDropper();
        try (CmPair cm = pairWith(dropper))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            cm.pair.resolve(CmPair.SECOND); // ARP first: the peer vanishes after that
            final String before = cm.pair.a().device().liveObjects();
            dropper.silence(1);
            final CmId client = f.connect(PORT);
            final CmEvent unreachable = cm.await(f.chA, CmEventType.UNREACHABLE);
            assertEquals(-110, unreachable.status(), "-ETIMEDOUT");
            assertEquals(CmPair.MAX_RETRIES, cm.a.counters().get(CmCounters.Group.CM_TX_RETRIES, CmAttributes.REQ));
            client.destroy();
            f.assertNoIdsLeft(2); // B: the listener and the request it never got to answer
            assertEquals(before, cm.pair.a().device().liveObjects());
        }
    }

    @Test
    void shouldReportUnreachableOnThePassiveSideWhenNoRtuComes()
    {
        final MadDropper dropper = new MadDropper().drop(0, CmAttributes.RTU, 1000);
        try (CmPair cm = pairWith(dropper))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            f.connect(PORT);
            final CmId server = f.accept();
            cm.await(f.chA, CmEventType.ESTABLISHED); // A thinks it is connected: its RTUs are lost
            final CmEvent failed = cm.await(f.chB, CmEventType.UNREACHABLE);
            assertEquals(-110, failed.status());
            assertEquals(CmPair.MAX_RETRIES, cm.b.counters().get(CmCounters.Group.CM_TX_RETRIES, CmAttributes.REP));
            // B's REJ (timeout) reaches A, whose established connection is over
            cm.await(f.chA, CmEventType.REJECTED);
            server.destroy();
        }
    }

    @Test
    void shouldConnectOrFailCleanlyOnAWireThatLosesDuplicatesAndReorders()
    {
        final WireFaults faults = WireFaults.none().seed(42).loss(0.15).duplicate(0.15).reorder(0.15)
            .reorderHoldNs(3_000_000L);
        try (CmPair cm = new CmPair(faults))
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            final String beforeA = cm.pair.a().device().liveObjects();
            final String beforeB = cm.pair.b().device().liveObjects();
            int established = 0;
            int failed = 0;
            for (int i = 0; i < 20; i++)
            {
                final CmId client = f.connect(PORT);
                CmId server = null;
                CmEvent aEvent = null;
                final List<CmId> servers = new ArrayList<>();
                while (null == aEvent)
                {
                    cm.runUntil(() -> f.chA.pending() > 0 || f.chB.pending() > 0, 60 * CmPair.SECOND, "an event");
                    final CmEvent b = f.chB.pollEvent();
                    if (null != b)
                    {
                        f.chB.ackEvent(b);
                        if (CmEventType.CONNECT_REQUEST == b.type())
                        {
                            server = b.id();
                            servers.add(server);
                            server.createQp(null, RdmaCmConnectTest.qpInit());
                            server.accept(null);
                        }
                    }
                    final CmEvent a = f.chA.pollEvent();
                    if (null != a)
                    {
                        f.chA.ackEvent(a);
                        aEvent = a;
                    }
                }
                if (CmEventType.ESTABLISHED == aEvent.type())
                {
                    established++;
                    client.disconnect();
                }
                else
                {
                    failed++;
                }
                // let everything settle: DREQ/DREP, time-wait, the passive side's own timers
                cm.runFor(2 * CmPair.SECOND);
                drain(f.chA);
                drain(f.chB);
                client.destroy();
                for (final CmId s : servers)
                {
                    s.destroy();
                }
                cm.runFor(CmPair.SECOND);
            }
            assertTrue(established >= 15, "established " + established + ", failed " + failed);
            f.listener.destroy();
            cm.runFor(CmPair.SECOND);
            f.assertNoIdsLeft(0);
            assertEquals(beforeA, cm.pair.a().device().liveObjects());
            assertEquals(beforeB, cm.pair.b().device().liveObjects());
        }
    }

    @Test
    void shouldSendAnMraForASlowApplicationAndMakeTheActiveSideWaitInsteadOfRetrying()
    {
        try (CmPair cm = new CmPair())
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            f.connect(PORT);
            final CmEvent request = cm.await(f.chB, CmEventType.CONNECT_REQUEST);
            // B's application takes 50 ms, longer than A's REQ timeout (2 lifetimes + 2^12 * 4.096 us, ~19 ms): past
            // half of that response time B's CM sends an MRA (IBA 12.6.6) and A waits its service time instead
            cm.runFor(50_000_000L);
            assertEquals(1, cm.b.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.MRA));
            assertEquals(1, cm.a.counters().get(CmCounters.Group.CM_RX_MSGS, CmAttributes.MRA));
            assertEquals(0, cm.a.counters().get(CmCounters.Group.CM_TX_RETRIES, CmAttributes.REQ));
            final CmId server = request.id();
            server.createQp(null, RdmaCmConnectTest.qpInit());
            server.accept(null);
            cm.await(f.chA, CmEventType.ESTABLISHED);
            cm.await(f.chB, CmEventType.ESTABLISHED);
            assertEquals(1, cm.a.counters().get(CmCounters.Group.CM_TX_MSGS, CmAttributes.REQ), "one REQ in all");
        }
    }

    @Test
    void shouldConnectAndDisconnectAThousandTimesWithoutLeaks()
    {
        try (CmPair cm = new CmPair())
        {
            final CmFlows f = new CmFlows(cm);
            f.listen(PORT);
            cm.pair.resolve(CmPair.SECOND);
            final String beforeA = cm.pair.a().device().liveObjects();
            final String beforeB = cm.pair.b().device().liveObjects();
            for (int i = 0; i < 1000; i++)
            {
                final CmId[] ids = f.establish(PORT);
                f.teardown(ids[0], ids[1]);
            }
            cm.runFor(CmPair.SECOND);
            f.assertNoIdsLeft(1);
            assertEquals(beforeA, cm.pair.a().device().liveObjects());
            assertEquals(beforeB, cm.pair.b().device().liveObjects());
            assertEquals(0, cm.a.cm().connectionCount(), "comm IDs held on A");
            assertEquals(0, cm.b.cm().connectionCount(), "comm IDs held on B");
            assertEquals(0, cm.a.cm().timerCount() + cm.b.cm().timerCount(), "timers left");
            assertEquals(1000, cm.b.counters().get(CmCounters.Group.CM_RX_MSGS, CmAttributes.REQ));
            assertEquals(0, cm.a.counters().total(CmCounters.Group.CM_TX_RETRIES));
        }
    }

    private static void drain(final EventChannel channel)
    {
        CmEvent e;
        while (null != (e = channel.pollEvent()))
        {
            channel.ackEvent(e);
        }
    }
}
