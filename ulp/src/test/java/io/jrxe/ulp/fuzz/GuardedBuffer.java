package io.jrxe.ulp.fuzz;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A buffer that fails every read outside [lo, hi): the region the code under test was given. Agrona's own
 * checks stop only at the buffer's capacity; the guard bytes around the region are there to be caught. Shared by
 * the fuzz targets of the codecs ({@code RpcRdmaFuzzTest}, {@code MadDecodeFuzzTest}); the failure is an
 * {@link AssertionError} so that no {@code catch (RuntimeException)} in the code under test can swallow it.
 */
public final class GuardedBuffer extends UnsafeBuffer
{
    private int lo;
    private int hi;

    /**
     * @param capacity bytes of direct memory; the whole of it is readable until {@link #guard} says otherwise
     */
    public GuardedBuffer(final int capacity)
    {
        super(ByteBuffer.allocateDirect(capacity));
        lo = 0;
        hi = capacity;
    }

    /**
     * @param lo first readable index
     * @param hi first index past the readable region
     */
    public void guard(final int lo, final int hi)
    {
        this.lo = lo;
        this.hi = hi;
    }

    private void read(final int index, final int length)
    {
        if (index < lo || length < 0 || index > hi - length)
        {
            throw new AssertionError("read of " + length + " bytes at " + index + " outside the region " + lo +
                ".." + hi);
        }
    }

    @Override
    public void boundsCheck(final int index, final int length)
    {
        read(index, length); // a putBytes from this buffer into another checks its source here
        super.boundsCheck(index, length);
    }

    @Override
    public byte getByte(final int index)
    {
        read(index, 1);
        return super.getByte(index);
    }

    @Override
    public short getShort(final int index, final ByteOrder order)
    {
        read(index, 2);
        return super.getShort(index, order);
    }

    @Override
    public int getInt(final int index)
    {
        read(index, 4);
        return super.getInt(index);
    }

    @Override
    public int getInt(final int index, final ByteOrder order)
    {
        read(index, 4);
        return super.getInt(index, order);
    }

    @Override
    public long getLong(final int index)
    {
        read(index, 8);
        return super.getLong(index);
    }

    @Override
    public long getLong(final int index, final ByteOrder order)
    {
        read(index, 8);
        return super.getLong(index, order);
    }

    @Override
    public void getBytes(final int index, final byte[] dst)
    {
        read(index, dst.length);
        super.getBytes(index, dst);
    }

    @Override
    public void getBytes(final int index, final byte[] dst, final int offset, final int length)
    {
        read(index, length);
        super.getBytes(index, dst, offset, length);
    }

    @Override
    public void getBytes(final int index, final MutableDirectBuffer dst, final int dstIndex, final int length)
    {
        read(index, length);
        super.getBytes(index, dst, dstIndex, length);
    }
}
