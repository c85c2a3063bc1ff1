package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * OPEN4resok (RFC 8881 §18.16.2), reused: the open stateid, flags, and any delegation granted.
 * <pre>
 *   | stateid 16 | cinfo: atomic, before 8, after 8 | rflags | attrset: bitmap4 | delegation: open_delegation4 |
 *   open_delegation4:  NONE | READ: stateid, recall, nfsace4 | WRITE: stateid, recall, space limit, nfsace4
 *                      | NONE_EXT: why [, bool for CONTENTION and RESOURCE]
 *   nfsace4:           type | flag | access_mask | who: utf8str_mixed
 * </pre>
 * OPEN4_RESULT_CONFIRM is never acted on: OPEN_CONFIRM does not exist in NFSv4.1 (RFC 8881 §17 lists it "MNI",
 * must not implement; the session's slot confirms the open-owner), so {@link #confirmRequested()} only reports a
 * server that set it.
 */
public final class Nfs4OpenResult
{
    private final Nfs4Stateid stateid = new Nfs4Stateid();
    private final Nfs4Stateid delegationStateid = new Nfs4Stateid();
    private boolean changeAtomic;
    private long changeBefore;
    private long changeAfter;
    private int resultFlags;
    private long attrSet;
    private int delegationType;
    private int whyNoDelegation;

    /**
     * @param xdr positioned at OPEN4resok
     * @return this
     */
    public Nfs4OpenResult decode(final XdrDecoder xdr)
    {
        stateid.decode(xdr);
        changeAtomic = xdr.getBoolean();
        changeBefore = xdr.getHyper();
        changeAfter = xdr.getHyper();
        resultFlags = xdr.getInt();
        attrSet = Nfs4Attr.decodeBitmap(xdr);
        delegationType = xdr.getInt();
        whyNoDelegation = -1;
        delegationStateid.clear();
        switch (delegationType)
        {
            case Nfs4.OPEN_DELEGATE_NONE:
                break;
            case Nfs4.OPEN_DELEGATE_READ:
                delegationStateid.decode(xdr);
                xdr.getBoolean(); // recall
                skipAce(xdr);
                break;
            case Nfs4.OPEN_DELEGATE_WRITE:
                delegationStateid.decode(xdr);
                xdr.getBoolean(); // recall
                final int limitBy = xdr.getInt();
                if (Nfs4.NFS_LIMIT_SIZE == limitBy || Nfs4.NFS_LIMIT_BLOCKS == limitBy)
                {
                    xdr.skip(8); // filesize, or num_blocks and bytes_per_block
                }
                else
                {
                    throw new XdrException("limit_by4 " + limitBy);
                }
                skipAce(xdr);
                break;
            case Nfs4.OPEN_DELEGATE_NONE_EXT:
                whyNoDelegation = xdr.getInt();
                if (Nfs4.WND4_CONTENTION == whyNoDelegation || Nfs4.WND4_RESOURCE == whyNoDelegation)
                {
                    xdr.getBoolean(); // ond_server_will_push_deleg / ond_server_will_signal_avail
                }
                break;
            default:
                throw new XdrException("open_delegation_type4 " + delegationType);
        }
        return this;
    }

    private static void skipAce(final XdrDecoder xdr)
    {
        xdr.skip(12); // type, flag, access_mask
        xdr.skipOpaque(Nfs4.OPAQUE_LIMIT);
    }

    /** @return the open stateid */
    public Nfs4Stateid stateid()
    {
        return stateid;
    }

    /** @return true when the server granted a read or write delegation (it must be returned: DELEGRETURN) */
    public boolean hasDelegation()
    {
        return Nfs4.OPEN_DELEGATE_READ == delegationType || Nfs4.OPEN_DELEGATE_WRITE == delegationType;
    }

    /** @return the delegation's stateid when {@link #hasDelegation()} */
    public Nfs4Stateid delegationStateid()
    {
        return delegationStateid;
    }

    /** @return open_delegation_type4 */
    public int delegationType()
    {
        return delegationType;
    }

    /** @return why_no_delegation4 of OPEN_DELEGATE_NONE_EXT, or -1 */
    public int whyNoDelegation()
    {
        return whyNoDelegation;
    }

    /** @return rflags (OPEN4_RESULT_*) */
    public int resultFlags()
    {
        return resultFlags;
    }

    /** @return true when the server set OPEN4_RESULT_CONFIRM, which a 4.1 client ignores */
    public boolean confirmRequested()
    {
        return 0 != (resultFlags & Nfs4.OPEN4_RESULT_CONFIRM);
    }

    /** @return the attributes the server set while creating (attrset) */
    public long attrSet()
    {
        return attrSet;
    }

    /** @return cinfo.atomic */
    public boolean changeAtomic()
    {
        return changeAtomic;
    }

    /** @return cinfo.before: the directory's change attribute before */
    public long changeBefore()
    {
        return changeBefore;
    }

    /** @return cinfo.after */
    public long changeAfter()
    {
        return changeAfter;
    }
}
