package io.jrxe.ulp.nfs4;

/**
 * A session's paths (RFC 8881 §18.13): turns a path under the export into components from the server's root and
 * sets a request to LOOKUP its way down them. When the components and the request's own operations outnumber the
 * session's ca_maxoperations, the leading components are looked up first, in as many COMPOUNDs as it takes, and the
 * request starts at the handle they found (PUTFH instead of PUTROOTFH).
 * <pre>
 *   walk:   SEQUENCE PUT* LOOKUP x n GETFH GETATTR        (a prefix, while the rest does not fit; a directory)
 *           SEQUENCE PUT* LOOKUP x m (request's own ops)  (the request, set up; the caller runs it)
 * </pre>
 * Control path: a path resolved is a new array. Not thread safe: the session's thread uses it.
 */
final class Nfs4PathWalker
{
    private final Nfs4ForeChannel channel;
    private final String[] export;
    private final Nfs4PathRequests.Lookup prefix = new Nfs4PathRequests.Lookup();
    private final Nfs4FileHandle walkStart = new Nfs4FileHandle();
    private int maxOps;

    /**
     * @param channel where the prefix LOOKUPs go
     * @param export the export's components
     */
    Nfs4PathWalker(final Nfs4ForeChannel channel, final String[] export)
    {
        this.channel = channel;
        this.export = export;
    }

    /**
     * The session exists: its COMPOUNDs may carry this many operations.
     *
     * @param operations operations per COMPOUND (SEQUENCE included)
     */
    void maxOperations(final int operations)
    {
        maxOps = operations;
    }

    /** @return the export's components */
    String[] export()
    {
        return export;
    }

    /**
     * @param path a path under the export ("" for the export)
     * @return its components from the server's root, the export's first
     */
    String[] resolve(final String path)
    {
        return Nfs4Path.join(export, Nfs4Path.components(path));
    }

    /**
     * @param path a file under the export
     * @return its components from the server's root
     * @throws IllegalArgumentException when the path is the export itself
     */
    String[] fileIn(final String path)
    {
        final String[] all = resolve(path);
        if (all.length == export.length)
        {
            throw new IllegalArgumentException("a file name is needed, not the export itself: " + path);
        }
        return all;
    }

    /**
     * Set a request to walk components [0, end) of a path, after looking up a prefix first when the walk and the
     * request's own operations would not fit in one COMPOUND.
     *
     * @param request the request to set
     * @param path components from the server's root
     * @param end one past the last component to walk
     * @param ownOps the request's operations after its LOOKUPs
     */
    void walk(final Nfs4PathRequests.Walk request, final String[] path, final int end, final int ownOps)
    {
        final int room = maxOps - 2 - ownOps; // SEQUENCE and PUTROOTFH/PUTFH
        walkStart.clear();
        int at = 0;
        while (end - at > room)
        {
            final int n = Math.min(end - at, maxOps - 4); // SEQUENCE PUT* LOOKUP.. GETFH GETATTR
            prefix.walk(path, walkStart, at, at + n);
            channel.run(prefix);
            if (Nfs4.NF4DIR != prefix.attrs.type())
            {
                throw new Nfs4StatusException(Nfs4.OP_LOOKUP, Nfs4Status.NOTDIR, Nfs4Path.toString(path, at + n));
            }
            walkStart.copy(prefix.fh);
            at += n;
        }
        request.walk(path, walkStart, at, end);
    }
}
