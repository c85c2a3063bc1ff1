package io.jrxe.ulp.nfs4;

/**
 * The delegations a session holds (RFC 8881 §10.2): a small fixed table the session fills from OPEN's results
 * (§18.16.2, open_delegation4) and keeps after the CLOSE, as Linux's client does, and that the callback service
 * reads when the server recalls one (CB_RECALL, §20.2). A recall only marks its entry: the session sends the
 * DELEGRETURN (§18.6) later, from its own loop, never inside the callback's dispatch.
 * <pre>
 *   entry i:   state     FREE | HELD | RECALLED (CB_RECALL answered NFS4_OK: DELEGRETURN is due)
 *              stateid   the delegation's stateid4, as the server last granted it
 *              fh        the file's nfs_fh4
 *              path      the file's path from the server's root (messages, a tool's output)
 *              type      OPEN_DELEGATE_READ or OPEN_DELEGATE_WRITE
 *   opening    OPENs outstanding: a recall of a delegation not in the table may be of the one such an OPEN's reply
 *              grants, a reply the client has not read yet (RFC 8881 §2.10.6.3)
 * </pre>
 * {@link #recall} applies CB_RECALL's rules (RFC 8881 §20.2.3): no delegation on the handle is
 * NFS4ERR_BADHANDLE; one on the handle but not with the stateid named is NFS4ERR_BAD_STATEID; either, while an OPEN
 * is outstanding, is NFS4ERR_DELAY, so the server sends the recall again once the OPEN's reply was read. Two
 * stateids name the same delegation when their other fields are equal and their seqids are equal or one is 0
 * (§8.2.2: seqid 0 means the current one).
 * <p>
 * Not thread safe, and it need not be: the callback service runs on the thread that drives the RPC client, which
 * is the session's. Nothing is allocated after construction but the paths the session hands in.
 */
final class Nfs4Delegations
{
    /** Delegations held at once; a delegation granted beyond them is returned with its CLOSE. */
    static final int CAPACITY = 64;

    static final byte FREE = 0;
    static final byte HELD = 1;
    static final byte RECALLED = 2;

    private final byte[] state = new byte[CAPACITY];
    private final Nfs4Stateid[] stateid = new Nfs4Stateid[CAPACITY];
    private final Nfs4FileHandle[] fh = new Nfs4FileHandle[CAPACITY];
    private final String[] path = new String[CAPACITY];
    private final int[] type = new int[CAPACITY];
    private int size;
    private int recalled;
    private int opening;

