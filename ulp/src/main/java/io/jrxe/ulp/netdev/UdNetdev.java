package io.jrxe.ulp.netdev;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RdmaNetworkHeader;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * An {@link RdmaNetdev} on one UD QP, as the kernel's IPoIB datagram mode is: every packet is one UD SEND with the
 * 4-byte {@link IpoUdHeader} in front, to the AH and QPN the caller names, with the netdev's Q_Key.
 * <p>
 * Memory: one registered region, receive slots first (each the 40-byte network header area and a path MTU), then
 * transmit slots (each a path MTU); a packet is copied into a free transmit slot, as a NIC driver copies into its
 * bounce buffers, so the caller's buffer is free when {@link #send} returns.
 * <pre>
 *   | rx 0: GRH 40 | MTU | rx 1: GRH 40 | MTU | ... | rx R-1 | tx 0: MTU | tx 1: MTU | ... | tx T-1 |
 * </pre>
 * Receive WR ids and send WR ids are slot numbers; every receive is reposted into its slot once handed over, and a
 * transmit slot is free again when its send completes. MTU: the port's active MTU less the encapsulation header
 * (RFC 4391 §5: the IPoIB-UD MTU is the IB MTU less 4 octets).
 * <p>
 * Threads: one thread owns a netdev (calls {@link #send}, {@link #poll} and {@link #close}), as one NAPI context
 * owns a kernel netdev's queue; the engine runs beside it and talks to it through the QP and CQs. After set-up,
 * sending and polling allocate nothing.
 */
public final class UdNetdev implements RdmaNetdev
{
    /**
     * Settings with defaults.
     */
    public static final class Context
    {
        private int portNum = 1;
        private int sgidIndex = 1;
        private int qkey = DEFAULT_QKEY;
        private int sendDepth = 64;
        private int recvDepth = 256;

        /** @return the port (default 1) */
        public int portNum()
        {
            return portNum;
        }

        /**
         * @param value the port
         * @return this
         */
        public Context portNum(final int value)
        {
            portNum = value;
            return this;
        }

        /** @return the source GID index of the address handles the netdev makes (default 1: RoCE v2 over IPv4) */
        public int sgidIndex()
        {
            return sgidIndex;
        }

        /**
         * @param value the source GID index
         * @return this
         */
        public Context sgidIndex(final int value)
        {
            sgidIndex = value;
            return this;
        }

        /** @return the Q_Key of the netdev's QP and of everything it sends (default {@link #DEFAULT_QKEY}) */
        public int qkey()
        {
            return qkey;
        }

        /**
         * @param value the Q_Key (the high bit set is a controlled Q_Key, which a UD QP may not send with: refused)
         * @return this
         */
        public Context qkey(final int value)
        {
            qkey = value;
            return this;
        }

        /** @return transmit slots, the most sends in flight (default 64) */
        public int sendDepth()
        {
            return sendDepth;
        }

        /**
         * @param value transmit slots
         * @return this
         */
        public Context sendDepth(final int value)
        {
            sendDepth = value;
            return this;
        }

        /** @return receive slots, kept posted (default 256) */
        public int recvDepth()
        {
            return recvDepth;
        }

        /**
         * @param value receive slots
         * @return this
         */
        public Context recvDepth(final int value)
        {
            recvDepth = value;
            return this;
        }
    }

    /**
     * The Q_Key of a netdev unless set: 0x0B1B, the Q_Key OpenSM gives the IPoIB broadcast group by default (RoCE
     * has no SA to give one; a peer netdev must use the same).
     */
    public static final int DEFAULT_QKEY = 0x0B1B;
    private static final int GRH = RdmaNetworkHeader.LENGTH;
    private static final int POLL_BATCH = 32;

    private final RxeDevice device;
    private final int portNum;
    private final int sgidIndex;
    private final int pathMtu;
    private final int mtu;
    private final long gidHi;
    private final long gidLo;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final QueuePair qp;
    private final UnsafeBuffer memory;
    private final MemoryRegion mr;
    private final int recvDepth;
    private final int rxSlot;
    private final int txBase;
    private final int[] freeTx;
    private int freeTxCount;
    private final SendWorkRequest sendWr = new SendWorkRequest(1);
    private final RecvWorkRequest recvWr = new RecvWorkRequest(1);
    /** Receive completions being handed over; apart from the send ones, since a receiver may send (and reclaim). */
    private final WorkCompletion[] wcs = new WorkCompletion[POLL_BATCH];
    private final WorkCompletion[] sendWcs = new WorkCompletion[POLL_BATCH];
    private final NetdevSender sender = new NetdevSender(this);
    private final NetdevStats stats = new NetdevStats();
    /** The multicast groups the QP is attached to (control path only: attach, detach, close). */
    private long[] groupHi = new long[4];
    private long[] groupLo = new long[4];
    private int groups;
    private int qkey;
    private int id;
    private boolean closed;

    /**
     * Creates the netdev's PD, CQs, UD QP (brought to RTS) and memory, and posts every receive.
     *
     * @param device the RDMA device
     * @param ctx the settings
     * @throws VerbsException if a verb fails (bad port, limits)
     * @throws IllegalArgumentException for settings out of range
     */
    public UdNetdev(final RxeDevice device, final Context ctx)
    {
        if (ctx.sendDepth() < 1 || ctx.recvDepth() < 1)
        {
            throw new IllegalArgumentException("sendDepth and recvDepth must be at least 1, got " +
                ctx.sendDepth() + " and " + ctx.recvDepth());
        }
        if (ctx.qkey() < 0)
        {
            throw new IllegalArgumentException("Q_Key " + Integer.toHexString(ctx.qkey()) +
                " is a controlled Q_Key (high bit set), which a UD QP cannot send with (IBA C10-15)");
        }
        this.device = device;
        this.portNum = ctx.portNum();
        this.sgidIndex = ctx.sgidIndex();
        this.qkey = ctx.qkey();
        this.recvDepth = ctx.recvDepth();
        this.pathMtu = device.queryPort(portNum, new PortAttr()).activeMtu().bytes();
        this.mtu = pathMtu - IpoUdHeader.LENGTH;
        final byte[] gid = new byte[16];
        device.queryGid(portNum, sgidIndex, gid);
        final UnsafeBuffer gidView = new UnsafeBuffer(gid);
        this.gidHi = gidView.getLong(0, java.nio.ByteOrder.BIG_ENDIAN);
        this.gidLo = gidView.getLong(8, java.nio.ByteOrder.BIG_ENDIAN);
        this.rxSlot = GRH + pathMtu;
        this.txBase = recvDepth * rxSlot;
        this.freeTx = new int[ctx.sendDepth()];
        for (int i = 0; i < freeTx.length; i++)
        {
            freeTx[freeTxCount++] = freeTx.length - 1 - i;
        }
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
            sendWcs[i] = new WorkCompletion();
        }
        pd = device.allocPd();
        sendCq = device.createCq(ctx.sendDepth(), null);
        recvCq = device.createCq(recvDepth, null);
        final QpInitAttr init = new QpInitAttr().qpType(QpType.UD).sendCq(sendCq).recvCq(recvCq);
        init.cap().maxSendWr(ctx.sendDepth()).maxRecvWr(recvDepth).maxSendSge(1).maxRecvSge(1);
        qp = device.createQp(pd, init);
        memory = new UnsafeBuffer(BufferUtil.allocateDirectAligned(txBase + freeTx.length * pathMtu, 64));
        mr = device.regMr(pd, memory, AccessFlags.LOCAL_WRITE);
        raise();
        for (int slot = 0; slot < recvDepth; slot++)
        {
            final int rc = repost(slot);
            if (0 != rc)
            {
                throw new VerbsException(-rc, "UD netdev: posting receive " + slot + " failed: " + qp.postError());
            }
        }
    }

    private void raise()
    {
        final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(portNum).qkey(qkey).sqPsn(0);
        QpState from = QpState.RESET;
        for (final QpState next : new QpState[]{QpState.INIT, QpState.RTR, QpState.RTS})
        {
            device.modifyQp(qp, attr.qpState(next), QpAttrMask.STATE | QpStateTable.required(QpType.UD, from, next));
            from = next;
        }
    }

    @Override
    public RxeDevice hca()
    {
        return device;
    }

    @Override
    public int portNum()
    {
        return portNum;
    }

    @Override
    public void setId(final int id)
    {
        this.id = id;
    }

    @Override
    public int id()
    {
        return id;
    }

    @Override
    public int mtu()
    {
        return mtu;
    }

    /** @return the netdev's QP number: with its GID, its link-layer address (RFC 4391 §9.1.1) */
    public int qpn()
    {
        return qp.qpn();
    }

    /** @return the high 64 bits of the GID it sends from (GID index {@link #sgidIndex()}) */
    public long gidHi()
    {
        return gidHi;
    }

    /** @return the low 64 bits of that GID */
    public long gidLo()
    {
        return gidLo;
    }

    /** @return the Q_Key it sends with and accepts */
    public int qkey()
    {
        return qkey;
    }

    /** @return the GID index its address handles send from */
    public int sgidIndex()
    {
        return sgidIndex;
    }

    /** @return its counters (read by the owner thread, or by another once it has stopped) */
    public NetdevStats stats()
    {
        return stats;
    }

    /** @return the netdev's protection domain, for address handles of its own making */
    public ProtectionDomain pd()
    {
        return pd;
    }

    @Override
    public int send(
        final int etherType,
        final DirectBuffer packet,
        final int offset,
        final int length,
        final AddressHandle address,
        final int dqpn)
    {
        if (closed || null == packet || null == address || length < 0 || offset < 0 ||
            offset + length > packet.capacity() || 0 != (dqpn & ~0xFFFFFF))
        {
            return -Errno.EINVAL;
        }
        if (length > mtu)
        {
            stats.txDropped++;
            return -Errno.EMSGSIZE;
        }
        if (0 == freeTxCount)
        {
            reclaim();
            if (0 == freeTxCount)
            {
                stats.txBusy++;
                return -Errno.EAGAIN;
            }
        }
        final int slot = freeTx[--freeTxCount];
        final int at = txBase + slot * pathMtu;
        IpoUdHeader.write(memory, at, etherType);
        memory.putBytes(at + IpoUdHeader.LENGTH, packet, offset, length);
        sendWr.wrId(slot).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED).ah(address).remoteQpn(dqpn)
            .remoteQkey(qkey).next(null);
        sendWr.sgl().clear().add(memory.addressOffset() + at, IpoUdHeader.LENGTH + length, mr.lkey());
        final int rc = qp.postSend(sendWr);
        if (0 != rc)
        {
            freeTx[freeTxCount++] = slot;
            stats.txErrors++;
            return rc;
        }
        stats.txPackets++;
        stats.txBytes += length;
        return 0;
    }

    @Override
    public int poll(final NetdevReceiver receiver, final int max)
    {
        reclaim();
        if (closed)
        {
            return 0;
        }
        final int n = recvCq.poll(wcs, Math.min(max, wcs.length));
        int delivered = 0;
        for (int i = 0; i < n; i++)
        {
            final WorkCompletion wc = wcs[i];
            final int slot = (int)wc.wrId();
            if (onReceive(receiver, wc, slot))
            {
                delivered++;
            }
            final int rc = repost(slot);
            if (0 != rc)
            {
                stats.rxRepostErrors++;
            }
        }
        return delivered;
    }

    private boolean onReceive(final NetdevReceiver receiver, final WorkCompletion wc, final int slot)
    {
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            stats.rxErrors++;
            return false;
        }
        final int length = wc.byteLen() - GRH - IpoUdHeader.LENGTH;
        if (length < 0)
        {
            stats.rxLengthErrors++; // shorter than its encapsulation header: not a packet of ours
            return false;
        }
        final int at = slot * rxSlot;
        stats.rxPackets++;
        stats.rxBytes += length;
        receiver.onPacket(IpoUdHeader.etherType(memory, at + GRH), memory, at + GRH + IpoUdHeader.LENGTH, length,
            sender.wrap(wc, memory, at));
        return true;
    }

    /** Frees the transmit slots of completed sends. */
    private void reclaim()
    {
        final int n = sendCq.poll(sendWcs, sendWcs.length);
        for (int i = 0; i < n; i++)
        {
            final WorkCompletion wc = sendWcs[i];
            freeTx[freeTxCount++] = (int)wc.wrId();
            if (WcStatus.SUCCESS.code() != wc.status())
            {
                stats.txErrors++;
            }
        }
    }

    private int repost(final int slot)
    {
        recvWr.wrId(slot).next(null);
        recvWr.sgl().clear().add(memory.addressOffset() + (long)slot * rxSlot, rxSlot, mr.lkey());
        return qp.postRecv(recvWr);
    }

    AddressHandle createAhFromWc(final WorkCompletion wc, final DirectBuffer buffer, final int offset)
    {
        return device.createAhFromWc(pd, wc, buffer, offset, portNum);
    }

    /**
     * Destroys an address handle made from {@link NetdevSender#createAh()} or on {@link #pd()}.
     *
     * @param ah the handle
     */
    public void destroyAh(final AddressHandle ah)
    {
        device.destroyAh(ah);
    }

    @Override
    public int attachMcast(final long gidHi, final long gidLo, final boolean setQkey, final int qkey)
    {
        if (closed)
        {
            return -Errno.EINVAL;
        }
        try
        {
            if (setQkey && qkey != this.qkey)
            {
                if (qkey < 0)
                {
                    return -Errno.EINVAL; // a controlled Q_Key cannot be sent with (IBA C10-15)
                }
                device.modifyQp(qp, new QpAttr().qkey(qkey), QpAttrMask.QKEY);
                this.qkey = qkey;
            }
            device.attachMcast(qp, gidHi, gidLo);
            remember(gidHi, gidLo);
            return 0;
        }
        catch (final VerbsException ex)
        {
            return -ex.errno();
        }
    }

    @Override
    public int detachMcast(final long gidHi, final long gidLo)
    {
        if (closed)
        {
            return -Errno.EINVAL;
        }
        try
        {
            device.detachMcast(qp, gidHi, gidLo);
            forget(gidHi, gidLo);
            return 0;
        }
        catch (final VerbsException ex)
        {
            return -ex.errno();
        }
    }

    private void remember(final long gidHi, final long gidLo)
    {
        for (int i = 0; i < groups; i++)
        {
            if (groupHi[i] == gidHi && groupLo[i] == gidLo)
            {
                return; // attaching again is a no-op, as in rxe
            }
        }
        if (groups == groupHi.length)
        {
            groupHi = Arrays.copyOf(groupHi, 2 * groups);
            groupLo = Arrays.copyOf(groupLo, 2 * groups);
        }
        groupHi[groups] = gidHi;
        groupLo[groups++] = gidLo;
    }

    private void forget(final long gidHi, final long gidLo)
    {
        for (int i = 0; i < groups; i++)
        {
            if (groupHi[i] == gidHi && groupLo[i] == gidLo)
            {
                groupHi[i] = groupHi[--groups];
                groupLo[i] = groupLo[groups];
                return;
            }
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (int i = groups - 1; i >= 0; i--)
        {
            device.detachMcast(qp, groupHi[i], groupLo[i]); // a QP still attached cannot be destroyed (EBUSY)
        }
        groups = 0;
        device.destroyQp(qp);
        device.destroyCq(sendCq);
        device.destroyCq(recvCq);
        device.deregMr(mr);
        device.deallocPd(pd);
    }
}
