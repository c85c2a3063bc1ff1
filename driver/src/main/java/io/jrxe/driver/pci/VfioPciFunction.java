package io.jrxe.driver.pci;

import io.jrxe.driver.wake.Wakeup;
import io.jrxe.vfio.BarMapping;
import io.jrxe.vfio.VfioContainer;
import io.jrxe.vfio.VfioContext;
import io.jrxe.vfio.VfioDevice;
import io.jrxe.vfio.VfioException;
import io.jrxe.vfio.VfioIoctl;
import io.jrxe.vfio.VfioSession;

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
    private volatile MsixInterruptThread interruptThread;
    private volatile long interruptsBefore;

    /** Wraps an open session; the function owns it from now on and closes it in {@link #close()}. */
    public VfioPciFunction(final VfioSession session)
    {
        this.session = session;
        this.dma = new ContainerDmaMapper(session.container());
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
        return new VfioPciFunction(VfioSession.open(context, pciAddress));
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

    /**
     * Enables MSI-X vector 0 on an eventfd and starts the thread that signals {@code target} on each interrupt;
     * routed already, the interrupts go to {@code target} from now on. {@inheritDoc}
     */
    @Override
    public synchronized int routeInterrupts(final Wakeup target)
    {
        if (null != interruptThread)
        {
            interruptThread.target(target);
            return 1;
        }
        final VfioDevice device = device();
        try
        {
            if (device.irqInfo(VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX).count < 1)
            {
                return 0;
            }
            device.enableMsix(1);
        }
        catch (final VfioException ex)
        {
            System.err.println(address() + ": no MSI-X interrupts, the driver polls: " + ex.getMessage());
            return 0;
        }
        interruptThread = new MsixInterruptThread(address(), device.irqWaiter(VfioIoctl.VFIO_PCI_MSIX_IRQ_INDEX),
            target);
        return 1;
    }

    @Override
    public long interrupts()
    {
        final MsixInterruptThread t = interruptThread;
        return null == t ? interruptsBefore : interruptsBefore + t.interrupts();
    }

    @Override
    public synchronized void unrouteInterrupts()
    {
        if (null != interruptThread)
        {
            interruptThread.close();
            interruptsBefore += interruptThread.interrupts();
            interruptThread = null;
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
