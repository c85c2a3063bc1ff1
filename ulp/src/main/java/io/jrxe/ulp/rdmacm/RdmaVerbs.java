package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RecvWorkRequest;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SgeList;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;

/**
 * librdmacm's {@code rdma_verbs.h}: memory registration and one-call work requests on a {@link CmId}'s QP, and
 * blocking completion retrieval, with the man pages' semantics.
 * <ul>
 *   <li>{@code reg_msgs} registers for SEND/RECV (local write), {@code reg_read} for the peer's RDMA READ,
 *       {@code reg_write} for the peer's RDMA WRITE.</li>
 *   <li>Posting returns 0 or a negative errno and never throws: {@code -ENOTCONN} when the id has no QP,
 *       {@code -EINVAL} for a buffer outside its MR or a QP not ready (see {@link QueuePair#postError()}),
 *       {@code -ENOMEM} when the queue is full. UD sends go with {@link CmId#RDMA_UDP_QKEY}.</li>
 *   <li>{@link #getSendComp} and {@link #getRecvComp} return one completion (1) after polling the CQ, arming it,
 *       polling again and then sleeping on its completion channel, so a waiting thread burns no core; the
 *       completion's status reports a failed request, as in librdmacm.</li>
 * </ul>
 * One thread posts on an id at a time (the id holds one scratch work request), as with a QP.
 */
public final class RdmaVerbs
{
    /** Per-id scratch work requests: posting allocates nothing. */
    static final class Scratch
    {
        final SendWorkRequest send = new SendWorkRequest(16);
        final RecvWorkRequest recv = new RecvWorkRequest(16);
        final WorkCompletion[] one = {new WorkCompletion()};
        final WorkCompletion wc = one[0];
    }

    private RdmaVerbs()
    {
    }

    /**
     * {@code rdma_reg_msgs}: memory for SENDs and RECVs.
     *
     * @param id the id (its QP's PD)
     * @param buffer direct memory
     * @return the MR
     */
    public static MemoryRegion regMsgs(final CmId id, final UnsafeBuffer buffer)
    {
        return register(id, buffer, AccessFlags.LOCAL_WRITE);
    }

