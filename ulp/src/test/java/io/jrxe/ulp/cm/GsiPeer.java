package io.jrxe.ulp.cm;

import io.jrxe.rxe.proto.RoceV2;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
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
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The far side of a CM under test: a bare GSI QP (QP1) on another device that sends whatever it is given, of any
 * length ({@link MadPort} sends exactly 256 bytes), and hands every datagram it receives to a {@link Receiver}.
 * Receive slots are larger than a MAD so that nothing the CM sends is cut. One send at a time: the caller settles
 * the pair after each.
 */
final class GsiPeer implements AutoCloseable
{
    /** Largest datagram sent or received. */
    static final int MAX_LENGTH = 512;
    private static final int RECV_SLOTS = 128;
    private static final int SLOT = MadPort.GRH_LENGTH + MAX_LENGTH;
    private static final long RECV_TAG = 1L << 32;

    /** Gets each datagram received; the buffer is valid during the call only. */
    interface Receiver
    {
        /**
         * @param buffer the receive memory
         * @param offset where the datagram (after the 40-byte network header area) starts
         * @param length its length
         */
        void onDatagram(UnsafeBuffer buffer, int offset, int length);
    }

    private final RxeDevice device;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final UnsafeBuffer memory;
    private final MemoryRegion mr;
    private final int sendOffset = RECV_SLOTS * SLOT;
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private final SendWorkRequest sendWr = new SendWorkRequest(1);
    private final RecvWorkRequest recvWr = new RecvWorkRequest(1);
    private boolean sending;
    private long received;
    private long receiveErrors;
    private long sendErrors;

    GsiPeer(final RxeDevice device)
    {
        this.device = device;
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        pd = device.allocPd();
        cq = device.createCq(new CqInitAttr().cqe(2 * RECV_SLOTS));
        final QpInitAttr init = new QpInitAttr().qpType(QpType.GSI).sendCq(cq).recvCq(cq);
        init.cap().maxSendWr(4).maxRecvWr(RECV_SLOTS).maxSendSge(1).maxRecvSge(1);
        qp = device.createQp(pd, init);
        memory = new UnsafeBuffer(BufferUtil.allocateDirectAligned(sendOffset + MAX_LENGTH, 4096));
        mr = device.regMr(pd, memory, AccessFlags.LOCAL_WRITE);
        final QpAttr attr = new QpAttr().pkeyIndex(0).portNum(RxeDevice.PORT).qkey(RoceV2.GSI_QKEY).sqPsn(0);
        QpState from = QpState.RESET;
        for (final QpState next : new QpState[]{QpState.INIT, QpState.RTR, QpState.RTS})
        {
            device.modifyQp(qp, attr.qpState(next), QpAttrMask.STATE | QpStateTable.required(QpType.GSI, from, next));
            from = next;
        }
        for (int i = 0; i < RECV_SLOTS; i++)
        {
            postRecv(i);
        }
    }

    /**
     * @param attr where to (the CM's node, its GID)
     * @return an AH in this peer's PD
     */
    AddressHandle createAh(final AhAttr attr)
    {
        return device.createAh(pd, attr);
    }

    /**
     * @param ah an AH of {@link #createAh}
     */
    void destroyAh(final AddressHandle ah)
    {
        device.destroyAh(ah);
    }

    /**
     * Sends {@code length} bytes of {@code data} to the CM's QP1.
     *
     * @param data   the datagram, a MAD or not
     * @param length 0 to {@link #MAX_LENGTH}
     * @param ah     where to
     * @throws IllegalStateException if the previous send has not completed (the caller did not settle)
     */
    void send(final byte[] data, final int length, final AddressHandle ah)
    {
        if (sending)
        {
            throw new IllegalStateException("the previous send has not completed");
        }
        memory.putBytes(sendOffset, data, 0, length);
        sendWr.wrId(0).opcode(WrOpcode.SEND).sendFlags(SendFlags.SIGNALED).ah(ah)
            .remoteQpn(RoceV2.GSI_QPN).remoteQkey(RoceV2.GSI_QKEY).next(null);
        sendWr.sgl().clear();
        if (length > 0)
        {
            sendWr.sgl().add(memory.addressOffset() + sendOffset, length, mr.lkey());
        }
        if (0 != qp.postSend(sendWr))
        {
            throw new IllegalStateException("post of a " + length + "-byte datagram failed: " + qp.postError());
        }
        sending = true;
    }

    /**
     * @param receiver gets each datagram
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
                if (0 != (wc.wrId() & RECV_TAG))
                {
                    final int slot = (int)(wc.wrId() & 0xFFFF_FFFFL);
                    if (WcStatus.SUCCESS.code() == wc.status())
                    {
                        received++;
                        receiver.onDatagram(memory, slot * SLOT + MadPort.GRH_LENGTH,
                            wc.byteLen() - MadPort.GRH_LENGTH);
                    }
                    else
                    {
                        receiveErrors++;
                    }
                    postRecv(slot);
                }
                else
                {
                    sending = false;
                    if (WcStatus.SUCCESS.code() != wc.status())
                    {
                        sendErrors++;
                    }
                }
            }
            total += n;
        }
        return total;
    }

    /** @return true while a send has not completed */
    boolean sending()
    {
        return sending;
    }

    /** @return datagrams received */
    long received()
    {
        return received;
    }

    /** @return receives completed in error (a datagram longer than a slot) */
    long receiveErrors()
    {
        return receiveErrors;
    }

    /** @return sends completed in error */
    long sendErrors()
    {
        return sendErrors;
    }

    private void postRecv(final int slot)
    {
        recvWr.wrId(RECV_TAG | slot).next(null);
        recvWr.sgl().clear().add(memory.addressOffset() + (long)slot * SLOT, SLOT, mr.lkey());
        if (0 != qp.postRecv(recvWr))
        {
            throw new IllegalStateException("receive post failed: " + qp.postError());
        }
    }

    @Override
    public void close()
    {
        device.destroyQp(qp);
        device.deregMr(mr);
        device.destroyCq(cq);
        device.deallocPd(pd);
    }
}
