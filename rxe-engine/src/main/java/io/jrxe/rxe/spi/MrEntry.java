package io.jrxe.rxe.spi;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.SigAttrs;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A memory region as the key table and the engine see it (rxe's {@code rxe_mr}): its internal keys, state, rights
 * and the translation from I/O virtual addresses to native memory. The application holds a
 * {@link io.jrxe.rxe.verbs.MemoryRegion}; this is what is behind it.
 * <pre>
 *   contiguous (ib_reg_mr):   [iova, iova + length)  ->  [address, address + length)
 *
 *   segments (FRWR, FMR):     offset k = va - iova, 0 &lt;= k &lt; length
 *        start[0] = 0 &lt; start[1] &lt; ... &lt; start[n] = length     segment i: k in [start[i], start[i + 1])
 *        native = addr[i] + (k - start[i])                          (i found by binary search)
 *     MEM_REG / FMR: segment i is page i (the first one from the offset of iova in its page, the last one up to the
 *     end of the data); SG_GAPS: segment i is scatter/gather element i, of any length and alignment
 *
 *   lkey = rkey = | index (24 bits) | key byte (8 bits) |       rkey 0 when no remote right (user MRs)
 *
 *   DMA-mapped (ib_reg_mr over ib_dma_alloc_coherent memory): the NIC reaches the same bytes at
 *     dmaAddress + (va - iova)      (what a hardware RNIC's MTT holds), so a packet's payload can be a descriptor
 *                                   of its own, read by the NIC from the MR itself (zero-copy transmit)
 * </pre>
 * Writers: a user MR's translation is fixed at registration; a fast-registration MR's translation, keys, rights
 * and state are written by the engine thread only (REG_MR and LOCAL_INV in send-queue order, SEND with Invalidate
 * on receipt), and FMR mappings are applied on the engine thread too, so engine reads need no lock. The segments a
 * consumer maps with {@code map_mr_sg} are staged apart and copied in by the REG_MR that follows.
 * Deregistration only turns {@link #state()} to FREE (volatile), which the next key check sees.
 */
public final class MrEntry
{
    /** Not usable: deregistered, or a fast-registration MR that is not (or no longer) registered. */
    public static final int STATE_FREE = 0;
    /** Usable for the accesses its rights allow. */
    public static final int STATE_VALID = 1;

    /** Registered over contiguous memory ({@code ib_reg_mr}). */
    public static final int KIND_USER = 0;
    /** {@link #dmaAddress(long)} of a region the NIC cannot reach. */
    public static final long NOT_DMA_MAPPED = -1L;

    /** Allocated for fast registration ({@code ib_alloc_mr}); registered by REG_MR work requests. */
    public static final int KIND_FAST = 1;
    /** A fast memory region ({@code ib_alloc_fmr}); mapped by {@code ib_map_phys_fmr}. */
    public static final int KIND_FMR = 2;
    /**
     * An integrity (signature) region ({@code ib_alloc_mr_integrity}); registered by REG_MR_INTEGRITY over the data
     * and protection mappings of its {@link #sig()}.
     */
    public static final int KIND_INTEGRITY = 3;

    private final ProtectionDomain pd;
    private final int index;
    private final int kind;
    private final boolean gaps;
    private final AtomicInteger boundWindows = new AtomicInteger();
    /** The data/PI routing of an integrity region, null for every other kind (the one branch of the copy paths). */
    private final SigRegion sig;
    private volatile int state;
    private int lkey;
    private int rkey;
    private int access;
    private long iova;
    private long length;
    private long address;
    private final long[] segAddr;
    private final long[] segStart;
    private int segCount;
    /** IOVA at which the NIC reads the byte at {@link #address}, {@link #NOT_DMA_MAPPED} if it cannot. */
    private long dmaAddress = NOT_DMA_MAPPED;
    /** A view over the region's bytes, for the ICRC over a payload the NIC reads from the region. */
    private UnsafeBuffer dmaView;
    /** A private duplicate of {@link #dmaView}'s ByteBuffer (engine thread), so the CRC runs over it in place. */
    private ByteBuffer crcView;

    private final long[] stagedAddr;
    private final long[] stagedStart;
    private int stagedCount;
    private long stagedIova;
    private long stagedLength;
    /** Odd while {@link #stage} writes the staged translation; a REG_MR that saw it change fails (a seqlock). */
    private volatile int stageSequence;

    /**
     * A user MR over contiguous memory, valid at once.
     *
     * @param pd      owning PD
     * @param index   key index (upper 24 bits of the keys)
     * @param keyByte key byte (lower 8 bits)
     * @param access  {@link AccessFlags}
     * @param address native address of the first byte
     * @param length  bytes
     * @param iova    I/O virtual address of the first byte
     * @return the entry
     */
    public static MrEntry user(
        final ProtectionDomain pd,
        final int index,
        final int keyByte,
        final int access,
        final long address,
        final long length,
        final long iova)
    {
        final MrEntry e = new MrEntry(pd, index, KIND_USER, false, 0);
        final int key = (index << 8) | (keyByte & 0xff);
        e.lkey = key;
        e.rkey = 0 != (access & AccessFlags.REMOTE) ? key : 0;
        e.access = access;
        e.address = address;
        e.length = length;
        e.iova = iova;
        e.state = STATE_VALID;
        return e;
    }

    /**
     * A user MR over memory the NIC can read by DMA (mapped through its IOMMU for as long as the MR lives): the
     * engine may let the NIC take a packet's payload from it directly.
     *
     * @param dmaAddress IOVA of the byte at {@code address} in the NIC's address space
     * @param view       a view over exactly the region's bytes (index 0 = {@code address}); one over a direct
     *                   ByteBuffer lets the ICRC run over the bytes in place
     * @return the entry
     * @see #user(ProtectionDomain, int, int, int, long, long, long)
     */
    public static MrEntry userDma(
        final ProtectionDomain pd,
        final int index,
        final int keyByte,
        final int access,
        final long address,
        final long length,
        final long iova,
        final long dmaAddress,
        final UnsafeBuffer view)
    {
        final MrEntry e = user(pd, index, keyByte, access, address, length, iova);
        e.dmaAddress = dmaAddress;
        e.dmaView = view;
        final ByteBuffer source = view.byteBuffer();
        if (null != source && source.isDirect())
        {
            e.crcView = source.duplicate();
        }
        return e;
    }

    /**
     * An MR for fast registration or an FMR: FREE with no translation until registered or mapped; its rkey is its
     * lkey (rxe sets both for fast-registration MRs, whatever rights a later registration grants).
     *
     * @param pd       owning PD
     * @param index    key index
     * @param keyByte  initial key byte
     * @param kind     {@link #KIND_FAST} or {@link #KIND_FMR}
     * @param gaps     whether page lists may have gaps between elements ({@code IB_MR_TYPE_SG_GAPS})
     * @param maxPages capacity of the page (or element) list
     * @return the entry
     */
    public static MrEntry pageList(
        final ProtectionDomain pd, final int index, final int keyByte, final int kind, final boolean gaps,
        final int maxPages)
    {
        final MrEntry e = new MrEntry(pd, index, kind, gaps, maxPages);
        e.lkey = (index << 8) | (keyByte & 0xff);
        e.rkey = e.lkey;
        e.state = STATE_FREE;
        return e;
    }

    /**
     * An integrity region: FREE until REG_MR_INTEGRITY; its data and protection mappings are element lists
     * (arbitrary SG, like SG_GAPS: mlx5 maps them with KLMs).
     *
     * @param pd          owning PD
     * @param index       key index
     * @param keyByte     initial key byte
     * @param maxDataSg   capacity of the data mapping
     * @param maxMetaSg   capacity of the protection mapping, 0 for none
     * @return the entry
     */
    public static MrEntry integrity(
        final ProtectionDomain pd, final int index, final int keyByte, final int maxDataSg, final int maxMetaSg)
    {
        final MrEntry data = pageList(pd, index, keyByte, KIND_FAST, true, maxDataSg);
        final MrEntry meta = 0 == maxMetaSg ? null : pageList(pd, index, keyByte, KIND_FAST, true, maxMetaSg);
        final MrEntry e = new MrEntry(pd, index, KIND_INTEGRITY, true, 0, new SigRegion(data, meta));
        e.lkey = data.lkey;
        e.rkey = e.lkey;
        e.state = STATE_FREE;
        return e;
    }

    private MrEntry(final ProtectionDomain pd, final int index, final int kind, final boolean gaps, final int maxPages)
    {
        this(pd, index, kind, gaps, maxPages, null);
    }

    private MrEntry(
        final ProtectionDomain pd, final int index, final int kind, final boolean gaps, final int maxPages,
        final SigRegion sig)
    {
        this.sig = sig;
        this.pd = pd;
        this.index = index;
        this.kind = kind;
        this.gaps = gaps;
        this.segAddr = KIND_USER == kind ? null : new long[maxPages];
        this.segStart = KIND_USER == kind ? null : new long[maxPages + 1];
        this.stagedAddr = KIND_USER == kind ? null : new long[maxPages];
        this.stagedStart = KIND_USER == kind ? null : new long[maxPages + 1];
    }

    /** @return owning PD. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return key index. */
    public int index()
    {
        return index;
    }

    /** @return {@link #KIND_USER}, {@link #KIND_FAST} or {@link #KIND_FMR}. */
    public int kind()
    {
        return kind;
    }

    /** @return the data/PI routing of an integrity region, null for other kinds. */
    public SigRegion sig()
    {
        return sig;
    }

    /** @return whether page lists may have gaps (SG_GAPS). */
    public boolean allowsGaps()
    {
        return gaps;
    }

    /** @return {@link #STATE_FREE} or {@link #STATE_VALID}. */
    public int state()
    {
        return state;
    }

    /** @return the local key checked against SGEs. */
    public int lkey()
    {
        return lkey;
    }

    /** @return the remote key checked against RETH/AtomicETH, 0 when none was issued. */
    public int rkey()
    {
        return rkey;
    }

    /** @return current rights. */
    public int access()
    {
        return access;
    }

    /** @return I/O virtual address of the first byte. */
    public long iova()
    {
        return iova;
    }

    /** @return length in bytes. */
    public long length()
    {
        return length;
    }

    /** @return native address of the first byte of a contiguous (user) MR, 0 for page-list MRs. */
    public long address()
    {
        return address;
    }

    /** @return whether the NIC can read the region's bytes by DMA ({@link #userDma}). */
    public boolean dmaMapped()
    {
        return NOT_DMA_MAPPED != dmaAddress;
    }

    /**
     * @param va an I/O virtual address inside a DMA-mapped region
     * @return the address at which the NIC reads that byte
     */
    public long dmaAddress(final long va)
    {
        return dmaAddress + (va - iova);
    }

    /** @return the view over the region's bytes of a DMA-mapped region (index 0 = the byte at {@code iova}). */
    public UnsafeBuffer dmaView()
    {
        return dmaView;
    }

    /**
     * @return a duplicate of the direct ByteBuffer under {@link #dmaView()}, private to the engine thread (its
     * position and limit are the caller's), or null if the memory has none
     */
    public ByteBuffer crcView()
    {
        return crcView;
    }

    /** @return capacity of the page list, 0 for a user MR. */
    public int maxPages()
    {
        return null == segAddr ? 0 : segAddr.length;
    }

    /** @return number of memory windows bound to this region. */
    public int boundWindows()
    {
        return boundWindows.get();
    }

    void incBoundWindows()
    {
        boundWindows.incrementAndGet();
    }

    void decBoundWindows()
    {
        boundWindows.decrementAndGet();
    }

    /** Deregistration: the next key check fails (the index may be reused by a new MR afterwards). */
    public void free()
    {
        state = STATE_FREE;
    }

    // ---------------------------------------------------------------- fast registration

    /**
     * Stage the translation for the next REG_MR or FMR map (application thread, or the engine thread for an FMR):
     * segment i starts at offset {@code start[i]} of the region and at native address {@code addr[i]}. The caller
     * has checked the list against {@link #maxPages()} and the page-size rules.
     *
     * @param addr   native address of each segment's first byte
     * @param start  region offset of each segment, {@code start[0] = 0}, increasing
     * @param count  segments
     * @param iova   I/O virtual address the registration will have
     * @param length bytes mapped (the end of the last segment)
     */
    public void stage(final long[] addr, final long[] start, final int count, final long iova, final long length)
    {
        stageSequence = stageSequence + 1; // one writer at a time (the device lock, or the engine thread for FMRs)
        System.arraycopy(addr, 0, stagedAddr, 0, count);
        System.arraycopy(start, 0, stagedStart, 0, count);
        stagedStart[count] = length;
        stagedCount = count;
        stagedIova = iova;
        stagedLength = length;
        stageSequence = stageSequence + 1;
    }

    /**
     * Execute a REG_MR work request (rxe {@code rxe_reg_fast_mr}), engine thread: the region must be a FREE
     * fast-registration region (IBA 10.6.3.3: a fast registration of a valid region fails) and the key must name it
     * (only its key byte may change). It takes the staged translation, the key and the rights, and becomes VALID;
     * the rkey is the key when a remote right is granted, else 0 (rxe 6.1).
     *
     * @param key    the new lkey/rkey
     * @param rights {@link AccessFlags} granted
     * @return {@link MrStatus#OK}, {@link MrStatus#INVALID_STATE} or {@link MrStatus#INVALID_KEY}
     */
    public int fastRegister(final int key, final int rights)
    {
        if (KIND_FAST != kind || STATE_FREE != state || boundWindows.get() > 0)
        {
            return MrStatus.INVALID_STATE; // a window still over it would see a new translation
        }
        if ((key >>> 8) != index)
        {
            return MrStatus.INVALID_KEY;
        }
        // a map_mr_sg racing with this REG_MR (the consumer's mistake) must not leave a mixed translation
        final boolean installed = install(key, 0 != (rights & AccessFlags.REMOTE) ? key : 0, rights);
        return installed ? MrStatus.OK : MrStatus.INVALID_STATE;
    }

    /**
     * Map an FMR ({@code ib_map_phys_fmr}), engine thread: install the staged translation under a new key, VALID.
     * FMR keys are the rkey whatever the rights, as ib_fmr carries one lkey and one rkey.
     *
     * @param key    the new key
     * @param rights rights
     */
    public void mapFmr(final int key, final int rights)
    {
        install(key, key, rights);
    }

    /**
     * Execute a REG_MR_INTEGRITY work request, engine thread: as {@link #fastRegister}, for an integrity region;
     * its data and protection mappings and the attributes are installed together.
     *
     * @param key    the new lkey/rkey
     * @param rights {@link AccessFlags} granted
     * @param attrs  the attributes the work request carried
     * @return {@link MrStatus#OK}, {@link MrStatus#INVALID_STATE}, {@link MrStatus#INVALID_KEY} or
     * {@link MrStatus#NOT_ALLOWED} (attributes that do not fit the mapping)
     */
    public int registerIntegrity(final int key, final int rights, final SigAttrs attrs)
    {
        if (KIND_INTEGRITY != kind || STATE_FREE != state || boundWindows.get() > 0)
        {
            return MrStatus.INVALID_STATE;
        }
        if ((key >>> 8) != index)
        {
            return MrStatus.INVALID_KEY;
        }
        final long viewLength = sig.register(key, attrs);
        if (viewLength < 0)
        {
            return MrStatus.NOT_ALLOWED;
        }
        iova = sig.iova();
        length = viewLength;
        access = rights;
        lkey = key;
        rkey = 0 != (rights & AccessFlags.REMOTE) ? key : 0;
        state = STATE_VALID;
        return MrStatus.OK;
    }

    /** @return bytes of the translation staged for the next registration. */
    long stagedLength()
    {
        return stagedLength;
    }

    /** Install the staged translation (the mappings of an integrity region), engine thread. */
    boolean installStaged(final int key, final int rights)
    {
        return install(key, key, rights);
    }

    // copy the staged translation in and become VALID, unless stage() ran meanwhile
    private boolean install(final int newLkey, final int newRkey, final int rights)
    {
        final int sequence = stageSequence;
        if (0 != (sequence & 1))
        {
            return false;
        }
        final int count = stagedCount;
        System.arraycopy(stagedAddr, 0, segAddr, 0, count);
        System.arraycopy(stagedStart, 0, segStart, 0, count + 1);
        final long va = stagedIova;
        final long len = stagedLength;
        if (sequence != stageSequence)
        {
            return false;
        }
        segCount = count;
        iova = va;
        length = len;
        access = rights;
        lkey = newLkey;
        rkey = newRkey;
        state = STATE_VALID;
        return true;
    }

    /**
     * Invalidate (LOCAL_INV, SEND with Invalidate, FMR unmap; rxe {@code rxe_invalidate_mr}), engine thread. Only
     * fast-registration MRs and FMRs can be invalidated, by their current key, and not while windows are bound.
     *
     * @param key the rkey/lkey to invalidate
     * @return {@link MrStatus#OK}, {@link MrStatus#INVALID_KEY} or {@link MrStatus#NOT_ALLOWED}
     */
    public int invalidate(final int key)
    {
        if (key != (0 != rkey ? rkey : lkey)) // rxe_invalidate_mr: the whole 32-bit key must match
        {
            return MrStatus.INVALID_KEY;
        }
        if (KIND_FAST != kind && KIND_INTEGRITY != kind || boundWindows.get() > 0) // not user MRs, not FMRs
        {
            return MrStatus.NOT_ALLOWED;
        }
        state = STATE_FREE;
        return MrStatus.OK;
    }

    /** FMR unmap ({@code ib_unmap_fmr}), engine thread: FREE until mapped again. */
    public void unmapFmr()
    {
        state = STATE_FREE;
        segCount = 0;
        length = 0;
    }

    // ---------------------------------------------------------------- translation (engine thread)

    /**
     * @param va an I/O virtual address inside the region
     * @return the native address of that byte
     */
    public long nativeAddress(final long va)
    {
        if (null != sig)
        {
            return 0; // an integrity region has no native view: its bytes are routed (atomics find none)
        }
        if (null == segAddr)
        {
            return address + (va - iova);
        }
        final long k = va - iova;
        final int i = segment(k);
        return segAddr[i] + (k - segStart[i]);
    }

    /**
     * @param va an I/O virtual address inside the region
     * @return bytes from va to the end of its segment (the whole rest of the region when contiguous)
     */
    long contiguousFrom(final long va)
    {
        final long k = va - iova;
        if (null != sig)
        {
            return 0;
        }
        if (null == segAddr)
        {
            return length - k;
        }
        return segStart[segment(k) + 1] - k;
    }

    // the last segment starting at or before offset k (binary search; the engine checked k < length)
    private int segment(final long k)
    {
        int low = 0;
        int high = segCount - 1;
        while (low < high)
        {
            final int mid = (low + high + 1) >>> 1;
            if (segStart[mid] <= k)
            {
                low = mid;
            }
            else
            {
                high = mid - 1;
            }
        }
        return low;
    }

    /**
     * Copy region bytes out into a buffer, page by page.
     *
     * @param va        start (checked to lie in the region)
     * @param dst       destination
     * @param dstOffset offset in dst
     * @param length    bytes
     * @param scratch   a reusable wrapper
     */
    void copyOut(
        final long va, final MutableDirectBuffer dst, final int dstOffset, final int length, final UnsafeBuffer scratch)
    {
        if (null != sig)
        {
            sig.copyOut(va - iova, dst, dstOffset, length, scratch);
            return;
        }
        if (null == segAddr)
        {
            scratch.wrap(address + (va - iova), length);
            dst.putBytes(dstOffset, scratch, 0, length);
            return;
        }
        long k = va - iova;
        int done = 0;
        for (int i = segment(k); done < length; i++) // one search, then segment after segment
        {
            final int chunk = (int)Math.min(length - done, segStart[i + 1] - k);
            scratch.wrap(segAddr[i] + (k - segStart[i]), chunk);
            dst.putBytes(dstOffset + done, scratch, 0, chunk);
            done += chunk;
            k += chunk;
        }
    }

    /**
     * Copy buffer bytes into the region, page by page.
     *
     * @param va        start (checked to lie in the region)
     * @param src       source
     * @param srcOffset offset in src
     * @param length    bytes
     * @param scratch   a reusable wrapper
     */
    void copyIn(
        final long va, final DirectBuffer src, final int srcOffset, final int length, final UnsafeBuffer scratch)
    {
        if (null != sig)
        {
            sig.copyIn(va - iova, src, srcOffset, length, scratch);
            return;
        }
        if (null == segAddr)
        {
            scratch.wrap(address + (va - iova), length);
            scratch.putBytes(0, src, srcOffset, length);
            return;
        }
        long k = va - iova;
        int done = 0;
        for (int i = segment(k); done < length; i++) // one search, then segment after segment
        {
            final int chunk = (int)Math.min(length - done, segStart[i + 1] - k);
            scratch.wrap(segAddr[i] + (k - segStart[i]), chunk);
            scratch.putBytes(0, src, srcOffset + done, chunk);
            done += chunk;
            k += chunk;
        }
    }

    /** {@inheritDoc} */
    public String toString()
    {
        return "MrEntry{lkey=0x" + Integer.toHexString(lkey) + ", rkey=0x" + Integer.toHexString(rkey) +
            ", kind=" + kind + ", state=" + state + ", access=" + AccessFlags.toString(access) +
            ", iova=0x" + Long.toHexString(iova) + ", length=" + length + '}';
    }
}