    Nfs4Delegations()
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            stateid[i] = new Nfs4Stateid();
            fh[i] = new Nfs4FileHandle();
        }
    }

    /**
     * Two stateids name the same delegation: other equal, seqids equal or either 0 (RFC 8881 §8.2.2).
     *
     * @param held a stateid of the table
     * @param named a stateid from the wire
     * @return true when they match
     */
    static boolean matches(final Nfs4Stateid held, final Nfs4Stateid named)
    {
        return held.sameState(named) && (held.seqid() == named.seqid() || 0 == held.seqid() || 0 == named.seqid());
    }

    /**
     * Keep a delegation granted. One already held (the same other field: the server granted it again) is updated
     * in place: its seqid becomes the one granted last, its state is kept.
     *
     * @param delegation its stateid
     * @param handle the file's handle
     * @param where the file's path
     * @param delegationType OPEN_DELEGATE_READ or OPEN_DELEGATE_WRITE
     * @return its entry, or -1 when the table is full
     */
    int add(final Nfs4Stateid delegation, final Nfs4FileHandle handle, final String where, final int delegationType)
    {
        final int known = indexOf(delegation);
        if (known >= 0)
        {
            stateid[known].copy(delegation);
            return known;
        }
        for (int i = 0; i < CAPACITY; i++)
        {
            if (FREE == state[i])
            {
                state[i] = HELD;
                stateid[i].copy(delegation);
                fh[i].copy(handle);
                path[i] = where;
                type[i] = delegationType;
                size++;
                return i;
            }
        }
        return -1;
    }

    /**
     * @param delegation a stateid
     * @return the entry holding the delegation it names (its other field), or -1
     */
    int indexOf(final Nfs4Stateid delegation)
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            if (FREE != state[i] && stateid[i].sameState(delegation))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param handle a file handle
     * @return the first entry on that file, or -1
     */
    int find(final Nfs4FileHandle handle)
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            if (FREE != state[i] && fh[i].sameAs(handle))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * CB_RECALL's checks (RFC 8881 §20.2.3); a delegation recalled is marked for DELEGRETURN (again: no change).
     *
     * @param named the stateid recalled
     * @param handle the file handle recalled
     * @return NFS4_OK, NFS4ERR_BADHANDLE, NFS4ERR_BAD_STATEID, or NFS4ERR_DELAY while an OPEN is outstanding
     */
    int recall(final Nfs4Stateid named, final Nfs4FileHandle handle)
    {
        boolean handleHeld = false;
        for (int i = 0; i < CAPACITY; i++)
        {
            if (FREE != state[i] && fh[i].sameAs(handle))
            {
                handleHeld = true;
                if (matches(stateid[i], named))
                {
                    if (HELD == state[i])
                    {
                        state[i] = RECALLED;
                        recalled++;
                    }
                    return Nfs4Status.OK;
                }
            }
        }
        if (opening > 0)
        {
            return Nfs4Status.DELAY;
        }
        return handleHeld ? Nfs4Status.BAD_STATEID : Nfs4Status.BADHANDLE;
    }

    /**
     * @param from the first entry to look at
     * @return the first recalled entry at or after it, or -1
     */
    int nextRecalled(final int from)
    {
        for (int i = Math.max(0, from); i < CAPACITY && recalled > 0; i++)
        {
            if (RECALLED == state[i])
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param from the first entry to look at
     * @return the first entry in use at or after it, or -1
     */
    int next(final int from)
    {
        for (int i = Math.max(0, from); i < CAPACITY && size > 0; i++)
        {
            if (FREE != state[i])
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * The delegation is returned (or the server no longer has it).
     *
     * @param i its entry
     */
    void remove(final int i)
    {
        if (FREE == state[i])
        {
            return;
        }
        if (RECALLED == state[i])
        {
            recalled--;
        }
        state[i] = FREE;
        path[i] = null;
        stateid[i].clear();
        fh[i].clear();
        size--;
    }

    /** An OPEN is about to be sent: recalls of unknown delegations wait for its reply. */
    void openStarted()
    {
        opening++;
    }

    /** An OPEN's reply was read and any delegation it granted is in the table (or it failed). */
    void openEnded()
    {
        opening--;
    }

    /** @return true while an OPEN is outstanding */
    boolean opening()
    {
        return opening > 0;
    }

    /** @return delegations held (recalled ones included) */
    int size()
    {
        return size;
    }

    /** @return delegations recalled, their DELEGRETURN not sent yet */
    int recalled()
    {
        return recalled;
    }

    /**
     * @param i an entry
     * @return true when it is recalled
     */
    boolean isRecalled(final int i)
    {
        return RECALLED == state[i];
    }

    /**
     * @param i an entry in use
     * @return its stateid (the table's: copy it to keep it)
     */
    Nfs4Stateid stateid(final int i)
    {
        return stateid[i];
    }

    /**
     * @param i an entry in use
     * @return its file handle (the table's)
     */
    Nfs4FileHandle fh(final int i)
    {
        return fh[i];
    }

    /**
     * @param i an entry in use
     * @return its file's path
     */
    String path(final int i)
    {
        return path[i];
    }

    /**
     * @param i an entry in use
     * @return OPEN_DELEGATE_READ or OPEN_DELEGATE_WRITE
     */
    int type(final int i)
    {
        return type[i];
    }
}
