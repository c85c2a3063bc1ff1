package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.nfs4.TestNfsServer.Client;
import io.jrxe.ulp.nfs4.TestNfsServer.Session;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import static io.jrxe.ulp.nfs4.TestNfsServer.fail;
import static io.jrxe.ulp.nfs4.TestNfsServer.ok;

/**
 * {@link TestNfsServer}'s client IDs, sessions and slots (RFC 8881 §18.35, §18.36, §18.46, §18.37, §18.50, §18.51):
 * EXCHANGE_ID makes a client, CREATE_SESSION a session with its slot table (the fore channel's slots capped by the
 * server's knob), SEQUENCE checks the session, the slot and its seqid (NFS4ERR_BADSLOT, NFS4ERR_SEQ_MISORDERED,
 * NFS4ERR_RETRY_UNCACHED_REP) and applies the knobs that bend it (NFS4ERR_DELAY, fewer slots, a lower target, a
 * wrong slot echoed), DESTROY_SESSION and DESTROY_CLIENTID end them, RECLAIM_COMPLETE lets OPEN through. Reads and
 * writes the server's state and knobs.
 */
final class TestNfsSessionOps
{
    private final TestNfsServer server;
    private long nextClient = 0x6A72_7865_0000_0001L;
    private long nextSession = 1;

    TestNfsSessionOps(final TestNfsServer server)
    {
        this.server = server;
    }

    int sequence(final XdrDecoder a, final XdrEncoder r, final int opsInCompound)
    {
        final long high = a.getHyper();
        final long low = a.getHyper();
        final int seqid = a.getInt();
        final int slot = a.getInt();
        a.getInt(); // highest
        a.getBoolean(); // cachethis
        server.sequences++;
        if (server.shrinkAfter >= 0 && server.sequences > server.shrinkAfter)
        {
            server.activeSlots = server.shrinkTo; // the server lowered its slot count while calls were in flight
        }
        final Session s = server.sessions.get(low);
        if (null == s || high != 0x5E55_0000_0000_0000L)
        {
            return fail(r, Nfs4Status.BADSESSION);
        }
        final int usable = server.activeSlots > 0 ? Math.min(server.activeSlots, s.slotSeq.length) : s.slotSeq.length;
        if (slot < 0 || slot >= usable)
        {
            return fail(r, Nfs4Status.BADSLOT);
        }
        if (opsInCompound > s.maxOps)
        {
            return fail(r, Nfs4Status.TOO_MANY_OPS);
        }
        if (server.delaySequences > 0)
        {
            server.delaySequences--;
            return fail(r, Nfs4Status.DELAY);
        }
        if (seqid == s.slotSeq[slot])
        {
            return fail(r, Nfs4Status.RETRY_UNCACHED_REP);
        }
        if (seqid != s.slotSeq[slot] + 1)
        {
            return fail(r, Nfs4Status.SEQ_MISORDERED);
        }
        s.slotSeq[slot] = seqid;
        server.slotsUsed |= 1L << Math.min(slot, 63);
        server.session = s;
        ok(r);
        final int echo = server.wrongSlotEchoes > 0 ? slot + 5 : slot;
        server.wrongSlotEchoes = Math.max(0, server.wrongSlotEchoes - 1);
        r.putHyper(high).putHyper(low).putInt(seqid).putInt(echo).putInt(usable - 1)
            .putInt(server.targetHighest >= 0 ? server.targetHighest : usable - 1).putInt(0);
        return Nfs4Status.OK;
    }

    int exchangeId(final XdrDecoder a, final XdrEncoder r)
    {
        a.getHyper(); // verifier
        a.skipOpaque(Nfs4.OPAQUE_LIMIT); // owner
        final int flags = a.getInt();
        if (Nfs4.SP4_NONE != a.getInt() || 0 == (flags & Nfs4.EXCHGID4_FLAG_USE_NON_PNFS))
        {
            return fail(r, Nfs4Status.INVAL);
        }
        final int impls = a.getInt();
        for (int i = 0; i < impls; i++)
        {
            a.skipOpaque(1024);
            a.skipOpaque(1024);
            a.skip(12);
        }
        final Client c = new Client();
        c.id = nextClient++;
        server.clients.put(c.id, c);
        ok(r);
        r.putHyper(c.id).putInt(c.sequence).putInt(Nfs4.EXCHGID4_FLAG_USE_NON_PNFS).putInt(Nfs4.SP4_NONE)
            .putHyper(0).putAscii("test-server").putAscii("test-server").putInt(0);
        return Nfs4Status.OK;
    }

