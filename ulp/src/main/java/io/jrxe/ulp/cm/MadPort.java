package io.jrxe.ulp.cm;

import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.CompletionHandler;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.CqInitAttr;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpAttr;
import io.jrxe.rxe.verbs.QpAttrMask;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QpState;
import io.jrxe.rxe.verbs.QpStateTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.cm.mad.MadHeader;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;

/**
 * The CM's MAD I/O on the verbs GSI QP (QP1), as ib_mad does it for the kernel CM: receive slots of 40 + 256 bytes
 * (the GRH area, then the MAD), send slots of 256, UD SENDs to QPN 1 with the GSI Q_Key (IBA 13.5.1, C13-4). A
 * MAD that finds every send slot busy waits in a queue, with an AH of its own, and goes out when a send completes:
 * nothing is dropped for want of a slot. A reply built from a receive completion gets an AH of its own, destroyed
 * when its send completes. A receive that completes in error (a datagram longer than a MAD) is counted and its
 * buffer posted again.
 * <pre>
 *   memory:  | recv slot 0: GRH area 40 | MAD 256 | pad | ... | recv slot R-1 | send slot 0: MAD 256 | ... |
 *   wr_id:   recv = RECV_TAG | slot        send = slot
 * </pre>
 * Single-threaded: the CM thread posts, polls and owns every slot.
 */
final class MadPort implements AutoCloseable
{
    /** Bytes of the network header area at the start of each receive buffer. */
    static final int GRH_LENGTH = 40;
    private static final int RECV_SLOT = 320;
    private static final long RECV_TAG = 1L << 32;

    /** A MAD waiting for a send slot. */
    private static final class Pending
    {
        final byte[] mad;
        final AddressHandle ah;
        final boolean ownsAh;

        Pending(final byte[] mad, final AddressHandle ah, final boolean ownsAh)
        {
            this.mad = mad;
            this.ah = ah;
            this.ownsAh = ownsAh;
        }
    }

    /** Receives each MAD; the buffer is valid during the call only. */
    interface Receiver
    {
        /**
         * @param buffer the receive memory
         * @param slotOffset where the slot (its GRH area) starts
         * @param wc the receive completion
         */
        void onMad(UnsafeBuffer buffer, int slotOffset, WorkCompletion wc);

        /**
         * A receive completed in error and its buffer was posted again; nothing in it is a MAD.
         *
         * @param wc the completion (its status, e.g. LOC_LEN_ERR for a datagram longer than a MAD)
         */
        default void onRecvError(WorkCompletion wc)
        {
        }
    }

    private final RxeDevice device;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final UnsafeBuffer memory;
    private final MemoryRegion mr;
    private final int recvSlots;
    private final int sendSlots;
    private final int sendBase;
    private final AddressHandle[] slotAh;
    private final boolean[] slotBusy;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final WorkCompletion[] wcs = new WorkCompletion[16];
    private final SendWorkRequest sendWr = new SendWorkRequest(1);
    private final RecvWorkRequest recvWr = new RecvWorkRequest(1);
    private final AhAttr pendingAh = new AhAttr();
    private long sendFailures;

    MadPort(final RxeDevice device, final int recvSlots, final int sendSlots, final CompletionHandler wake)
    {
        this.device = device;
        this.recvSlots = recvSlots;
        this.sendSlots = sendSlots;
        this.sendBase = recvSlots * RECV_SLOT;
        this.slotAh = new AddressHandle[sendSlots];
        this.slotBusy = new boolean[sendSlots];
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        pd = device.allocPd();
        cq = device.createCq(new CqInitAttr().cqe(recvSlots + sendSlots).handler(wake));
        final QpInitAttr init = new QpInitAttr().qpType(QpType.GSI).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(sendSlots).maxRecvWr(recvSlots).maxSendSge(1).maxRecvSge(1);
        qp = device.createQp(pd, init);
        memory = new UnsafeBuffer(BufferUtil.allocateDirectAligned(sendBase + sendSlots * MadHeader.MAD_SIZE, 4096));
        mr = device.regMr(pd, memory, AccessFlags.LOCAL_WRITE);
        // QP1: Q_Key 0x80010000 and P_Key index 0 at INIT (IBA C13-4), then RTR and RTS as the MAD layer does
        final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(RxeDevice.PORT).qkey(RoceV2.GSI_QKEY).sqPsn(0);
        QpState from = QpState.RESET;
        for (final QpState next : new QpState[]{QpState.INIT, QpState.RTR, QpState.RTS})
        {
            device.modifyQp(qp, attr.qpState(next), QpAttrMask.STATE | QpStateTable.required(QpType.GSI, from, next));
            from = next;
        }
        for (int i = 0; i < recvSlots; i++)
        {
            postRecv(i);
        }
        arm();
    }

    /** Ask for a completion event on the next completion (the wake-up of a parked CM thread). */
    void arm()
    {
        cq.reqNotify(false);
    }

