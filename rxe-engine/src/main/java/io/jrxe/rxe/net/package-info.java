/**
 * The boundary between the engine and the L2/L3 stack: {@link io.jrxe.rxe.net.RxePacketIo} (buffers, headers in
 * front of a RoCEv2 payload, send, flush at the end of a duty cycle), {@link io.jrxe.rxe.net.RxePacketSink} (received
 * RoCEv2 datagrams into the engine) and {@link io.jrxe.rxe.net.RxePoller}; {@link io.jrxe.rxe.net.NetStackPacketIo}
 * implements them over the driver module's {@code NetStack} (UDP port 4791).
 */
package io.jrxe.rxe.net;
