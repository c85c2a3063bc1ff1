package io.jrxe.ulp.netdev;

import org.agrona.DirectBuffer;

/**
 * Takes the packets {@link RdmaNetdev#poll} receives. The buffer is the netdev's receive slot and is reused once the
 * call returns: copy what must outlive it.
 */
public interface NetdevReceiver
{
    /**
     * @param etherType the encapsulation header's type (0x0800 IPv4, 0x0806 ARP, 0x86DD IPv6)
     * @param packet holds the packet
     * @param offset where it starts (its network header)
     * @param length its length
     * @param from the sender: its QPN and GID, and an address vector to answer it
     */
    void onPacket(int etherType, DirectBuffer packet, int offset, int length, NetdevSender from);
}
