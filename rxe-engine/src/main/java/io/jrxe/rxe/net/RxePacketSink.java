package io.jrxe.rxe.net;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Receive entry point of the engine: a stack hands every UDP datagram to port 4791 to it.
 * <pre>
 *  buffer
 *  +----------+--------------------+---------+-----------------------------------------+
 *  | (L2)     | IPv4/IPv6 header   | UDP     | BTH | ext headers | payload | pad | ICRC  |
 *  +----------+--------------------+---------+-----------------------------------------+
 *             ^ ipOffset           ^ udpOffset ^ payloadOffset                         |
 *                                            |<------------ payloadLength ------------>|
 * </pre>
 * The buffer belongs to the caller and is valid only during the call: the engine copies what it keeps.
 * Implementations never throw for malformed input; they count and drop it.
 */
public interface RxePacketSink
{
    /**
     * @param buffer        holds the frame
     * @param ipOffset      first byte of the IP header
     * @param udpOffset     first byte of the UDP header
     * @param payloadOffset first byte of the UDP payload (the BTH)
     * @param payloadLength UDP payload bytes, ICRC included
     * @param ipVersion     4 or 6
     */
    void receive(UnsafeBuffer buffer, int ipOffset, int udpOffset, int payloadOffset, int payloadLength,
        int ipVersion);
}
