package io.jrxe.ulp.oob;

import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * perftest's default transport: the exchange over TCP ({@link OobChannel}, port 18515 unless {@code -p}) and data QPs
 * that the tool moves to RTR/RTS itself with the peer's key messages.
 */
public final class PerftestTcpTransport implements PerftestTransport
{
    private final RxeDevice device;
    private final Side side;
    private final InetSocketAddress address;
    private final OobContext ctx;
    private final List<QueuePair> qps = new ArrayList<>();
    private PerftestChannel channel;

    /**
     * @param device  the device the QPs are made on.
     * @param side    this side's role.
     * @param address the server's address and port for a client; for a server the local port (the address is
     *                ignored: it listens on all).
     * @param ctx     timeouts.
     */
    public PerftestTcpTransport(final RxeDevice device, final Side side, final InetSocketAddress address,
        final OobContext ctx)
    {
        this.device = device;
        this.side = side;
        this.address = address;
        this.ctx = ctx;
    }

    @Override
    public PerftestChannel open() throws OobException
    {
        if (Side.CLIENT == side)
        {
            channel = new PerftestTcpChannel(OobChannel.connect(address, ctx));
        }
        else
        {
            try (ServerSocket listener = OobChannel.listen(null, address.getPort()))
            {
                channel = new PerftestTcpChannel(OobChannel.accept(listener, ctx));
            }
            catch (final java.io.IOException ex)
            {
                throw ex instanceof OobException ? (OobException)ex :
                    new OobException("closing the listener on TCP port " + address.getPort() + " failed", ex);
            }
        }
        return channel;
    }

    @Override
    public List<QueuePair> createQps(final PerftestExchange exchange, final ProtectionDomain pd,
        final QpInitAttr init, final int count, final PerftestTest test, final int outReads)
    {
        for (int i = 0; i < count; i++)
        {
            qps.add(device.createQp(pd, init));
        }
        return List.copyOf(qps);
    }

    @Override
    public boolean connectsQps()
    {
        return false;
    }

    @Override
    public String exchangeMethod()
    {
        return "Ethernet";
    }

    /** The closing hand-shake came after the last ACK: nothing is in flight on the QPs any more. */
    @Override
    public void close()
    {
        for (final QueuePair qp : qps)
        {
            device.destroyQp(qp);
        }
        qps.clear();
        if (null != channel)
        {
            channel.close();
        }
    }
}