    int createSession(final XdrDecoder a, final XdrEncoder r)
    {
        final Client c = server.clients.get(a.getHyper());
        final int sequence = a.getInt();
        server.createSessionFlags = a.getInt();
        final int[] fore = channelAttrs(a);
        final int[] back = channelAttrs(a);
        server.cbProgram = a.getInt();
        final int secs = a.getInt();
        for (int i = 0; i < secs; i++)
        {
            final int flavor = a.getInt();
            server.cbFlavor = i == 0 ? flavor : server.cbFlavor;
            if (RpcMessage.AUTH_SYS == flavor)
            {
                a.getInt();
                a.skipOpaque(255);
                a.getInt();
                a.getInt();
                a.skip(4 * a.getInt());
            }
        }
        if (null == c)
        {
            return fail(r, Nfs4Status.STALE_CLIENTID);
        }
        if (sequence != c.sequence)
        {
            return fail(r, Nfs4Status.SEQ_MISORDERED);
        }
        if (back[4] < 2 || fore[4] < 2)
        {
            return fail(r, Nfs4Status.TOOSMALL);
        }
        c.sequence++;
        final Session s = new Session();
        s.id = nextSession++;
        s.client = c;
        server.foreSlotsAsked = fore[5];
        s.slotSeq = new int[Math.min(fore[5], server.serverSlots)];
        s.maxOps = Math.min(fore[4], server.serverMaxOps);
        server.sessions.put(s.id, s);
        c.sessions++;
        ok(r);
        r.putHyper(0x5E55_0000_0000_0000L).putHyper(s.id).putInt(sequence)
            .putInt(server.createSessionFlags & Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN);
        r.putInt(0).putInt(Math.min(fore[1], 4 << 20)).putInt(Math.min(fore[2], 4 << 20))
            .putInt(Math.min(fore[3], 4096)).putInt(s.maxOps).putInt(s.slotSeq.length).putInt(0);
        r.putInt(0).putInt(back[1]).putInt(back[2]).putInt(0).putInt(back[4]).putInt(back[5]).putInt(0);
        return Nfs4Status.OK;
    }

    private static int[] channelAttrs(final XdrDecoder a)
    {
        final int[] v = new int[6];
        for (int i = 0; i < 6; i++)
        {
            v[i] = a.getInt();
        }
        a.skip(4 * a.getInt());
        return v;
    }

    int destroySession(final XdrDecoder a, final XdrEncoder r)
    {
        a.getHyper();
        final Session s = server.sessions.remove(a.getHyper());
        if (null == s)
        {
            return fail(r, Nfs4Status.BADSESSION);
        }
        s.client.sessions--;
        return ok(r);
    }

    int destroyClientId(final XdrDecoder a, final XdrEncoder r)
    {
        final long id = a.getHyper();
        final Client c = server.clients.get(id);
        if (null == c)
        {
            return fail(r, Nfs4Status.STALE_CLIENTID);
        }
        if (c.sessions > 0 || server.delegations.values().stream().anyMatch(d -> d.session.client == c && !d.revoked))
        {
            return fail(r, Nfs4Status.CLIENTID_BUSY); // RFC 8881 §18.50.3: no sessions, no state
        }
        server.clients.remove(id);
        return ok(r);
    }

    int reclaimComplete(final XdrDecoder a, final XdrEncoder r)
    {
        a.getBoolean();
        if (server.session.client.reclaimComplete)
        {
            return fail(r, Nfs4Status.COMPLETE_ALREADY);
        }
        server.session.client.reclaimComplete = true;
        return ok(r);
    }
}
