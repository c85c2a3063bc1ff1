package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.ProtectionDomain;

import java.util.concurrent.locks.StampedLock;

/**
 * A memory window as the key table and the engine see it (rxe's {@code rxe_mw}): a remotely accessible view (rkey)
 * onto part of a memory region, bound and re-bound without re-registering the region. The application holds a
 * {@link io.jrxe.rxe.verbs.MemoryWindow}. Every bind runs on the engine thread ({@link #bind}): BIND_MW work
 * requests in send-queue order, and {@code RxeDevice.bindMw} of a type 1 window through the engine's invoker; a
 * type 2B window is then associated with the QP that bound it.
 * <pre>
 *   rkey (32 bits) = | index (24 bits) | key (8 bits) |   index in the upper half of the key index space
 *   bound:  [addr, addr + length) inside region [iova, iova + length)   (zero-based: [0, length))
 * </pre>
 * The binding is updated under a {@link StampedLock} write lock and read with an optimistic read, so no reader
 * (the engine's remote access check, an application asking for the state) sees half of a re-bind, and no path
 * allocates.
 */
public final class MwEntry
{
    /** Window not usable (type 2 after invalidation or before the first bind). */
    public static final int STATE_FREE = 0;
    /** Window usable (type 1 always, type 2 once bound). */
    public static final int STATE_VALID = 1;

    /** Type 1 window ({@code IB_MW_TYPE_1}). */
    public static final int TYPE_1 = 1;
    /** Type 2B window ({@code IB_MW_TYPE_2}). */
    public static final int TYPE_2 = 2;

    private final ProtectionDomain pd;
    private final int type;
    private final int index;
    private final StampedLock lock = new StampedLock();
    private volatile int rkey;
    /** The rkey the window will have once every BIND_MW posted so far has run (libibverbs updates it at post). */
    private volatile int postedRkey;
    private volatile int state;
    private MrEntry mr;
    private long addr;
    private volatile long length;
    private int access;
    private int qpn = -1;

