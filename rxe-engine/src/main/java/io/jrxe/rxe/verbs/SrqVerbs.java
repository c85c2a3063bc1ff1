package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.IndexAllocator;
import io.jrxe.rxe.spi.IndexTable;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The SRQ verbs of a device (rxe_srq.c: create, modify, destroy), kept apart from {@link RxeDevice}, which checks the
 * PD and forwards here under its lock.
 */
final class SrqVerbs
{
    private final RxeDevice device;
    private final DeviceAttr attr;
    private final IndexAllocator handles;
    private final Int2ObjectHashMap<SharedReceiveQueue> srqs = new Int2ObjectHashMap<>();
    private final IndexTable<SharedReceiveQueue> xrcTable;

    SrqVerbs(final RxeDevice device, final DeviceAttr attr, final int maxSrq)
    {
        this.device = device;
        this.attr = attr;
        this.handles = new IndexAllocator(1, maxSrq);
        this.xrcTable = new IndexTable<>(maxSrq);
    }

    /** Engine lookup of an XRC SRQ by the number an XRCETH carries; lock-free and allocation-free. */
    SharedReceiveQueue lookupXrc(final int srqn)
    {
        return xrcTable.get(srqn);
    }

    SharedReceiveQueue lookup(final int handle)
    {
        return srqs.get(handle);
    }

    SharedReceiveQueue create(final ProtectionDomain pd, final SrqAttr request)
    {
        if (request.maxWr() <= 0 || request.maxWr() > attr.maxSrqWr())
        {
            throw new VerbsException(Errno.EINVAL, "SRQ max_wr " + request.maxWr() + " outside [1, max_srq_wr = " +
                attr.maxSrqWr() + "]");
        }
        if (request.maxSge() <= 0 || request.maxSge() > attr.maxSrqSge())
        {
            throw new VerbsException(Errno.EINVAL, "SRQ max_sge " + request.maxSge() + " outside [1, max_srq_sge = " +
                attr.maxSrqSge() + "]");
        }
        if (request.srqLimit() < 0 || request.srqLimit() > request.maxWr())
        {
            throw new VerbsException(Errno.EINVAL, "SRQ limit " + request.srqLimit() + " outside [0, max_wr]");
        }
        final int handle = RxeDevice.allocate(handles, "SRQ", attr.maxSrq());
        final SharedReceiveQueue srq = new SharedReceiveQueue(
            device, pd, handle, request.maxWr(), request.maxSge(), request.srqLimit());
        request.maxWr(srq.maxWr());
        pd.acquire();
        srqs.put(handle, srq);
        return srq;
    }

    /**
     * {@code ib_create_srq} with {@code srq_type = IB_SRQT_XRC}: a basic SRQ that also holds an XRC domain and
     * the CQ its receives complete on (IBA 11.2.2; ib_uverbs: an XRC SRQ needs both).
     */
    SharedReceiveQueue createXrc(
        final ProtectionDomain pd, final XrcDomain xrcd, final CompletionQueue cq, final SrqAttr request)
    {
        final SharedReceiveQueue srq = create(pd, request);
        srq.xrc(xrcd, cq);
        xrcd.acquire();
        cq.acquire();
        xrcTable.put(srq.srqn(), srq); // published after the XRC fields: the engine reads them on lookup
        return srq;
    }

    // growing beyond the capacity allocated at creation would need a resize, which is not supported
    void modify(final SharedReceiveQueue srq, final SrqAttr request, final int mask)
    {
        check(srq);
        if (0 != (mask & ~(SrqAttr.MASK_MAX_WR | SrqAttr.MASK_LIMIT)))
        {
            throw new VerbsException(Errno.EINVAL, "unknown SRQ attribute mask bits 0x" + Integer.toHexString(mask));
        }
        final int limit = 0 != (mask & SrqAttr.MASK_LIMIT) ? request.srqLimit() : srq.limit();
        if (0 != (mask & SrqAttr.MASK_MAX_WR))
        {
            if (request.maxWr() <= 0 || request.maxWr() > attr.maxSrqWr())
            {
                throw new VerbsException(Errno.EINVAL, "SRQ max_wr " + request.maxWr() + " outside [1, max_srq_wr]");
            }
            if (request.maxWr() > srq.ring().capacity())
            {
                throw new VerbsException(Errno.EOPNOTSUPP, "SRQ max_wr " + request.maxWr() +
                    " above the capacity allocated at creation (" + srq.ring().capacity() +
                    "): resize is not supported; create a larger SRQ");
            }
            if (0 != limit && request.maxWr() < limit)
            {
                throw new VerbsException(Errno.EINVAL, "SRQ max_wr " + request.maxWr() + " below the limit " + limit);
            }
        }
        if (0 != (mask & SrqAttr.MASK_LIMIT))
        {
            final int maxWr = 0 != (mask & SrqAttr.MASK_MAX_WR) ? request.maxWr() : srq.maxWr();
            if (limit < 0 || limit > maxWr)
            {
                throw new VerbsException(Errno.EINVAL, "SRQ limit " + limit + " outside [0, max_wr = " + maxWr + "]");
            }
        }
        srq.modify(request, mask);
    }

    void destroy(final SharedReceiveQueue srq)
    {
        check(srq);
        RxeDevice.checkAcked(srq.asyncUnacked().get(), "SRQ " + srq.handle());
        if (srq.useCount() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "SRQ " + srq.handle() + " is used by " + srq.useCount() +
                " QPs; destroy them first");
        }
        srqs.remove(srq.handle());
        xrcTable.put(srq.handle(), null);
        handles.free(srq.handle());
        srq.pd().release();
        if (srq.isXrc())
        {
            srq.xrcd().release();
            srq.cq().release();
        }
    }

    void check(final SharedReceiveQueue srq)
    {
        if (null == srq || srqs.get(srq.handle()) != srq)
        {
            throw new VerbsException(Errno.EINVAL, "SRQ is null, destroyed or from another device");
        }
    }
}
