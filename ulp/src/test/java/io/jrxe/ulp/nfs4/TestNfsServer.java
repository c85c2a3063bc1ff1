package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import org.agrona.collections.Long2ObjectHashMap;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal NFSv4.1 server (program 100003 version 4) for end-to-end tests, written from RFC 8881 independently of
 * the client's encoder and decoder: client IDs and sessions with slot checks, a small file tree ({@link TestFs}),
 * OPEN / READ / WRITE / COMMIT / CLOSE, READDIR with cookies, REMOVE, stale handles, and knobs to make it answer
 * the way a real server sometimes does (NFS4ERR_DELAY, NFS4ERR_GRACE, fewer slots, short READs and WRITEs, a
 * restart before COMMIT). Like knfsd it answers OPEN with NFS4ERR_GRACE until the client sent RECLAIM_COMPLETE.
 * <p>
 * Delegations as knfsd hands them out (RFC 8881 §10.2, §18.16): a read delegation to an OPEN for reading that does
 * not say OPEN4_SHARE_ACCESS_WANT_NO_DELEG ({@link #grantReadDelegations}), at most one per client and file,
 * stateid seqid 1. {@link #recall} sends CB_COMPOUND(CB_SEQUENCE, CB_RECALL) over {@link #connection}'s back
 * channel byte for byte as fs/nfsd/nfs4callback.c encodes it (empty tag, callback_ident 0, slot 0, highest slot 0,
 * cachethis false, no referring calls; stateid, truncate false, fh), reads the client's reply, and sends it again
 * when the answer is NFS4ERR_DELAY (knfsd: after 2 s). DELEGRETURN must name a delegation of the client on the
 * current file (else NFS4ERR_BAD_STATEID; NFS4ERR_DELEG_REVOKED once {@link #revoke revoked}); DESTROY_CLIENTID is
 * NFS4ERR_CLIENTID_BUSY while the client holds delegations (knfsd's client_has_state).
 */
final class TestNfsServer implements RpcProgram
{
    static final long LEASE = 90;
    static final long COOKIE_VERIFIER = 0x0C00_C1E5L;

    // ---- knobs ----
    int serverSlots = 8;
    int serverMaxOps = 50;
    int delaySequences;
    int graceOpens;
    boolean requireReclaimComplete = true;
    int readCap = Integer.MAX_VALUE;
    int writeCap = Integer.MAX_VALUE;
    int targetHighest = -1;
    int activeSlots = -1;
    long shrinkAfter = -1;
    int shrinkTo;
    long writeVerifier = 0x5EED_0001L;
    int verifierChangesAtCommit;
    int staleAfterReads = -1;
    boolean setConfirmFlag;
    boolean grantReadDelegations;
    boolean recallAtOpen;
    QueuedRpcClient connection;
    boolean log = true;
    int wrongSlotEchoes;

    // ---- what it saw ----
    final TestFs fs = new TestFs();
    final List<String> compounds = new ArrayList<>();
    long sequences;
    long reads;
    long writes;
    long commits;
    long opens;
    long closes;
    long delegReturns;
    int lastShareAccess;
    final List<String> returned = new ArrayList<>();
    final List<Integer> recallStatuses = new ArrayList<>();
    final Long2ObjectHashMap<Delegation> delegations = new Long2ObjectHashMap<>();
    long slotsUsed;
    int createSessionFlags;
    int cbProgram;
    int cbFlavor = -1;
    int foreSlotsAsked;
    final Long2ObjectHashMap<Client> clients = new Long2ObjectHashMap<>();
    final Long2ObjectHashMap<Session> sessions = new Long2ObjectHashMap<>();
    final Long2ObjectHashMap<Open> openStates = new Long2ObjectHashMap<>();

    private long nextClient = 0x6A72_7865_0000_0001L;
    private long nextSession = 1;
    private long nextStateid = 1;
    private int cbXid = 0x0CB0_0001;

    static final class Client
    {
        long id;
        int sequence = 1;
        boolean reclaimComplete;
        int sessions;
    }

    static final class Session
    {
        long id;
        Client client;
        int[] slotSeq;
        int maxOps;
        int cbSequence = 1; // the back channel's slot 0: the next csa_sequenceid (knfsd's se_cb_seq_nr)
        boolean cbBusy; // a callback is out on slot 0: the next waits for its reply (knfsd's nfsd41_cb_get_slot)
        final ArrayDeque<Runnable> cbWaiting = new ArrayDeque<>();
    }

    static final class Open
    {
        TestFs.Node node;
        int access;
    }

    /** A delegation granted: stateid seqid 1, other "DELE" and n, n. */
    static final class Delegation
    {
        long n;
        int seqid = 1;
        TestFs.Node node;
        Session session;
        boolean revoked;

        long otherHigh()
        {
            return 0x4445_4C45_0000_0000L | n;
        }

        int otherLow()
        {
            return (int)n;
        }

        /** @return the stateid as {@link Nfs4Stateid#toString()} shows it */
        String stateid()
        {
            return new Nfs4Stateid().set(seqid, otherHigh(), otherLow()).toString();
        }
    }

    /** Per COMPOUND. */
    private Session session;
    private TestFs.Node current;
    private final StringBuilder ops = new StringBuilder();

    @Override
    public int program()
    {
        return Nfs4.PROGRAM;
    }

    @Override
    public int lowVersion()
    {
        return 4;
    }

    @Override
    public int highVersion()
    {
        return 4;
    }

    @Override
    public int call(final RpcServerCall call)
    {
        if (0 == call.header().procedure())
        {
            return RpcMessage.SUCCESS;
        }
        if (1 != call.header().procedure())
        {
            return RpcMessage.PROC_UNAVAIL;
        }
        final XdrDecoder a = call.args();
        final XdrEncoder r = call.results();
        final int tagLength = a.getOpaqueLength(1024);
        final int tagAt = a.skipFixedOpaque(tagLength);
        final int minor = a.getInt();
        final int n = a.getInt();
        final int statusAt = r.reserveInt();
        r.putOpaque(a.buffer(), tagAt, tagLength);
        final int countAt = r.reserveInt();
        session = null;
        current = null;
        ops.setLength(0);
        int status = Nfs4Status.OK;
        int count = 0;
        if (1 != minor)
        {
            status = Nfs4Status.MINOR_VERS_MISMATCH;
        }
        for (int i = 0; i < n && Nfs4Status.OK == status; i++)
        {
            final int op = a.getInt();
            if (log)
            {
                ops.append(ops.length() == 0 ? "" : " ").append(Nfs4.opName(op));
            }
            count++;
            if (0 == i && op != Nfs4.OP_SEQUENCE && !sessionless(op))
            {
                status = Nfs4Status.OP_NOT_IN_SESSION;
                r.putInt(op).putInt(status);
                break;
            }
            if (i > 0 && sessionless(op) && null == session)
            {
                status = Nfs4Status.NOT_ONLY_OP;
                r.putInt(op).putInt(status);
                break;
            }
            r.putInt(op);
            status = op(op, i, n, a, r, call);
        }
        if (log)
        {
            compounds.add(ops.toString());
        }
        r.putIntAt(statusAt, status).putIntAt(countAt, count);
        return RpcMessage.SUCCESS;
    }

    private static boolean sessionless(final int op)
    {
        return op == Nfs4.OP_EXCHANGE_ID || op == Nfs4.OP_CREATE_SESSION || op == Nfs4.OP_DESTROY_SESSION ||
            op == Nfs4.OP_DESTROY_CLIENTID;
    }

    /** One operation: reads its arguments, writes its status and result; returns the status. */
    private int op(final int op, final int index, final int count, final XdrDecoder a, final XdrEncoder r,
        final RpcServerCall call)
    {
        switch (op)
        {
            case Nfs4.OP_SEQUENCE: return index == 0 ? sequence(a, r, count) : fail(r, Nfs4Status.SEQUENCE_POS);
            case Nfs4.OP_EXCHANGE_ID: return exchangeId(a, r);
            case Nfs4.OP_CREATE_SESSION: return createSession(a, r);
            case Nfs4.OP_DESTROY_SESSION: return destroySession(a, r);
            case Nfs4.OP_DESTROY_CLIENTID: return destroyClientId(a, r);
            case Nfs4.OP_RECLAIM_COMPLETE: return reclaimComplete(a, r);
            case Nfs4.OP_PUTROOTFH: current = fs.root; return ok(r);
            case Nfs4.OP_PUTFH: return putFh(a, r);
            case Nfs4.OP_LOOKUP: return lookup(a, r);
            case Nfs4.OP_GETFH: return getFh(r);
            case Nfs4.OP_GETATTR: return getAttr(a, r);
            case Nfs4.OP_OPEN: return open(a, r);
            case Nfs4.OP_CLOSE: return close(a, r);
            case Nfs4.OP_DELEGRETURN: return delegReturn(a, r);
            case Nfs4.OP_READ: return read(a, r, call);
            case Nfs4.OP_WRITE: return write(a, r);
            case Nfs4.OP_COMMIT: return commit(a, r);
            case Nfs4.OP_REMOVE: return remove(a, r);
            case Nfs4.OP_READDIR: return readdir(a, r);
            default:
                r.position(r.position() - 4);
                r.putInt(Nfs4.OP_ILLEGAL);
                return fail(r, Nfs4Status.OP_ILLEGAL);
        }
    }

    private static int ok(final XdrEncoder r)
    {
        r.putInt(Nfs4Status.OK);
        return Nfs4Status.OK;
    }

    private static int fail(final XdrEncoder r, final int status)
    {
        r.putInt(status);
        return status;
    }

    // ---- sessions (RFC 8881 §18.35, §18.36, §18.46, §18.37, §18.50, §18.51) ----------------------------------

    private int sequence(final XdrDecoder a, final XdrEncoder r, final int opsInCompound)
    {
        final long high = a.getHyper();
        final long low = a.getHyper();
        final int seqid = a.getInt();
        final int slot = a.getInt();
        a.getInt(); // highest
        a.getBoolean(); // cachethis
        sequences++;
        if (shrinkAfter >= 0 && sequences > shrinkAfter)
        {
            activeSlots = shrinkTo; // the server lowered its slot count while calls were in flight
        }
        final Session s = sessions.get(low);
        if (null == s || high != 0x5E55_0000_0000_0000L)
        {
            return fail(r, Nfs4Status.BADSESSION);
        }
        final int usable = activeSlots > 0 ? Math.min(activeSlots, s.slotSeq.length) : s.slotSeq.length;
        if (slot < 0 || slot >= usable)
        {
            return fail(r, Nfs4Status.BADSLOT);
        }
        if (opsInCompound > s.maxOps)
        {
            return fail(r, Nfs4Status.TOO_MANY_OPS);
        }
        if (delaySequences > 0)
        {
            delaySequences--;
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
        slotsUsed |= 1L << Math.min(slot, 63);
        session = s;
        ok(r);
        final int echo = wrongSlotEchoes > 0 ? slot + 5 : slot;
        wrongSlotEchoes = Math.max(0, wrongSlotEchoes - 1);
        r.putHyper(high).putHyper(low).putInt(seqid).putInt(echo).putInt(usable - 1)
            .putInt(targetHighest >= 0 ? targetHighest : usable - 1).putInt(0);
        return Nfs4Status.OK;
    }

    private int exchangeId(final XdrDecoder a, final XdrEncoder r)
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
        clients.put(c.id, c);
        ok(r);
        r.putHyper(c.id).putInt(c.sequence).putInt(Nfs4.EXCHGID4_FLAG_USE_NON_PNFS).putInt(Nfs4.SP4_NONE)
            .putHyper(0).putAscii("test-server").putAscii("test-server").putInt(0);
        return Nfs4Status.OK;
    }

    private int createSession(final XdrDecoder a, final XdrEncoder r)
    {
        final Client c = clients.get(a.getHyper());
        final int sequence = a.getInt();
        createSessionFlags = a.getInt();
        final int[] fore = channelAttrs(a);
        final int[] back = channelAttrs(a);
        cbProgram = a.getInt();
        final int secs = a.getInt();
        for (int i = 0; i < secs; i++)
        {
            final int flavor = a.getInt();
            cbFlavor = i == 0 ? flavor : cbFlavor;
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
        foreSlotsAsked = fore[5];
        s.slotSeq = new int[Math.min(fore[5], serverSlots)];
        s.maxOps = Math.min(fore[4], serverMaxOps);
        sessions.put(s.id, s);
        c.sessions++;
        ok(r);
        r.putHyper(0x5E55_0000_0000_0000L).putHyper(s.id).putInt(sequence)
            .putInt(createSessionFlags & Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN);
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

    private int destroySession(final XdrDecoder a, final XdrEncoder r)
    {
        a.getHyper();
        final Session s = sessions.remove(a.getHyper());
        if (null == s)
        {
            return fail(r, Nfs4Status.BADSESSION);
        }
        s.client.sessions--;
        return ok(r);
    }

    private int destroyClientId(final XdrDecoder a, final XdrEncoder r)
    {
        final long id = a.getHyper();
        final Client c = clients.get(id);
        if (null == c)
        {
            return fail(r, Nfs4Status.STALE_CLIENTID);
        }
        if (c.sessions > 0 || delegations.values().stream().anyMatch(d -> d.session.client == c && !d.revoked))
        {
            return fail(r, Nfs4Status.CLIENTID_BUSY); // RFC 8881 §18.50.3: no sessions, no state
        }
        clients.remove(id);
        return ok(r);
    }

    private int reclaimComplete(final XdrDecoder a, final XdrEncoder r)
    {
        a.getBoolean();
        if (session.client.reclaimComplete)
        {
            return fail(r, Nfs4Status.COMPLETE_ALREADY);
        }
        session.client.reclaimComplete = true;
        return ok(r);
    }

    // ---- names and attributes -------------------------------------------------------------------------------

    private int putFh(final XdrDecoder a, final XdrEncoder r)
    {
        final Object n = fs.decodeFh(a);
        if (n instanceof Integer)
        {
            return fail(r, (Integer)n);
        }
        current = (TestFs.Node)n;
        return ok(r);
    }

    private int lookup(final XdrDecoder a, final XdrEncoder r)
    {
        final String name = a.getString(1024);
        if (null == current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        if (!current.isDir())
        {
            return fail(r, Nfs4Status.NOTDIR);
        }
        final TestFs.Node next = current.children.get(name);
        if (null == next)
        {
            return fail(r, Nfs4Status.NOENT);
        }
        current = next;
        return ok(r);
    }

    private int getFh(final XdrEncoder r)
    {
        if (null == current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        ok(r);
        fs.encodeFh(r, current);
        return Nfs4Status.OK;
    }

    private int getAttr(final XdrDecoder a, final XdrEncoder r)
    {
        final long mask = Nfs4Attr.decodeBitmap(a);
        if (null == current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        ok(r);
        encodeAttrs(r, current, mask);
        return Nfs4Status.OK;
    }

    private static final long SUPPORTED = Nfs4Attr.mask(Nfs4Attr.TYPE, Nfs4Attr.CHANGE, Nfs4Attr.SIZE,
        Nfs4Attr.LEASE_TIME, Nfs4Attr.FILEID, Nfs4Attr.MAXREAD, Nfs4Attr.MAXWRITE, Nfs4Attr.MODE, Nfs4Attr.NUMLINKS,
        Nfs4Attr.TIME_MODIFY);

    static void encodeAttrs(final XdrEncoder r, final TestFs.Node n, final long asked)
    {
        final long mask = asked & SUPPORTED;
        r.putInt(2).putInt((int)mask).putInt((int)(mask >>> 32));
        final int lengthAt = r.reserveInt();
        final int start = r.position();
        for (long m = mask; 0 != m; m &= m - 1)
        {
            switch (Long.numberOfTrailingZeros(m))
            {
                case Nfs4Attr.TYPE: r.putInt(n.type); break;
                case Nfs4Attr.CHANGE: r.putHyper(n.change); break;
                case Nfs4Attr.SIZE: r.putHyper(n.isDir() ? 4096 : n.size); break;
                case Nfs4Attr.LEASE_TIME: r.putInt((int)LEASE); break;
                case Nfs4Attr.FILEID: r.putHyper(n.id); break;
                case Nfs4Attr.MAXREAD: r.putHyper(1 << 20); break;
                case Nfs4Attr.MAXWRITE: r.putHyper(1 << 20); break;
                case Nfs4Attr.MODE: r.putInt(n.mode); break;
                case Nfs4Attr.NUMLINKS: r.putInt(n.isDir() ? 2 : 1); break;
                case Nfs4Attr.TIME_MODIFY: r.putHyper(1_700_000_000L + n.change).putInt(0); break;
                default: throw new IllegalStateException();
            }
        }
        r.putIntAt(lengthAt, r.position() - start);
    }

    // ---- OPEN, CLOSE, I/O (RFC 8881 §18.16, §18.2, §18.22, §18.32, §18.3) ------------------------------------

    private int open(final XdrDecoder a, final XdrEncoder r)
    {
        a.getInt(); // seqid
        final int access = a.getInt();
        a.getInt(); // deny
        a.getHyper();
        a.skipOpaque(Nfs4.OPAQUE_LIMIT);
        final boolean create = 1 == a.getInt();
        int createMode = -1;
        long setSize = -1;
        int setMode = -1;
        long attrset = 0;
        if (create)
        {
            createMode = a.getInt();
            attrset = Nfs4Attr.decodeBitmap(a);
            a.getInt(); // attrlist length
            if (0 != (attrset & (1L << Nfs4Attr.SIZE)))
            {
                setSize = a.getHyper();
            }
            if (0 != (attrset & (1L << Nfs4Attr.MODE)))
            {
                setMode = a.getInt();
            }
        }
        if (Nfs4.CLAIM_NULL != a.getInt())
        {
            return fail(r, Nfs4Status.NOTSUPP);
        }
        final String name = a.getString(1024);
        opens++;
        if (requireReclaimComplete && !session.client.reclaimComplete)
        {
            return fail(r, Nfs4Status.GRACE); // knfsd: nfsd4_open before RECLAIM_COMPLETE
        }
        if (graceOpens > 0)
        {
            graceOpens--;
            return fail(r, Nfs4Status.GRACE);
        }
        if (null == current || !current.isDir())
        {
            return fail(r, null == current ? Nfs4Status.NOFILEHANDLE : Nfs4Status.NOTDIR);
        }
        final long before = current.change;
        TestFs.Node f = current.children.get(name);
        if (null != f && create && Nfs4.GUARDED4 == createMode)
        {
            return fail(r, Nfs4Status.EXIST);
        }
        if (null == f && !create)
        {
            return fail(r, Nfs4Status.NOENT);
        }
        if (null != f && f.isDir())
        {
            return fail(r, Nfs4Status.ISDIR);
        }
        if (null == f)
        {
            f = fs.add(Nfs4.NF4REG, current, name, setMode >= 0 ? setMode : 0644);
        }
        else if (setSize >= 0)
        {
            f.truncate(setSize);
        }
        final Open o = new Open();
        o.node = f;
        o.access = access & Nfs4.SHARE_ACCESS_BOTH;
        lastShareAccess = access;
        final int want = access & Nfs4.SHARE_ACCESS_WANT_DELEG_MASK;
        final boolean held = null != delegationOf(session.client, f);
        final boolean grant = grantReadDelegations && Nfs4.SHARE_ACCESS_READ == o.access && !held &&
            (Nfs4.SHARE_ACCESS_WANT_NO_PREFERENCE == want || Nfs4.SHARE_ACCESS_WANT_READ_DELEG == want ||
                Nfs4.SHARE_ACCESS_WANT_ANY_DELEG == want);
        final long other = nextStateid++;
        openStates.put(other, o);
        ok(r);
        r.putInt(1).putHyper(0x4F50_454E_0000_0000L | other).putInt((int)other);
        r.putBoolean(true).putHyper(before).putHyper(current.change);
        r.putInt(Nfs4.OPEN4_RESULT_LOCKTYPE_POSIX | (setConfirmFlag ? Nfs4.OPEN4_RESULT_CONFIRM : 0));
        r.putInt(3).putInt((int)(create ? attrset : 0)).putInt((int)((create ? attrset : 0) >>> 32)).putInt(0);
        if (Nfs4.SHARE_ACCESS_WANT_NO_DELEG == want)
        {
            r.putInt(Nfs4.OPEN_DELEGATE_NONE_EXT).putInt(Nfs4.WND4_NOT_WANTED);
        }
        else if (grant)
        {
            final Delegation d = new Delegation();
            d.n = other;
            d.node = f;
            d.session = session;
            delegations.put(other, d);
            // stateid, recall false, nfsace4 (type, flag, access_mask, who "")
            r.putInt(Nfs4.OPEN_DELEGATE_READ).putInt(d.seqid).putHyper(d.otherHigh()).putInt(d.otherLow())
                .putBoolean(false).putInt(0).putInt(0).putInt(0).putInt(0);
            if (recallAtOpen)
            {
                recall(d); // a conflicting open elsewhere: the recall follows the OPEN's reply on the connection
            }
        }
        else if (0 != want)
        {
            // knfsd's nfsd4_open_deleg_none_ext: one held already is contention, else resources; server won't push
            r.putInt(Nfs4.OPEN_DELEGATE_NONE_EXT).putInt(held ? Nfs4.WND4_CONTENTION : Nfs4.WND4_RESOURCE)
                .putBoolean(false);
        }
        else
        {
            r.putInt(Nfs4.OPEN_DELEGATE_NONE);
        }
        current = f;
        return Nfs4Status.OK;
    }

    /** @return the open of the stateid at the decoder, or null */
    private Open stateid(final XdrDecoder a)
    {
        a.getInt();
        final long high = a.getHyper();
        a.getInt();
        final Open o = openStates.get(high & 0xFFFF_FFFFL);
        return null != o && (high >>> 32) == 0x4F50_454EL ? o : null;
    }

    private int close(final XdrDecoder a, final XdrEncoder r)
    {
        a.getInt(); // seqid
        final Open o = stateid(a);
        if (null == o)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (null == current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        openStates.values().remove(o);
        closes++;
        ok(r);
        r.putInt(0xFFFF_FFFF).putHyper(0).putInt(0); // knfsd's close_stateid
        return Nfs4Status.OK;
    }

    private int delegReturn(final XdrDecoder a, final XdrEncoder r)
    {
        final int seqid = a.getInt();
        final long high = a.getHyper();
        final int low = a.getInt();
        final Delegation d = (high >>> 32) == 0x4445_4C45L ? delegations.get(high & 0xFFFF_FFFFL) : null;
        if (null == d || d.otherLow() != low || d.session.client != session.client ||
            (seqid != d.seqid && 0 != seqid) || current != d.node)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (d.revoked)
        {
            return fail(r, Nfs4Status.DELEG_REVOKED);
        }
        delegations.remove(d.n);
        delegReturns++;
        returned.add(new Nfs4Stateid().set(seqid, high, low).toString());
        return ok(r);
    }

    // ---- the back channel: CB_RECALL as knfsd sends it (fs/nfsd/nfs4callback.c) ------------------------------

    /** @return the client's delegation on a file, or null */
    Delegation delegationOf(final Client c, final TestFs.Node node)
    {
        for (final Delegation d : delegations.values())
        {
            if (d.node == node && d.session.client == c)
            {
                return d;
            }
        }
        return null;
    }

    /** @return the delegation on the file at a path (any client), or null */
    Delegation delegationOn(final String path)
    {
        final TestFs.Node node = fs.at(path);
        for (final Delegation d : delegations.values())
        {
            if (d.node == node)
            {
                return d;
            }
        }
        return null;
    }

    /** The server revokes a delegation (its recall was not answered in time): DELEGRETURN gets DELEG_REVOKED. */
    void revoke(final Delegation d)
    {
        d.revoked = true;
    }

    /** @return a file's handle as the wire carries it */
    static byte[] fh(final TestFs.Node node)
    {
        return ByteBuffer.allocate(12).putInt(TestFs.FH_MAGIC).putLong(node.id).array();
    }

    /** Recall a delegation (a conflicting access elsewhere): CB_COMPOUND(CB_SEQUENCE, CB_RECALL) to its session. */
    void recall(final Delegation d)
    {
        recall(d.session, d.seqid, d.otherHigh(), d.otherLow(), fh(d.node));
    }

    /** Send a CB_RECALL of any stateid and handle (what a confused server might), once slot 0 is free. */
    void recall(final Session s, final int seqid, final long otherHigh, final int otherLow, final byte[] fh)
    {
        s.cbWaiting.add(() -> sendRecall(s, seqid, otherHigh, otherLow, fh));
        sendNextCallback(s);
    }

    private void sendNextCallback(final Session s)
    {
        if (!s.cbBusy && !s.cbWaiting.isEmpty())
        {
            s.cbBusy = true;
            s.cbWaiting.poll().run();
        }
    }

    private void sendRecall(final Session s, final int seqid, final long otherHigh, final int otherLow,
        final byte[] fh)
    {
        final int cbSequence = s.cbSequence;
        final byte[] machine = "server".getBytes(StandardCharsets.US_ASCII);
        final byte[] call = Wire.of().i(cbXid++, 0, 2, cbProgram, 1, 1)
            .i(RpcMessage.AUTH_SYS, 4 + 4 + 8 + 4 + 4 + 4).i(0).opaque(machine).i(0, 0, 0)   // uid 0 gid 0
            .i(RpcMessage.AUTH_NONE, 0)
            .str("").i(1, 0, 2)                                            // tag, minorversion, callback_ident, ops
            .i(Nfs4.OP_CB_SEQUENCE).h(0x5E55_0000_0000_0000L).h(s.id).i(cbSequence, 0, 0).b(false).i(0)
            .i(Nfs4.OP_CB_RECALL).i(seqid).h(otherHigh).i(otherLow).b(false).opaque(fh)
            .bytes();
        connection.reverse(call, reply -> recallAnswered(s, cbSequence, reply, seqid, otherHigh, otherLow, fh));
    }

    /** The client's CB_COMPOUND reply, read as knfsd's nfs4_xdr_dec_cb_recall does. */
    private void recallAnswered(final Session s, final int cbSequence, final byte[] reply, final int seqid,
        final long otherHigh, final int otherLow, final byte[] fh)
    {
        final ByteBuffer b = ByteBuffer.wrap(reply);
        b.getInt(); // xid
        check(1 == b.getInt() && 0 == b.getInt(), "an accepted RPC reply");
        b.getInt(); // verifier flavor
        skipOpaque(b);
        check(0 == b.getInt(), "accept_stat SUCCESS");
        final int status = b.getInt();
        skipOpaque(b); // tag
        final int results = b.getInt();
        check(results >= 1 && Nfs4.OP_CB_SEQUENCE == b.getInt(), "CB_SEQUENCE's result first");
        final int sequenceStatus = b.getInt();
        int recallStatus = sequenceStatus;
        if (Nfs4Status.OK == sequenceStatus)
        {
            check(0x5E55_0000_0000_0000L == b.getLong() && s.id == b.getLong(), "csr_sessionid");
            check(cbSequence == b.getInt() && 0 == b.getInt(), "csr_sequenceid and csr_slotid echoed");
            b.getInt(); // csr_highest_slotid
            b.getInt(); // csr_target_highest_slotid
            s.cbSequence++;
            check(2 == results && Nfs4.OP_CB_RECALL == b.getInt(), "CB_RECALL's result");
            recallStatus = b.getInt();
        }
        check(status == recallStatus && !b.hasRemaining(), "the COMPOUND's status is its last result's");
        recallStatuses.add(recallStatus);
        s.cbBusy = false;
        if (Nfs4Status.DELAY == recallStatus)
        {
            recall(s, seqid, otherHigh, otherLow, fh); // knfsd: rpc_delay(task, 2 * HZ), then again
        }
        sendNextCallback(s);
    }

    private static void skipOpaque(final ByteBuffer b)
    {
        final int length = b.getInt();
        b.position(b.position() + ((length + 3) & ~3));
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new AssertionError("CB_COMPOUND reply: " + what);
        }
    }

    private int read(final XdrDecoder a, final XdrEncoder r, final RpcServerCall call)
    {
        final Open o = stateid(a);
        final long offset = a.getHyper();
        final int count = a.getInt();
        if (null == o)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (0 == (o.access & Nfs4.SHARE_ACCESS_READ))
        {
            return fail(r, Nfs4Status.OPENMODE);
        }
        reads++;
        if (staleAfterReads >= 0 && reads > staleAfterReads)
        {
            o.node.removed = true;
        }
        if (current.removed)
        {
            return fail(r, Nfs4Status.STALE);
        }
        final TestFs.Node f = current;
        final int n = (int)Math.max(0, Math.min(Math.min(count, readCap), f.size - offset));
        ok(r);
        r.putBoolean(offset + n >= f.size).putInt(n);
        final int at = call.reservePayload(n);
        r.buffer().putBytes(at, f.data, (int)Math.min(offset, f.size), n);
        return Nfs4Status.OK;
    }

    private int write(final XdrDecoder a, final XdrEncoder r)
    {
        final Open o = stateid(a);
        final long offset = a.getHyper();
        final int stable = a.getInt();
        final int length = a.getOpaqueLength(16 << 20);
        final int at = a.skipFixedOpaque(length);
        if (null == o)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (0 == (o.access & Nfs4.SHARE_ACCESS_WRITE))
        {
            return fail(r, Nfs4Status.OPENMODE);
        }
        if (current.removed)
        {
            return fail(r, Nfs4Status.STALE);
        }
        writes++;
        final int n = Math.min(length, writeCap);
        current.write(offset, a, at, n);
        ok(r);
        r.putInt(n).putInt(Nfs4.UNSTABLE4 == stable ? Nfs4.UNSTABLE4 : Nfs4.FILE_SYNC4).putHyper(writeVerifier);
        return Nfs4Status.OK;
    }

    private int commit(final XdrDecoder a, final XdrEncoder r)
    {
        a.getHyper();
        a.getInt();
        commits++;
        if (verifierChangesAtCommit > 0)
        {
            verifierChangesAtCommit--;
            writeVerifier++; // a restart between the WRITEs and the COMMIT
        }
        ok(r);
        r.putHyper(writeVerifier);
        return Nfs4Status.OK;
    }

    private int remove(final XdrDecoder a, final XdrEncoder r)
    {
        final String name = a.getString(1024);
        if (null == current || !current.isDir())
        {
            return fail(r, null == current ? Nfs4Status.NOFILEHANDLE : Nfs4Status.NOTDIR);
        }
        final TestFs.Node n = current.children.get(name);
        if (null == n)
        {
            return fail(r, Nfs4Status.NOENT);
        }
        if (n.isDir() && !n.children.isEmpty())
        {
            return fail(r, Nfs4Status.NOTEMPTY);
        }
        final long before = current.change;
        fs.remove(current, name);
        ok(r);
        r.putBoolean(true).putHyper(before).putHyper(current.change);
        return Nfs4Status.OK;
    }

    private int readdir(final XdrDecoder a, final XdrEncoder r)
    {
        final long cookie = a.getHyper();
        final long verifier = a.getHyper();
        a.getInt(); // dircount
        final int maxcount = a.getInt();
        final long mask = Nfs4Attr.decodeBitmap(a);
        if (null == current || !current.isDir())
        {
            return fail(r, null == current ? Nfs4Status.NOFILEHANDLE : Nfs4Status.NOTDIR);
        }
        if (0 != cookie && COOKIE_VERIFIER != verifier)
        {
            return fail(r, Nfs4Status.NOT_SAME);
        }
        final List<String> names = new ArrayList<>(current.children.keySet());
        final int first = 0 == cookie ? 0 : (int)(cookie - 2); // entry i has cookie i + 3
        if (first < 0 || first > names.size())
        {
            return fail(r, Nfs4Status.BAD_COOKIE);
        }
        ok(r);
        final int start = r.position();
        r.putHyper(COOKIE_VERIFIER);
        int i = first;
        for (; i < names.size(); i++)
        {
            final int mark = r.position();
            r.putBoolean(true).putHyper(i + 3).putAscii(names.get(i));
            encodeAttrs(r, current.children.get(names.get(i)), mask);
            if (r.position() - start + 8 > maxcount)
            {
                r.position(mark);
                break;
            }
        }
        if (i == first && i < names.size())
        {
            r.position(start - 4);
            return fail(r, Nfs4Status.TOOSMALL);
        }
        r.putBoolean(false).putBoolean(i == names.size());
        return Nfs4Status.OK;
    }
}
