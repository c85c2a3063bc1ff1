package io.jrxe.rxe.verbs;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.jrxe.rxe.spi.IndexAllocator;
import io.jrxe.rxe.spi.MrEntry;
import io.jrxe.rxe.spi.MrTable;
import io.jrxe.rxe.spi.SigRegion;

/**
 * The integrity (signature) region verbs of a device, as Linux has them since 5.3: {@code ib_alloc_mr_integrity},
 * {@code ib_map_mr_sg_pi}, the {@code mr->sig_attrs} the consumer fills ({@link MemoryRegion#sigAttrs(SigAttrs)}),
 * the {@link WrOpcode#REG_MR_INTEGRITY} work request and {@code ib_check_mr_status}. rxe offers none of them; the
 * semantics are mlx5's (drivers/infiniband/hw/mlx5/mr.c), the reference implementation. Called under the device
 * lock by {@link RxeDevice}, which checks the PD first.
 * <pre>
 *   allocMrIntegrity(pd, maxData, maxMeta)      FREE region, lkey = rkey
 *   mapMrSgPi(data sg, meta sg)                 iova = first data byte, length = data + meta (mlx5)
 *   mr.sigAttrs(attrs); post REG_MR_INTEGRITY   VALID; the key views data (+ PI when the wire carries it)
 *   ... RDMA through the key: PI generated/checked on the fly ...
 *   checkMrStatus(mr, CHECK_SIG_STATUS)         first signature error since the last check, cleared
 *   post LOCAL_INV                              FREE again, ready for the next mapping
 * </pre>
 */
final class IntegrityVerbs
{
    private static final long ENGINE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final long[] NO_ADDR = new long[0];
    private static final long[] NO_START = new long[1];

    private final RxeDevice device;
    private final DeviceAttr attr;
    private final MrTable table;
    private final IndexAllocator mrIndices;
    private final SplittableRandom keys;
    private final SgToSegments sgScratch;

    IntegrityVerbs(
        final RxeDevice device, final DeviceAttr attr, final MrTable table, final IndexAllocator mrIndices,
        final SplittableRandom keys, final SgToSegments sgScratch)
    {
        this.device = device;
        this.attr = attr;
        this.table = table;
        this.mrIndices = mrIndices;
        this.keys = keys;
        this.sgScratch = sgScratch;
    }

    /** ib_alloc_mr_integrity: data and meta list capacities in [1, max_fast_reg_page_list_len] (meta may be 0). */
    MemoryRegion allocMrIntegrity(final ProtectionDomain pd, final int maxNumDataSg, final int maxNumMetaSg)
    {
        final int max = attr.maxFastRegPageListLen();
        if (maxNumDataSg <= 0 || maxNumDataSg > max || maxNumMetaSg < 0 || maxNumMetaSg > max)
        {
            throw new VerbsException(Errno.EINVAL, "max_num_data_sg " + maxNumDataSg + " must be in [1, " + max +
                "] and max_num_meta_sg " + maxNumMetaSg + " in [0, " + max + "] (max_fast_reg_page_list_len)");
        }
        final int index = RxeDevice.allocate(mrIndices, "MR", attr.maxMr());
        final MrEntry entry = MrEntry.integrity(pd, index, keys.nextInt(256), maxNumDataSg, maxNumMetaSg);
        table.put(entry);
        pd.acquire();
        return new MemoryRegion(pd, MrType.INTEGRITY, entry);
    }

