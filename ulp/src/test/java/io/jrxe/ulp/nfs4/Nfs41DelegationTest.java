package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcDispatcher;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delegations end to end (RFC 8881 §10.2, §10.4, §18.6, §20.2): the session against {@link TestNfsServer}, which
 * grants read delegations and recalls them with CB_COMPOUND(CB_SEQUENCE, CB_RECALL) as knfsd encodes it, over the
 * back channel of the same {@link QueuedRpcClient} (the callback service dispatched while the client is driven).
 * Every test checks that no fore channel call was made from inside a callback's dispatch.
 */
class Nfs41DelegationTest
{
    private static final long SECOND = 1_000_000_000L;
    private static final byte[] A = {'a', 'b', 'c'};

    private final TestNfsServer server = new TestNfsServer();
    private final Nfs4CallbackProgram callback = new Nfs4CallbackProgram(Nfs4CallbackProgram.DEFAULT_PROGRAM);
    private final QueuedRpcClient client = new QueuedRpcClient(new RpcDispatcher(null).register(server), 16, 65536)
        .backChannel(new RpcDispatcher(null).register(callback));
    private final TestClock clock = new TestClock();
    private final Nfs41Options options = new Nfs41Options().exportPath("/export").rsize(16384).wsize(16384)
        .clock(clock).idle(new NoOpIdleStrategy());
    private Nfs41Session session;

    @BeforeEach
    void tree()
    {
        server.connection = client;
        server.grantReadDelegations = true;
        server.fs.file("/export/a.txt", A);
        server.fs.file("/export/dir/b.txt", new byte[40_000]);
    }

    @AfterEach
    void checks()
    {
        assertEquals(List.of(), client.reentrant, "no fore channel call from inside a callback's dispatch");
        assertEquals(List.of(), client.replyLimitViolations);
    }

    private Nfs41Session connect()
    {
        session = Nfs41Session.connect(client, callback, options);
        return session;
    }

    private String lastCompound()
    {
        return server.compounds.get(server.compounds.size() - 1);
    }

    private List<String> lastCompounds(final int n)
    {
        return server.compounds.subList(server.compounds.size() - n, server.compounds.size());
    }

    @Test
    void aReadDelegationIsKeptAfterCloseAndReturnedWhenRecalled()
    {
        connect();
        assertEquals(Nfs4.OPEN_DELEGATE_READ, session.holdDelegation("a.txt"));
        assertEquals(Nfs4.SHARE_ACCESS_READ | Nfs4.SHARE_ACCESS_WANT_READ_DELEG, server.lastShareAccess);
        assertEquals(List.of("SEQUENCE PUTROOTFH LOOKUP OPEN GETFH GETATTR", "SEQUENCE PUTFH CLOSE"),
            lastCompounds(2), "CLOSE without DELEGRETURN: the delegation is kept");
        final TestNfsServer.Delegation d = server.delegationOn("/export/a.txt");
        assertNotNull(d);
        assertEquals(1, session.delegationsHeld());
        assertEquals(1, session.delegationsGranted());
        assertEquals(0, session.delegationsReturned());

        server.recall(d);
        assertEquals(1, client.reversePending(), "the recall waits for the client to be driven");
        assertTrue(session.awaitRecall(10 * SECOND));
        assertEquals(List.of(Nfs4Status.OK), server.recallStatuses, "CB_RECALL answered NFS4_OK");
        assertEquals(List.of(d.stateid()), server.returned, "DELEGRETURN named the delegation recalled");
        assertEquals("SEQUENCE PUTFH DELEGRETURN", lastCompound());
        assertNull(server.delegationOn("/export/a.txt"));
        assertEquals(1, callback.cbRecall());
        assertEquals(1, callback.recallsAccepted());
        assertEquals(0, session.delegationsHeld());
        assertEquals(1, session.delegationsReturned());
        assertEquals(1, session.recallsReturned());

        final long compounds = server.compounds.size();
        assertFalse(session.awaitRecall(10 * SECOND), "nothing held: nothing to wait for");
        assertEquals(compounds, server.compounds.size());
        session.close();
        assertTrue(server.clients.isEmpty());
    }

    @Test
    void waitingForARecallKeepsTheLeaseAlive()
    {
        connect();
        assertEquals(Nfs4.OPEN_DELEGATE_READ, session.holdDelegation("a.txt"));
        final int before = server.compounds.size();
        assertFalse(session.awaitRecall(200 * SECOND), "no recall came");
        final List<String> during = server.compounds.subList(before, server.compounds.size());
        assertEquals(List.of("SEQUENCE", "SEQUENCE", "SEQUENCE", "SEQUENCE"), during,
            "a SEQUENCE every half lease (45 s) over 200 s");
        assertTrue(session.nanosSinceRenewal() < 45 * SECOND);
        assertEquals(1, session.delegationsHeld());
        assertEquals(0, server.delegReturns);
    }

