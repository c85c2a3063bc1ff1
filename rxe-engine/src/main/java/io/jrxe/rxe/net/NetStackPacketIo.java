package io.jrxe.rxe.net;

import io.jrxe.driver.mem.PacketPool;
import io.jrxe.driver.wake.Wakeup;
import io.jrxe.net.NetStack;
import io.jrxe.net.UdpDatagram;
import io.jrxe.net.UdpHandler;

/**
 * Puts the RoCE engine on jrxe's L2/L3 stack: outgoing RoCEv2 packets get their Ethernet/IP/UDP headers from
 * {@link NetStack} (ARP/ND resolved there), and UDP datagrams for port 4791 go to the engine's
 * {@link RxePacketSink}. Also the engine's {@link RxePoller}: one poll of the stack receives, handles and flushes;
 * {@link #flush()} at the end of the duty cycle sends what the engine queued after the poll. All on the engine's
 * thread.
 */
public final class NetStackPacketIo implements RxePacketIo, RxePoller, UdpHandler
{
    private final NetStack stack;
    private RxePacketSink sink;

    public NetStackPacketIo(final NetStack stack)
    {
        this.stack = stack;
        stack.registerUdpHandler(ROCE_V2_UDP_PORT, this);
    }

    /** Where received RoCEv2 packets go (the engine). */
    public NetStackPacketIo sink(final RxePacketSink sink)
    {
        this.sink = sink;
        return this;
    }

    public NetStack stack()
    {
        return stack;
    }

    @Override
    public int txRoom()
    {
        return stack.txRoom();
    }

    @Override
    public int txCapacity()
    {
        return stack.txCapacity();
    }

    /** {@inheritDoc} The interrupt of the stack's own NIC queue pair (its MSI-X vector), a lane's too. */
    @Override
    public boolean wakeup(final Wakeup wakeup)
    {
        return stack.device().wakeOnInterrupt(stack.queuePair(), wakeup);
    }

    @Override
    public PacketPool pool()
    {
        return stack.pool();
    }

    @Override
    public int allocTx()
    {
        return stack.allocTx();
    }

    @Override
    public int udpPayloadOffset(final boolean ipv6)
    {
        return ipv6 ? NetStack.UDP6_PAYLOAD_OFFSET : NetStack.UDP4_PAYLOAD_OFFSET;
    }

    @Override
    public boolean prepare(
        final int id, final long dstGidHi, final long dstGidLo, final int srcUdpPort, final int udpPayloadLength)
    {
        return prepare(id, dstGidHi, dstGidLo, srcUdpPort, udpPayloadLength, 0);
    }

    @Override
    public boolean prepare(
        final int id, final long dstGidHi, final long dstGidLo, final int srcUdpPort, final int udpPayloadLength,
        final int trafficClass)
    {
        if (RxePacketIo.isIpv4Mapped(dstGidHi, dstGidLo))
        {
            // RoCEv2 over IPv4 (IBA A17.4.5.1): DSCP/ECN from the engine, checksum 0 allowed (RFC 768), DF set
            return stack.prepareUdp4(id, (int)dstGidLo, srcUdpPort, ROCE_V2_UDP_PORT, udpPayloadLength,
                trafficClass);
        }
        return stack.prepareUdp6(
            id, dstGidHi, dstGidLo, srcUdpPort, ROCE_V2_UDP_PORT, udpPayloadLength, trafficClass, 0);
    }

    @Override
    public int maxTxGather()
    {
        return stack.maxTxGather();
    }

    @Override
    public boolean gather(final int id, final long iova, final int length)
    {
        return stack.gather(id, iova, length);
    }

    @Override
    public long txGatherSequence()
    {
        return stack.txGatherSequence();
    }

    @Override
    public long txGatherOldest()
    {
        return stack.txGatherOldest();
    }

    @Override
    public boolean awaitingNeighbor(final long dstGidHi, final long dstGidLo)
    {
        return RxePacketIo.isIpv4Mapped(dstGidHi, dstGidLo) ?
            stack.awaitingNeighbor4((int)dstGidLo) : stack.awaitingNeighbor6(dstGidHi, dstGidLo);
    }

    @Override
    public boolean joinGroup(final long gidHi, final long gidLo)
    {
        return RxePacketIo.isIpv4Mapped(gidHi, gidLo) ?
            stack.multicast().join4((int)gidLo) : stack.multicast().join6(gidHi, gidLo);
    }

    @Override
    public void leaveGroup(final long gidHi, final long gidLo)
    {
        if (RxePacketIo.isIpv4Mapped(gidHi, gidLo))
        {
            stack.multicast().leave4((int)gidLo);
        }
        else
        {
            stack.multicast().leave6(gidHi, gidLo);
        }
    }

    @Override
    public void send(final int id)
    {
        stack.send(id);
    }

    @Override
    public int flush()
    {
        return stack.flush();
    }

    @Override
    public int poll()
    {
        return stack.poll();
    }

    @Override
    public void onDatagram(final UdpDatagram d)
    {
        final RxePacketSink target = sink;
        if (null != target)
        {
            target.receive(
                d.buffer(), d.ipOffset(), d.udpOffset(), d.payloadOffset(), d.payloadLength(), d.ipVersion());
        }
    }
}