    public MwEntry(final ProtectionDomain pd, final int type, final int index, final int keyByte)
    {
        this.pd = pd;
        this.type = type;
        this.index = index;
        this.rkey = (index << 8) | (keyByte & 0xff);
        this.postedRkey = rkey;
        this.state = TYPE_1 == type ? STATE_VALID : STATE_FREE;
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return {@link #TYPE_1} or {@link #TYPE_2}. */
    public int type()
    {
        return type;
    }

    /** @return table index. */
    public int index()
    {
        return index;
    }

    /**
     * A BIND_MW is being posted (application thread): the rkey it expects the window to have when it runs, and the
     * one after it, for the next bind posted behind it.
     *
     * @param keyByte the bind's new key byte
     * @return the rkey the bind expects
     */
    public int postBind(final int keyByte)
    {
        final int expected = postedRkey;
        postedRkey = (expected & ~0xff) | (keyByte & 0xff);
        return expected;
    }

    /**
     * Engine thread: binds posted from now on start from the key the window has now: after a BIND_MW failed (those
     * posted behind it are flushed) or an API bind (no WR went through the posting side).
     */
    public void resyncPostedKey()
    {
        postedRkey = rkey;
    }

    /** @return current rkey (the key byte changes with every bind). */
    public int rkey()
    {
        return rkey;
    }

    /** @return current state. */
    public int state()
    {
        return state;
    }

    /** @return bound length, 0 when unbound. */
    public long length()
    {
        return length;
    }

    /**
     * Validate a bind request (rxe_mw.c {@code rxe_check_bind_mw}).
     *
     * @param qpPd PD of the QP issuing the bind (the window's own PD for an API bind of a type 1 window).
     * @param mr region to bind to, or null to unbind.
     * @param addr start VA (or offset when zero-based).
     * @param length length.
     * @param access rights for the window.
     * @return null if acceptable, else the reason (a constant string).
     */
    public String checkBind(
        final ProtectionDomain qpPd, final MrEntry mr, final long addr, final long length, final int access)
    {
        final long stamp = lock.readLock();
        try
        {
            if (TYPE_1 == type)
            {
                if (STATE_VALID != state)
                {
                    return "type 1 window is not in the valid state";
                }
                if (0 != (access & AccessFlags.ZERO_BASED))
                {
                    return "type 1 windows cannot be zero based (o10-36.2.2)";
                }
            }
            else
            {
                if (STATE_FREE != state)
                {
                    return "type 2 window must be free (invalidated) before a bind (o10-37.2.30)";
                }
                if (null == mr || 0 == length)
                {
                    return "type 2 window cannot be bound to no region or zero length (o10-37.2.40)";
                }
            }
            if (qpPd != pd) // rxe 6.12 checks this for both types
            {
                return "window bound through a QP of another PD (C10-72)";
            }
            if (0 != (access & ~(AccessFlags.REMOTE | AccessFlags.ZERO_BASED)))
            {
                return "window rights must be REMOTE_READ/WRITE/ATOMIC (and ZERO_BASED for type 2) only";
            }
        }
        finally
        {
            lock.unlockRead(stamp);
        }
        return null == mr ? null : checkRegion(mr, addr, length, access);
    }

    private String checkRegion(final MrEntry mr, final long addr, final long length, final int access)
    {
        if (MrEntry.STATE_VALID != mr.state())
        {
            return "region is not valid";
        }
        if (mr.pd() != pd)
        {
            return "window and region belong to different PDs";
        }
        if (0 != (mr.access() & AccessFlags.ZERO_BASED))
        {
            return "cannot bind a window to a zero based region";
        }
        if (0 == (mr.access() & AccessFlags.MW_BIND))
        {
            return "region was registered without MW_BIND (C10-73)";
        }
        if (0 != (access & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) &&
            0 == (mr.access() & AccessFlags.LOCAL_WRITE))
        {
            return "writable window on a region without LOCAL_WRITE (C10-74)";
        }
        if (!MrStatus.inRange(mr.iova(), mr.length(), addr, length))
        {
            return "window range outside the region (C10-75)";
        }
        return null;
    }

    /**
     * Bind (after a successful {@link #checkBind}): set the new key byte, range, rights and, for type 2, the QP.
     * A null region or zero length unbinds a type 1 window.
     *
     * @param keyByte new key byte (low 8 bits of the rkey the consumer chose).
     * @param mr region or null.
     * @param addr start VA or offset.
     * @param length length.
     * @param access rights.
     * @param qpn QP the type 2 window is bound through, ignored for type 1.
     * @return the new rkey.
     */
    public int bind(
        final int keyByte, final MrEntry mr, final long addr, final long length, final int access, final int qpn)
    {
        final long stamp = lock.writeLock();
        try
        {
            if (null != this.mr)
            {
                this.mr.decBoundWindows();
            }
            rkey = (rkey & ~0xff) | (keyByte & 0xff);
            this.mr = null == mr || 0 == length ? null : mr;
            this.addr = addr;
            this.length = null == this.mr ? 0 : length;
            this.access = access;
            this.qpn = TYPE_2 == type ? qpn : -1;
            state = STATE_VALID;
            if (null != this.mr)
            {
                this.mr.incBoundWindows();
            }
            return rkey;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Invalidate a type 2 window (LOCAL_INV or SEND_WITH_INV, rxe {@code rxe_invalidate_mw}).
     *
     * @param rkey the rkey to invalidate; must match the current one.
     * @return {@link MrStatus#OK}, {@link MrStatus#INVALID_KEY} or {@link MrStatus#NOT_ALLOWED} (type 1).
     */
    public int invalidate(final int rkey)
    {
        final long stamp = lock.writeLock();
        try
        {
            if (this.rkey != rkey)
            {
                return MrStatus.INVALID_KEY;
            }
            if (TYPE_1 == type) // o10-37.2.26: type 1 windows are not invalidated
            {
                return MrStatus.NOT_ALLOWED;
            }
            if (STATE_VALID != state) // an unbound type 2 window has nothing to invalidate (rxe would crash here)
            {
                return MrStatus.INVALID_STATE;
            }
            if (null != mr)
            {
                mr.decBoundWindows();
                mr = null;
            }
            length = 0;
            qpn = -1;
            state = STATE_FREE;
            return MrStatus.OK;
        }
        finally
        {
            lock.unlockWrite(stamp);
        }
    }

    /**
     * Remote access check (rxe {@code rxe_lookup_mw} + range check). On success stores the resolved region and
     * native address into {@code result}.
     */
    public int check(
        final ProtectionDomain qpPd,
        final int qpn,
        final int rkey,
        final int access,
        final long va,
        final long len,
        final MrAccess result)
    {
        long stamp = lock.tryOptimisticRead();
        int status = check0(qpPd, qpn, rkey, access, va, len, result);
        if (!lock.validate(stamp))
        {
            stamp = lock.readLock();
            try
            {
                status = check0(qpPd, qpn, rkey, access, va, len, result);
            }
            finally
            {
                lock.unlockRead(stamp);
            }
        }
        return status;
    }

    private int check0(
        final ProtectionDomain qpPd,
        final int qpn,
        final int rkey,
        final int access,
        final long va,
        final long len,
        final MrAccess result)
    {
        final MrEntry mr = this.mr;
        if (this.rkey != rkey)
        {
            return MrStatus.INVALID_KEY;
        }
        if (pd != qpPd)
        {
            return MrStatus.PD_MISMATCH;
        }
        if (STATE_VALID != state || 0 == length || null == mr || MrEntry.STATE_VALID != mr.state())
        {
            return MrStatus.INVALID_STATE;
        }
        if (TYPE_2 == type && this.qpn != qpn)
        {
            return MrStatus.WRONG_QP;
        }
        if ((this.access & access) != access)
        {
            return MrStatus.ACCESS_DENIED;
        }
        final boolean zeroBased = 0 != (this.access & AccessFlags.ZERO_BASED);
        final long start = zeroBased ? 0 : addr;
        if (!MrStatus.inRange(start, length, va, len))
        {
            return MrStatus.OUT_OF_RANGE;
        }
        final long regionVa = zeroBased ? addr + va : va;
        if (!MrStatus.inRange(mr.iova(), mr.length(), regionVa, len)) // the region as it is now too (rxe checks it)
        {
            return MrStatus.OUT_OF_RANGE;
        }
        result.resolved(mr, regionVa);
        return MrStatus.OK;
    }
}
