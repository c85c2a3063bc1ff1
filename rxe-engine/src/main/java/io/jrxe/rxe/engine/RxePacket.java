package io.jrxe.rxe.engine;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the receive path learnt about the packet being processed (rxe's {@code rxe_pkt_info}); one instance per
 * engine, refilled per packet, valid only during {@code receive()}.
 * <pre>
 *  buffer: ... | IP | UDP | BTH (bthOffset) | ext headers | payload (payloadOffset, payloadLength) | pad | ICRC |
 * </pre>
 */
final class RxePacket
{
    UnsafeBuffer buffer;
    int ipVersion;
    int ipOffset;
    int bthOffset;
    int opcode;
    int mask;
    int psn;
    int destQpn;
    boolean ackReq;
    boolean solicited;
    int payloadOffset;
    int payloadLength;
    /** Source GID (IPv4-mapped for IPv4). */
    long srcGidHi;
    long srcGidLo;
    int srcUdpPort;
    /** The XRC SRQ number of an XRC request's XRCETH, -1 on other packets. */
    int xrcSrqn;

    /**
     * @param headerOffset offset of an extension header from the BTH, as the opcode table gives it
     * @return absolute offset in {@link #buffer}
     */
    int at(final int headerOffset)
    {
        return bthOffset + headerOffset;
    }
}
