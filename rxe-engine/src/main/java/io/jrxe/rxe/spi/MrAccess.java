package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.SgeList;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Engine-side key validation and data movement between registered memory and packet buffers. One instance per
 * engine thread (it holds the result of the last check and a scratch buffer); nothing here allocates or locks
 * (type 1 window re-binds excepted, which are rare and use a read lock on contention).
 * <p>
 * Checks follow rxe ({@code lookup_mr}, {@code mr_check_range}, {@code rxe_lookup_mw}): the key index must name
 * a live object, the whole 32-bit key must match, the PD must be the QP's PD, the object must grant every
 * requested right, and [va, va + length) must lie inside it (unsigned, overflow-safe). The responder maps any
 * failure of {@link #checkRemote} to a NAK Remote Access Error; the requester maps a failure of
 * {@link #checkLocal} to {@code LOC_PROT_ERR}. Zero-length accesses still validate the key here; IBA C9-88 lets the
 * responder skip R_Key validation for zero-length RDMA, which is the transport's decision.
 */
public final class MrAccess
{
    private final MrTable table;
    private final UnsafeBuffer scratch = new UnsafeBuffer(0, 0);
    private MrEntry region;
    private long va;
    private int cursorIndex;
    private int cursorOffset;

    /**
     * @param table the device's key table.
     */
    public MrAccess(final MrTable table)
    {
        this.table = table;
    }

    /**
     * Check an lkey for a local access (SGE of a send/receive WQE, read response or atomic result placement).
     *
     * @param pd the QP's PD.
     * @param lkey key from the SGE.
     * @param access required rights: 0 to read local memory, {@link AccessFlags#LOCAL_WRITE} to write it.
     * @param va start VA.
     * @param length byte count.
     * @return {@link MrStatus} code; on OK {@link #address()} and {@link #region()} are set.
     */
    public int checkLocal(final ProtectionDomain pd, final int lkey, final int access, final long va, final long length)
    {
        final MrEntry mr = table.region(lkey);
        if (null == mr || mr.lkey() != lkey)
        {
            return MrStatus.INVALID_KEY;
        }
        return checkRegion(mr, pd, access, va, length);
    }

    /**
     * Check an rkey for a remote access (RETH/AtomicETH of an incoming request), against an MR or an MW.
     *
     * @param pd the QP's PD.
     * @param qpn the QP number (type 2 windows are bound to one QP).
     * @param rkey key from the packet.
     * @param access required rights: REMOTE_READ, REMOTE_WRITE or REMOTE_ATOMIC.
     * @param va start VA.
     * @param length byte count.
     * @return {@link MrStatus} code; on OK {@link #address()} and {@link #region()} are set.
     */
    public int checkRemote(
        final ProtectionDomain pd, final int qpn, final int rkey, final int access, final long va, final long length)
    {
        final MrEntry mr = table.region(rkey);
        if (null != mr)
        {
            if (0 == mr.rkey() || mr.rkey() != rkey)
            {
                return MrStatus.INVALID_KEY;
            }
            return checkRegion(mr, pd, access, va, length);
        }
        final MwEntry mw = table.window(rkey);
        if (null == mw)
        {
            return MrStatus.INVALID_KEY;
        }
        return mw.check(pd, qpn, rkey, access, va, length, this);
    }

    private int checkRegion(
        final MrEntry mr, final ProtectionDomain pd, final int access, final long va, final long length)
    {
        if (MrEntry.STATE_VALID != mr.state())
        {
            return MrStatus.INVALID_STATE;
        }
        if (mr.pd() != pd)
        {
            return MrStatus.PD_MISMATCH;
        }
        if ((mr.access() & access) != access)
        {
            return MrStatus.ACCESS_DENIED;
        }
        if (!MrStatus.inRange(mr.iova(), mr.length(), va, length))
        {
            return MrStatus.OUT_OF_RANGE;
        }
        resolved(mr, va);
        return MrStatus.OK;
    }

    void resolved(final MrEntry mr, final long va)
    {
        this.region = mr;
        this.va = va;
    }

    /** @return the region resolved by the last successful check. */
    public MrEntry region()
    {
        return region;
    }

    /** @return native address of the first byte resolved by the last successful check. */
    public long address()
    {
        return region.nativeAddress(va);
    }

    /**
     * Copy from local memory (lkey) into a packet buffer; requester payload gathering.
     *
     * @param pd QP's PD.
     * @param lkey SGE lkey.
     * @param va SGE address.
     * @param dst packet buffer.
     * @param dstOffset offset in dst.
     * @param length bytes.
     * @return {@link MrStatus} code; nothing is copied unless OK.
     */
    public int copyFromLocal(
        final ProtectionDomain pd,
        final int lkey,
        final long va,
        final MutableDirectBuffer dst,
        final int dstOffset,
        final int length)
    {
        final int status = checkLocal(pd, lkey, 0, va, length);
        if (MrStatus.OK == status)
        {
            copyOut(dst, dstOffset, length);
        }
        return status;
    }

    /**
     * Copy a packet payload into local memory (lkey with LOCAL_WRITE); receive scatter, read response placement.
     *
     * @param pd QP's PD.
     * @param lkey SGE lkey.
     * @param va SGE address.
     * @param src packet buffer.
     * @param srcOffset offset in src.
     * @param length bytes.
     * @return {@link MrStatus} code; nothing is copied unless OK.
     */
    public int copyToLocal(
        final ProtectionDomain pd,
        final int lkey,
        final long va,
        final DirectBuffer src,
        final int srcOffset,
        final int length)
    {
        final int status = checkLocal(pd, lkey, AccessFlags.LOCAL_WRITE, va, length);
        if (MrStatus.OK == status)
        {
            copyIn(src, srcOffset, length);
        }
        return status;
    }

    /**
     * Copy from remotely readable memory (rkey with REMOTE_READ) into a packet buffer; read response generation.
     *
     * @param pd QP's PD.
     * @param qpn QP number.
     * @param rkey rkey from the RETH.
     * @param va VA from the RETH.
     * @param dst packet buffer.
     * @param dstOffset offset in dst.
     * @param length bytes.
     * @return {@link MrStatus} code; nothing is copied unless OK.
     */
    public int copyFromRemote(
        final ProtectionDomain pd,
        final int qpn,
        final int rkey,
        final long va,
        final MutableDirectBuffer dst,
        final int dstOffset,
        final int length)
    {
        final int status = checkRemote(pd, qpn, rkey, AccessFlags.REMOTE_READ, va, length);
        if (MrStatus.OK == status)
        {
            copyOut(dst, dstOffset, length);
        }
        return status;
    }

    /**
     * Copy a packet payload into remotely writable memory (rkey with REMOTE_WRITE); RDMA WRITE placement.
     *
     * @param pd QP's PD.
     * @param qpn QP number.
     * @param rkey rkey from the RETH.
     * @param va VA from the RETH.
     * @param src packet buffer.
     * @param srcOffset offset in src.
     * @param length bytes.
     * @return {@link MrStatus} code; nothing is copied unless OK.
     */
    public int copyToRemote(
        final ProtectionDomain pd,
        final int qpn,
        final int rkey,
        final long va,
        final DirectBuffer src,
        final int srcOffset,
        final int length)
    {
        final int status = checkRemote(pd, qpn, rkey, AccessFlags.REMOTE_WRITE, va, length);
        if (MrStatus.OK == status)
        {
            copyIn(src, srcOffset, length);
        }
        return status;
    }

    /**
     * Gather the next {@code length} payload bytes of a send WQE into a packet buffer, starting at the WQE's
     * cursor ({@link SendWqe#sgeIndex()}, {@link SendWqe#sgeOffset()}) and advancing it. Inline WQEs copy from
     * their inline data at offset {@link SendWqe#bytesDone()} (the caller advances bytesDone for both kinds).
     * Each SGE is checked as a local read (lkey, PD, range).
     *
     * @param pd QP's PD.
     * @param wqe send WQE.
     * @param dst packet buffer.
     * @param dstOffset offset in dst.
     * @param length bytes to gather.
     * @return {@link MrStatus} code (LENGTH if the SGEs hold fewer bytes); on failure the cursor is unchanged.
     */
    public int gather(
        final ProtectionDomain pd,
        final SendWqe wqe,
        final MutableDirectBuffer dst,
        final int dstOffset,
        final int length)
    {
        if (wqe.isInline())
        {
            if (wqe.bytesDone() + length > wqe.inlineLength())
            {
                return MrStatus.LENGTH;
            }
            dst.putBytes(dstOffset, wqe.inlineData(), (int)wqe.bytesDone(), length);
            return MrStatus.OK;
        }
        final int status = walk(pd, wqe.sgl(), wqe.sgeIndex(), wqe.sgeOffset(), 0, dst, null, dstOffset, length);
        if (MrStatus.OK == status)
        {
            wqe.sgeIndex(cursorIndex).sgeOffset(cursorOffset);
        }
        return status;
    }

    /**
     * Scatter payload bytes into a receive WQE's SGE list at its cursor, advancing it; each SGE is checked for
     * LOCAL_WRITE.
     *
     * @param pd QP's PD.
     * @param wqe receive WQE.
     * @param src packet buffer.
     * @param srcOffset offset in src.
     * @param length bytes.
     * @return {@link MrStatus} code (LENGTH if the buffers are too small: {@code LOC_LEN_ERR}).
     */
    public int scatter(
        final ProtectionDomain pd, final RecvWqe wqe, final DirectBuffer src, final int srcOffset, final int length)
    {
        final int status = walk(
            pd, wqe.sgl(), wqe.sgeIndex(), wqe.sgeOffset(), AccessFlags.LOCAL_WRITE, null, src, srcOffset, length);
        if (MrStatus.OK == status)
        {
            wqe.sgeIndex(cursorIndex).sgeOffset(cursorOffset);
        }
        return status;
    }

    /**
     * Scatter RDMA READ response (or atomic result) bytes into a send WQE's SGE list at its cursor.
     *
     * @param pd QP's PD.
     * @param wqe the READ/atomic send WQE.
     * @param src packet buffer.
     * @param srcOffset offset in src.
     * @param length bytes.
     * @return {@link MrStatus} code.
     */
    public int scatter(
        final ProtectionDomain pd, final SendWqe wqe, final DirectBuffer src, final int srcOffset, final int length)
    {
        final int status = walk(
            pd, wqe.sgl(), wqe.sgeIndex(), wqe.sgeOffset(), AccessFlags.LOCAL_WRITE, null, src, srcOffset, length);
        if (MrStatus.OK == status)
        {
            wqe.sgeIndex(cursorIndex).sgeOffset(cursorOffset);
        }
        return status;
    }

    /**
     * Whether the next {@code length} payload bytes of a send WQE can go to the NIC straight from registered
     * memory: they lie in one SGE, inside a DMA-mapped user MR ({@link MrEntry#dmaMapped()}) the SGE's lkey names
     * for a local read. If so the WQE's cursor advances past them, as {@link #gather} would, and
     * {@link #region()} and {@link #zeroCopyVa()} say where they are; if not nothing changes and the caller copies
     * ({@link #gather} then reports any key error).
     *
     * @param pd     QP's PD.
     * @param wqe    send WQE.
     * @param length payload bytes of the packet, at least 1.
     * @return true if the NIC can read the payload from the MR.
     */
    public boolean zeroCopy(final ProtectionDomain pd, final SendWqe wqe, final int length)
    {
        if (wqe.isInline())
        {
            return false;
        }
        final SgeList sgl = wqe.sgl();
        int index = wqe.sgeIndex();
        int offset = wqe.sgeOffset();
        while (index < sgl.count() && offset == (sgl.length(index) & 0xffff_ffffL)) // cursor at an SGE's end
        {
            index++;
            offset = 0;
        }
        if (index >= sgl.count())
        {
            return false;
        }
        final long sgeLength = sgl.length(index) & 0xffff_ffffL;
        if (sgeLength - offset < length)
        {
            return false; // the payload spans SGEs: copied (one segment per packet keeps the chain short)
        }
        final long at = sgl.address(index) + offset;
        final MrEntry mr = table.region(sgl.lkey(index));
        if (null == mr || !mr.dmaMapped() || MrStatus.OK != checkLocal(pd, sgl.lkey(index), 0, at, length))
        {
            return false;
        }
        offset += length;
        if (offset == sgeLength)
        {
            index++;
            offset = 0;
        }
        wqe.sgeIndex(index).sgeOffset(offset);
        return true;
    }

    /**
     * Whether {@code length} bytes of remotely readable memory (an RDMA READ response's payload) can go to the NIC
     * straight from a DMA-mapped user MR, directly or through a window over one. If not, the caller copies with
     * {@link #copyFromRemote}, which reports any key error.
     *
     * @return true if the rkey grants REMOTE_READ of the range and the region is DMA-mapped; then {@link #region()}
     * is the region
     */
    public boolean zeroCopyRemote(
        final ProtectionDomain pd, final int qpn, final int rkey, final long va, final int length)
    {
        return MrStatus.OK == checkRemote(pd, qpn, rkey, AccessFlags.REMOTE_READ, va, length) && region.dmaMapped();
    }

    /** @return the VA (in {@link #region()}) of the first byte resolved by the last successful check. */
    public long zeroCopyVa()
    {
        return va;
    }

    // Check every SGE piece first, then copy, so a failure leaves memory and cursor untouched.
    private int walk(
        final ProtectionDomain pd,
        final SgeList sgl,
        final int startIndex,
        final int startOffset,
        final int access,
        final MutableDirectBuffer dst,
        final DirectBuffer src,
        final int bufOffset,
        final int length)
    {
        for (int pass = 0; pass < 2; pass++)
        {
            int index = startIndex;
            int offset = startOffset;
            int remaining = length;
            int pos = bufOffset;
            while (remaining > 0)
            {
                if (index >= sgl.count())
                {
                    return MrStatus.LENGTH;
                }
                final long sgeLength = sgl.length(index) & 0xffff_ffffL;
                final int chunk = (int)Math.min(remaining, sgeLength - offset);
                if (chunk <= 0)
                {
                    index++;
                    offset = 0;
                    continue;
                }
                final int status = checkLocal(pd, sgl.lkey(index), access, sgl.address(index) + offset, chunk);
                if (MrStatus.OK != status)
                {
                    return status;
                }
                if (1 == pass)
                {
                    if (null != dst)
                    {
                        copyOut(dst, pos, chunk);
                    }
                    else
                    {
                        copyIn(src, pos, chunk);
                    }
                }
                pos += chunk;
                remaining -= chunk;
                offset += chunk;
                if (offset == sgeLength)
                {
                    index++;
                    offset = 0;
                }
            }
            cursorIndex = index;
            cursorOffset = offset;
        }
        return MrStatus.OK;
    }

    /**
     * A view of the memory resolved by the last successful check, valid until the next call on this object: for
     * atomics, whose 8 aligned bytes never cross a page of a page-list region.
     *
     * @param length bytes to expose (at most the checked length, within one page).
     * @return the scratch buffer wrapped over {@link #address()}, or null if the bytes are not contiguous.
     */
    public UnsafeBuffer view(final int length)
    {
        if (region.contiguousFrom(va) < length)
        {
            return null;
        }
        scratch.wrap(region.nativeAddress(va), length);
        return scratch;
    }

    private void copyOut(final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        if (length > 0)
        {
            region.copyOut(va, dst, dstOffset, length, scratch);
        }
    }

    private void copyIn(final DirectBuffer src, final int srcOffset, final int length)
    {
        if (length > 0)
        {
            region.copyIn(va, src, srcOffset, length, scratch);
        }
    }
}
