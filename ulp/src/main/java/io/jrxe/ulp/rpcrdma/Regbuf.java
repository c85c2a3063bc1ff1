package io.jrxe.ulp.rpcrdma;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.RxeDevice;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A buffer registered for LOCAL access only (Linux {@code struct rpcrdma_regbuf}): what a transport posts SENDs
 * from and RECVs into. Never offered to the peer for RDMA READ or WRITE: chunks are registered separately, per
 * RPC, with FRWR ({@link FrwrMr}). Made by {@link RpcRdmaTransport#allocRegbuf} or the server's pools and freed by
 * their {@code freeRegbuf}.
 * <pre>
 *   buffer: direct memory, 4 KiB aligned, size bytes    mr: its registration (LOCAL_WRITE), lkey for SGEs
 * </pre>
 */
public final class Regbuf
{
    private final UnsafeBuffer buffer;
    private final MemoryRegion mr;
    /** Its index in the server's pool it belongs to (-1: none), so giving it back is not a search. */
    int poolIndex = -1;

    /**
     * Page-aligned direct memory, registered for LOCAL_WRITE only (rpcrdma_alloc_regbuf's registration).
     *
     * @param device the device
     * @param pd its PD
     * @param size bytes, rounded up to pages
     * @return the regbuf
     */
    static Regbuf register(final RxeDevice device, final ProtectionDomain pd, final int size)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            (size + FrwrOps.PAGE - 1) & ~(FrwrOps.PAGE - 1), FrwrOps.PAGE));
        return new Regbuf(buffer, device.regMr(pd, buffer, AccessFlags.LOCAL_WRITE));
    }

    Regbuf(final UnsafeBuffer buffer, final MemoryRegion mr)
    {
        this.buffer = buffer;
        this.mr = mr;
    }

    /** @return the memory */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return its registration */
    public MemoryRegion mr()
    {
        return mr;
    }

    /** @return the lkey for SGEs */
    public int lkey()
    {
        return mr.lkey();
    }

    /** @return the address of the first byte */
    public long address()
    {
        return buffer.addressOffset();
    }

    /** @return bytes */
    public int size()
    {
        return buffer.capacity();
    }
}
