package io.jrxe.vfio;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.jrxe.vfio.LinuxConstants.EFD_CLOEXEC;
import static io.jrxe.vfio.LinuxConstants.EFD_NONBLOCK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interrupt waiter over real eventfds (what vfio-pci signals), written here as the kernel would. */
class VfioIrqWaiterTest
{
    /** write(2), which the control plane never needs: only to play the kernel's part here. */
    interface Write extends Library
    {
        long write(int fd, Pointer buffer, long count);
    }

    private static final Write LIBC = Native.load("c", Write.class);

    private final Syscalls sys = new NativeSyscalls();
    private final int[] eventfds = {
        sys.eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), sys.eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK) };

    @AfterEach
    void closeEventfds()
    {
        for (final int efd : eventfds)
        {
            sys.close(efd);
        }
    }

    private void interrupt(final int vector)
    {
        final Memory one = new Memory(Long.BYTES);
        one.setLong(0, 1);
        assertEquals(Long.BYTES, LIBC.write(eventfds[vector], one, Long.BYTES));
    }

    @Test
    void reportsTheVectorsThatFiredAndResetsTheirCounters()
    {
        assertTrue(eventfds[0] >= 0 && eventfds[1] >= 0);
        final VfioIrqWaiter waiter = new VfioIrqWaiter(sys, eventfds);
        assertEquals(0, waiter.await(0), "nothing fired yet: a timeout");
        interrupt(1);
        interrupt(1);
        assertEquals(1, waiter.await(1_000), "two messages on one vector: one wake-up");
        assertEquals(0, waiter.await(0), "the read reset the counter");
        interrupt(0);
        interrupt(1);
        assertEquals(2, waiter.await(1_000));
    }

    @Test
    void aClosedEventfdIsAnErrorNotAWakeUp()
    {
        final VfioIrqWaiter waiter = new VfioIrqWaiter(sys, eventfds);
        sys.close(eventfds[0]);
        eventfds[0] = -1;
        final VfioException ex = assertThrows(VfioException.class, () -> waiter.await(0));
        assertTrue(ex.getMessage().contains("poll events"), ex.getMessage());
    }
}
