package io.jrxe.driver.pci;

import io.jrxe.driver.wake.Wakeup;
import io.jrxe.vfio.BarMapping;
import io.jrxe.vfio.Syscalls;
import io.jrxe.vfio.VfioContainer;
import io.jrxe.vfio.VfioContext;
import io.jrxe.vfio.VfioDevice;
import io.jrxe.vfio.VfioException;
import io.jrxe.vfio.VfioIoctl;
import io.jrxe.vfio.VfioIrqWaiter;
import io.jrxe.vfio.VfioSession;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A PCI function owned through VFIO: config space by pread/pwrite on the device fd, BARs mmap'ed and wrapped in
 * {@link MappedMmioRegion}, DMA mapped through the VFIO container (type1v2 IOMMU).
 * <pre>
 *   VfioPciFunction ── VfioSession ── VfioContainer (/dev/vfio/vfio)  ← dma()
 *                                 ├── VfioGroup     (/dev/vfio/N)
 *                                 └── VfioDevice    (device fd)       ← config, bar(i), reset
 * </pre>
 * Setup methods may throw {@link io.jrxe.vfio.VfioException} with the fix in its message. {@link #bar(int)}'s
 * region is the only thing used per packet.
 */
public final class VfioPciFunction implements PciFunction
{
    private static final int BAR_COUNT = 6;

    private final VfioSession session;
    private final MmioRegion[] bars = new MmioRegion[BAR_COUNT];
    private final DmaMapper dma;
    private boolean closed;
    /** poll and read of the interrupt eventfds; null: the real system calls, loaded when first needed. */
    private Syscalls syscalls;
    /** By MSI-X vector, allocated at the first route (table size): where it goes, and its thread. */
    private Wakeup[] targets;
    private MsixInterruptThread[] threads;
    /** Interrupts taken by vector; read by any thread. */
    private volatile AtomicLongArray counts;
    /** Vectors 0..enabled-1 are enabled on {@link #eventfds}. */
    private int enabled;
    private int[] eventfds;

    /**
     * Wraps an open session; the function owns it from now on and closes it in {@link #close()}. Interrupts are
     * waited for with the real system calls.
     */
    public VfioPciFunction(final VfioSession session)
    {
        this(session, null);
    }

    /**
     * Wraps an open session whose interrupt eventfds are polled and read through {@code syscalls} (the session's
     * own system calls; null for the real ones).
     */
    public VfioPciFunction(final VfioSession session, final Syscalls syscalls)
    {
        this.session = session;
        this.dma = new ContainerDmaMapper(session.container());
        this.syscalls = syscalls;
    }

    /**
     * Opens {@code pciAddress} on the real system (the device must be bound to vfio-pci: {@code jrxe bind}).
     */
    public static VfioPciFunction open(final String pciAddress)
    {
        return open(new VfioContext(), pciAddress);
    }

    /** Opens {@code pciAddress} through the syscalls, sysfs and /dev/vfio of {@code context}. */
    public static VfioPciFunction open(final VfioContext context, final String pciAddress)
    {
        return new VfioPciFunction(VfioSession.open(context, pciAddress), context.syscalls());
    }

    /** The VFIO objects behind this function, e.g. for interrupts ({@link VfioDevice#enableMsix}). */
    public VfioSession session()
    {
        return session;
    }

    @Override
    public String address()
    {
        return session.address();
    }

    @Override
    public int configRead8(final int offset)
    {
        return device().configRead8(offset);
    }

    @Override
    public int configRead16(final int offset)
    {
        return device().configRead16(offset);
    }

    @Override
    public int configRead32(final int offset)
    {
        return device().configRead32(offset);
    }

    @Override
    public void configWrite16(final int offset, final int value)
    {
        device().configWrite16(offset, value);
    }

    @Override
    public void configWrite32(final int offset, final int value)
    {
        device().configWrite32(offset, value);
    }

    @Override
    public MmioRegion bar(final int index)
    {
        if (index < 0 || index >= BAR_COUNT)
        {
            throw new IllegalArgumentException("BAR index must be 0..5: " + index);
        }
        if (null == bars[index])
        {
            final BarMapping mapping = device().mapBar(index);
            bars[index] = new MappedMmioRegion(mapping.address(), mapping.length());
        }
        return bars[index];
    }

    @Override
    public DmaMapper dma()
    {
        return dma;
    }

    @Override
    public void reset()
    {
        // PciFunction.reset: "where the device supports it"; without a reset method this is a no-op.
        device().reset();
    }

    /** {@inheritDoc} The MSI-X IRQ count VFIO reports (VFIO_DEVICE_GET_IRQ_INFO), 0 if it cannot tell. */
    @Override
    public int interruptVectors()
    {
        try
        {
            return device().irqInfo(VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX).count;
        }
        catch (final VfioException ex)
        {
            return 0;
        }
    }

    /**
     * Enables MSI-X vectors {@code 0..vector} on eventfds if fewer are enabled, and starts the thread that
     * signals {@code target} on each interrupt of {@code vector}; routed already, its interrupts go to
     * {@code target} from now on. {@inheritDoc}
     * <p>
     * VFIO enables a block of vectors in one VFIO_DEVICE_SET_IRQS call; a larger block replaces the enabled one
     * (its eventfds are closed), so the threads of the vectors routed before are stopped first and started again
     * on the new eventfds. Messages during the switch are lost: call it before the vectors' threads park.
     */
    @Override
    public synchronized boolean routeInterrupt(final int vector, final Wakeup target)
    {
        final int table = interruptVectors();
        if (vector < 0 || vector >= table)
        {
            return false;
        }
        if (null == targets)
        {
            targets = new Wakeup[table];
            threads = new MsixInterruptThread[table];
            counts = new AtomicLongArray(table);
        }
        targets[vector] = target;
        if (null != threads[vector])
        {
            threads[vector].target(target);
            return true;
        }
        if (vector >= enabled && !enable(vector + 1))
        {
            targets[vector] = null;
            return false;
        }
        startThreads();
        return true;
    }

    /** Enables vectors 0..count-1 (the threads of the old block stopped); on failure restores the old block. */
    private boolean enable(final int count)
    {
        stopThreads(); // the old block's eventfds close when the new block replaces it
        final VfioDevice device = device();
        try
        {
            eventfds = device.enableMsix(count);
            enabled = count;
            return true;
        }
        catch (final VfioException ex)
        {
            System.err.println(address() + ": no MSI-X vectors 0.." + (count - 1) + ", those without an " +
                "interrupt poll: " + ex.getMessage());
        }
        if (enabled > 0)
        {
            try
            {
                eventfds = device.enableMsix(enabled);
                startThreads();
            }
            catch (final VfioException ex)
            {
                System.err.println(address() + ": MSI-X lost, the driver polls: " + ex.getMessage());
                enabled = 0;
                eventfds = null;
            }
        }
        return false;
    }

    /** A thread for each routed vector of the enabled block that has none. */
    private void startThreads()
    {
        for (int v = 0; v < enabled; v++)
        {
            if (null != targets[v] && null == threads[v])
            {
                threads[v] = new MsixInterruptThread(address(), v,
                    new VfioIrqWaiter(syscalls(), new int[]{ eventfds[v] }), targets[v], counts);
            }
        }
    }

    private void stopThreads()
    {
        for (int v = 0; null != threads && v < threads.length; v++)
        {
            if (null != threads[v])
            {
                threads[v].close();
                threads[v] = null;
            }
        }
    }

    private Syscalls syscalls()
    {
        if (null == syscalls)
        {
            syscalls = new VfioContext().syscalls();
        }
        return syscalls;
    }

    @Override
    public long interrupts()
    {
        final AtomicLongArray c = counts;
        long sum = 0;
        for (int v = 0; null != c && v < c.length(); v++)
        {
            sum += c.get(v);
        }
        return sum;
    }

    @Override
    public long interrupts(final int vector)
    {
        final AtomicLongArray c = counts;
        return null == c || vector < 0 || vector >= c.length() ? 0 : c.get(vector);
    }

    @Override
    public synchronized void unrouteInterrupts()
    {
        stopThreads();
        if (null != targets)
        {
            Arrays.fill(targets, null);
        }
        if (enabled > 0)
        {
            enabled = 0;
            eventfds = null;
            if (!closed)
            {
                device().disableIrqs(VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX);
            }
        }
    }

    /** Closes device, group and container; BAR regions must not be used afterwards (the mappings are gone). */
    @Override
    public void close()
    {
        if (!closed)
        {
            unrouteInterrupts();
            closed = true;
            session.close();
        }
    }

    private VfioDevice device()
    {
        if (closed)
        {
            throw new IllegalStateException("VFIO PCI function " + session.address() + " is closed");
        }
        return session.device();
    }

    /** {@link DmaMapper} on a VFIO container: pins and maps through the IOMMU. */
    static final class ContainerDmaMapper implements DmaMapper
    {
        private final VfioContainer container;

        ContainerDmaMapper(final VfioContainer container)
        {
            this.container = container;
        }

        @Override
        public void map(final long vaddr, final long iova, final long length)
        {
            container.mapDma(vaddr, iova, length);
        }

        @Override
        public void unmap(final long iova, final long length)
        {
            final long unmapped = container.unmapDma(iova, length);
            if (unmapped != length)
            {
                throw new IllegalStateException("VFIO unmapped " + unmapped + " of " + length + " bytes at iova 0x" +
                    Long.toHexString(iova) + ": unmap exactly the ranges that were mapped");
            }
        }
    }
}
