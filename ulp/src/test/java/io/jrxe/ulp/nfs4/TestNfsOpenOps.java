package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.nfs4.TestNfsServer.Delegation;
import io.jrxe.ulp.nfs4.TestNfsServer.Open;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;

import static io.jrxe.ulp.nfs4.TestNfsServer.fail;
import static io.jrxe.ulp.nfs4.TestNfsServer.ok;

/**
 * {@link TestNfsServer}'s opens (RFC 8881 §18.16, §18.2): OPEN by name (CLAIM_NULL; create UNCHECKED4 or GUARDED4
 * with size and mode; NFS4ERR_GRACE before RECLAIM_COMPLETE, as knfsd) makes an open stateid ("OPEN" and n), and
 * hands out a read delegation the way knfsd does (open_delegation4, or OPEN_DELEGATE_NONE_EXT with why not);
 * CLOSE ends the open; READ and WRITE find theirs by stateid.
 */
final class TestNfsOpenOps
{
    private final TestNfsServer server;
    private long nextStateid = 1;

    TestNfsOpenOps(final TestNfsServer server)
    {
        this.server = server;
    }

    int open(final XdrDecoder a, final XdrEncoder r)
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
        server.opens++;
        if (server.requireReclaimComplete && !server.session.client.reclaimComplete)
        {
            return fail(r, Nfs4Status.GRACE); // knfsd: nfsd4_open before RECLAIM_COMPLETE
        }
        if (server.graceOpens > 0)
        {
            server.graceOpens--;
            return fail(r, Nfs4Status.GRACE);
        }
        if (null == server.current || !server.current.isDir())
        {
            return fail(r, null == server.current ? Nfs4Status.NOFILEHANDLE : Nfs4Status.NOTDIR);
        }
        final long before = server.current.change;
        TestFs.Node f = server.current.children.get(name);
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
            f = server.fs.add(Nfs4.NF4REG, server.current, name, setMode >= 0 ? setMode : 0644);
        }
        else if (setSize >= 0)
        {
            f.truncate(setSize);
        }
        final Open o = new Open();
        o.node = f;
        o.access = access & Nfs4.SHARE_ACCESS_BOTH;
        server.lastShareAccess = access;
        final long other = nextStateid++;
        server.openStates.put(other, o);
        ok(r);
        r.putInt(1).putHyper(0x4F50_454E_0000_0000L | other).putInt((int)other);
        r.putBoolean(true).putHyper(before).putHyper(server.current.change);
        r.putInt(Nfs4.OPEN4_RESULT_LOCKTYPE_POSIX | (server.setConfirmFlag ? Nfs4.OPEN4_RESULT_CONFIRM : 0));
        r.putInt(3).putInt((int)(create ? attrset : 0)).putInt((int)((create ? attrset : 0) >>> 32)).putInt(0);
        delegation(r, f, other, access);
        server.current = f;
        return Nfs4Status.OK;
    }

    /**
     * OPEN's open_delegation4: a read delegation when the server grants them, the OPEN is for reading only, wants
     * one or leaves it to the server, and the client has none on the file yet (knfsd's nfs4_open_delegation).
     */
    private void delegation(final XdrEncoder r, final TestFs.Node f, final long other, final int access)
    {
        final int want = access & Nfs4.SHARE_ACCESS_WANT_DELEG_MASK;
        final boolean held = null != server.delegationOps.delegationOf(server.session.client, f);
        final boolean grant = server.grantReadDelegations &&
            Nfs4.SHARE_ACCESS_READ == (access & Nfs4.SHARE_ACCESS_BOTH) && !held &&
            (Nfs4.SHARE_ACCESS_WANT_NO_PREFERENCE == want || Nfs4.SHARE_ACCESS_WANT_READ_DELEG == want ||
                Nfs4.SHARE_ACCESS_WANT_ANY_DELEG == want);
        if (Nfs4.SHARE_ACCESS_WANT_NO_DELEG == want)
        {
            r.putInt(Nfs4.OPEN_DELEGATE_NONE_EXT).putInt(Nfs4.WND4_NOT_WANTED);
        }
        else if (grant)
        {
            final Delegation d = new Delegation();
            d.n = other;
            d.node = f;
            d.session = server.session;
            server.delegations.put(other, d);
            // stateid, recall false, nfsace4 (type, flag, access_mask, who "")
            r.putInt(Nfs4.OPEN_DELEGATE_READ).putInt(d.seqid).putHyper(d.otherHigh()).putInt(d.otherLow())
                .putBoolean(false).putInt(0).putInt(0).putInt(0).putInt(0);
            if (server.recallAtOpen)
            {
                // a conflicting open elsewhere: the recall follows the OPEN's reply on the connection
                server.delegationOps.recall(d);
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
    }

    /** @return the open of the stateid at the decoder, or null */
    Open stateid(final XdrDecoder a)
    {
        a.getInt();
        final long high = a.getHyper();
        a.getInt();
        final Open o = server.openStates.get(high & 0xFFFF_FFFFL);
        return null != o && (high >>> 32) == 0x4F50_454EL ? o : null;
    }

    int close(final XdrDecoder a, final XdrEncoder r)
    {
        a.getInt(); // seqid
        final Open o = stateid(a);
        if (null == o)
        {
            return fail(r, Nfs4Status.BAD_STATEID);
        }
        if (null == server.current)
        {
            return fail(r, Nfs4Status.NOFILEHANDLE);
        }
        server.openStates.values().remove(o);
        server.closes++;
        ok(r);
        r.putInt(0xFFFF_FFFF).putHyper(0).putInt(0); // knfsd's close_stateid
        return Nfs4Status.OK;
    }
}