    @Test
    void recallsOfAnUnknownStateidOrFileAreRefusedAndChangeNothing()
    {
        connect();
        session.holdDelegation("a.txt");
        final TestNfsServer.Delegation d = server.delegationOn("/export/a.txt");
        final TestNfsServer.Session s = d.session;
        server.recall(s, d.seqid, d.otherHigh(), d.otherLow() + 1000, TestNfsServer.fh(d.node));
        server.recall(s, d.seqid, d.otherHigh(), d.otherLow(), TestNfsServer.fh(server.fs.at("/export/dir/b.txt")));
        assertFalse(session.awaitRecall(SECOND));
        assertEquals(List.of(Nfs4Status.BAD_STATEID, Nfs4Status.BADHANDLE), server.recallStatuses,
            "RFC 8881 §20.2.3: a stateid not held on the file, a file without a delegation");
        assertEquals(1, session.delegationsHeld());
        assertEquals(0, server.delegReturns);
        assertEquals(2, callback.refused());

        server.recall(d);
        assertTrue(session.awaitRecall(SECOND), "the real one still works");
        assertEquals(List.of(d.stateid()), server.returned);
    }

    @Test
    void theDelegationsHeldAreReturnedAtClose()
    {
        connect();
        assertEquals(Nfs4.OPEN_DELEGATE_READ, session.holdDelegation("a.txt"));
        assertEquals(Nfs4.OPEN_DELEGATE_READ, session.holdDelegation("dir/b.txt"));
        final String a = server.delegationOn("/export/a.txt").stateid();
        final String b = server.delegationOn("/export/dir/b.txt").stateid();
        assertEquals(2, session.delegationsHeld());
        session.close();
        assertEquals(List.of("SEQUENCE PUTFH DELEGRETURN", "SEQUENCE PUTFH DELEGRETURN", "DESTROY_SESSION",
            "DESTROY_CLIENTID"), lastCompounds(4));
        assertEquals(List.of(a, b), server.returned);
        assertTrue(server.delegations.isEmpty());
        assertTrue(server.clients.isEmpty(), "DESTROY_CLIENTID accepted: no state left (RFC 8881 §18.50.3)");
        assertEquals(2, session.delegationsReturned());
        assertEquals(0, session.recallsReturned());
    }

    @Test
    void theTestServerRefusesToDestroyAClientThatHoldsADelegation()
    {
        connect();
        session.holdDelegation("a.txt");
        final long id = session.clientId();
        final Nfs4SessionRequests.DestroySession destroySession = new Nfs4SessionRequests.DestroySession();
        destroySession.session.copy(session.sessionId());
        final Nfs4ForeChannel alone = new Nfs4ForeChannel(client, options);
        alone.runAlone(destroySession);
        final Nfs4SessionRequests.DestroyClientId destroy = new Nfs4SessionRequests.DestroyClientId();
        destroy.clientId = id;
        final Nfs4StatusException ex = assertThrows(Nfs4StatusException.class, () -> alone.runAlone(destroy));
        assertEquals(Nfs4Status.CLIENTID_BUSY, ex.status());
    }

    @Test
    void aRecallRacingTheOpensReplyIsAnsweredDelayThenAccepted()
    {
        server.recallAtOpen = true; // the CB_RECALL comes in right behind the OPEN's reply, before it was read
        connect();
        assertEquals(Nfs4.OPEN_DELEGATE_READ, session.holdDelegation("a.txt"));
        assertEquals(List.of(Nfs4Status.DELAY, Nfs4Status.OK), server.recallStatuses,
            "not known while the OPEN's reply was unread: NFS4ERR_DELAY (RFC 8881 §2.10.6.3); sent again: NFS4_OK");
        assertEquals(List.of("SEQUENCE PUTROOTFH LOOKUP OPEN GETFH GETATTR", "SEQUENCE PUTFH CLOSE",
            "SEQUENCE PUTFH DELEGRETURN"), lastCompounds(3), "returned at the end of holdDelegation");
        assertEquals(1, server.returned.size());
        assertTrue(session.awaitRecall(SECOND), "a recall returned earlier is reported by the next wait");
        assertFalse(session.awaitRecall(SECOND));
    }

