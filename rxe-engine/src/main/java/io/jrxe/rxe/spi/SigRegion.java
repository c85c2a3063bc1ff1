package io.jrxe.rxe.spi;

import io.jrxe.rxe.pi.PiTuple;
import io.jrxe.rxe.pi.PiVerifier;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.SigAttrs;
import io.jrxe.rxe.verbs.SigErr;
import io.jrxe.rxe.verbs.SigErrType;
import io.jrxe.rxe.verbs.T10DifDomain;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The translation behind an integrity region ({@code IB_MR_TYPE_INTEGRITY}): the key names the region as the wire
 * sees it, and every byte copied through it is routed to the data or the protection (meta) mapping, with T10-DIF
 * generated or checked per block on the way (the on-the-fly handover of an mlx5 signature MR).
 * <pre>
 *   key view (offset k = va - iova), wire domain T10-DIF:   | data 0 | PI 0 | data 1 | PI 1 | ...
 *        block b = k / (n + 8), within = k % (n + 8):  within &lt; n -> data byte b*n + within, else PI byte
 *   key view, wire domain NONE:                           | data 0 | data 1 | ...   (k is the data offset)
 *
 *   data mapping (map_mr_sg_pi data sg):  | data 0 | data 1 | ...              n = pi_interval bytes a block
 *   meta mapping (map_mr_sg_pi meta sg):  | PI 0 | PI 1 | ...                 only if the memory domain has PI
 *
 *   out of memory (gather, READ response):  memory PI -> checked; wire PI -> copied/converted, or generated
 *   into memory (WRITE, READ placement):    wire PI   -> checked; memory PI -> copied/converted, or generated
 * </pre>
 * A tuple is checked once its block is whole: going out, when its first byte (wire PI) or the block's last data
 * byte (wire NONE) is copied; coming in, when its last byte arrives (the block's data is already in memory: RC
 * places in PSN order) or, with wire NONE, when the block's last data byte is placed. The guard is computed over
 * the block as it is in memory (read back into a per-region scratch block: the data is read twice, on this path
 * only). A failure is recorded and the copy goes on: as on mlx5, a signature error does not fail the work request;
 * the consumer calls {@code ib_check_mr_status} after the completion. jrxe keeps the first error since the last
 * {@link #takeError} (mlx5 keeps the one of the latest signature-error CQE; one operation on mlx5 reports one).
 * A retransmitted packet re-checks its blocks and finds the same error. Partial inbound tuples are held per
 * region, so two QPs writing into one integrity region at the same time (not a ULP pattern) would mix them.
 * <p>
 * Threads: the mappings are staged under the device lock and installed by REG_MR_INTEGRITY on the engine thread,
 * which alone copies and records errors; {@link #takeError} runs there too ({@code invoke}).
 */
public final class SigRegion
{
    private final MrEntry data;
    private final MrEntry meta;
    private final UnsafeBuffer block = new UnsafeBuffer(new byte[T10DifDomain.MAX_PI_INTERVAL]);
    private final UnsafeBuffer memPi = new UnsafeBuffer(new byte[PiTuple.SIZE]);
    private final UnsafeBuffer wirePi = new UnsafeBuffer(new byte[PiTuple.SIZE]);
    private final PiVerifier verifier = new PiVerifier();

    private SigAttrs attrs;
    private T10DifDomain memDif;
    private T10DifDomain wireDif;
    private int interval;
    private int stride;
    private int key;

    private boolean errPresent;
    private int errType;
    private int errExpected;
    private int errActual;
    private long errOffset;
    private int errKey;

    SigRegion(final MrEntry data, final MrEntry meta)
    {
        this.data = data;
        this.meta = meta;
    }

    /** @return the data mapping (staged by map_mr_sg_pi). */
    public MrEntry data()
    {
        return data;
    }

    /** @return the protection mapping, null if the region was allocated without meta SGEs. */
    public MrEntry meta()
    {
        return meta;
    }

    /**
     * REG_MR_INTEGRITY, engine thread: install the staged mappings and the attributes.
     *
     * @param newKey the region's key
     * @param sig    the attributes the work request carried (checked at post)
     * @return the length of the key view, or -1 if the attributes do not fit the mapping or a mapping was staged
     * while this ran
     */
    long register(final int newKey, final SigAttrs sig)
    {
        if (null != SigAttrs.problem(sig))
        {
            return -1;
        }
        final long metaLength = null == meta ? 0 : meta.stagedLength();
        if (null != SigAttrs.layoutProblem(sig, data.stagedLength(), metaLength))
        {
            return -1;
        }
        if (!data.installStaged(newKey, AccessFlags.LOCAL_WRITE) ||
            sig.mem().hasPi() && !meta.installStaged(newKey, AccessFlags.LOCAL_WRITE))
        {
            return -1;
        }
        attrs = sig;
        memDif = sig.mem().dif();
        wireDif = sig.wire().dif();
        interval = sig.piInterval();
        stride = null != wireDif ? interval + PiTuple.SIZE : interval;
        key = newKey;
        return sig.wireLength(data.length());
    }

    /** @return I/O virtual address of the key view: that of the first data byte. */
    long iova()
    {
        return data.iova();
    }

    /** Copy {@code length} bytes of the key view from offset {@code k} out into dst (gather, READ response). */
    void copyOut(final long k, final MutableDirectBuffer dst, final int dstOffset, final int length,
        final UnsafeBuffer scratch)
    {
        int done = 0;
        while (done < length)
        {
            final long pos = k + done;
            final long b = pos / stride;
            final int within = (int)(pos - b * stride);
            final int chunk;
            if (within < interval)
            {
                chunk = Math.min(length - done, interval - within);
                data.copyOut(data.iova() + b * interval + within, dst, dstOffset + done, chunk, scratch);
                if (null == wireDif && within + chunk == interval)
                {
                    checkMemory(b, scratch); // strip: memory PI checked, nothing of it goes out
                }
            }
            else
            {
                final int p = within - interval;
                chunk = Math.min(length - done, PiTuple.SIZE - p);
                outgoingTuple(b, 0 == p, scratch);
                dst.putBytes(dstOffset + done, wirePi, p, chunk);
            }
            done += chunk;
        }
    }

    /** Copy {@code length} bytes from src into the key view at offset {@code k} (WRITE, READ placement, receive). */
    void copyIn(final long k, final DirectBuffer src, final int srcOffset, final int length, final UnsafeBuffer scratch)
    {
        int done = 0;
        while (done < length)
        {
            final long pos = k + done;
            final long b = pos / stride;
            final int within = (int)(pos - b * stride);
            final int chunk;
            if (within < interval)
            {
                chunk = Math.min(length - done, interval - within);
                data.copyIn(data.iova() + b * interval + within, src, srcOffset + done, chunk, scratch);
                if (null == wireDif && within + chunk == interval)
                {
                    insertMemory(b, scratch); // wire NONE, memory PI: generated on the way in
                }
            }
            else
            {
                final int p = within - interval;
                chunk = Math.min(length - done, PiTuple.SIZE - p);
                wirePi.putBytes(p, src, srcOffset + done, chunk);
                if (p + chunk == PiTuple.SIZE)
                {
                    incomingTuple(b, scratch);
                }
            }
            done += chunk;
        }
    }

    // the wire tuple of block b into wirePi; the memory tuple is checked once (when the first byte goes out)
    private void outgoingTuple(final long b, final boolean first, final UnsafeBuffer scratch)
    {
        if (null == memDif)
        {
            PiTuple.generate(wireDif, blockGuard(wireDif, b, scratch), b, wirePi, 0); // insert
            return;
        }
        meta.copyOut(meta.iova() + b * PiTuple.SIZE, memPi, 0, PiTuple.SIZE, scratch);
        if (first)
        {
            verify(memDif, b, memPi, scratch);
        }
        final int guard = PiTuple.regeneratesGuard(memDif, wireDif) ? blockGuard(wireDif, b, scratch) : 0;
        PiTuple.convert(memDif, wireDif, memPi, 0, guard, b, wirePi, 0);
    }

    // a whole wire tuple of block b arrived in wirePi: check it, then keep (convert) or drop (strip) it
    private void incomingTuple(final long b, final UnsafeBuffer scratch)
    {
        verify(wireDif, b, wirePi, scratch);
        if (null != memDif)
        {
            final int guard = PiTuple.regeneratesGuard(wireDif, memDif) ? blockGuard(memDif, b, scratch) : 0;
            PiTuple.convert(wireDif, memDif, wirePi, 0, guard, b, memPi, 0);
            meta.copyIn(meta.iova() + b * PiTuple.SIZE, memPi, 0, PiTuple.SIZE, scratch);
        }
    }

    private void checkMemory(final long b, final UnsafeBuffer scratch)
    {
        if (null != memDif)
        {
            meta.copyOut(meta.iova() + b * PiTuple.SIZE, memPi, 0, PiTuple.SIZE, scratch);
            verify(memDif, b, memPi, scratch);
        }
    }

    private void insertMemory(final long b, final UnsafeBuffer scratch)
    {
        if (null != memDif)
        {
            PiTuple.generate(memDif, blockGuard(memDif, b, scratch), b, memPi, 0);
            meta.copyIn(meta.iova() + b * PiTuple.SIZE, memPi, 0, PiTuple.SIZE, scratch);
        }
    }

    private void verify(final T10DifDomain domain, final long b, final UnsafeBuffer pi, final UnsafeBuffer scratch)
    {
        final int result = verifier.verify(domain, attrs.checkMask(), blockGuard(domain, b, scratch), b, pi, 0);
        if (PiVerifier.OK != result && !errPresent)
        {
            errPresent = true;
            errType = result;
            errExpected = verifier.expected();
            errActual = verifier.actual();
            errOffset = b * (interval + PiTuple.SIZE);
            errKey = key;
        }
    }

    // the guard of block b's data as it is in memory now
    private int blockGuard(final T10DifDomain domain, final long b, final UnsafeBuffer scratch)
    {
        data.copyOut(data.iova() + b * interval, block, 0, interval, scratch);
        return PiTuple.guard(domain, block, 0, interval);
    }

    /**
     * ib_check_mr_status(IB_MR_CHECK_SIG_STATUS), engine thread: the first signature error since the last call,
     * which this call clears (mlx5 {@code mlx5_ib_check_mr_status}).
     *
     * @return the error, or null if none
     */
    public SigErr takeError()
    {
        if (!errPresent)
        {
            return null;
        }
        errPresent = false;
        final SigErrType type = PiVerifier.GUARD == errType ? SigErrType.GUARD :
            PiVerifier.APPTAG == errType ? SigErrType.APPTAG : SigErrType.REFTAG;
        return new SigErr(type, errExpected, errActual, errOffset, errKey);
    }
}
