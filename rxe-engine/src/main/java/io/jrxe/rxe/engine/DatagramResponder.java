package io.jrxe.rxe.engine;

import io.jrxe.rxe.proto.ImmDt;
import io.jrxe.rxe.proto.Opcode;
import io.jrxe.rxe.spi.MrStatus;
import io.jrxe.rxe.stats.RxeCounter;
import io.jrxe.rxe.verbs.NetworkType;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * UD receive (rxe_resp.c for UD/GSI QPs): one packet is one message. The receive buffer starts with the 40-byte
 * GRH area (present on every UD receive; on RoCEv2 it holds the IP header, as rxe does: an IPv6
 * header fills it, an IPv4 header goes into its last 20 bytes), then the payload; the completion reports the
 * source QP and the network header type.
 * <pre>
 *  receive buffer: | GRH area (40): IPv6 header, or 20 zero bytes + IPv4 header | payload ... |
 *  byte_len = 40 + payload
 * </pre>
 */
final class DatagramResponder
{
    static final int GRH_LENGTH = 40;

    private final RecvCompleter recv;
    private final EngineCounters counters;
    private final ImmDt immDt = new ImmDt();
    private final UnsafeBuffer zeroBuffer = new UnsafeBuffer(new byte[GRH_LENGTH]);

    DatagramResponder(final RecvCompleter recv, final EngineCounters counters)
    {
        this.recv = recv;
        this.counters = counters;
    }

    void onDatagram(final QpContext c, final RxePacket p, final int srcQp)
    {
        if (!Opcode.isOnly(p.opcode))
        {
            counters.increment(c, RxeCounter.BAD_OPCODE);
            return;
        }
        if (!recv.take(c))
        {
            counters.dropNoRecv++; // IBA ch. 9/11: UD has no RNR; without a receive WQE the message is dropped
            return;
        }
        WcStatus status = WcStatus.SUCCESS;
        final int ipLength = 4 == p.ipVersion ? 20 : 40;
        if (GRH_LENGTH + p.payloadLength > c.recvLength)
        {
            status = WcStatus.LOC_LEN_ERR; // message longer than the posted buffer (rxe: LOC_LEN_ERR)
        }
        else if (MrStatus.OK != recv.scatter(c, zeroBuffer, 0, GRH_LENGTH - ipLength) ||
            MrStatus.OK != recv.scatter(c, p.buffer, p.ipOffset, ipLength) ||
            MrStatus.OK != recv.scatter(c, p.buffer, p.payloadOffset, p.payloadLength))
        {
            status = WcStatus.LOC_PROT_ERR;
        }
        int flags = WcFlags.GRH | WcFlags.WITH_NETWORK_HDR_TYPE;
        int imm = 0;
        if (0 != (p.mask & Opcode.IMMDT_MASK))
        {
            flags |= WcFlags.WITH_IMM;
            imm = immDt.wrap(p.buffer, p.at(Opcode.immDtOffset(p.opcode))).immediate();
        }
        counters.increment(c, RxeCounter.RDMA_RECVS);
        final WorkCompletion wc = recv.completion();
        wc.reset().wrId(c.recvWrId).status(status.code()).opcode(WcOpcode.RECV)
            .byteLen(GRH_LENGTH + p.payloadLength).qpNum(c.qpn).srcQp(srcQp).wcFlags(flags).immData(imm)
            .networkHdrType(4 == p.ipVersion ? NetworkType.IPV4.code() : NetworkType.IPV6.code());
        if (p.solicited)
        {
            recv.solicited(c);
        }
        recv.postDatagram(c);
    }
}
