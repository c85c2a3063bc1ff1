package io.jrxe.net;

/**
 * A stack's UDP demultiplexing table: one {@link UdpHandler} per destination port, shared by IPv4 and IPv6. Each
 * stack (primary and lanes) has its own; registration is the control path, lookup the packet path.
 */
final class UdpPorts
{
    private final UdpHandler[] handlers = new UdpHandler[65536];

    /** @see NetStack#registerUdpHandler(int, UdpHandler) */
    void register(final int port, final UdpHandler handler)
    {
        checkPort(port);
        if (null == handler)
        {
            throw new IllegalArgumentException("UDP handler for port " + port + " is null");
        }
        if (null != handlers[port])
        {
            throw new IllegalArgumentException("UDP port " + port + " already has a handler; unregister it first");
        }
        handlers[port] = handler;
    }

    /** @see NetStack#unregisterUdpHandler(int) */
    void unregister(final int port)
    {
        checkPort(port);
        handlers[port] = null;
    }

    /** The handler of {@code port} (0 .. 65535), null if none. */
    UdpHandler handler(final int port)
    {
        return handlers[port];
    }

    private static void checkPort(final int port)
    {
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("UDP port must be 1 .. 65535: " + port);
        }
    }
}
