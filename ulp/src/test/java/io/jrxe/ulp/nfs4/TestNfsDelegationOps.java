package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.nfs4.TestNfsServer.Client;
import io.jrxe.ulp.nfs4.TestNfsServer.Delegation;
import io.jrxe.ulp.nfs4.TestNfsServer.Session;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.jrxe.ulp.nfs4.TestNfsServer.fail;
import static io.jrxe.ulp.nfs4.TestNfsServer.ok;

/**
 * {@link TestNfsServer}'s delegations once granted: DELEGRETURN (RFC 8881 §18.6; NFS4ERR_BAD_STATEID unless it names
 * a delegation of the client on the current file, NFS4ERR_DELEG_REVOKED once revoked), revocation, and the back
 * channel: CB_COMPOUND(CB_SEQUENCE, CB_RECALL) as knfsd sends it (fs/nfsd/nfs4callback.c), one at a time on the
 * session's slot 0, its reply read as knfsd reads it, and sent again when the answer is NFS4ERR_DELAY.
 */
final class TestNfsDelegationOps
{
    private final TestNfsServer server;
    private int cbXid = 0x0CB0_0001;

    TestNfsDelegationOps(final TestNfsServer server)
    {
        this.server = server;
    }

    int delegReturn(final XdrDecoder a, final XdrEncoder r)
    {
        final int seqid = a.getInt();
        final long high = a.getHyper();
        final int low = a.getInt();
        final Delegation d = (high >>> 32) == 0x4445_4C45L ? server.delegations.get(high & 0xFFFF_FFFFL) : null;
        if (null == d || d.otherLow() != low || d.session.client != server.session.client ||
            (seqid != d.seqid && 0 != seqid) || server.current != d.node)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (d.revoked)
        {
            return fail(r, Nfs4Status.DELEG_REVOKED);
        }
        server.delegations.remove(d.n);
        server.delegReturns++;
        server.returned.add(new Nfs4Stateid().set(seqid, high, low).toString());
        return ok(r);
    }

    /** @return the client's delegation on a file, or null */
    Delegation delegationOf(final Client c, final TestFs.Node node)
    {
        for (final Delegation d : server.delegations.values())
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
        final TestFs.Node node = server.fs.at(path);
        for (final Delegation d : server.delegations.values())
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

    /** Recall a delegation (a conflicting access elsewhere): CB_COMPOUND(CB_SEQUENCE, CB_RECALL) to its session. */
    void recall(final Delegation d)
    {
        recall(d.session, d.seqid, d.otherHigh(), d.otherLow(), TestNfsServer.fh(d.node));
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
        final byte[] call = Wire.of().i(cbXid++, 0, 2, server.cbProgram, 1, 1)
            .i(RpcMessage.AUTH_SYS, 4 + 4 + 8 + 4 + 4 + 4).i(0).opaque(machine).i(0, 0, 0)   // uid 0 gid 0
            .i(RpcMessage.AUTH_NONE, 0)
            .str("").i(1, 0, 2)                                            // tag, minorversion, callback_ident, ops
            .i(Nfs4.OP_CB_SEQUENCE).h(0x5E55_0000_0000_0000L).h(s.id).i(cbSequence, 0, 0).b(false).i(0)
            .i(Nfs4.OP_CB_RECALL).i(seqid).h(otherHigh).i(otherLow).b(false).opaque(fh)
            .bytes();
        server.connection.reverse(call, reply -> recallAnswered(s, cbSequence, reply, seqid, otherHigh, otherLow, fh));
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
        server.recallStatuses.add(recallStatus);
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
}
