package io.jrxe.ulp.nfs4;

/**
 * The requester's side of a session's fore channel slot table (RFC 8881 §2.10.6.1): each request in flight holds
 * a slot, and each slot has a sequence id the server uses to tell a new request (slot's last + 1) from a retry
 * (equal) and to keep one reply per slot in its reply cache. Not thread safe: the session's thread owns it.
 * <pre>
 *   slot:       0    1    2    3   ...  capacity-1          capacity: ca_maxrequests granted by CREATE_SESSION
 *   sequence:   7    3    1    1                            next sequence id to send on the slot (starts at 1)
 *   busy:       x    x    .    .                            a request holds it
 *   limit:      ------------- 3 --                           slots usable now: the server's highest_slotid and
 *                                                           target_highest_slotid + 1, at most capacity
 * </pre>
 * Outcomes of a request, as RFC 8881 §2.10.6 and Linux's {@code nfs41_sequence_process} treat them:
 * <ul>
 * <li>SEQUENCE succeeded (whatever the later operations did): the sequence id advances; the limit follows the
 *     server's highest and target highest slot ids (§2.10.6.1: a client keeps to the target).</li>
 * <li>no reply (the RPC failed): the server may or may not have run the request, so the slot's state is
 *     uncertain; the sequence id advances (a request sent again with the old one could be answered from the
 *     reply cache with the old request's reply) and a later NFS4ERR_SEQ_MISORDERED steps it back once.</li>
 * <li>NFS4ERR_SEQ_MISORDERED: stepped back when uncertain; otherwise the server may have reset the slot, so it
 *     is tried once with sequence id 1; after that the session cannot be trusted (the caller fails).</li>
 * <li>NFS4ERR_BADSLOT: the server has fewer slots than it said: the limit drops below the slot, the request
 *     goes to a lower one (slot 0 refused is fatal).</li>
 * <li>NFS4ERR_DELAY on SEQUENCE: the server has not run the request: same slot and sequence id, later.</li>
 * </ul>
 */
public final class Nfs4SlotTable
{
    /** The most slots this client keeps (Linux's NFS4_MAX_SLOT_TABLE is 1024 too). */
    public static final int MAX_SLOTS = 1024;

    private final int[] sequence = new int[MAX_SLOTS];
    private final boolean[] busy = new boolean[MAX_SLOTS];
    private final boolean[] uncertain = new boolean[MAX_SLOTS];
    private final byte[] misorderedTries = new byte[MAX_SLOTS];
    private int capacity;
    private int limit;
    private int inUse;

    /**
     * Start afresh with a new session's slots: every sequence id 1, none busy.
     *
     * @param slots ca_maxrequests granted (clamped to 1 .. {@link #MAX_SLOTS})
     * @return this
     */
    public Nfs4SlotTable reset(final int slots)
    {
        capacity = Math.max(1, Math.min(slots, MAX_SLOTS));
        limit = capacity;
        inUse = 0;
        for (int i = 0; i < MAX_SLOTS; i++)
        {
            sequence[i] = 1;
            busy[i] = false;
            uncertain[i] = false;
            misorderedTries[i] = 0;
        }
        return this;
    }

    /** @return slots granted by the server */
    public int capacity()
    {
        return capacity;
    }

    /** @return slots usable now */
    public int limit()
    {
        return limit;
    }

    /** @return slots held by requests */
    public int inUse()
    {
        return inUse;
    }

    /** @return true when a request can take a slot now */
    public boolean hasFree()
    {
        for (int i = 0; i < limit; i++)
        {
            if (!busy[i])
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Take the lowest free usable slot (RFC 8881 §2.10.6.1 asks for the lowest).
     *
     * @return the slot, or -1 when all usable ones are busy
     */
    public int acquire()
    {
        for (int i = 0; i < limit; i++)
        {
            if (!busy[i])
            {
                busy[i] = true;
                inUse++;
                return i;
            }
        }
        return -1;
    }

    /** @return sa_highest_slotid: the highest slot held by a request (0 when none) */
    public int highestInUse()
    {
        for (int i = capacity - 1; i > 0; i--)
        {
            if (busy[i])
            {
                return i;
            }
        }
        return 0;
    }

    /**
     * @param slot a slot
     * @return the sequence id its next request carries
     */
    public int sequenceId(final int slot)
    {
        return sequence[slot];
    }

    /**
     * Whether a request named by its slot and sequence id (a referring call of a callback, RFC 8881 §2.10.6.3) is
     * still outstanding: sent and its reply not read yet. A slot's sequence id moves on only once its reply was read.
     *
     * @param slot a slot id from the wire (any value)
     * @param sequenceId a sequence id from the wire
     * @return true when a request holds the slot with that sequence id
     */
    public boolean outstanding(final int slot, final int sequenceId)
    {
        return slot >= 0 && slot < capacity && busy[slot] && sequence[slot] == sequenceId;
    }

    /**
     * SEQUENCE succeeded: the sequence id advances and the slot is free.
     *
     * @param slot the request's slot
     * @param highestSlot sr_highest_slotid
     * @param targetHighestSlot sr_target_highest_slotid
     */
    public void succeeded(final int slot, final int highestSlot, final int targetHighestSlot)
    {
        sequence[slot]++;
        uncertain[slot] = false;
        misorderedTries[slot] = 0;
        free(slot);
        final int cap = Math.min(clamp(highestSlot), clamp(targetHighestSlot));
        limit = Math.min(capacity, cap);
    }

    private static int clamp(final int slotId)
    {
        // a slot id read from the wire: 0 .. MAX_SLOTS - 1 as an unsigned number, the count is one more
        return slotId < 0 || slotId >= MAX_SLOTS ? MAX_SLOTS : slotId + 1;
    }

    /**
     * The request got no reply: the server's view of the slot is unknown.
     *
     * @param slot the request's slot
     */
    public void noReply(final int slot)
    {
        sequence[slot]++;
        uncertain[slot] = true;
        free(slot);
    }

    /**
     * SEQUENCE failed with an error that leaves the slot as it was (NFS4ERR_DELAY, NFS4ERR_BADSESSION ...): the
     * same sequence id goes with the next request on it.
     *
     * @param slot the request's slot
     */
    public void unchanged(final int slot)
    {
        free(slot);
    }

    /**
     * NFS4ERR_SEQ_MISORDERED.
     *
     * @param slot the request's slot
     * @return true when the sequence id was corrected and the request may be sent again; false when there is
     *         nothing left to try
     */
    public boolean misordered(final int slot)
    {
        free(slot);
        if (uncertain[slot])
        {
            uncertain[slot] = false;
            sequence[slot]--;
            return true;
        }
        if (misorderedTries[slot] == 0 && sequence[slot] != 1)
        {
            misorderedTries[slot] = 1;
            sequence[slot] = 1;
            return true;
        }
        return false;
    }

    /**
     * NFS4ERR_BADSLOT: the server does not have this slot.
     *
     * @param slot the request's slot
     * @return true when a lower slot is left to use
     */
    public boolean badSlot(final int slot)
    {
        free(slot);
        if (slot == 0)
        {
            return false;
        }
        limit = Math.min(limit, slot);
        return true;
    }

    private void free(final int slot)
    {
        if (busy[slot])
        {
            busy[slot] = false;
            inUse--;
        }
    }
}
