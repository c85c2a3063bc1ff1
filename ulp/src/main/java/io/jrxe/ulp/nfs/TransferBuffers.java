package io.jrxe.ulp.nfs;

import org.agrona.BufferUtil;

import java.nio.ByteBuffer;

/**
 * Gives {@link Nfs3Session} the direct memory its READs land in and its WRITEs leave from, one buffer per
 * outstanding call, allocated once per session. Over RDMA the transport may need that memory registered: give the
 * session buffers from registered memory.
 */
public interface TransferBuffers
{
    /** Page-aligned direct buffers from the Java heap's direct memory. */
    TransferBuffers DIRECT = new TransferBuffers()
    {
        @Override
        public ByteBuffer allocate(final int bytes)
        {
            return BufferUtil.allocateDirectAligned(bytes, 4096);
        }
    };

    /**
     * @param bytes capacity
     * @return a direct buffer of at least that capacity
     */
    ByteBuffer allocate(int bytes);
}