    /**
     * {@code rdma_reg_read}: memory the peer may RDMA READ.
     *
     * @param id the id
     * @param buffer direct memory
     * @return the MR
     */
    public static MemoryRegion regRead(final CmId id, final UnsafeBuffer buffer)
    {
        return register(id, buffer, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
    }

    /**
     * {@code rdma_reg_write}: memory the peer may RDMA WRITE.
     *
     * @param id the id
     * @param buffer direct memory
     * @return the MR
     */
    public static MemoryRegion regWrite(final CmId id, final UnsafeBuffer buffer)
    {
        return register(id, buffer, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
    }

    /**
     * {@code rdma_dereg_mr}.
     *
     * @param id the id
     * @param mr the MR
     */
    public static void deregMr(final CmId id, final MemoryRegion mr)
    {
        id.verbs().deregMr(mr);
    }

    private static MemoryRegion register(final CmId id, final UnsafeBuffer buffer, final int access)
    {
        if (null == id.pd())
        {
            throw new RdmaCmException(Errno.EINVAL, "register after create_qp: the MR goes in the QP's PD");
        }
        return id.verbs().regMr(id.pd(), buffer, access);
    }

    /**
     * {@code rdma_post_recvv}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param sgl the buffers
     * @return 0 or a negative errno
     */
    public static int postRecvv(final CmId id, final long wrId, final SgeList sgl)
    {
        final QueuePair qp = id.qp();
        if (null == qp)
        {
            return -Errno.ENOTCONN;
        }
        final RecvWorkRequest wr = id.scratch.recv;
        wr.wrId(wrId).next(null);
        wr.sgl().copyFrom(sgl, sgl.count());
        return qp.postRecv(wr);
    }

    /**
     * {@code rdma_post_recv}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param addr first byte
     * @param length bytes
     * @param mr the MR holding them
     * @return 0 or a negative errno
     */
    public static int postRecv(final CmId id, final long wrId, final long addr, final int length,
        final MemoryRegion mr)
    {
        final QueuePair qp = id.qp();
        if (null == qp)
        {
            return -Errno.ENOTCONN;
        }
        if (!inside(mr, addr, length))
        {
            return -Errno.EINVAL;
        }
        final RecvWorkRequest wr = id.scratch.recv;
        wr.wrId(wrId).next(null);
        wr.sgl().clear().add(addr, length, mr.lkey());
        return qp.postRecv(wr);
    }

    /**
     * {@code rdma_post_sendv}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param sgl the buffers
     * @param flags {@link io.jrxe.rxe.verbs.SendFlags}
     * @return 0 or a negative errno
     */
    public static int postSendv(final CmId id, final long wrId, final SgeList sgl, final int flags)
    {
        return postv(id, wrId, sgl, flags, WrOpcode.SEND, 0, 0);
    }

    /**
     * {@code rdma_post_send}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param addr first byte
     * @param length bytes
     * @param mr the MR holding them (null with INLINE)
     * @param flags {@link io.jrxe.rxe.verbs.SendFlags}
     * @return 0 or a negative errno
     */
    public static int postSend(final CmId id, final long wrId, final long addr, final int length,
        final MemoryRegion mr, final int flags)
    {
        return post(id, wrId, addr, length, mr, flags, WrOpcode.SEND, 0, 0);
    }

    /**
     * {@code rdma_post_readv}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param sgl local buffers
     * @param flags send flags
     * @param remoteAddr the peer's address
     * @param rkey the peer's key
     * @return 0 or a negative errno
     */
    public static int postReadv(final CmId id, final long wrId, final SgeList sgl, final int flags,
        final long remoteAddr, final int rkey)
    {
        return postv(id, wrId, sgl, flags, WrOpcode.RDMA_READ, remoteAddr, rkey);
    }

    /**
     * {@code rdma_post_read}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param addr local destination
     * @param length bytes
     * @param mr its MR
     * @param flags send flags
     * @param remoteAddr the peer's address
     * @param rkey the peer's key
     * @return 0 or a negative errno
     */
    public static int postRead(final CmId id, final long wrId, final long addr, final int length,
        final MemoryRegion mr, final int flags, final long remoteAddr, final int rkey)
    {
        return post(id, wrId, addr, length, mr, flags, WrOpcode.RDMA_READ, remoteAddr, rkey);
    }

    /**
     * {@code rdma_post_writev}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param sgl local sources
     * @param flags send flags
     * @param remoteAddr the peer's address
     * @param rkey the peer's key
     * @return 0 or a negative errno
     */
    public static int postWritev(final CmId id, final long wrId, final SgeList sgl, final int flags,
        final long remoteAddr, final int rkey)
    {
        return postv(id, wrId, sgl, flags, WrOpcode.RDMA_WRITE, remoteAddr, rkey);
    }

    /**
     * {@code rdma_post_write}.
     *
     * @param id the id
     * @param wrId the caller's context
     * @param addr local source
     * @param length bytes
     * @param mr its MR (null with INLINE)
     * @param flags send flags
     * @param remoteAddr the peer's address
     * @param rkey the peer's key
     * @return 0 or a negative errno
     */
    public static int postWrite(final CmId id, final long wrId, final long addr, final int length,
        final MemoryRegion mr, final int flags, final long remoteAddr, final int rkey)
    {
        return post(id, wrId, addr, length, mr, flags, WrOpcode.RDMA_WRITE, remoteAddr, rkey);
    }

    /**
     * {@code rdma_post_ud_send}: a datagram to the peer's QPN through an AH, with rdma_cm's UDP Q_Key.
     *
     * @param id the id (UD)
     * @param wrId the caller's context
     * @param addr source
     * @param length bytes
     * @param mr its MR
     * @param flags send flags
     * @param ah the peer's address handle
     * @param remoteQpn the peer's QPN
     * @return 0 or a negative errno
     */
    public static int postUdSend(final CmId id, final long wrId, final long addr, final int length,
        final MemoryRegion mr, final int flags, final AddressHandle ah, final int remoteQpn)
    {
        final QueuePair qp = id.qp();
        if (null == qp)
        {
            return -Errno.ENOTCONN;
        }
        if (null != mr && !inside(mr, addr, length))
        {
            return -Errno.EINVAL;
        }
        final SendWorkRequest wr = id.scratch.send;
        wr.wrId(wrId).opcode(WrOpcode.SEND).sendFlags(flags).ah(ah).remoteQpn(remoteQpn)
            .remoteQkey(id.qkey()).next(null);
        wr.sgl().clear().add(addr, length, null == mr ? 0 : mr.lkey());
        return qp.postSend(wr);
    }

    private static int post(final CmId id, final long wrId, final long addr, final int length,
        final MemoryRegion mr, final int flags, final int opcode, final long remoteAddr, final int rkey)
    {
        final QueuePair qp = id.qp();
        if (null == qp)
        {
            return -Errno.ENOTCONN;
        }
        if (null != mr && !inside(mr, addr, length))
        {
            return -Errno.EINVAL;
        }
        final SendWorkRequest wr = id.scratch.send;
        wr.wrId(wrId).opcode(opcode).sendFlags(flags).remoteAddr(remoteAddr).rkey(rkey).next(null);
        wr.sgl().clear().add(addr, length, null == mr ? 0 : mr.lkey());
        return qp.postSend(wr);
    }

    private static int postv(final CmId id, final long wrId, final SgeList sgl, final int flags, final int opcode,
        final long remoteAddr, final int rkey)
    {
        final QueuePair qp = id.qp();
        if (null == qp)
        {
            return -Errno.ENOTCONN;
        }
        final SendWorkRequest wr = id.scratch.send;
        wr.wrId(wrId).opcode(opcode).sendFlags(flags).remoteAddr(remoteAddr).rkey(rkey).next(null);
        wr.sgl().copyFrom(sgl, sgl.count());
        return qp.postSend(wr);
    }

    private static boolean inside(final MemoryRegion mr, final long addr, final int length)
    {
        return length >= 0 && addr >= mr.iova() && addr + length <= mr.iova() + mr.length();
    }

    /**
     * {@code rdma_get_send_comp}: wait for one send completion.
     *
     * @param id the id (its CQs made by {@link CmId#createQp})
     * @param wc receives the completion; check its status
     * @return 1, or a negative errno (-EINVAL: the id's CQ has no completion channel; -EINTR)
     */
    public static int getSendComp(final CmId id, final WorkCompletion wc)
    {
        return getComp(id.sendCq(), id.sendCqChannel(), id.scratch.one, wc);
    }

    /**
     * {@code rdma_get_recv_comp}: wait for one receive completion.
     *
     * @param id the id
     * @param wc receives the completion; check its status
     * @return 1, or a negative errno
     */
    public static int getRecvComp(final CmId id, final WorkCompletion wc)
    {
        return getComp(id.recvCq(), id.recvCqChannel(), new WorkCompletion[]{wc}, wc);
    }

    private static int getComp(final CompletionQueue cq, final CompletionChannel channel,
        final WorkCompletion[] one, final WorkCompletion wc)
    {
        if (null == cq || null == channel)
        {
            return -Errno.EINVAL;
        }
        try
        {
            while (true)
            {
                if (1 == cq.poll(one, 1))
                {
                    return copy(one[0], wc);
                }
                final int armed = cq.reqNotify(false);
                if (armed < 0)
                {
                    return armed;
                }
                if (1 == cq.poll(one, 1))
                {
                    return copy(one[0], wc);
                }
                final CompletionQueue fired = channel.getEvent(1, TimeUnit.SECONDS);
                if (null != fired)
                {
                    fired.ackEvents(1);
                }
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return -Errno.EINTR;
        }
    }

    private static int copy(final WorkCompletion from, final WorkCompletion to)
    {
        if (from != to)
        {
            to.copyFrom(from);
        }
        return 1;
    }
}
