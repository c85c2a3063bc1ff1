package io.jrxe.ulp.pingpong;

import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.ulp.oob.OobChannel;
import io.jrxe.ulp.oob.OobContext;
import io.jrxe.ulp.oob.PeerQpSettings;
import io.jrxe.ulp.oob.XsrqDest;
import io.jrxe.ulp.oob.XsrqExchange;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Random;

/**
 * One {@code ibv_xsrq_pingpong} run in the tool's order, as server or client: the address exchange per client
 * ({@link XsrqExchange}), {@code connect_qps}, the ping-pong ({@link XsrqPingpong#run}) and the "END"
 * hand-shake, with the node kept going through every blocking step ({@link ProgressingCall}).
 * <pre>
 *   server: listen; per client: accept, read its address, send ours, connect; run; read every END, send every END
 *   client: connect; send our address, read the server's, connect; run; send END, read END
 * </pre>
 */
public final class XsrqSession
{
    /** Told of each address as the tool prints it ({@code ADDR_FORMAT}, "local" or "remote"). */
    @FunctionalInterface
    public interface AddressListener
    {
        /**
         * @param local true for this side's address, false for the peer's.
         * @param dest the address.
         */
        void onAddress(boolean local, XsrqDest dest);
    }

    private final RoceNode node;
    private final XsrqPingpong pingpong;
    private final IdleStrategy idle;
    private final OobContext oob;
    private final Mtu mtu;
    private final int gidIndex;
    private final AddressListener listener;
    private final Random random = new Random(System.nanoTime());

    /**
     * @param node the node (driven by the calling thread).
     * @param pingpong the verbs side, created on that node.
     * @param idle what the calling thread does when idle.
     * @param oob timeouts of the TCP exchange.
     * @param mtu path MTU (the tool's {@code -m}; both sides must agree).
     * @param gidIndex this side's GID index (the tool's {@code -g}).
     * @param listener told of the addresses.
     */
    public XsrqSession(final RoceNode node, final XsrqPingpong pingpong, final IdleStrategy idle,
        final OobContext oob, final Mtu mtu, final int gidIndex, final AddressListener listener)
    {
        this.node = node;
        this.pingpong = pingpong;
        this.idle = idle;
        this.oob = oob;
        this.mtu = mtu;
        this.gidIndex = gidIndex;
        this.listener = listener;
    }

    /**
     * The server: accepts {@code clients} connections on {@code port}, one after the other.
     *
     * @param port TCP port to listen on.
     * @param clients clients to accept (the {@link XsrqPingpong}'s count).
     * @param deadlineNs bound on the ping-pong (the pingpong's clock).
     * @return what the ping-pong did.
     * @throws IOException if the exchange or the termination fails
     */
    public XsrqPingpong.Result server(final int port, final int clients, final long deadlineNs) throws IOException
    {
        final OobChannel[] channels = new OobChannel[clients];
        try
        {
            try (ServerSocket socket = OobChannel.listen(null, port))
            {
                for (int i = 0; i < clients; i++)
                {
                    final OobChannel channel = ProgressingCall.call(node, idle, "jrxe-xsrq-accept",
                        () -> OobChannel.accept(socket, oob));
                    channels[i] = channel;
                    final XsrqDest local = pingpong.localDest(i, gidIndex, PeerQpSettings.randomPsn(random));
                    final XsrqDest remote = ProgressingCall.call(node, idle, "jrxe-xsrq-exchange",
                        () -> XsrqExchange.server(channel, local));
                    listener.onAddress(false, remote);
                    listener.onAddress(true, local);
                    pingpong.connect(i, remote, mtu, gidIndex, local.psn());
                }
            }
            final XsrqPingpong.Result result = pingpong.run(true, deadlineNs);
            ProgressingCall.call(node, idle, "jrxe-xsrq-termination", () ->
            {
                for (final OobChannel channel : channels)
                {
                    XsrqExchange.receiveEnd(channel);
                }
                for (final OobChannel channel : channels)
                {
                    XsrqExchange.sendEnd(channel);
                }
                return null;
            });
            return result;
        }
        finally
        {
            for (final OobChannel channel : channels)
            {
                if (null != channel)
                {
                    channel.close();
                }
            }
        }
    }

    /**
     * The client: one connection to the server.
     *
     * @param server the server's TCP address.
     * @param deadlineNs bound on the ping-pong (the pingpong's clock).
     * @return what the ping-pong did.
     * @throws IOException if the exchange or the termination fails
     */
    public XsrqPingpong.Result client(final InetSocketAddress server, final long deadlineNs) throws IOException
    {
        final XsrqDest local = pingpong.localDest(0, gidIndex, PeerQpSettings.randomPsn(random));
        try (OobChannel channel = ProgressingCall.call(node, idle, "jrxe-xsrq-connect",
            () -> OobChannel.connect(server, oob)))
        {
            listener.onAddress(true, local);
            final XsrqDest remote = ProgressingCall.call(node, idle, "jrxe-xsrq-exchange",
                () -> XsrqExchange.client(channel, local));
            listener.onAddress(false, remote);
            pingpong.connect(0, remote, mtu, gidIndex, local.psn());
            final XsrqPingpong.Result result = pingpong.run(false, deadlineNs);
            ProgressingCall.call(node, idle, "jrxe-xsrq-termination", () ->
            {
                XsrqExchange.sendEnd(channel);
                XsrqExchange.receiveEnd(channel);
                return null;
            });
            return result;
        }
    }
}
