package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The send queue of a QP: post-side validation (rxe {@code validate_send_wr}), copying a WR into its WQE slot,
 * and the ring the requester/completer consume. Application side is {@link QueuePair#postSend}.
 */
final class SendQueue
{
    private final QueuePair qp;
    private final int maxSge;
    private final int maxInline;
    private final int maxSgeRd;
    private final boolean sigAll;
    private final WqeRing<SendWqe> ring;
    private final UnsafeBuffer scratch = new UnsafeBuffer(0, 0);

    SendQueue(
        final QueuePair qp, final int maxWr, final int maxSge, final int maxInline, final int maxSgeRd,
        final boolean sigAll)
    {
        this.qp = qp;
        this.maxSge = maxSge;
        this.maxInline = maxInline;
        this.maxSgeRd = maxSgeRd;
        this.sigAll = sigAll;
        final boolean datagram = qp.type().isDatagram();
        this.ring = new WqeRing<>(maxWr, () -> new SendWqe(maxSge, maxInline, datagram));
    }

    /** @return the ring; the engine is its consumer. */
    public WqeRing<SendWqe> ring()
    {
        return ring;
    }

    /** @return actual max WRs. */
    public int maxWr()
    {
        return ring.capacity();
    }

    /** @return max SGEs per WR. */
    public int maxSge()
    {
        return maxSge;
    }

    /** @return max inline bytes per WR. */
    public int maxInline()
    {
        return maxInline;
    }

    /** @return true if every WR is signaled. */
    public boolean sigAll()
    {
        return sigAll;
    }

    int post(final SendWorkRequest first)
    {
        final long start = ring.producerPlain();
        long planned = start;
        int index = 0;
        int result = 0;
        for (SendWorkRequest wr = first; null != wr; wr = wr.next(), index++)
        {
            final String invalid = validate(wr);
            if (null != invalid)
            {
                result = qp.badSend(wr, index, -Errno.EINVAL, invalid);
                break;
            }
            if (ring.free(planned) <= 0)
            {
                result = qp.badSend(wr, index, -Errno.ENOMEM, "send queue full: poll completions first");
                break;
            }
            fill(ring.slot(planned), wr);
            planned++;
        }
        if (planned != start)
        {
            ring.publish(planned);
            qp.device().doorbell().onPost(qp, true);
        }
        return result;
    }

    private String validate(final SendWorkRequest wr)
    {
        final int classes = WrOpcode.classes(wr.opcode(), qp.type());
        if (0 == classes)
        {
            return "opcode not supported on this QP type (UD: SEND only; UC: no READ/atomics; " +
                "XRC: no FLUSH/ATOMIC WRITE)";
        }
        if (0 != (wr.sendFlags() & ~SendFlags.SUPPORTED))
        {
            return "unsupported send flags";
        }
        if (QpType.XRC_INI == qp.type() && 0 != (wr.remoteSrqn() & ~0xffffff))
        {
            return "remote XRC SRQ number wider than 24 bits";
        }
        final int numSge = wr.sgl().count();
        if (numSge > maxSge)
        {
            return "more SGEs than the QP's max_send_sge";
        }
        if (0 != (classes & WrOpcode.CLASS_READ) && numSge > maxSgeRd)
        {
            return "more SGEs than the device's max_sge_rd for an RDMA READ";
        }
        final long length = wr.sgl().totalLength();
        if (length > RecvQueue.MAX_LENGTH)
        {
            return "message longer than 2^31 bytes";
        }
        if (0 != (classes & (WrOpcode.CLASS_ATOMIC | WrOpcode.CLASS_ATOMIC_WRITE)))
        {
            if (8 != length)
            {
                return "atomic WR must have exactly 8 bytes of SGE";
            }
            if (0 != (wr.remoteAddr() & 7))
            {
                return "atomic remote address not 8-byte aligned";
            }
        }
        if (0 != (wr.sendFlags() & SendFlags.INLINE))
        {
            if (0 == (classes & WrOpcode.CLASS_INLINE))
            {
                return "opcode does not carry inline data";
            }
            if (length > maxInline)
            {
                return "inline data longer than the QP's max_inline_data";
            }
        }
        if (qp.type().isDatagram())
        {
            return validateDatagram(wr);
        }
        if (WrOpcode.BIND_MW == wr.opcode() && null == wr.mw())
        {
            return "BIND_MW without a memory window";
        }
        if (WrOpcode.REG_MR == wr.opcode() && null == wr.regMr())
        {
            return "REG_MR without a memory region";
        }
        if (WrOpcode.REG_MR == wr.opcode() && MrType.INTEGRITY == wr.regMr().type())
        {
            return "an integrity region is registered with REG_MR_INTEGRITY, not REG_MR";
        }
        return WrOpcode.REG_MR_INTEGRITY == wr.opcode() ? validateIntegrity(wr.regMr()) : null;
    }

    // mlx5 refuses at post (-EINVAL) what its signature BSF cannot express
    private static String validateIntegrity(final MemoryRegion mr)
    {
        if (null == mr || MrType.INTEGRITY != mr.type())
        {
            return "REG_MR_INTEGRITY needs a region from allocMrIntegrity";
        }
        final SigAttrs attrs = mr.sigAttrs();
        final String problem = SigAttrs.problem(attrs);
        return null != problem ? problem : SigAttrs.layoutProblem(attrs, mr.dataLength(), mr.metaLength());
    }

    private String validateDatagram(final SendWorkRequest wr)
    {
        final AddressHandle ah = wr.ah();
        if (null == ah || !ah.isValid())
        {
            return "UD send needs a live address handle";
        }
        if (ah.pd() != qp.pd())
        {
            return "address handle belongs to another PD than the QP";
        }
        if (0 != (wr.remoteQpn() & ~0xffffff))
        {
            return "remote QPN wider than 24 bits";
        }
        return null;
    }

    private void fill(final SendWqe wqe, final SendWorkRequest wr)
    {
        final int flags = sigAll ? wr.sendFlags() | SendFlags.SIGNALED : wr.sendFlags();
        final SgeList sgl = wr.sgl();
        wqe.fill(wr, flags, sgl.totalLength());
        if (0 != (flags & SendFlags.INLINE))
        {
            // IB_SEND_INLINE: the data is copied at post time without lkey checks; the buffers are reusable on return.
            final UnsafeBuffer dst = wqe.inlineBuffer();
            int offset = 0;
            for (int i = 0, n = sgl.count(); i < n; i++)
            {
                final int len = sgl.length(i);
                if (len > 0)
                {
                    scratch.wrap(sgl.address(i), len);
                    dst.putBytes(offset, scratch, 0, len);
                    offset += len;
                }
            }
            wqe.inlineLength(offset);
            wqe.sglForFill().clear();
        }
        else
        {
            wqe.sglForFill().copyFrom(sgl, sgl.count());
        }
        if (qp.type().isDatagram())
        {
            wqe.avForFill().copyFrom(wr.ah().attr());
        }
        if (0 != (WrOpcode.classes(wr.opcode(), qp.type()) & WrOpcode.CLASS_LOCAL))
        {
            wqe.localTargets(null == wr.mw() ? null : wr.mw().entry(),
                null == wr.bindMr() ? null : wr.bindMr().entry(), null == wr.regMr() ? null : wr.regMr().entry());
            wqe.regSigAttrs(WrOpcode.REG_MR_INTEGRITY == wr.opcode() ? wr.regMr().sigAttrs() : null);
            final boolean bind = WrOpcode.BIND_MW == wr.opcode() && null != wr.mw();
            wqe.bindSnapshot(bind ? wr.mw().entry().postBind(wr.bindKey()) : 0,
                null == wr.bindMr() ? 0 : wr.bindMr().lkey());
        }
    }
}
