package io.jrxe.tests;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.RxeDevice;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A registered buffer with unregistered guard bytes on both sides, so a test can prove that nothing outside a
 * grant was written.
 * <pre>
 *   | guard (GUARD bytes of GUARD_BYTE) | registered: length bytes (the MR), zeroed | guard (GUARD bytes) |
 *   ^ 64-byte aligned                   ^ inner.addressOffset() = mr start (64-byte aligned)
 * </pre>
 */
final class GuardedRegion
{
    static final int GUARD = 256;
    static final byte GUARD_BYTE = (byte)0xA5;

    final UnsafeBuffer whole;
    final UnsafeBuffer inner;
    final MemoryRegion mr;
    final int length;

    GuardedRegion(final RxeDevice device, final ProtectionDomain pd, final int length, final int access)
    {
        if (length <= 0)
        {
            throw new IllegalArgumentException("region length must be positive: " + length);
        }
        this.length = length;
        whole = new UnsafeBuffer(BufferUtil.allocateDirectAligned(length + 2 * GUARD, 64));
        whole.setMemory(0, whole.capacity(), GUARD_BYTE);
        inner = new UnsafeBuffer(whole, GUARD, length);
        inner.setMemory(0, length, (byte)0);
        mr = device.regMr(pd, inner, access);
    }

    long address(final int offset)
    {
        return inner.addressOffset() + offset;
    }

    int lkey()
    {
        return mr.lkey();
    }

    int rkey()
    {
        return mr.rkey();
    }

    /** Fails if any guard byte changed. */
    void assertGuardsIntact(final String what)
    {
        for (int i = 0; i < GUARD; i++)
        {
            if (GUARD_BYTE != whole.getByte(i) || GUARD_BYTE != whole.getByte(GUARD + length + i))
            {
                fail(what + ": a guard byte around the registered buffer was written (offset " + i + ")");
            }
        }
    }
}
