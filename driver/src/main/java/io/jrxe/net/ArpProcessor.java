package io.jrxe.net;

import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * ARP (RFC 826) for our one IPv4 address: answers requests for it, learns peers, resolves peers for the tx path
 * through the {@link NeighborTable}, and announces the address (RFC 5227 §2.3).
 */
final class ArpProcessor implements NeighborTable.Solicitor
{
    private final NetStack stack;
    private final UnsafeBuffer buffer;
    private final long mac;
    private final int address;
    private final NeighborTable table;

    ArpProcessor(final NetStack stack, final NetStackContext ctx)
    {
        this.stack = stack;
        this.buffer = stack.buffer();
        this.mac = stack.macAddress();
        this.address = ctx.ipv4Address();
        this.table = NeighborTable.of(ctx.arpCacheSize(), ctx, this);
    }

    NeighborTable table()
    {
        return table;
    }

    /** @return true if the buffer was reused for the reply (and must not be freed) */
    boolean onPacket(final int id, final int frame, final int length)
    {
        if (length < Ethernet.HEADER_LENGTH + Arp.LENGTH)
        {
            return stack.drop(NetCounter.TOO_SHORT);
        }
        final int arp = frame + Ethernet.HEADER_LENGTH;
        if (Arp.HTYPE_ETHERNET != (buffer.getShort(arp + Arp.HTYPE_OFFSET, BIG_ENDIAN) & 0xFFFF) ||
            Ethernet.TYPE_IPV4 != (buffer.getShort(arp + Arp.PTYPE_OFFSET, BIG_ENDIAN) & 0xFFFF) ||
            6 != buffer.getByte(arp + Arp.HLEN_OFFSET) ||
            4 != buffer.getByte(arp + Arp.PLEN_OFFSET))
        {
            return stack.drop(NetCounter.BAD_ARP);
        }
        final int oper = buffer.getShort(arp + Arp.OPER_OFFSET, BIG_ENDIAN) & 0xFFFF;
        final long sha = Ethernet.mac(buffer, arp + Arp.SHA_OFFSET);
        if ((Arp.OPER_REQUEST != oper && Arp.OPER_REPLY != oper) || Ethernet.isMulticast(sha) || 0 == sha)
        {
            return stack.drop(NetCounter.BAD_ARP);
        }
        final int spa = buffer.getInt(arp + Arp.SPA_OFFSET, BIG_ENDIAN);
        final int tpa = buffer.getInt(arp + Arp.TPA_OFFSET, BIG_ENDIAN);
        stack.count(Arp.OPER_REQUEST == oper ? NetCounter.ARP_REQUESTS_RCVD : NetCounter.ARP_REPLIES_RCVD);

        if (spa == address)
        {
            if (sha != mac)
            {
                stack.count(NetCounter.ARP_ADDRESS_CONFLICT);
            }
            return false;
        }
        final boolean forUs = tpa == address;
        if (!Ipv4.isMartian(spa))
        {
            // RFC 826 "merge": refresh a peer we already know from any ARP it sends; add it only when it talks to us
            table.learn(0, spa & 0xFFFF_FFFFL, sha, stack.nowNs(), forUs, true);
        }
        if (!forUs)
        {
            stack.count(NetCounter.ARP_NOT_FOR_US);
            return false;
        }
        if (Arp.OPER_REQUEST == oper)
        {
            // RFC 826: swap sender and target, put in our addresses, set the opcode to reply, unicast to the asker
            writeArp(id, frame, Arp.OPER_REPLY, sha, sha, spa);
            stack.queueTx(id);
            stack.count(NetCounter.ARP_REPLIES_SENT);
            return true;
        }
        return false;
    }

    /** Queues an ARP announcement (request with sender = target = our address, RFC 5227 §2.3). */
    int announce()
    {
        final int id = stack.allocTx();
        if (id < 0)
        {
            return 0;
        }
        writeArp(id, stack.pool().dataOffset(id), Arp.OPER_REQUEST, Ethernet.BROADCAST, 0, address);
        stack.queueTx(id);
        stack.count(NetCounter.ARP_ANNOUNCEMENTS_SENT);
        return 1;
    }

    @Override
    public void solicit(final long hi, final long lo)
    {
        final int id = stack.allocTx();
        if (id < 0)
        {
            return; // counted as no_tx_buffer; the retry timer tries again
        }
        writeArp(id, stack.pool().dataOffset(id), Arp.OPER_REQUEST, Ethernet.BROADCAST, 0, (int)lo);
        stack.queueTx(id);
        stack.count(NetCounter.ARP_REQUESTS_SENT);
    }

    @Override
    public void tableFull(final long hi, final long lo)
    {
        stack.count(NetCounter.NEIGHBOR_TABLE_FULL);
    }

    @Override
    public void unresolved(final long hi, final long lo)
    {
        stack.count(NetCounter.ARP_RESOLVE_FAILED);
    }

    private void writeArp(
        final int id, final int frame, final int oper, final long ethDst, final long tha, final int tpa)
    {
        Ethernet.writeHeader(buffer, frame, ethDst, mac, Ethernet.TYPE_ARP);
        final int arp = frame + Ethernet.HEADER_LENGTH;
        buffer.putShort(arp + Arp.HTYPE_OFFSET, (short)Arp.HTYPE_ETHERNET, BIG_ENDIAN);
        buffer.putShort(arp + Arp.PTYPE_OFFSET, (short)Ethernet.TYPE_IPV4, BIG_ENDIAN);
        buffer.putByte(arp + Arp.HLEN_OFFSET, (byte)6);
        buffer.putByte(arp + Arp.PLEN_OFFSET, (byte)4);
        buffer.putShort(arp + Arp.OPER_OFFSET, (short)oper, BIG_ENDIAN);
        Ethernet.mac(buffer, arp + Arp.SHA_OFFSET, mac);
        buffer.putInt(arp + Arp.SPA_OFFSET, address, BIG_ENDIAN);
        Ethernet.mac(buffer, arp + Arp.THA_OFFSET, tha);
        buffer.putInt(arp + Arp.TPA_OFFSET, tpa, BIG_ENDIAN);
        stack.frameLength(id, frame, Ethernet.HEADER_LENGTH + Arp.LENGTH);
    }
}
