package io.jrxe.rxe.verbs;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.jrxe.driver.mem.IovaSpace;
import io.jrxe.rxe.spi.DevicePorts;
import io.jrxe.rxe.spi.IndexAllocator;
import io.jrxe.rxe.spi.MrTable;
import io.jrxe.rxe.spi.QpDoorbell;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The verbs device: the {@code ib_device_ops} of one rxe instance with one RoCE v2 port. Objects are kept in
 * int-indexed pools (Agrona {@link Int2ObjectHashMap}) and found by handle without allocation; QPs and memory keys
 * are also in lock-free tables the engine thread reads through the device's {@link io.jrxe.rxe.spi.DevicePort}
 * (claimed once by the provider side, never reachable from this class's public methods).
 * <p>
 * Control verbs are {@code synchronized} on the device, may allocate, and throw {@link VerbsException} with a
 * message that says what to fix. Data-path verbs live on the objects ({@link QueuePair#postSend},
 * {@link CompletionQueue#poll}, ...).
 */
public final class RxeDevice implements PortCapabilities
{
    static
    {
        DevicePorts.install(RxeDevice::openPort);
    }

    /** The only port number. */
    public static final int PORT = 1;
    /** The default (full membership) P_Key at index 0. */
    public static final int DEFAULT_PKEY = 0xffff;
    /** {@code IB_MGMT_MAD_SIZE}: a MAD header and payload, rxe's {@code max_mad_size}. */
    public static final int MAX_MAD_SIZE = 256;
    /** How long a deregistration waits for the NIC to give back packets that read the region's memory. */
    private static final long DEREG_FENCE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final RxeContext ctx;
    private final DeviceAttr deviceAttr;
    private final PortAttr portAttr = new PortAttr();
    private final GidTable gidTable;
    private final MemoryVerbs memory;
    private final QpVerbs qpVerbs;
    private final IndexAllocator pdHandles;
    private final SrqVerbs srqVerbs;
    private final XrcdVerbs xrcdVerbs;
    private final Int2ObjectHashMap<ProtectionDomain> pds = new Int2ObjectHashMap<>();
    private final CqVerbs cqVerbs;
    private final AsyncEvents asyncEvents = new AsyncEvents(this);
    private final AddressHandles ahs;
    private final MulticastAttachments mcast = new MulticastAttachments();
    private volatile DeviceDma dma;
    private volatile AsyncEventHandler asyncEventHandler;
    private final VerbsPort port = new VerbsPort(this);
    private final AtomicLong serials = new AtomicLong();

    /**
     * @param ctx configuration; validated with {@link RxeContext#conclude()}.
     */
    public RxeDevice(final RxeContext ctx)
    {
        this.ctx = ctx.conclude();
        deviceAttr = new DeviceAttr(ctx);
        gidTable = new GidTable(ctx.gidTableLength());
        gidTable.setLinkLocal(0, ctx.macAddress());
        qpVerbs = new QpVerbs(this, this.ctx, deviceAttr, gidTable);
        pdHandles = new IndexAllocator(1, ctx.maxPd());
        cqVerbs = new CqVerbs(this, ctx.maxCq(), ctx.maxCqe(), this.ctx.compVectors());
        srqVerbs = new SrqVerbs(this, deviceAttr, ctx.maxSrq());
        xrcdVerbs = new XrcdVerbs(this, ctx.maxPd());
        ahs = new AddressHandles(gidTable, ctx.maxAh());
        memory = new MemoryVerbs(this, deviceAttr, this.ctx);
        dma = new DeviceDma(IovaSpace.UNTRANSLATED);
        portAttr.set(PortState.DOWN, Mtu.MTU_4096, Mtu.fromNetdevMtu(ctx.netdevMtu()), ctx.gidTableLength(),
            ctx.pkeyTableLength(), ctx.maxMsgSize());
    }

    /** @return device attributes ({@code ib_query_device}); immutable. */
    public DeviceAttr queryDevice()
    {
        return deviceAttr;
    }

    /**
     * {@code ib_query_port}.
     *
     * @param port port number (1).
     * @param dst destination.
     * @return dst.
     */
    public synchronized PortAttr queryPort(final int port, final PortAttr dst)
    {
        checkPort(port);
        return dst.copyFrom(portAttr);
    }

    /**
     * Copy a GID ({@code ib_query_gid}).
     *
     * @param port port number (1).
     * @param index GID index.
     * @param dst 16 bytes.
     * @throws VerbsException if the index holds no GID.
     */
    public void queryGid(final int port, final int index, final byte[] dst)
    {
        checkPort(port);
        if (!gidTable.isValid(index) || !gidTable.copy(index, dst, 0))
        {
            throw new VerbsException(Errno.EINVAL, "GID index " + index + " holds no GID");
        }
    }

    /**
     * {@code ib_query_pkey}: rxe has only the default full-membership P_Key at index 0.
     *
     * @param port port number.
     * @param index P_Key index.
     * @return the P_Key.
     */
    public int queryPkey(final int port, final int index)
    {
        checkPort(port);
        if (0 != index)
        {
            throw new VerbsException(Errno.EINVAL, "P_Key index " + index + " invalid: rxe has only index 0");
        }
        return DEFAULT_PKEY;
    }

    /** @return the DMA mapping API ({@code ib_dma_*}) on the NIC's IOVA space (identity without a NIC). */
    public DeviceDma dma()
    {
        return dma;
    }

    /** @return the port GID table (entry 0 is the link-local GID of the MAC). */
    public GidTable gidTable()
    {
        return gidTable;
    }

    /**
     * {@inheritDoc} rxe's port is RoCE v2: {@link CoreCapFlags#PORT_IBA_ROCE_UDP_ENCAP} (rxe
     * {@code rxe_port_immutable}), so MADs, the IB CM, AF_IB and Ethernet AHs, and no SMI (no QP0), SA, multicast
     * through the SA, iWARP CM or OPA.
     */
    @Override
    public int coreCapFlags(final int port)
    {
        checkPort(port);
        return CoreCapFlags.PORT_IBA_ROCE_UDP_ENCAP;
    }

    /** {@inheritDoc} rxe: {@link #MAX_MAD_SIZE} (256). */
    @Override
    public int maxMadSize(final int port)
    {
        checkPort(port);
        return MAX_MAD_SIZE;
    }

    /**
     * {@inheritDoc} False, as the kernel answers for rxe: the predicate is RoCE and the driver's
     * {@code add_gid}/{@code del_gid} ops, and rxe has no such ops (true for hardware RoCE drivers such as mlx5;
     * issue 9 expected true, but jrxe answers as rxe does).
     */
    @Override
    public boolean capRoceGidTable(final int port)
    {
        checkPort(port);
        return false;
    }

    /** {@inheritDoc} rxe: false. */
    @Override
    public boolean capIbSwitch()
    {
        return false;
    }

    /** {@inheritDoc} rxe: 1 ({@code phys_port_cnt}). */
    @Override
    public int endPort()
    {
        return PORT;
    }

    MrTable mrTable()
    {
        return memory.table();
    }

    QueuePair qp(final int qpn)
    {
        return qpVerbs.lookup(qpn);
    }

    SharedReceiveQueue xrcSrq(final int srqn)
    {
        return srqVerbs.lookupXrc(srqn);
    }

    void portState(final PortState state)
    {
        final PortState old;
        synchronized (this)
        {
            old = portAttr.state();
            portAttr.set(state, portAttr.maxMtu(), portAttr.activeMtu(), portAttr.gidTableLength(),
                portAttr.pkeyTableLength(), portAttr.maxMsgSize());
        }
        if (old != state)
        {
            if (PortState.ACTIVE == state)
            {
                raise(AsyncEvent.PORT_ACTIVE, PORT);
            }
            else if (PortState.ACTIVE == old)
            {
                raise(AsyncEvent.PORT_ERR, PORT);
            }
        }
    }

    synchronized void netdevMtu(final int netdevMtu)
    {
        if (netdevMtu < 256 + Mtu.RXE_MAX_HDR_LENGTH || netdevMtu > 65535)
        {
            throw new VerbsException(Errno.EINVAL, "netdev MTU " + netdevMtu + " outside [336, 65535]");
        }
        portAttr.set(portAttr.state(), portAttr.maxMtu(), Mtu.fromNetdevMtu(netdevMtu), portAttr.gidTableLength(),
            portAttr.pkeyTableLength(), portAttr.maxMsgSize());
    }

    /**
     * @param handler receives async events (null to drop them).
     */
    public void asyncEventHandler(final AsyncEventHandler handler)
    {
        asyncEventHandler = handler;
    }

    private static VerbsPort openPort(final RxeDevice device)
    {
        return device.port.claim();
    }

    QpDoorbell doorbell()
    {
        return port.doorbell();
    }

    /** The serial of the object an event names now (control path for CQs and SRQs; QPs lock-free), 0 if none. */
    long serialOf(final AsyncEvent event, final int element)
    {
        if (AsyncEvents.isPortEvent(event))
        {
            return 0;
        }
        if (AsyncEvents.isCqEvent(event))
        {
            final CompletionQueue cq = cq(element);
            return null == cq ? 0 : cq.serial();
        }
        if (AsyncEvents.isSrqEvent(event))
        {
            final SharedReceiveQueue srq = srq(element);
            return null == srq ? 0 : srq.serial();
        }
        final QueuePair qp = qp(element);
        return null == qp ? 0 : qp.serial();
    }

    /** @return a device-unique number for a new QP, CQ or SRQ (never 0) */
    long nextSerial()
    {
        return serials.incrementAndGet();
    }

    synchronized void iovaSpace(final IovaSpace space)
    {
        if (dma.liveMappings() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "the device has live DMA mappings; set the IOVA space first");
        }
        dma = new DeviceDma(space);
    }

    synchronized int activeMtu()
    {
        return portAttr.activeMtu().bytes();
    }

    CqVerbs cqVerbs()
    {
        return cqVerbs;
    }

    /**
     * Run a control task on the engine thread (inline when no engine is attached or the caller drives it).
     *
     * @return 0 or a negative errno (ETIMEDOUT, EAGAIN, EINTR)
     */
    int onEngineThread(final Runnable task, final long timeoutNs)
    {
        return port.onEngineThread(task, timeoutNs);
    }

    /** {@link #onEngineThread(Runnable, long)} on the thread of engine shard {@code shard}. */
    int onEngineThread(final int shard, final Runnable task, final long timeoutNs)
    {
        return port.onEngineThread(shard, task, timeoutNs);
    }

    /**
     * {@code ibv_context.num_comp_vectors}: completion vectors, one per engine shard ({@link RxeContext#compVectors};
     * a CQ's {@link CqInitAttr#compVector} picks the shard that fills it).
     */
    public int numCompVectors()
    {
        return ctx.compVectors();
    }

    /** An event about a port or the device (no object, serial 0). */
    void raise(final AsyncEvent event, final int element)
    {
        raise(event, element, 0);
    }

    /**
     * Deliver an asynchronous event: queued for {@link #getAsyncEvent} and given to the handler.
     *
     * @param serial the serial of the QP, CQ or SRQ it is about ({@link #nextSerial()}), so a later object with the
     *               same number is not blamed for it
     */
    void raise(final AsyncEvent event, final int element, final long serial)
    {
        asyncEvents.offer(event, element, serial);
        final AsyncEventHandler handler = asyncEventHandler;
        if (null != handler)
        {
            handler.onAsyncEvent(event, element);
        }
        if (event.isQpEvent())
        {
            final QueuePair qp = qpVerbs.lookup(element);
            if (null != qp && qp.serial() == serial)
            {
                // an XRC target QP's events also reach every handle opened on it (__ib_shared_qp_event_handler)
                for (final XrcQpHandle open : qp.openHandles())
                {
                    if (null != open.handler())
                    {
                        open.handler().onAsyncEvent(event, element);
                    }
                }
            }
        }
    }

    /**
     * Run a control-path task on the engine thread, the owner of every QP's transport state, in its next duty cycle
     * (a connection manager's timers and MAD handling, for example). Without an engine attached the caller owns
     * everything and the task runs at once.
     *
     * @param task the task; it may allocate (control path) and must not block
     * @return false if the engine's task queue is full (try again later)
     */
    public boolean invoke(final Runnable task)
    {
        return port.invoke(task);
    }

    /**
     * Run a control-path task on the engine thread and wait for it: inline when the caller drives the engine (or no
     * engine is attached), so a single-threaded caller cannot deadlock. The task's exception is rethrown here.
     *
     * @param task    the task
     * @param timeout how long to wait for the engine to run it
     * @param unit    its unit
     * @return 0, or {@code -ETIMEDOUT} (the engine did not run it in time; it may run later), {@code -EAGAIN} (queue
     *         full), {@code -EINTR}
     */
    public int invokeAndWait(final Runnable task, final long timeout, final TimeUnit unit)
    {
        return port.onEngineThread(task, unit.toNanos(timeout));
    }

    /**
     * Wait for the next asynchronous event ({@code ibv_get_async_event}); events are queued whether or not an
     * {@link #asyncEventHandler} is set.
     *
     * @param timeout how long to wait, 0 to poll
     * @param unit its unit
     * @return the event, or null on timeout
     * @throws InterruptedException if interrupted while waiting
     */
    public AsyncEventRecord getAsyncEvent(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return asyncEvents.take(timeout, unit);
    }

    /**
     * Take the next asynchronous event without waiting.
     *
     * @return the event, or null
     */
    public AsyncEventRecord pollAsyncEvent()
    {
        return asyncEvents.poll();
    }

    /**
     * {@code ibv_ack_async_event}: every event taken must be acknowledged before its QP, CQ or SRQ is destroyed.
     *
     * @param record an event from {@link #getAsyncEvent}
     * @return 0, or {@code -EINVAL} if it is null or acknowledged already
     */
    public int ackAsyncEvent(final AsyncEventRecord record)
    {
        return AsyncEvents.ack(record);
    }

    /** @return asynchronous events dropped because nobody took them and the queue was full. */
    public long asyncEventsDropped()
    {
        return asyncEvents.dropped();
    }

    /**
     * Objects that exist now, for leak checks (a ULP that connects and disconnects a thousand times must come back
     * to where it started).
     *
     * @return "pd=N qp=N cq=N mr=N ah=N"
     */
    public synchronized String liveObjects()
    {
        return "pd=" + pds.size() + " qp=" + qpVerbs.count() + " cq=" + cqVerbs.count() + " mr=" +
            memory.mrCount() + " ah=" + ahs.count();
    }

    /**
     * {@code ib_alloc_pd}.
     *
     * @return a new PD.
     */
    public synchronized ProtectionDomain allocPd()
    {
        final int handle = allocate(pdHandles, "PD", ctx.maxPd());
        final ProtectionDomain pd = new ProtectionDomain(this, handle);
        pds.put(handle, pd);
        return pd;
    }

    /**
     * {@code ib_dealloc_pd}: refused while MRs, MWs, QPs, SRQs or AHs use the PD.
     *
     * @param pd the PD.
     */
    public synchronized void deallocPd(final ProtectionDomain pd)
    {
        checkPd(pd);
        if (pd.useCount() > 0)
        {
            throw new VerbsException(Errno.EBUSY, "PD " + pd.handle() + " is still used by " + pd.useCount() +
                " objects (MRs, MWs, QPs, SRQs, AHs); destroy them first");
        }
        pd.invalidate();
        pds.remove(pd.handle());
        pdHandles.free(pd.handle());
    }

    /**
     * Register memory with I/O virtual address = address ({@code ib_reg_mr}).
     *
     * @param pd PD.
     * @param address native address of pinned memory.
     * @param length bytes.
     * @param access {@link AccessFlags}.
     * @return the region.
     */
    public MemoryRegion regMr(final ProtectionDomain pd, final long address, final long length, final int access)
    {
        return regMr(pd, address, length, 0 != (access & AccessFlags.ZERO_BASED) ? 0 : address, access);
    }

    /**
     * Register a direct {@link UnsafeBuffer} (one backed by native memory, not a byte[]).
     *
     * @param pd PD.
     * @param buffer direct buffer.
     * @param access {@link AccessFlags}.
     * @return the region.
     */
    public MemoryRegion regMr(final ProtectionDomain pd, final UnsafeBuffer buffer, final int access)
    {
        if (null != buffer.byteArray())
        {
            throw new VerbsException(Errno.EINVAL,
                "cannot register a heap (byte[]) buffer: the GC may move it; use direct or DMA memory");
        }
        return regMr(pd, buffer.addressOffset(), buffer.capacity(), access);
    }

    /**
     * Register memory with an explicit I/O virtual address ({@code ibv_reg_mr_iova}).
     *
     * @param pd PD.
     * @param address native address.
     * @param length bytes.
     * @param iova VA peers and SGEs use for the first byte.
     * @param access {@link AccessFlags}.
     * @return the region.
     */
    public synchronized MemoryRegion regMr(
        final ProtectionDomain pd, final long address, final long length, final long iova, final int access)
    {
        checkPd(pd);
        return memory.regMr(pd, address, length, iova, access);
    }

    /**
     * Register memory from {@link #dma()}'s {@link DeviceDma#allocCoherent} ({@code ib_reg_mr} over DMA-mapped
     * pages, as a hardware RNIC pins and maps the pages it registers): the NIC may then read the payload of packets
     * sent from the region straight from it, a descriptor of its own after the headers, instead of from a copy
     * (zero-copy transmit; {@link MemoryRegion#dmaMapped()}). The buffer cannot be freed while the region is
     * registered; its VA is its CPU address (0 with ZERO_BASED).
     *
     * @param pd PD.
     * @param buffer memory allocated by this device's {@link #dma()}, not freed.
     * @param access {@link AccessFlags}.
     * @return the region.
     */
    public synchronized MemoryRegion regMr(final ProtectionDomain pd, final CoherentBuffer buffer, final int access)
    {
        checkPd(pd);
        if (null == buffer || null == dma || buffer.owner() != dma)
        {
            throw new VerbsException(Errno.EINVAL, "regMr: the coherent buffer was not allocated by this device's " +
                "dma()");
        }
        return memory.regMr(pd, buffer, access);
    }

    /**
     * {@code ib_dereg_mr}: refused while memory windows are bound to the region. A DMA-mapped region
     * ({@link #regMr(ProtectionDomain, CoherentBuffer, int)}) stops being usable at once, then waits until the NIC has
     * given back every packet that reads its memory (a hardware RNIC's deregistration fences its DMA the same way),
     * so its buffer may be freed when this returns.
     *
     * @param mr the region (user or fast registration).
     * @throws VerbsException EBUSY if packets reading a DMA-mapped region are still in the NIC's ring and the caller
     *     is the thread that drives the node (step it and deregister again); ETIMEDOUT if the NIC did not give them
     *     back in time. The region stays registered, unusable, in both cases.
     */
    public void deregMr(final MemoryRegion mr)
    {
        final boolean fence;
        synchronized (this)
        {
            fence = memory.beginDereg(mr);
        }
        if (fence)
        {
            final int result = port.zeroCopyFence(DEREG_FENCE_TIMEOUT_NS);
            if (0 != result)
            {
                throw new VerbsException(-result, "deregMr: the NIC may still read MR lkey 0x" +
                    Integer.toHexString(mr.lkey()) + " for packets in its transmit ring (" + Errno.name(result) +
                    "); drive the node and deregister again");
            }
        }
        synchronized (this)
        {
            memory.deregMr(mr);
        }
    }

    /**
     * {@code ib_alloc_mr}: a region for fast registration, FREE until a {@link WrOpcode#REG_MR} work request
     * registers the page list of its last {@link #mapMrSg}; lkey and rkey are equal.
     *
     * @param pd PD.
     * @param type {@link MrType#MEM_REG} or {@link MrType#SG_GAPS} (others: EINVAL, as the core answers).
     * @param maxNumSg the most pages (SG_GAPS: elements) a registration may hold, 1..max_fast_reg_page_list_len.
     * @return the region.
     */
    public synchronized MemoryRegion allocMr(final ProtectionDomain pd, final MrType type, final int maxNumSg)
    {
        checkPd(pd);
        return memory.allocMr(pd, type, maxNumSg);
    }

    /**
     * {@code ib_map_mr_sg}: stage a fast-registration region's translation from a scatter list mapped with
     * {@link #dma()}: iova = the first DMA address + {@code sgOffset}; for MEM_REG every element after the first
     * must start on a page and every element before the last end on one, unless they are contiguous (the kernel's
     * {@code ib_sg_to_pages}); SG_GAPS takes any list. Call it while the region is not registered.
     *
     * @param mr a region from {@link #allocMr}.
     * @param sg the DMA-mapped list.
     * @param nents DMA segments to map (what {@link DeviceDma#mapSg} returned).
     * @param sgOffset offset of the first byte in the first element.
     * @param pageSize page size, a power of two 4 KiB..2 MiB (ignored for SG_GAPS).
     * @return elements mapped (fewer than nents: a gap or a full list stopped it; treat it as a failure), or
     *         {@code -EINVAL} (bad arguments, not a fast-registration region) / {@code -ENOMEM} (not one page fit).
     */
    public synchronized int mapMrSg(
        final MemoryRegion mr, final ScatterList sg, final int nents, final int sgOffset, final int pageSize)
    {
        return memory.mapMrSg(mr, sg, nents, sgOffset, pageSize);
    }

    /**
     * {@code ib_map_mr_sg} over DMA addresses and lengths (jrxe's DMA addresses are CPU addresses).
     *
     * @param mr a region from {@link #allocMr}.
     * @param dmaAddr each element's DMA address.
     * @param dmaLen each element's length.
     * @param nents elements to map.
     * @param sgOffset offset of the first byte in the first element.
     * @param pageSize page size, a power of two 4 KiB..2 MiB (ignored for SG_GAPS).
     * @return as {@link #mapMrSg(MemoryRegion, ScatterList, int, int, int)}.
     */
    public synchronized int mapMrSg(
        final MemoryRegion mr, final long[] dmaAddr, final int[] dmaLen, final int nents, final int sgOffset,
        final int pageSize)
    {
        return memory.mapMrSg(mr, dmaAddr, dmaLen, nents, sgOffset, pageSize);
    }

    /**
     * {@code ib_update_fast_reg_key}: give a fast-registration region's lkey and rkey a new key byte before the next
     * REG_MR (which carries the key to the device).
     *
     * @param mr a region from {@link #allocMr}.
     * @param newKey the new key byte (low 8 bits used).
     */
    public synchronized void updateFastRegKey(final MemoryRegion mr, final int newKey)
    {
        memory.updateFastRegKey(mr, newKey);
    }

    /**
     * {@code ib_alloc_mr_integrity}: an integrity (signature) region, FREE until a {@link WrOpcode#REG_MR_INTEGRITY}
     * registers the data and protection lists of its last {@link #mapMrSgPi} with the {@link SigAttrs} set on it.
     *
     * @param pd PD.
     * @param maxNumDataSg data list capacity, 1..max_fast_reg_page_list_len.
     * @param maxNumMetaSg protection list capacity, 0..max_fast_reg_page_list_len (0: no memory-domain PI).
     * @return the region, of type {@link MrType#INTEGRITY}.
     */
    public synchronized MemoryRegion allocMrIntegrity(
        final ProtectionDomain pd, final int maxNumDataSg, final int maxNumMetaSg)
    {
        checkPd(pd);
        return memory.integrity().allocMrIntegrity(pd, maxNumDataSg, maxNumMetaSg);
    }

    /**
     * {@code ib_map_mr_sg_pi}: stage an integrity region's data list and protection (meta) list (DMA addresses are
     * CPU addresses in jrxe). Afterwards {@link MemoryRegion#iova()} is the first data byte and
     * {@link MemoryRegion#length()} data plus meta bytes, as mlx5 sets them; a consumer whose wire domain is NONE
     * transfers {@code length - metaLength} bytes through the key (the kernel's rdma_rw does the same).
     *
     * @param mr a region from {@link #allocMrIntegrity}.
     * @param dataDma data elements' addresses.
     * @param dataLen data elements' lengths.
     * @param dataNents data elements to map.
     * @param dataOffset offset of the first data byte in the first element.
     * @param metaDma protection elements' addresses (null with metaNents 0).
     * @param metaLen protection elements' lengths.
     * @param metaNents protection elements to map, 0 for none.
     * @param metaOffset offset of the first protection byte in the first element.
     * @param pageSize page size, a power of two 4 KiB..2 MiB.
     * @return data plus protection elements mapped (fewer: a list was full), or {@code -EINVAL}.
     */
    public synchronized int mapMrSgPi(
        final MemoryRegion mr,
        final long[] dataDma, final int[] dataLen, final int dataNents, final int dataOffset,
        final long[] metaDma, final int[] metaLen, final int metaNents, final int metaOffset,
        final int pageSize)
    {
        return memory.integrity().mapMrSgPi(mr, dataDma, dataLen, dataNents, dataOffset, metaDma, metaLen, metaNents,
            metaOffset, pageSize);
    }

    /**
     * {@code ib_check_mr_status}: the first signature error found through an integrity region since the last call,
     * which clears it (mlx5). On mlx5 and in jrxe a signature error does not fail the work request that moved the
     * data: a consumer checks after each completion that used the region.
     *
     * @param mr an integrity region.
     * @param checkMask {@link MrCheckStatus#CHECK_SIG_STATUS}.
     * @return the status: {@link MrCheckStatus#failStatus()} has {@code CHECK_SIG_STATUS} set and
     *         {@link MrCheckStatus#sigErr()} the error if one was found.
     * @throws VerbsException EINVAL for another region type or other check bits.
     */
    public MrCheckStatus checkMrStatus(final MemoryRegion mr, final int checkMask)
    {
        return memory.integrity().checkMrStatus(mr, checkMask);
    }

    /**
     * {@code ib_inc_rkey}: the rkey with its key byte incremented (wrapping), for the next binding of a type 2
     * window or registration of a fast-registration region.
     *
     * @param rkey a key.
     * @return the key with the low byte + 1.
     */
    public static int incRkey(final int rkey)
    {
        return ((rkey + 1) & 0xff) | (rkey & ~0xff);
    }

    /**
     * {@code ib_alloc_fmr}: an unmapped fast memory region.
     *
     * @param pd PD.
     * @param access rights of every map.
     * @param attr max_pages, max_maps, page_shift.
     * @return the FMR.
     */
    public synchronized FastMemoryRegion allocFmr(final ProtectionDomain pd, final int access, final FmrAttr attr)
    {
        checkPd(pd);
        return memory.allocFmr(pd, access, attr);
    }

    /**
     * {@code ib_map_phys_fmr}: map a list of pages at {@code iova}, under new keys (applied on the engine thread).
     *
     * @param fmr the FMR.
     * @param pageList page addresses, each aligned to the FMR's page size.
     * @param listLen pages, 1..max_pages.
     * @param iova I/O virtual address of the first page, aligned to the page size.
     */
    public void mapPhysFmr(final FastMemoryRegion fmr, final long[] pageList, final int listLen, final long iova)
    {
        memory.mapPhysFmr(fmr, pageList, listLen, iova); // not under the device lock: it waits for the engine
    }

    /**
     * {@code ib_unmap_fmr}: unmap a list of FMRs with one engine-thread step (the kernel's one TPT sync).
     *
     * @param fmrs FMRs of this device.
     */
    public void unmapFmr(final Iterable<FastMemoryRegion> fmrs)
    {
        memory.unmapFmr(fmrs);
    }

    /**
     * {@code ib_dealloc_fmr}: refused (EBUSY) while mapped.
     *
     * @param fmr the FMR.
     */
    public synchronized void deallocFmr(final FastMemoryRegion fmr)
    {
        memory.deallocFmr(fmr);
    }

    /**
     * {@code ib_alloc_mw}.
     *
     * @param pd PD.
     * @param type {@link MemoryWindow#TYPE_1} or {@link MemoryWindow#TYPE_2}.
     * @return the window (type 1: valid and unbound; type 2: free until bound by a BIND_MW WR).
     */
    public synchronized MemoryWindow allocMw(final ProtectionDomain pd, final int type)
    {
        checkPd(pd);
        return memory.allocMw(pd, type);
    }

    /**
     * {@code ib_dealloc_mw}: unbinds and removes the window.
     *
     * @param mw the window.
     */
    public synchronized void deallocMw(final MemoryWindow mw)
    {
        memory.deallocMw(mw);
    }

    /**
     * Bind a type 1 window through the API (the effect of {@code ibv_bind_mw}, applied at once rather than in
     * send-queue order), with every check of a BIND_MW work request. A null region with address and length 0
     * unbinds it.
     *
     * @param mw type 1 window.
     * @param mr region in the same PD registered with MW_BIND, or null.
     * @param addr start VA inside the region.
     * @param length bytes.
     * @param access REMOTE_* rights of the window.
     * @return the new rkey (the key byte changes on every bind, so old rkeys stop working).
     */
    public int bindMw(
        final MemoryWindow mw, final MemoryRegion mr, final long addr, final long length, final int access)
    {
        return memory.bindMw(mw, mr, addr, length, access);
    }

    /**
     * {@code ib_create_cq}.
     *
     * @param cqe minimum number of entries, 1..max_cqe.
     * @param handler completion event callback (on the engine thread), or null.
     * @return the CQ (its {@link CompletionQueue#cqe()} may be larger than requested).
     */
    public CompletionQueue createCq(final int cqe, final CompletionHandler handler)
    {
        return createCq(new CqInitAttr().cqe(cqe).handler(handler));
    }

    /**
     * {@code ib_create_cq} with every attribute.
     *
     * @param attr size, handler, channel, context, completion vector.
     * @return the CQ.
     */
    public synchronized CompletionQueue createCq(final CqInitAttr attr)
    {
        return cqVerbs.create(attr);
    }

    /**
     * {@code ib_resize_cq} (rxe_resize_cq): grow or shrink a CQ to at least {@code cqe} entries, keeping every
     * queued completion; refused below the number queued. Runs the swap on the engine thread and waits for it;
     * polling the CQ meanwhile is safe.
     *
     * @param cq the CQ.
     * @param cqe new minimum size, 1..max_cqe and at least the number queued.
     * @throws VerbsException EINVAL for a bad size, ETIMEDOUT if the engine thread does not run the swap.
     */
    public void resizeCq(final CompletionQueue cq, final int cqe)
    {
        cqVerbs.resize(cq, cqe);
    }

    /**
     * {@code ib_modify_cq} ({@code rdma_set_cq_moderation}): an armed CQ's event fires after {@code cqCount}
     * completions or {@code cqPeriodUs} µs after the first one, whichever comes first; (0, 0) fires on each. rxe
     * answers EOPNOTSUPP; jrxe implements it. Solicited-only arming is not moderated.
     *
     * @param cq the CQ.
     * @param cqCount completions per event, 0..65535 (0: by time only).
     * @param cqPeriodUs longest delay of an event in µs, 0..65535 (0: by count only).
     */
    public void modifyCq(final CompletionQueue cq, final int cqCount, final int cqPeriodUs)
    {
        cqVerbs.modify(cq, cqCount, cqPeriodUs);
    }

    /**
     * {@code ib_destroy_cq}: refused while QPs use it or while events taken from its channel are not acknowledged.
     *
     * @param cq the CQ.
     */
    public synchronized void destroyCq(final CompletionQueue cq)
    {
        cqVerbs.destroy(cq);
    }

    /**
     * {@code ibv_create_comp_channel}.
     *
     * @return a channel CQs can report their events to.
     */
    public synchronized CompletionChannel createCompChannel()
    {
        return cqVerbs.createChannel();
    }

    /**
     * {@code ibv_destroy_comp_channel}: refused (EBUSY) while CQs use the channel.
     *
     * @param channel the channel.
     */
    public synchronized void destroyCompChannel(final CompletionChannel channel)
    {
        cqVerbs.destroyChannel(channel);
    }

    /**
     * {@code ib_create_qp}. The QP starts in RESET; {@code init.cap()} receives the actual capabilities.
     * <p>
     * XRC: an {@link QpType#XRC_INI} QP needs a PD and a send CQ (its receive CQ, SRQ and receive caps are ignored,
     * as ib_uverbs ignores them); an {@link QpType#XRC_TGT} QP takes no PD ({@code pd} null) and no CQ, only
     * {@link QpInitAttr#xrcd}.
     *
     * @param pd PD (null for XRC_TGT).
     * @param init creation attributes.
     * @return the QP.
     */
    public synchronized QueuePair createQp(final ProtectionDomain pd, final QpInitAttr init)
    {
        final QpType type = init.qpType();
        if (QpType.XRC_TGT == type)
        {
            if (null != pd)
            {
                throw new VerbsException(Errno.EINVAL,
                    "an XRC target QP belongs to an XRC domain, not a PD: pass pd = null and set QpInitAttr.xrcd");
            }
            xrcdVerbs.check(init.xrcd());
            return qpVerbs.create(null, init);
        }
        checkPd(pd);
        if (null != init.xrcd())
        {
            throw new VerbsException(Errno.EINVAL, "only XRC_TGT QPs take an XRC domain, not " + type);
        }
        checkCq(init.sendCq(), "send");
        if (QpType.XRC_INI != type)
        {
            checkCq(init.recvCq(), "receive");
            if (null != init.srq())
            {
                srqVerbs.check(init.srq());
            }
        }
        return qpVerbs.create(pd, init);
    }

    /**
     * {@code ib_open_qp}: a handle on the XRC target QP {@code qpn} of {@code xrcd}, created by another user of the
     * domain, with its own event handler. Close it with {@link #closeQp}.
     *
     * @param xrcd the XRC domain the QP was created in.
     * @param attr its QP number and type, and the handler of its events through the new handle.
     * @return the handle.
     * @throws VerbsException EINVAL if the type is not XRC_TGT or the domain holds no XRC target QP of that number
     */
    public synchronized XrcQpHandle openQp(final XrcDomain xrcd, final QpOpenAttr attr)
    {
        xrcdVerbs.check(xrcd);
        if (QpType.XRC_TGT != attr.qpType())
        {
            throw new VerbsException(Errno.EINVAL, "only XRC_TGT QPs can be opened (ib_open_qp), not " +
                attr.qpType());
        }
        return qpVerbs.open(xrcd, attr.qpNum(), attr.eventHandler());
    }

    /**
     * {@code ib_close_qp}: gives back a handle from {@link #openQp}. The last reference (after the creator's
     * {@link #destroyQp}) destroys the XRC target QP.
     *
     * @param handle the handle.
     */
    public void closeQp(final XrcQpHandle handle)
    {
        final QueuePair gone;
        synchronized (this)
        {
            gone = qpVerbs.close(handle);
        }
        if (null != gone)
        {
            port.destroyed(gone); // outside the lock: the engine may take a moment to accept it
        }
    }

    /**
     * {@code ib_modify_qp}: checks the transition against {@link QpStateTable} ({@code ib_modify_qp_is_ok}), then
     * the values, then stores them and tells the engine.
     *
     * @param qp the QP.
     * @param attr requested attributes.
     * @param mask {@link QpAttrMask} bits naming the fields to apply.
     */
    public void modifyQp(final QueuePair qp, final QpAttr attr, final int mask)
    {
        final QpAttr after;
        synchronized (this)
        {
            after = qpVerbs.modify(qp, attr, mask, portAttr);
        }
        port.modified(qp, after, mask); // outside the lock: the engine may take a moment to accept it
    }

    /**
     * {@code ib_query_qp}: fills every attribute.
     *
     * @param qp the QP.
     * @param dst destination.
     * @return dst.
     */
    public synchronized QpAttr queryQp(final QueuePair qp, final QpAttr dst)
    {
        return qpVerbs.query(qp, dst);
    }

    /**
     * {@code ib_destroy_qp}: the QP leaves the tables; its number is released for (cyclic) reuse. On an XRC target QP
     * that {@link #openQp} handles still use, this drops only the creator's reference.
     *
     * @param qp the QP.
     */
    public void destroyQp(final QueuePair qp)
    {
        final boolean gone;
        synchronized (this)
        {
            mcast.checkDestroy(qp);
            gone = qpVerbs.destroy(qp);
        }
        if (gone)
        {
            port.destroyed(qp); // outside the lock: the engine may take a moment to accept it
        }
    }

    /**
     * {@code ib_attach_mcast}: the UD QP receives datagrams sent to multicast GID {@code gidHi:gidLo} (DQPN
     * 0xFFFFFF), each checked against its own Q_Key; the node's NIC takes the group's MAC and the stack reports the
     * membership (IGMP/MLD). Attaching again is a no-op, as in rxe.
     *
     * @param qp a UD QP.
     * @param gidHi the group's GID, bytes 0..7 (ff00::/8, or ::ffff:224.0.0.0/100 for an IPv4 group).
     * @param gidLo the group's GID, bytes 8..15.
     * @throws VerbsException EINVAL for a GID that is not multicast or a QP that is not UD; ENOMEM beyond 8192
     *                        groups or 56 QPs in a group
     */
    public void attachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        final boolean attached;
        synchronized (this)
        {
            qpVerbs.check(qp);
            if (QpType.UD == qp.type())
            {
                ShardRules.checkMulticast(qp, ctx.compVectors());
            }
            attached = mcast.attach(qp, gidHi, gidLo);
        }
        if (attached)
        {
            port.attachedMcast(qp, gidHi, gidLo); // outside the lock, like a modify
        }
    }

    /**
     * {@code ib_detach_mcast}.
     *
     * @param qp the QP.
     * @param gidHi the group's GID, bytes 0..7.
     * @param gidLo the group's GID, bytes 8..15.
     * @throws VerbsException EINVAL if the QP is not attached to the group
     */
    public void detachMcast(final QueuePair qp, final long gidHi, final long gidLo)
    {
        synchronized (this)
        {
            qpVerbs.check(qp);
            mcast.detach(qp, gidHi, gidLo);
        }
        port.detachedMcast(qp, gidHi, gidLo);
    }

    /**
     * {@code ib_create_srq} (rxe {@code rxe_srq_chk_init}).
     *
     * @param pd PD.
     * @param attr max WRs (1..max_srq_wr), max SGEs (1..max_srq_sge), limit (0 = disarmed).
     * @return the SRQ; {@code attr} receives the actual max WRs.
     */
    public synchronized SharedReceiveQueue createSrq(final ProtectionDomain pd, final SrqAttr attr)
    {
        checkPd(pd);
        return srqVerbs.create(pd, attr);
    }

    /**
     * {@code ib_create_srq} of an XRC SRQ ({@code IB_SRQT_XRC}, IBA 11.2.2): XRC initiators name it by its
     * {@link SharedReceiveQueue#srqn()} in each work request; any XRC target QP of the same domain delivers into it,
     * its receives complete on {@code cq}, and its PD protects the memory those requests touch.
     *
     * @param pd PD.
     * @param xrcd its XRC domain (required: EINVAL without).
     * @param cq the CQ its receives complete on (required: EINVAL without).
     * @param attr as for {@link #createSrq(ProtectionDomain, SrqAttr)}.
     * @return the SRQ.
     */
    public synchronized SharedReceiveQueue createXrcSrq(
        final ProtectionDomain pd, final XrcDomain xrcd, final CompletionQueue cq, final SrqAttr attr)
    {
        checkPd(pd);
        xrcdVerbs.check(xrcd);
        checkCq(cq, "XRC SRQ");
        ShardRules.checkXrcSrqCq(cq, ctx.compVectors());
        return srqVerbs.createXrc(pd, xrcd, cq, attr);
    }

    /**
     * {@code ib_alloc_xrcd}.
     *
     * @return a new XRC domain.
     */
    public synchronized XrcDomain allocXrcd()
    {
        return xrcdVerbs.alloc();
    }

    /**
     * {@code ib_dealloc_xrcd}: EBUSY while an XRC SRQ or XRC target QP uses it, EINVAL if already deallocated.
     *
     * @param xrcd the XRC domain.
     */
    public synchronized void deallocXrcd(final XrcDomain xrcd)
    {
        xrcdVerbs.dealloc(xrcd);
    }

    /**
     * {@code ib_modify_srq} (rxe {@code rxe_srq_chk_attr}): arm the limit and/or change max_wr within the
     * capacity allocated at creation.
     *
     * @param srq the SRQ.
     * @param attr values.
     * @param mask {@link SrqAttr#MASK_MAX_WR} | {@link SrqAttr#MASK_LIMIT}.
     */
    public synchronized void modifySrq(final SharedReceiveQueue srq, final SrqAttr attr, final int mask)
    {
        srqVerbs.modify(srq, attr, mask);
    }

    /**
     * {@code ib_query_srq}.
     *
     * @param srq the SRQ.
     * @param dst destination.
     * @return dst.
     */
    public synchronized SrqAttr querySrq(final SharedReceiveQueue srq, final SrqAttr dst)
    {
        srqVerbs.check(srq);
        return srq.query(dst);
    }

    /**
     * {@code ib_destroy_srq}: refused while QPs use it.
     *
     * @param srq the SRQ.
     */
    public synchronized void destroySrq(final SharedReceiveQueue srq)
    {
        srqVerbs.destroy(srq);
    }

    /**
     * {@code rdma_create_ah} (rxe {@code rxe_av_chk_attr}).
     *
     * @param pd PD.
     * @param attr address vector.
     * @return the AH.
     */
    public synchronized AddressHandle createAh(final ProtectionDomain pd, final AhAttr attr)
    {
        checkPd(pd);
        return ahs.create(pd, attr);
    }

    /**
     * {@code rdma_modify_ah}: validates the new vector as {@link #createAh} does and replaces the AH's vector
     * atomically; work requests posted before keep the vector they copied.
     *
     * @param ah the AH.
     * @param attr the new address vector.
     */
    public synchronized void modifyAh(final AddressHandle ah, final AhAttr attr)
    {
        ahs.modify(ah, attr);
    }

    /**
     * {@code rdma_query_ah}; unlike rxe (which drops it) the static rate reads back as set.
     *
     * @param ah the AH.
     * @param dst destination.
     * @return dst.
     */
    public synchronized AhAttr queryAh(final AddressHandle ah, final AhAttr dst)
    {
        return ahs.query(ah, dst);
    }

    /**
     * {@code ib_init_ah_from_wc} ({@code ib_init_ah_attr_from_wc}): the address vector of a reply to the sender
     * of a UD/GSI receive, from its completion and the 40-byte network header area at the start of its buffer
     * ({@link RdmaNetworkHeader}).
     *
     * @param port port the message arrived on.
     * @param wc its receive completion.
     * @param grh the receive buffer.
     * @param offset where the receive buffer (its header area) starts in {@code grh}.
     * @param dst receives the vector (only on success).
     * @throws VerbsException EINVAL (bad port, buffer or network type), EPROTOTYPE (no GRH in the completion),
     *     ENOENT (the packet's destination GID is not one of this port's).
     */
    public void initAhFromWc(
        final int port, final WorkCompletion wc, final DirectBuffer grh, final int offset, final AhAttr dst)
    {
        checkPort(port);
        AhFromWc.init(gidTable, port, wc, grh, offset, dst);
    }

    /**
     * {@code ib_create_ah_from_wc}: {@link #initAhFromWc} then {@link #createAh}.
     *
     * @param pd PD of the AH.
     * @param wc the receive completion.
     * @param grh the receive buffer.
     * @param offset where the receive buffer starts in {@code grh}.
     * @param port port the message arrived on.
     * @return an AH that replies to the sender.
     */
    public synchronized AddressHandle createAhFromWc(
        final ProtectionDomain pd, final WorkCompletion wc, final DirectBuffer grh, final int offset, final int port)
    {
        checkPort(port);
        checkPd(pd);
        return ahs.createFromWc(pd, wc, grh, offset, port);
    }

    /**
     * {@code rdma_destroy_ah}.
     *
     * @param ah the AH.
     */
    public synchronized void destroyAh(final AddressHandle ah)
    {
        ahs.destroy(ah);
    }

    /**
     * @param handle PD handle.
     * @return the PD or null.
     */
    public synchronized ProtectionDomain pd(final int handle)
    {
        return pds.get(handle);
    }

    /**
     * @param handle CQ handle.
     * @return the CQ or null.
     */
    public synchronized CompletionQueue cq(final int handle)
    {
        return cqVerbs.lookup(handle);
    }

    /**
     * @param handle SRQ handle.
     * @return the SRQ or null.
     */
    public synchronized SharedReceiveQueue srq(final int handle)
    {
        return srqVerbs.lookup(handle);
    }

    /**
     * @param handle AH handle.
     * @return the AH or null.
     */
    public synchronized AddressHandle ah(final int handle)
    {
        return ahs.get(handle);
    }

    static int allocate(final IndexAllocator allocator, final String what, final int max)
    {
        final int handle = allocator.allocate();
        if (handle < 0)
        {
            throw new VerbsException(Errno.ENOMEM, "no free " + what + ": the device limit of " + max +
                " is reached; destroy unused objects or raise it in RxeContext");
        }
        return handle;
    }

    // libibverbs blocks a destroy until every event taken is acknowledged; jrxe refuses instead of hanging
    static void checkAcked(final int unacked, final String what)
    {
        if (unacked > 0)
        {
            throw new VerbsException(Errno.EBUSY, what + " has " + unacked +
                " asynchronous events taken but not acknowledged; call ackAsyncEvent first");
        }
    }

    private static void checkPort(final int port)
    {
        if (PORT != port)
        {
            throw new VerbsException(Errno.EINVAL, "port " + port + " is invalid: rxe has one port, use 1");
        }
    }

    private void checkPd(final ProtectionDomain pd)
    {
        if (null == pd || !pd.isValid() || pds.get(pd.handle()) != pd)
        {
            throw new VerbsException(Errno.EINVAL, "PD is null, deallocated or from another device");
        }
    }

    private void checkCq(final CompletionQueue cq, final String role)
    {
        if (!cqVerbs.isLive(cq))
        {
            throw new VerbsException(Errno.EINVAL, "the " + role + " CQ is missing or not on this device");
        }
    }
}
