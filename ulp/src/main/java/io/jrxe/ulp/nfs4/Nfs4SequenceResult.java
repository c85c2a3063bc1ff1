package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;

/**
 * SEQUENCE4resok (RFC 8881 §18.46.2), reused.
 * <pre>
 *   | sessionid 16 | sequenceid | slotid | highest_slotid | target_highest_slotid | status_flags |
 * </pre>
 * highest_slotid is the highest slot the server will accept now; target_highest_slotid the one it would like the
 * client to keep to (RFC 8881 §2.10.6.1); status_flags report the lease and back channel state (SEQ4_STATUS_*).
 */
public final class Nfs4SequenceResult
{
    private final Nfs4SessionId session = new Nfs4SessionId();
    private int sequenceId;
    private int slot;
    private int highestSlot;
    private int targetHighestSlot;
    private int statusFlags;

    /**
     * @param xdr positioned at SEQUENCE4resok
     * @return this
     */
    public Nfs4SequenceResult decode(final XdrDecoder xdr)
    {
        session.decode(xdr);
        sequenceId = xdr.getInt();
        slot = xdr.getInt();
        highestSlot = xdr.getInt();
        targetHighestSlot = xdr.getInt();
        statusFlags = xdr.getInt();
        return this;
    }

    /** @return sr_sessionid */
    public Nfs4SessionId session()
    {
        return session;
    }

    /** @return sr_sequenceid */
    public int sequenceId()
    {
        return sequenceId;
    }

    /** @return sr_slotid */
    public int slot()
    {
        return slot;
    }

    /** @return sr_highest_slotid */
    public int highestSlot()
    {
        return highestSlot;
    }

    /** @return sr_target_highest_slotid */
    public int targetHighestSlot()
    {
        return targetHighestSlot;
    }

    /** @return sr_status_flags */
    public int statusFlags()
    {
        return statusFlags;
    }
}
