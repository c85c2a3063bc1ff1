package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import org.agrona.collections.Long2ObjectHashMap;

import java.nio.ByteBuffer;
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
 * <p>
 * This class is the RPC program: it holds the knobs, what it saw and the state (clients, sessions, opens,
 * delegations, the file tree), reads a COMPOUND and hands each operation to the class of its concern:
 * {@link TestNfsSessionOps} (client IDs, sessions, slots), {@link TestNfsFileOps} (names, attributes, I/O, READDIR),
 * {@link TestNfsOpenOps} (OPEN, CLOSE, delegations granted) and {@link TestNfsDelegationOps} (DELEGRETURN, recalls
 * on the back channel).
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

    // ---- who handles what ----
    final TestNfsSessionOps sessionOps = new TestNfsSessionOps(this);
    final TestNfsFileOps fileOps = new TestNfsFileOps(this);
    final TestNfsOpenOps openOps = new TestNfsOpenOps(this);
    final TestNfsDelegationOps delegationOps = new TestNfsDelegationOps(this);

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

    /** Per COMPOUND: the session its SEQUENCE named (null before), and the current filehandle's file. */
    Session session;
    TestFs.Node current;
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
            case Nfs4.OP_SEQUENCE:
                return index == 0 ? sessionOps.sequence(a, r, count) : fail(r, Nfs4Status.SEQUENCE_POS);
            case Nfs4.OP_EXCHANGE_ID: return sessionOps.exchangeId(a, r);
            case Nfs4.OP_CREATE_SESSION: return sessionOps.createSession(a, r);
            case Nfs4.OP_DESTROY_SESSION: return sessionOps.destroySession(a, r);
            case Nfs4.OP_DESTROY_CLIENTID: return sessionOps.destroyClientId(a, r);
            case Nfs4.OP_RECLAIM_COMPLETE: return sessionOps.reclaimComplete(a, r);
            case Nfs4.OP_PUTROOTFH: current = fs.root; return ok(r);
            case Nfs4.OP_PUTFH: return fileOps.putFh(a, r);
            case Nfs4.OP_LOOKUP: return fileOps.lookup(a, r);
            case Nfs4.OP_GETFH: return fileOps.getFh(r);
            case Nfs4.OP_GETATTR: return fileOps.getAttr(a, r);
            case Nfs4.OP_OPEN: return openOps.open(a, r);
            case Nfs4.OP_CLOSE: return openOps.close(a, r);
            case Nfs4.OP_DELEGRETURN: return delegationOps.delegReturn(a, r);
            case Nfs4.OP_READ: return fileOps.read(a, r, call);
            case Nfs4.OP_WRITE: return fileOps.write(a, r);
            case Nfs4.OP_COMMIT: return fileOps.commit(a, r);
            case Nfs4.OP_REMOVE: return fileOps.remove(a, r);
            case Nfs4.OP_READDIR: return fileOps.readdir(a, r);
            default:
                r.position(r.position() - 4);
                r.putInt(Nfs4.OP_ILLEGAL);
                return fail(r, Nfs4Status.OP_ILLEGAL);
        }
    }

    /** Writes NFS4_OK; returns it. */
    static int ok(final XdrEncoder r)
    {
        r.putInt(Nfs4Status.OK);
        return Nfs4Status.OK;
    }

    /** Writes a status; returns it. */
    static int fail(final XdrEncoder r, final int status)
    {
        r.putInt(status);
        return status;
    }

    // ---- delegations, for the tests (TestNfsDelegationOps) --------------------------------------------------

    /** @return the delegation on the file at a path (any client), or null */
    Delegation delegationOn(final String path)
    {
        return delegationOps.delegationOn(path);
    }

    /** The server revokes a delegation (its recall was not answered in time): DELEGRETURN gets DELEG_REVOKED. */
    void revoke(final Delegation d)
    {
        delegationOps.revoke(d);
    }

    /** Recall a delegation (a conflicting access elsewhere): CB_COMPOUND(CB_SEQUENCE, CB_RECALL) to its session. */
    void recall(final Delegation d)
    {
        delegationOps.recall(d);
    }

    /** Send a CB_RECALL of any stateid and handle (what a confused server might), once slot 0 is free. */
    void recall(final Session s, final int seqid, final long otherHigh, final int otherLow, final byte[] fh)
    {
        delegationOps.recall(s, seqid, otherHigh, otherLow, fh);
    }

    /** @return a file's handle as the wire carries it */
    static byte[] fh(final TestFs.Node node)
    {
        return ByteBuffer.allocate(12).putInt(TestFs.FH_MAGIC).putLong(node.id).array();
    }
}