    @Test
    void aRecallThatArrivesDuringAReadIsServicedWhenTheReadEnds() throws IOException
    {
        connect();
        session.holdDelegation("a.txt");
        final TestNfsServer.Delegation d = server.delegationOn("/export/a.txt");
        server.recall(d);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(40_000, session.read("dir/b.txt", out, null));
        assertEquals(List.of(Nfs4Status.OK), server.recallStatuses);
        assertEquals(List.of("SEQUENCE PUTFH CLOSE", "SEQUENCE PUTFH DELEGRETURN"), lastCompounds(2),
            "the READs and the CLOSE first, then the DELEGRETURN");
        assertEquals(List.of(d.stateid()), server.returned);
        assertTrue(session.awaitRecall(SECOND));
    }

    @Test
    void aDelegationTheServerRevokedIsDroppedWhenItsReturnIsRefused()
    {
        connect();
        session.holdDelegation("a.txt");
        final TestNfsServer.Delegation d = server.delegationOn("/export/a.txt");
        server.revoke(d);
        server.recall(d);
        assertTrue(session.awaitRecall(SECOND), "DELEGRETURN answered: NFS4ERR_DELEG_REVOKED");
        assertEquals(0, session.delegationsHeld());
        assertEquals(0, session.delegationsReturned());
        assertEquals(1, session.delegationsLost());
    }

    @Test
    void noDelegationGrantedIsReportedWithTheReason()
    {
        server.grantReadDelegations = false;
        connect();
        assertEquals(Nfs4.OPEN_DELEGATE_NONE, session.holdDelegation("a.txt"));
        assertEquals(Nfs4.WND4_RESOURCE, session.whyNoDelegation());
        assertEquals(0, session.delegationsHeld());
        assertEquals(0, session.delegationsGranted());
        assertFalse(session.awaitRecall(10 * SECOND), "nothing held: false at once");
    }

    @Test
    void byDefaultOpensAskForNoDelegation() throws IOException
    {
        connect();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        session.read("a.txt", out, null);
        assertArrayEquals(A, out.toByteArray());
        assertEquals(Nfs4.SHARE_ACCESS_READ | Nfs4.SHARE_ACCESS_WANT_NO_DELEG, server.lastShareAccess);
        assertEquals(Nfs4.WND4_NOT_WANTED, session.whyNoDelegation());
        assertEquals(0, session.delegationsGranted());
        assertTrue(server.delegations.isEmpty());
    }

    @Test
    void withNoPreferenceAReadKeepsTheDelegationAsLinuxDoes() throws IOException
    {
        options.wantDelegation(Nfs4.SHARE_ACCESS_WANT_NO_PREFERENCE);
        connect();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        session.read("a.txt", out, null);
        assertEquals(Nfs4.SHARE_ACCESS_READ, server.lastShareAccess, "no want bits: the server decides");
        assertEquals("SEQUENCE PUTFH CLOSE", lastCompound());
        assertEquals(1, session.delegationsHeld());
        session.read("a.txt", out, null);
        assertEquals(1, session.delegationsHeld(), "the server grants one per file and client");
        assertEquals(1, session.delegationsGranted());
        assertArrayEquals(new byte[] {'a', 'b', 'c', 'a', 'b', 'c'}, out.toByteArray());
        session.close();
        assertEquals(1, server.returned.size());
        assertTrue(server.clients.isEmpty());
    }

    @Test
    void withoutABackChannelADelegationGoesBackWithTheClose() throws IOException
    {
        options.wantDelegation(Nfs4.SHARE_ACCESS_WANT_NO_PREFERENCE);
        session = Nfs41Session.connect(client, null, options);
        session.read("a.txt", new ByteArrayOutputStream(), null);
        assertEquals("SEQUENCE PUTFH CLOSE DELEGRETURN", lastCompound());
        assertEquals(1, session.delegationsGranted());
        assertEquals(1, session.delegationsReturned());
        assertEquals(0, session.delegationsHeld());
        assertTrue(server.delegations.isEmpty());
        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> session.holdDelegation("a.txt"));
        assertEquals("no back channel: a delegation could not be recalled", ex.getMessage());
    }

    @Test
    void onlyTheWantsAClientMaySendAreAccepted()
    {
        assertThrows(IllegalArgumentException.class, () -> options.wantDelegation(Nfs4.SHARE_ACCESS_WANT_ANY_DELEG));
        assertThrows(IllegalArgumentException.class, () -> options.wantDelegation(Nfs4.SHARE_ACCESS_READ));
        assertEquals(Nfs4.SHARE_ACCESS_WANT_NO_DELEG, new Nfs41Options().wantDelegation(), "the default");
    }
}