    /**
     * Poll the CQ: receives go to {@code receiver} and are posted again, sends free their slots.
     *
     * @param receiver gets each MAD
     * @return completions handled
     */
    int poll(final Receiver receiver)
    {
        int total = 0;
        int n;
        while ((n = cq.poll(wcs)) > 0)
        {
            for (int i = 0; i < n; i++)
            {
                final WorkCompletion wc = wcs[i];
                final long wrId = wc.wrId();
                if (0 != (wrId & RECV_TAG))
                {
                    final int slot = (int)(wrId & 0xFFFF_FFFFL);
                    final int status = wc.status();
                    if (WcStatus.SUCCESS.code() == status)
                    {
                        receiver.onMad(memory, slot * RECV_SLOT, wc);
                        postRecv(slot);
                    }
                    else if (WcStatus.WR_FLUSH_ERR.code() != status)
                    {
                        // a datagram longer than the slot completes in error (LOC_LEN_ERR) on a QP that stays
                        // ready: without a new post, each one would take a receive buffer for good, and as many
                        // of them as there are slots would leave the CM deaf (a flush means the QP is going)
                        receiver.onRecvError(wc);
                        postRecv(slot);
                    }
                }
                else
                {
                    if (WcStatus.SUCCESS.code() != wc.status())
                    {
                        sendFailures++;
                    }
                    releaseSlot((int)wrId);
                }
            }
            total += n;
        }
        return total;
    }

    /**
     * Send a MAD now, or as soon as a slot frees (then with a copy of the AH: the caller may destroy {@code ah}
     * as soon as this returns).
     *
     * @param mad 256 bytes (copied)
     * @param ah where to
     * @param ownsAh destroy the AH once the MAD is on the wire
     */
    void send(final byte[] mad, final AddressHandle ah, final boolean ownsAh)
    {
        final int slot = freeSlot();
        if (slot < 0)
        {
            // the MAD waits with an AH of its own: the caller may destroy its AH before a slot frees (CmService
            // releases a connection, and its AH, right after queueing the connection's last REJ or SIDR_REP), and a
            // post with a destroyed AH fails: the MAD would be lost
            pending.add(new Pending(mad.clone(), ownsAh ? ah : device.createAh(pd, device.queryAh(ah, pendingAh)),
                true));
            return;
        }
        post(slot, mad, ah, ownsAh);
    }

    /**
     * Reply to the sender of a received MAD: an AH from its completion and network header, then {@link #send}.
     *
     * @param mad 256 bytes
     * @param buffer the receive memory
     * @param slotOffset the receive slot
     * @param wc its completion
     */
    void reply(final byte[] mad, final UnsafeBuffer buffer, final int slotOffset, final WorkCompletion wc)
    {
        send(mad, createAhFromWc(wc, buffer, slotOffset), true);
    }

    /**
     * @param wc a receive completion
     * @param buffer the receive memory
     * @param slotOffset its slot
     * @return an AH back to the sender (the caller destroys it)
     */
    AddressHandle createAhFromWc(final WorkCompletion wc, final UnsafeBuffer buffer, final int slotOffset)
    {
        return device.createAhFromWc(pd, wc, buffer, slotOffset, RxeDevice.PORT);
    }

    /** @return the PD of QP1 (the CM's AHs live in it) */
    ProtectionDomain pd()
    {
        return pd;
    }

    /** @return QP1 */
    QueuePair qp()
    {
        return qp;
    }

    /** @return sends completed in error */
    long sendFailures()
    {
        return sendFailures;
    }

    /** @return MADs waiting for a slot */
    int pendingCount()
    {
        return pending.size();
    }

    private int freeSlot()
    {
        for (int i = 0; i < sendSlots; i++)
        {
            if (!slotBusy[i])
            {
                return i;
            }
        }
        return -1;
    }

    private void post(final int slot, final byte[] mad, final AddressHandle ah, final boolean ownsAh)
    {
        final int offset = sendBase + slot * MadHeader.MAD_SIZE;
        memory.putBytes(offset, mad, 0, MadHeader.MAD_SIZE);
        sendWr.wrId(slot).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED).ah(ah)
            .remoteQpn(RoceV2.GSI_QPN).remoteQkey(RoceV2.GSI_QKEY).next(null);
        sendWr.sgl().clear().add(memory.addressOffset() + offset, MadHeader.MAD_SIZE, mr.lkey());
        slotBusy[slot] = true;
        slotAh[slot] = ownsAh ? ah : null;
        if (0 != qp.postSend(sendWr))
        {
            sendFailures++;
            releaseSlot(slot);
        }
    }

    private void releaseSlot(final int slot)
    {
        slotBusy[slot] = false;
        final AddressHandle ah = slotAh[slot];
        if (null != ah)
        {
            slotAh[slot] = null;
            device.destroyAh(ah);
        }
        final Pending next = pending.poll();
        if (null != next)
        {
            post(slot, next.mad, next.ah, next.ownsAh);
        }
    }

    private void postRecv(final int slot)
    {
        recvWr.wrId(RECV_TAG | slot).next(null);
        recvWr.sgl().clear().add(memory.addressOffset() + (long)slot * RECV_SLOT,
            GRH_LENGTH + MadHeader.MAD_SIZE, mr.lkey());
        qp.postRecv(recvWr);
    }

    @Override
    public void close()
    {
        device.destroyQp(qp);
        device.deregMr(mr);
        device.destroyCq(cq);
        for (int i = 0; i < sendSlots; i++)
        {
            if (null != slotAh[i])
            {
                device.destroyAh(slotAh[i]);
                slotAh[i] = null;
            }
        }
        Pending p;
        while (null != (p = pending.poll()))
        {
            device.destroyAh(p.ah); // every waiting MAD owns its AH
        }
        device.deallocPd(pd);
    }
}
