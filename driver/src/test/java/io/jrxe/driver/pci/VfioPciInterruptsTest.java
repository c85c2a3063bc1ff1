package io.jrxe.driver.pci;

import io.jrxe.driver.wake.Wakeup;
import io.jrxe.vfio.FakeSysfsTree;
import io.jrxe.vfio.FakeVfioKernel;
import io.jrxe.vfio.VfioIoctl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.*;

/**
 * VfioPciFunction's MSI-X routing over the fake VFIO kernel (with pollable eventfds): the VFIO_DEVICE_SET_IRQS
 * blocks it asks for, and that each vector's eventfd signals its own line. A real device's messages are not
 * modelled: {@link PollableFakeKernel#fire} plays vfio-pci signalling the eventfd.
 */
class VfioPciInterruptsTest
{
    private static final String NIC = "0000:00:03.0";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private FakeVfioKernel kernel;
    private PollableFakeKernel syscalls;
    private VfioPciFunction function;

    @BeforeEach
    void setUp()
    {
        kernel = FakeVfioKernel.forNic(NIC, 2);
        syscalls = new PollableFakeKernel(kernel);
        function = VfioPciFunction.open(kernel.context(FakeSysfsTree.withVfioNic(tmp, NIC, 2)).syscalls(syscalls),
            "00:03.0");
    }

    @AfterEach
    void tearDown()
    {
        function.close();
        assertTrue(kernel.openFds().isEmpty(), "leaked " + kernel.openFds());
    }

    /** The last VFIO_DEVICE_SET_IRQS: index, flags, start, count, then the eventfds. */
    private int[] lastIrqSet()
    {
        return kernel.irqSets.get(kernel.irqSets.size() - 1);
    }

    private static void awaitSignal(final Wakeup line)
    {
        assertTimeoutPreemptively(TIMEOUT, () ->
        {
            while (line.armed())
            {
                Thread.yield(); // until the interrupt thread signalled the line
            }
        });
    }

    @Test
    void eachVectorHasItsOwnEventfdThreadAndLine()
    {
        assertEquals(8, function.interruptVectors(), "the MSI-X count VFIO reports");
        final Wakeup line0 = new Wakeup("v0");
        final Wakeup line1 = new Wakeup("v1");
        assertTrue(function.routeInterrupt(0, line0));
        assertEquals(VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX, lastIrqSet()[0]);
        assertEquals(1, lastIrqSet()[3], "vector 0 alone");
        assertTrue(function.routeInterrupt(1, line1));
        final int[] block = lastIrqSet();
        assertEquals(0, block[2]);
        assertEquals(2, block[3], "vectors 0 and 1 in one block, replacing the first");
        final int sets = kernel.irqSets.size();
        assertEquals(0, kernel.irqSets.get(sets - 2)[3], "the old block was disabled first");

        line0.arm();
        line1.arm();
        syscalls.fire(block[4 + 1]);
        awaitSignal(line1);
        assertTrue(line0.armed(), "vector 1's message did not signal vector 0's line");
        assertEquals(1, function.interrupts(1));
        assertEquals(0, function.interrupts(0));

        syscalls.fire(block[4]);
        awaitSignal(line0); // vector 0's thread was started again on the new block's eventfd
        assertEquals(1, function.interrupts(0));
        assertEquals(2, function.interrupts());

        final Wakeup next = new Wakeup("v1 next owner");
        assertTrue(function.routeInterrupt(1, next));
        assertEquals(sets, kernel.irqSets.size(), "routed again: no new block");
        next.arm();
        syscalls.fire(block[4 + 1]);
        awaitSignal(next);
        assertEquals(2, function.interrupts(1));
    }

    @Test
    void vectorsBeyondTheTableAreNotRouted()
    {
        assertFalse(function.routeInterrupt(8, new Wakeup("v8")));
        assertFalse(function.routeInterrupt(-1, new Wakeup("v-1")));
        assertTrue(kernel.irqSets.isEmpty(), "nothing enabled");
        assertEquals(0, function.interrupts(8));
    }

    @Test
    void unrouteDisablesTheBlockAndClosesItsEventfds()
    {
        assertEquals(1, function.routeInterrupts(new Wakeup("v0")), "the vector-0 form");
        assertTrue(function.routeInterrupt(2, new Wakeup("v2")));
        assertEquals(3, lastIrqSet()[3]);
        assertTrue(kernel.openFds().containsValue("eventfd"));
        function.unrouteInterrupts();
        assertEquals(0, lastIrqSet()[3], "MSI-X disabled");
        assertFalse(kernel.openFds().containsValue("eventfd"), "eventfds closed: " + kernel.openFds());
        assertTrue(function.routeInterrupt(1, new Wakeup("v1")), "and can be routed again");
        assertEquals(2, lastIrqSet()[3]);
    }
}
