package io.jrxe.net;

/**
 * Receives the UDP datagrams for one port, registered with {@link NetStack#registerUdpHandler(int, UdpHandler)}.
 * Called on the stack's thread during {@link NetStack#poll()}.
 */
@FunctionalInterface
public interface UdpHandler
{
    /**
     * @param datagram a flyweight reused for every datagram; valid only during the call. The handler must not
     *                 keep the buffer id: the stack frees it when the call returns. It may prepare and send other
     *                 buffers through the stack, but must not call {@link NetStack#poll()}. A RuntimeException
     *                 is caught, counted as {@link NetCounter#UDP_HANDLER_ERRORS} and passed to the context's
     *                 error handler.
     */
    void onDatagram(UdpDatagram datagram);
}