    /**
     * ib_map_mr_sg_pi: stage the data and protection lists (each element its own segment, as mlx5's KLM mapping);
     * the page size is checked as for map_mr_sg.
     *
     * @return data plus meta elements mapped, or a negative errno
     */
    int mapMrSgPi(
        final MemoryRegion mr,
        final long[] dataDma, final int[] dataLen, final int dataNents, final int dataOffset,
        final long[] metaDma, final int[] metaLen, final int metaNents, final int metaOffset,
        final int pageSize)
    {
        final SigRegion sig = sigOf(mr);
        if (null == sig || !MemoryVerbs.validPageSize(pageSize) || bad(dataDma, dataLen, dataNents, dataOffset) ||
            metaNents > 0 && (null == sig.meta() || bad(metaDma, metaLen, metaNents, metaOffset)))
        {
            return -Errno.EINVAL;
        }
        final SgToSegments data = sgScratch.limit(sig.data().maxPages());
        final int dataMapped = data.elements(dataDma, dataLen, dataNents, dataOffset);
        final long iova = data.iova();
        final long dataLength = data.length();
        sig.data().stage(data.addr(), data.start(), data.count(), iova, dataLength);
        long metaLength = 0;
        int metaMapped = 0;
        if (null != sig.meta())
        {
            if (metaNents > 0)
            {
                final SgToSegments meta = sgScratch.limit(sig.meta().maxPages());
                metaMapped = meta.elements(metaDma, metaLen, metaNents, metaOffset);
                metaLength = meta.length();
                sig.meta().stage(meta.addr(), meta.start(), meta.count(), meta.iova(), metaLength);
            }
            else
            {
                sig.meta().stage(NO_ADDR, NO_START, 0, 0, 0); // no protection buffer this time
            }
        }
        mr.mapped(iova, dataLength + metaLength, pageSize);
        mr.integrityMapped(dataLength, metaLength);
        return dataMapped + metaMapped;
    }

    /**
     * ib_check_mr_status, in mlx5's order ({@code mlx5_ib_check_mr_status}): other check bits are EINVAL; the
     * signature check of a region without signature support is EINVAL; an error recorded under an earlier key than
     * the region's current one is reported as a GUARD error at offset 0 with that key, as mlx5 does.
     */
    MrCheckStatus checkMrStatus(final MemoryRegion mr, final int checkMask)
    {
        if (0 != (checkMask & ~MrCheckStatus.CHECK_SIG_STATUS))
        {
            throw new VerbsException(Errno.EINVAL, "ib_check_mr_status: invalid check mask 0x" +
                Integer.toHexString(checkMask) + " (only IB_MR_CHECK_SIG_STATUS)");
        }
        final SigRegion sig = sigOf(mr);
        if (0 == checkMask)
        {
            return new MrCheckStatus(0, null);
        }
        if (null == sig)
        {
            throw new VerbsException(Errno.EINVAL, "signature status check requested on " + mr +
                ", which is not an integrity region");
        }
        final SigErr[] err = new SigErr[1];
        final int[] key = new int[1];
        final int result = device.onEngineThread(() ->
        {
            err[0] = sig.takeError();
            key[0] = mr.entry().lkey();
        }, ENGINE_TIMEOUT_NS);
        if (0 != result)
        {
            throw new VerbsException(-result, "the engine thread did not answer ib_check_mr_status (" +
                Errno.name(result) + "): is the node driven?");
        }
        if (null == err[0])
        {
            return new MrCheckStatus(0, null);
        }
        final SigErr found = err[0].key() == key[0] ? err[0] : new SigErr(SigErrType.GUARD, 0, 0, 0, err[0].key());
        return new MrCheckStatus(MrCheckStatus.CHECK_SIG_STATUS, found);
    }

    private SigRegion sigOf(final MemoryRegion mr)
    {
        if (null == mr || mr.isDeregistered() || !table.holds(mr.entry()))
        {
            throw new VerbsException(Errno.EINVAL, "MR " + mr + " is not registered on this device");
        }
        return mr.entry().sig();
    }

    private static boolean bad(final long[] dma, final int[] len, final int nents, final int offset)
    {
        if (null == dma || null == len || nents <= 0 || nents > dma.length || nents > len.length || offset < 0 ||
            offset >= len[0])
        {
            return true;
        }
        for (int i = 0; i < nents; i++)
        {
            if (0 == dma[i] || len[i] <= 0 || MemoryVerbs.wraps(dma[i], len[i]))
            {
                return true;
            }
        }
        return false;
    }
}
