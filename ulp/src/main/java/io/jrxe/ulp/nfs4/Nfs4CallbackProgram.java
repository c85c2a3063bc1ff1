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
 *   CB_NULL (proc 0)       SUCCESS, no results (knfsd's probe of the back channel)
 *   CB_COMPOUND (proc 1)   | tag | minorversion | callback_ident | argarray count | op ...
 *     -> | status | tag (echoed) | resarray count | resop | status | resok ...
 *     op 0 CB_SEQUENCE     the replier's slot checks (RFC 8881 §2.10.6.1, §20.9.3), in this order:
 *                          session not this one -> NFS4ERR_BADSESSION; slot >= slots -> NFS4ERR_BADSLOT;
 *                          highest slot >= slots -> NFS4ERR_BAD_HIGH_SLOT; more operations than the back channel's
 *                          ca_maxoperations -> NFS4ERR_TOO_MANY_OPS (§2.10.6.4); seqid = slot's + 1: a new request,
 *                          the slot advances; seqid = slot's: a retry, the reply cached for the slot is sent again
 *                          (NFS4ERR_RETRY_UNCACHED_REP if none); otherwise NFS4ERR_SEQ_MISORDERED
 *     first op not CB_SEQUENCE  -> NFS4ERR_OP_NOT_IN_SESSION;  CB_SEQUENCE later -> NFS4ERR_SEQUENCE_POS
 *     any other callback op (CB_GETATTR .. CB_NOTIFY_DEVICEID) -> NFS4ERR_NOTSUPP: this client holds no
 *                          delegations or layouts (it asks for none); an undefined op -> OP_CB_ILLEGAL with
 *                          NFS4ERR_OP_ILLEGAL (§20.13). Processing stops at the first failure (§19.2.3).
 *   minorversion other than 1 -> NFS4ERR_MINOR_VERS_MISMATCH with no results
 * </pre>
 * Every reply to a new request is kept per slot (a small copy of the results), so a retried CB_COMPOUND is
 * answered with the same bytes whether or not the server asked for caching. Not thread safe: the transport's
 * thread calls it; {@link #bind} publishes a session to it.
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
    private volatile BackChannel back;

    private long calls;
    private long cbNull;
    private long cbCompound;
    private long cbSequence;
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
        back = new BackChannel(session, Math.max(1, Math.min(slots, 64)), maxOps);
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
        final int lists = args.getInt(); // referring_call_list4<>: nothing to wait for, skipped
        if (lists < 0 || lists > MAX_OPS)
        {
            throw new XdrException("csa_referring_call_lists of " + (lists & 0xFFFF_FFFFL));
        }
        for (int l = 0; l < lists; l++)
        {
            args.skip(Nfs4.SESSIONID_SIZE);
            final int calls = args.getInt();
            if (calls < 0 || calls > MAX_OPS)
            {
                throw new XdrException("rcl_referring_calls of " + (calls & 0xFFFF_FFFFL));
            }
            args.skip(8 * calls);
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
            status = Nfs4Status.OK;
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

    /** A bound session's back channel slots: last sequence id and last reply of each. */
    private static final class BackChannel
    {
        final Nfs4SessionId session = new Nfs4SessionId();
        final int slots;
        final int maxOps;
        final int[] sequence;
        final byte[][] cached;
        final int[] cachedLength;

        BackChannel(final Nfs4SessionId session, final int slots, final int maxOps)
        {
            this.session.copy(session);
            this.slots = slots;
            this.maxOps = maxOps;
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
