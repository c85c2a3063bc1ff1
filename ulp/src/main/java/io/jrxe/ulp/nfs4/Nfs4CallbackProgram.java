package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * The client's callback service (RFC 8881 §2.10.3.1, §19, §20): the {@link RpcProgram} a transport dispatches the
 * server's reverse-direction calls to when the back channel shares the fore channel's connection
 * (CREATE_SESSION4_FLAG_CONN_BACK_CHAN). Its number is the one CREATE_SESSION sent (csa_cb_program), version 1.
 * <pre>
 *   CB_NULL (proc 0)       SUCCESS, no results (a server's probe of the back channel; knfsd sends none to 4.1)
 *   CB_COMPOUND (proc 1)   | tag | minorversion | callback_ident | argarray count | op ...
 *     -> | status | tag (echoed) | resarray count | resop | status | resok ...
 *     op 11 CB_SEQUENCE    | sessionid 16 | seqid | slot | highest slot | cachethis | referring_call_list4&lt;&gt; |
 *                          the replier's slot checks (RFC 8881 §2.10.6.1, §20.9.3), in this order:
 *                          session not this one -> NFS4ERR_BADSESSION; slot >= slots -> NFS4ERR_BADSLOT;
 *                          highest slot >= slots -> NFS4ERR_BAD_HIGH_SLOT; more operations than the back channel's
 *                          ca_maxoperations -> NFS4ERR_TOO_MANY_OPS (§2.10.6.4); seqid = slot's + 1: a new request,
 *                          the slot advances; seqid = slot's: a retry, the reply cached for the slot is sent again
 *                          (NFS4ERR_RETRY_UNCACHED_REP if none); otherwise NFS4ERR_SEQ_MISORDERED. A new request
 *                          naming a referring call (| sessionid | seqid | slot |) this session still has outstanding
 *                          on the fore channel -> NFS4ERR_DELAY, the slot unmoved: the callback must wait for that
 *                          call's reply (§2.10.6.3), which cannot come inside this dispatch; the server sends it again
 *     op 4 CB_RECALL       | stateid 16 | truncate | fh | (§20.2; truncate means nothing here: nothing is cached)
 *                          a delegation the session holds -> NFS4_OK, and it is marked for the session to return
 *                          (DELEGRETURN, §10.4) from its own thread, after this dispatch; no delegation on the
 *                          handle -> NFS4ERR_BADHANDLE; one on the handle, not with this stateid ->
 *                          NFS4ERR_BAD_STATEID (§20.2.3); either while an OPEN is outstanding -> NFS4ERR_DELAY (its
 *                          reply may grant the delegation recalled, §2.10.6.3)
 *     first op not CB_SEQUENCE  -> NFS4ERR_OP_NOT_IN_SESSION;  CB_SEQUENCE later -> NFS4ERR_SEQUENCE_POS
 *     any other callback op (CB_GETATTR, CB_LAYOUTRECALL .. CB_NOTIFY_DEVICEID) -> NFS4ERR_NOTSUPP: this client
 *                          holds no write delegation worth a CB_GETATTR and no layouts; an undefined op ->
 *                          OP_CB_ILLEGAL with NFS4ERR_OP_ILLEGAL (§20.13). Processing stops at the first failure
 *                          (§19.2.3).
 *   minorversion other than 1 -> NFS4ERR_MINOR_VERS_MISMATCH with no results
 * </pre>
 * Every reply to a new request is kept per slot (a small copy of the results), so a retried CB_COMPOUND is
 * answered with the same bytes whether or not the server asked for caching, and a retried CB_RECALL is not run
 * again. Not thread safe: the transport calls it on the thread that drives the RPC client, which is the session's
 * ({@link Nfs41Session} is driven by one thread), so the session's delegations and slot table are read here without
 * locks; {@link #bind} publishes a session to it. Nothing is allocated per call.
 */
public final class Nfs4CallbackProgram implements RpcProgram
{
    /** The program number Linux's client uses (NFS4_CALLBACK); any number the server is told works. */
    public static final int DEFAULT_PROGRAM = 0x4000_0000;
    /** The longest tag echoed (a longer one is GARBAGE_ARGS). */
    public static final int MAX_TAG = 512;
    /** Bytes of results kept per slot for replays. */
    public static final int CACHED_REPLY = 1024;

    private static final int MAX_OPS = 1024;
    private static final int REPLAYED = Integer.MIN_VALUE;

    private final int program;
    private final Nfs4Stateid recallStateid = new Nfs4Stateid();
    private final Nfs4FileHandle recallFh = new Nfs4FileHandle();
    private volatile BackChannel back;

    private long calls;
    private long cbNull;
    private long cbCompound;
    private long cbSequence;
    private long cbRecall;
    private long recallsAccepted;
    private long others;
    private long replays;
    private long refused;

    /**
     * @param program the number sent as csa_cb_program ({@link #DEFAULT_PROGRAM} normally)
     */
    public Nfs4CallbackProgram(final int program)
    {
        this.program = program;
    }

    /**
     * Serve a session's back channel (control path: after CREATE_SESSION succeeded).
     *
     * @param session the session
     * @param slots the back channel's ca_maxrequests granted
     * @param maxOps its ca_maxoperations
     */
    public void bind(final Nfs4SessionId session, final int slots, final int maxOps)
    {
        bind(session, slots, maxOps, null, null);
    }

    /**
     * Serve a session's back channel, with what its callbacks are checked against.
     *
     * @param session the session
     * @param slots the back channel's ca_maxrequests granted
     * @param maxOps its ca_maxoperations
     * @param delegations the delegations the session holds, or null for none (every CB_RECALL: NFS4ERR_BADHANDLE)
     * @param fore the fore channel's slot table (referring calls are looked up in it), or null
     */
    void bind(final Nfs4SessionId session, final int slots, final int maxOps, final Nfs4Delegations delegations,
        final Nfs4SlotTable fore)
    {
        back = new BackChannel(session, Math.max(1, Math.min(slots, 64)), maxOps, delegations, fore);
    }

    /** Serve no session any more (after DESTROY_SESSION): CB_SEQUENCE answers NFS4ERR_BADSESSION. */
    public void unbind()
    {
        back = null;
    }

    @Override
    public int program()
    {
        return program;
    }

    @Override
    public int lowVersion()
    {
        return Nfs4.CB_VERSION;
    }

    @Override
    public int highVersion()
    {
        return Nfs4.CB_VERSION;
    }

    @Override
    public boolean cacheReply(final int version, final int procedure)
    {
        return false; // the session's slots are the reply cache (RFC 8881 §2.10.6.1)
    }

    @Override
    public int call(final RpcServerCall call)
    {
        calls++;
        switch (call.header().procedure())
        {
            case Nfs4.CB_PROC_NULL:
                cbNull++;
                return RpcMessage.SUCCESS;
            case Nfs4.CB_PROC_COMPOUND:
                cbCompound++;
                compound(call.args(), call.results());
                return RpcMessage.SUCCESS;
            default:
                return RpcMessage.PROC_UNAVAIL;
        }
    }

    private void compound(final XdrDecoder args, final XdrEncoder results)
    {
        final int tagLength = args.getOpaqueLength(MAX_TAG);
        final int tagAt = args.skipFixedOpaque(tagLength);
        final int minorVersion = args.getInt();
        args.getInt(); // callback_ident: unused in NFSv4.1
        final int ops = args.getInt();
        if (ops < 0 || ops > MAX_OPS)
        {
            throw new XdrException("CB_COMPOUND of " + (ops & 0xFFFF_FFFFL) + " operations");
        }
        final int start = results.position();
        final int statusAt = results.reserveInt();
        results.putOpaque(args.buffer(), tagAt, tagLength);
        final int countAt = results.reserveInt();
        int status = Nfs4Status.OK;
        int count = 0;
        int advanced = -1;
        final BackChannel channel = back;
        if (Nfs4.MINOR_VERSION != minorVersion)
        {
            status = Nfs4Status.MINOR_VERS_MISMATCH;
        }
        for (int i = 0; i < ops && Nfs4Status.OK == status && Nfs4.MINOR_VERSION == minorVersion; i++)
        {
            final int op = args.getInt();
            count++;
            if (0 == i && Nfs4.OP_CB_SEQUENCE == op)
            {
                cbSequence++;
                final int slotOrStatus = sequence(args, results, channel, ops, start);
                if (slotOrStatus == REPLAYED)
                {
                    return;
                }
                if (slotOrStatus < 0)
                {
                    status = -slotOrStatus;
                }
                else
                {
                    advanced = slotOrStatus;
                }
                continue;
            }
            if (Nfs4.OP_CB_RECALL == op && i > 0)
            {
                cbRecall++;
                status = recall(args, channel);
                results.putInt(op).putInt(status);
                if (Nfs4Status.OK == status)
                {
                    recallsAccepted++;
                }
                continue;
            }
            others++;
            final boolean defined = op >= Nfs4.OP_CB_GETATTR && op <= Nfs4.OP_CB_NOTIFY_DEVICEID;
            if (!defined)
            {
                status = Nfs4Status.OP_ILLEGAL;
                results.putInt(Nfs4.OP_CB_ILLEGAL).putInt(status);
            }
            else
            {
                status = 0 == i ? Nfs4Status.OP_NOT_IN_SESSION :
                    Nfs4.OP_CB_SEQUENCE == op ? Nfs4Status.SEQUENCE_POS : Nfs4Status.NOTSUPP;
                results.putInt(op).putInt(status);
            }
        }
        if (Nfs4Status.OK != status)
        {
            refused++;
        }
        results.putIntAt(statusAt, status).putIntAt(countAt, count);
        if (advanced >= 0)
        {
            channel.keep(advanced, results.buffer(), start, results.position() - start);
        }
    }

    /**
     * CB_SEQUENCE: its arguments read, its result written.
     *
     * @return the slot advanced (>= 0), -status when refused, or {@link #REPLAYED} when a cached reply was written
     *         in place of the whole COMPOUND's results
     */
    private int sequence(
        final XdrDecoder args, final XdrEncoder results, final BackChannel channel, final int ops, final int start)
    {
        final long sessionHigh = args.getHyper();
        final long sessionLow = args.getHyper();
        final int seqid = args.getInt();
        final int slot = args.getInt();
        final int highest = args.getInt();
        args.getBoolean(); // cachethis: every reply is kept anyway
        final int lists = args.getInt();
        if (lists < 0 || lists > MAX_OPS)
        {
            throw new XdrException("csa_referring_call_lists of " + (lists & 0xFFFF_FFFFL));
        }
        boolean referringOutstanding = false;
        for (int l = 0; l < lists; l++)
        {
            final long referringHigh = args.getHyper();
            final long referringLow = args.getHyper();
            final int calls = args.getInt();
            if (calls < 0 || calls > MAX_OPS)
            {
                throw new XdrException("rcl_referring_calls of " + (calls & 0xFFFF_FFFFL));
            }
            final boolean ours = null != channel && null != channel.fore &&
                channel.session.matches(referringHigh, referringLow);
            for (int c = 0; c < calls; c++)
            {
                final int referringSeqid = args.getInt();
                final int referringSlot = args.getInt();
                referringOutstanding |= ours && channel.fore.outstanding(referringSlot, referringSeqid);
            }
        }
        final int status;
        if (null == channel || !channel.session.matches(sessionHigh, sessionLow))
        {
            status = Nfs4Status.BADSESSION;
        }
        else if (slot < 0 || slot >= channel.slots)
        {
            status = Nfs4Status.BADSLOT;
        }
        else if (highest < 0 || highest >= channel.slots)
        {
            status = Nfs4Status.BAD_HIGH_SLOT;
        }
        else if (ops > channel.maxOps)
        {
            status = Nfs4Status.TOO_MANY_OPS;
        }
        else if (seqid == channel.sequence[slot] + 1)
        {
            status = referringOutstanding ? Nfs4Status.DELAY : Nfs4Status.OK;
        }
        else if (seqid == channel.sequence[slot] && channel.cachedLength[slot] >= 0)
        {
            replays++;
            results.position(start);
            results.putFixedOpaque(channel.cached[slot], 0, channel.cachedLength[slot]);
            return REPLAYED;
        }
        else
        {
            status = seqid == channel.sequence[slot] ? Nfs4Status.RETRY_UNCACHED_REP : Nfs4Status.SEQ_MISORDERED;
        }
        results.putInt(Nfs4.OP_CB_SEQUENCE).putInt(status);
        if (Nfs4Status.OK != status)
        {
            return -status;
        }
        channel.sequence[slot] = seqid;
        channel.session.encode(results);
        results.putInt(seqid).putInt(slot).putInt(channel.slots - 1).putInt(channel.slots - 1);
        return slot;
    }

    /**
     * CB_RECALL: its arguments read, the delegation looked up and marked (RFC 8881 §20.2.3).
     *
     * @return the operation's status
     */
    private int recall(final XdrDecoder args, final BackChannel channel)
    {
        recallStateid.decode(args);
        args.getBoolean(); // truncate: no data is cached, none to drop
        recallFh.decode(args);
        if (null == channel || null == channel.delegations)
        {
            return Nfs4Status.BADHANDLE;
        }
        return channel.delegations.recall(recallStateid, recallFh);
    }

    /** @return the program number */
    public int number()
    {
        return program;
    }

    /** @return true when a session is bound */
    public boolean bound()
    {
        return null != back;
    }

    /** @return calls of any procedure */
    public long calls()
    {
        return calls;
    }

    /** @return CB_NULL calls */
    public long cbNull()
    {
        return cbNull;
    }

    /** @return CB_COMPOUND calls */
    public long cbCompound()
    {
        return cbCompound;
    }

    /** @return CB_SEQUENCE operations seen (first in their COMPOUND) */
    public long cbSequence()
    {
        return cbSequence;
    }

    /** @return CB_RECALL operations seen after a CB_SEQUENCE, whatever their answer */
    public long cbRecall()
    {
        return cbRecall;
    }

    /** @return CB_RECALL operations answered NFS4_OK (the delegation is marked for DELEGRETURN) */
    public long recallsAccepted()
    {
        return recallsAccepted;
    }

    /** @return other callback operations seen (answered NFS4ERR_NOTSUPP, NFS4ERR_OP_ILLEGAL ...) */
    public long others()
    {
        return others;
    }

    /** @return retries answered from a slot's kept reply */
    public long replays()
    {
        return replays;
    }

    /** @return CB_COMPOUNDs whose status was not NFS4_OK */
    public long refused()
    {
        return refused;
    }

    /**
     * A bound session's back channel slots (last sequence id and last reply of each), its delegations and its fore
     * channel's slot table.
     */
    private static final class BackChannel
    {
        final Nfs4SessionId session = new Nfs4SessionId();
        final int slots;
        final int maxOps;
        final int[] sequence;
        final byte[][] cached;
        final int[] cachedLength;
        final Nfs4Delegations delegations;
        final Nfs4SlotTable fore;

        BackChannel(final Nfs4SessionId session, final int slots, final int maxOps,
            final Nfs4Delegations delegations, final Nfs4SlotTable fore)
        {
            this.session.copy(session);
            this.slots = slots;
            this.maxOps = maxOps;
            this.delegations = delegations;
            this.fore = fore;
            sequence = new int[slots];
            cached = new byte[slots][CACHED_REPLY];
            cachedLength = new int[slots];
            java.util.Arrays.fill(cachedLength, -1);
        }

        void keep(final int slot, final org.agrona.DirectBuffer from, final int offset, final int length)
        {
            if (length <= CACHED_REPLY)
            {
                from.getBytes(offset, cached[slot], 0, length);
                cachedLength[slot] = length;
            }
            else
            {
                cachedLength[slot] = -1;
            }
        }
    }
}
