package io.jrxe.ulp.netdev;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.RdmaNetworkHeader;
import io.jrxe.rxe.verbs.WorkCompletion;
import org.agrona.DirectBuffer;

/**
 * Who sent a received packet: its QPN and GID, and the means to answer it. A flyweight the netdev points at each
 * receive in turn; valid only during {@link NetdevReceiver#onPacket}.
 */
public final class NetdevSender
{
    private final UdNetdev netdev;
    private WorkCompletion wc;
    private DirectBuffer buffer;
    private int headerOffset;

    NetdevSender(final UdNetdev netdev)
    {
        this.netdev = netdev;
    }

    NetdevSender wrap(final WorkCompletion wc, final DirectBuffer buffer, final int headerOffset)
    {
        this.wc = wc;
        this.buffer = buffer;
        this.headerOffset = headerOffset;
        return this;
    }

    /** @return the sending QP (the DETH's source QPN) */
    public int qpn()
    {
        return wc.srcQp();
    }

    /**
     * @return the network header area of the receive: the IPv6 header (GRH) or, on RoCE v2 over IPv4, the IPv4
     *     header in its last 20 bytes ({@link RdmaNetworkHeader})
     */
    public DirectBuffer networkHeader()
    {
        return buffer;
    }

    /** @return where {@link #networkHeader()} starts */
    public int networkHeaderOffset()
    {
        return headerOffset;
    }

    /** @return the receive's completion */
    public WorkCompletion completion()
    {
        return wc;
    }

    /**
     * {@code ib_create_ah_from_wc}: an address handle that answers the sender. It allocates: call it when a
     * neighbour is learnt, not per packet. The netdev's owner destroys it ({@link UdNetdev#destroyAh}).
     *
     * @return the handle
     */
    public AddressHandle createAh()
    {
        return netdev.createAhFromWc(wc, buffer, headerOffset);
    }
}
