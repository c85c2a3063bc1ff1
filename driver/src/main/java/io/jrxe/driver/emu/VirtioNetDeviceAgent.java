package io.jrxe.driver.emu;

import io.jrxe.driver.wake.Wakeable;
import io.jrxe.driver.wake.Wakeup;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * The device side of the emulated virtio-net: what the NIC's hardware does, one duty cycle per {@link #doWork()}.
 * <p>
 * A cycle reads the clock once, releases wire frames held for reordering, and, if the device is live (DRIVER_OK
 * without DEVICE_NEEDS_RESET or FAILED, and bus mastering enabled):
 * <ol>
 *   <li>transmits, on every enabled transmit queue: after a notification, takes up to a batch of tx chains, strips
 *       the 12-byte virtio_net_hdr, puts each frame on the wire, and returns the chains as used (len 0: nothing
 *       written, §2.6.8). While the wire pauses the port ({@link WirePort#mayTransmit}, flow control) the chains
 *       stay on the queue;</li>
 *   <li>answers controlq after a notification ({@link DeviceControlQueue}): receive filter and multiqueue
 *       commands;</li>
 *   <li>receives: for each frame due on the wire that the receive filter takes ({@link EmulatedRxFilter}, QEMU's
 *       receive_filter(); the rest is counted as rx_dropped_filtered), picks the receive queue
 *       ({@link EmulatedSteering}: RSS, or receiveq1) and fills the next posted rx chain of that queue with a
 *       virtio_net_hdr (all zero but num_buffers = 1, §5.1.6.4) and the frame, used.len = 12 + frame length. No
 *       posted buffer: the frame is dropped and counted, as a NIC does.</li>
 * </ol>
 * Used indexes are published once per batch. The device never sets VIRTQ_USED_F_NO_NOTIFY (§2.6.10): it serves
 * the tx queue after each notification, so the driver must always notify. Unless the driver set
 * VIRTQ_AVAIL_F_NO_INTERRUPT, publishing used buffers raises the ISR queue bit and, for a queue mapped to an MSI-X
 * vector, signals where the vector is routed (the driver's thread). The flag is read after a full fence that
 * follows the used.idx store (§2.6.7.1's barrier): a driver that clears the flag and then re-reads used.idx
 * either sees the new entries or gets the interrupt.
 * <p>
 * A driver error in a chain or an IOMMU fault sets DEVICE_NEEDS_RESET
 * and the device does nothing more until reset. A device that is not live drains the wire and drops what it gets.
 * Runs on one thread at a time (its AgentRunner or the caller of an AgentInvoker); allocates nothing per frame.
 */
final class VirtioNetDeviceAgent implements Agent, FrameHandler, Wakeable
{
    private static final String HEADER_TOO_SHORT_TX =
        "virtio-net tx chain shorter than the 12-byte virtio_net_hdr (virtio 1.1 §5.1.6)";
    private static final String HEADER_TOO_SHORT_RX =
        "virtio-net rx chain shorter than the 12-byte virtio_net_hdr (virtio 1.1 §5.1.6.3)";
    private static final String IOMMU_FAULT =
        "DMA outside the IOMMU mappings (see EmulatedIommu.lastFaultIova())";
    private static final int ETHERNET_HEADER = 14;
    /** Ethernet header plus one VLAN tag on top of the IP MTU. */
    private static final int L2_OVERHEAD = 18;

    private final String roleName;
    private final VirtioNetRegisters registers;
    private final EmulatedConfigSpace config;
    private final EmulatedIommu iommu;
    private final WirePort port;
    private final NanoClock clock;
    private final EmulatedNicCounters counters;
    private final QuiesceGuard guard;
    /** receiveq and transmitq of each queue pair (virtqueues 2p and 2p + 1). */
    private final DeviceVirtqueue[] rx;
    private final DeviceVirtqueue[] tx;
    /**
     * controlq where the driver looks for it (§5.1.2): queue 2 * max_virtqueue_pairs with F_MQ or F_RSS negotiated
     * ({@link #controlMq}), else queue 2 ({@link #controlSingle}, which overlaps receiveq2 of a multiqueue device);
     * {@link #control} is the one the negotiated features name, chosen when the queues are attached.
     */
    private final DeviceControlQueue controlMq;
    private final DeviceControlQueue controlSingle;
    private DeviceControlQueue control;
    /** Queue pairs the negotiated features give the driver: max_virtqueue_pairs with F_MQ or F_RSS, else 1. */
    private int negotiatedPairs = 1;
    private final EmulatedRxFilter filter;
    private final EmulatedSteering steering;
    private final UnsafeBuffer txFrame;
    private final UnsafeBuffer rxHeader = new UnsafeBuffer(new byte[HEADER_LENGTH]);
    private final FrameHandler dropNotReady = this::dropNotReady;
    private final int batchSize;
    private final int maxTxFrame;
    private final ErrorHandler errorHandler;

    private final boolean[] txActive;
    private final boolean[] rxLive;
    private final int[] rxCredit;

    VirtioNetDeviceAgent(
        final String roleName, final VirtioNetRegisters registers, final EmulatedConfigSpace config,
        final EmulatedIommu iommu, final WirePort port, final EmulatedNicCounters counters,
        final QuiesceGuard guard, final EmulatedRxFilter filter, final EmulatedSteering steering,
        final int maxQueueSize, final int mtu, final int batchSize, final ErrorHandler errorHandler)
    {
        this.errorHandler = errorHandler;
        this.roleName = roleName;
        this.registers = registers;
        this.config = config;
        this.iommu = iommu;
        this.port = port;
        this.clock = port.clock();
        this.counters = counters;
        this.guard = guard;
        this.batchSize = batchSize;
        this.maxTxFrame = Math.min(mtu + L2_OVERHEAD, port.maxFrameLength());
        final int pairs = steering.maxPairs();
        this.rx = new DeviceVirtqueue[pairs];
        this.tx = new DeviceVirtqueue[pairs];
        for (int p = 0; p < pairs; p++)
        {
            rx[p] = new DeviceVirtqueue(rxQueue(p), maxQueueSize, iommu);
            tx[p] = new DeviceVirtqueue(txQueue(p), maxQueueSize, iommu);
        }
        this.txActive = new boolean[pairs];
        this.rxLive = new boolean[pairs];
        this.rxCredit = new int[pairs];
        this.filter = filter;
        this.steering = steering;
        this.controlMq = new DeviceControlQueue(ctrlQueue(pairs), iommu, registers, filter, steering, counters);
        this.controlSingle = 1 == pairs ? controlMq :
            new DeviceControlQueue(ctrlQueue(1), iommu, registers, filter, steering, counters);
        this.control = controlMq;
        this.txFrame = new UnsafeBuffer(new byte[maxTxFrame]);
        rxHeader.putShort(HEADER_NUM_BUFFERS, (short)1); // §5.1.6.4: 1 when MRG_RXBUF is not negotiated
    }

    @Override
    public String roleName()
    {
        return roleName;
    }

    /** The driver's notifications, its status writes and frames from the wire wake the device's thread. */
    @Override
    public void wakeup(final Wakeup wakeup)
    {
        registers.deviceWakeup(wakeup);
        port.wakeup(wakeup);
    }

    @Override
    public int doWork()
    {
        if (!guard.tryEnter())
        {
            return 0; // a reset is in progress
        }
        try
        {
            if (!iommu.tryEnterDma())
            {
                return 0; // the IOMMU mappings are changing
            }
            try
            {
                return dutyCycle();
            }
            catch (final RuntimeException ex)
            {
                errorHandler.onError(ex); // a bug in the model: the device stops as hardware would on an error
                return 1;
            }
            finally
            {
                iommu.exitDma();
            }
        }
        finally
        {
            guard.exit();
        }
    }

    String multiqueueError()
    {
        return control.mqError();
    }

    /** Back to the state after reset; called with the device quiesced. */
    void resetState()
    {
        for (int p = 0; p < rx.length; p++)
        {
            rx[p].detach();
            tx[p].detach();
            txActive[p] = false;
            rxLive[p] = false;
            rxCredit[p] = 0;
        }
        controlMq.queue().detach();
        controlSingle.queue().detach();
        filter.reset();
        steering.reset();
    }

    private int dutyCycle()
    {
        final long nowNs = clock.nanoTime();
        port.flushHeld(nowNs);
        if (!live())
        {
            return port.poll(nowNs, dropNotReady, batchSize);
        }
        if (!attachQueues())
        {
            return 1;
        }
        int work = 0;
        for (int p = 0; p < tx.length; p++)
        {
            work += transmit(p, nowNs);
        }
        work += control.process();
        if (null != control.error())
        {
            deviceError(control.error());
        }
        else if (control.iommuFault())
        {
            iommuFault();
        }
        final boolean up = registers.linkUp() && live();
        final int pairs = steering.pairs();
        for (int p = 0; p < rx.length; p++)
        {
            rxLive[p] = up && p < pairs && rx[p].live(); // §5.1.6.5.5: no frames on queues beyond the pairs set
        }
        work += port.poll(nowNs, this, batchSize);
        for (int p = 0; p < rx.length; p++)
        {
            if (rx[p].publish() > 0 && !rx[p].interruptSuppressed())
            {
                registers.raiseQueueInterrupt(rxQueue(p));
            }
        }
        return work;
    }

    private boolean live()
    {
        return (registers.status() & (STATUS_DRIVER_OK | STATUS_DEVICE_NEEDS_RESET | STATUS_FAILED)) ==
            STATUS_DRIVER_OK && config.busMasterEnabled();
    }

    /** Takes the configuration of queues the driver enabled, and (re)translates rings after IOMMU changes. */
    private boolean attachQueues()
    {
        final long generation = iommu.generation();
        final boolean mq = 0 != (registers.driverFeatures() & VirtioNetRegisters.MQ_FEATURES);
        negotiatedPairs = mq ? rx.length : 1;
        control = mq ? controlMq : controlSingle;
        for (int p = 0; p < negotiatedPairs; p++)
        {
            if (!attachQueue(rx[p], generation) || !attachQueue(tx[p], generation))
            {
                return false;
            }
        }
        return attachQueue(control.queue(), generation);
    }

    private boolean attachQueue(final DeviceVirtqueue q, final long generation)
    {
        if (!q.live())
        {
            final VirtqueueRegisters r = registers.queue(q.index());
            if (null == r || !r.enabled)
            {
                return true;
            }
            q.attach(r);
        }
        if (!q.mapRings(generation))
        {
            iommuFault();
            return false;
        }
        return true;
    }

    private int transmit(final int pair, final long nowNs)
    {
        final DeviceVirtqueue tx = this.tx[pair];
        if (registers.takeKick(txQueue(pair)))
        {
            txActive[pair] = true;
        }
        if (!txActive[pair] || !tx.live())
        {
            return 0;
        }
        final int pending = tx.pending();
        if (pending <= 0)
        {
            if (pending < 0)
            {
                deviceError(DeviceVirtqueue.error(-pending));
            }
            txActive[pair] = false;
            return 0;
        }
        final int n = Math.min(pending, batchSize);
        int sent = 0;
        for (; sent < n; sent++)
        {
            if (!port.mayTransmit(nowNs))
            {
                break; // paused by the wire (flow control): the chain stays queued, the drain resumes this thread
            }
            final int rc = tx.walk();
            if (DeviceVirtqueue.OK != rc)
            {
                deviceError(DeviceVirtqueue.error(rc));
                break;
            }
            if (tx.readable() < HEADER_LENGTH)
            {
                deviceError(HEADER_TOO_SHORT_TX);
                break;
            }
            if (!transmitFrame(tx, nowNs, tx.readable() - HEADER_LENGTH))
            {
                iommuFault();
                break;
            }
            tx.complete(0);
        }
        if (tx.publish() > 0 && !tx.interruptSuppressed())
        {
            registers.raiseQueueInterrupt(txQueue(pair));
        }
        return sent;
    }

    /** @return false on an IOMMU fault; frames the device will not send are counted and completed */
    private boolean transmitFrame(final DeviceVirtqueue tx, final long nowNs, final long frameLength)
    {
        if (!registers.linkUp())
        {
            counters.increment(EmulatedNicCounters.TX_DROPPED_LINK_DOWN);
        }
        else if (frameLength < ETHERNET_HEADER)
        {
            counters.increment(EmulatedNicCounters.TX_DROPPED_RUNT);
        }
        else if (frameLength > maxTxFrame)
        {
            counters.increment(EmulatedNicCounters.TX_DROPPED_OVERSIZE); // §5.1.6.2: no larger than the MTU
        }
        else
        {
            final int length = (int)frameLength;
            if (!tx.gather(HEADER_LENGTH, txFrame, 0, length))
            {
                return false;
            }
            port.send(nowNs, txFrame, 0, length);
            counters.increment(EmulatedNicCounters.TX_FRAMES);
            counters.add(EmulatedNicCounters.TX_BYTES, length);
        }
        return true;
    }

    /** A frame from the wire, to the next posted rx buffer. */
    @Override
    public void onFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        if (!rxLive[0])
        {
            dropNotReady(buffer, offset, length);
            return;
        }
        if (!filter.accept(buffer, offset, length))
        {
            counters.increment(EmulatedNicCounters.RX_DROPPED_FILTERED); // QEMU: receive_filter() said no
            return;
        }
        final int pair = steering.queueOf(buffer, offset, length);
        if (!rxLive[pair])
        {
            dropNotReady(buffer, offset, length); // §5.1.6.5.7.2: a queue being reset drops what it is steered
            return;
        }
        final DeviceVirtqueue rx = this.rx[pair];
        if (0 == rxCredit[pair])
        {
            final int pending = rx.pending();
            if (pending < 0)
            {
                deviceError(DeviceVirtqueue.error(-pending));
                dropNotReady(buffer, offset, length);
                return;
            }
            rxCredit[pair] = pending;
            if (0 == pending)
            {
                counters.increment(EmulatedNicCounters.RX_DROPPED_NO_BUFFER);
                return;
            }
        }
        final int rc = rx.walk();
        if (DeviceVirtqueue.OK != rc)
        {
            deviceError(DeviceVirtqueue.error(rc));
            dropNotReady(buffer, offset, length);
            return;
        }
        if (rx.writable() < HEADER_LENGTH)
        {
            deviceError(HEADER_TOO_SHORT_RX);
            dropNotReady(buffer, offset, length);
            return;
        }
        if (rx.writable() < HEADER_LENGTH + length)
        {
            // QEMU without MRG_RXBUF: the frame is dropped, the buffer stays for the next one
            counters.increment(EmulatedNicCounters.RX_DROPPED_OVERSIZE);
            return;
        }
        if (!rx.scatter(0, rxHeader, 0, HEADER_LENGTH) || !rx.scatter(HEADER_LENGTH, buffer, offset, length))
        {
            iommuFault();
            dropNotReady(buffer, offset, length);
            return;
        }
        rx.complete(HEADER_LENGTH + length);
        rxCredit[pair]--;
        counters.increment(EmulatedNicCounters.RX_FRAMES);
        counters.add(EmulatedNicCounters.RX_BYTES, length);
    }

    private void dropNotReady(final DirectBuffer buffer, final int offset, final int length)
    {
        counters.increment(EmulatedNicCounters.RX_DROPPED_NOT_READY);
    }

    private void deviceError(final String reason)
    {
        counters.incrementShared(EmulatedNicCounters.DEVICE_ERRORS);
        registers.needsReset(reason);
        stop();
    }

    private void iommuFault()
    {
        counters.increment(EmulatedNicCounters.IOMMU_FAULTS);
        registers.needsReset(IOMMU_FAULT);
        stop();
    }

    private void stop()
    {
        for (int p = 0; p < rx.length; p++)
        {
            rxLive[p] = false;
            txActive[p] = false;
        }
    }
}
