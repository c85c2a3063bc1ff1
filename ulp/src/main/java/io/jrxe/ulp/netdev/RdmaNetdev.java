package io.jrxe.ulp.netdev;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.RxeDevice;
import org.agrona.DirectBuffer;

/**
 * The kernel's {@code struct rdma_netdev} (include/rdma/ib_verbs.h) as a Java interface: a network device whose
 * frames ride on an RDMA device's datagram service, addressed by an address handle and a destination QPN instead
 * of a MAC. The kernel's IPoIB sits on it; here {@link IpOverUd} does.
 * <pre>
 *   struct rdma_netdev              RdmaNetdev
 *   hca, port_num                   hca(), portNum()
 *   set_id(netdev, id)              setId(id)
 *   send(dev, skb, address, dqpn)   send(etherType, packet, offset, length, address, dqpn)
 *   attach_mcast(dev, hca, gid,     attachMcast(gidHi, gidLo, setQkey, qkey)   (no MLID on RoCE: no SM)
 *       mlid, set_qkey, qkey)
 *   detach_mcast(dev, hca, gid,     detachMcast(gidHi, gidLo)
 *       mlid)
 * </pre>
 * Calls return 0 or a negative errno, as the kernel's do. The skb's protocol field, which the kernel's IPoIB turns
 * into its encapsulation header, is the explicit {@code etherType} argument here. Receiving, which the kernel does
 * by handing skbs to the network stack, is {@link #poll}.
 */
public interface RdmaNetdev extends AutoCloseable
{
    /** @return the RDMA device the netdev sends on ({@code hca}) */
    RxeDevice hca();

    /** @return its port ({@code port_num}) */
    int portNum();

    /**
     * {@code set_id}: an identifier of the netdev's choosing, reported back in nothing on the wire (the kernel uses
     * it to tag a child interface); kept so a user can tell its netdevs apart.
     *
     * @param id the identifier
     */
    void setId(int id);

    /** @return the identifier last set, 0 at first */
    int id();

    /** @return the largest packet {@link #send} takes: the path MTU less the 4-byte encapsulation header */
    int mtu();

    /**
     * Sends one packet.
     *
     * @param etherType what the packet is (0x0800 IPv4, 0x0806 ARP, 0x86DD IPv6)
     * @param packet holds the packet, from its network header on
     * @param offset where it starts
     * @param length its length
     * @param address where to ({@code struct ib_ah})
     * @param dqpn the destination QP (0xFFFFFF for a multicast group)
     * @return 0; -EMSGSIZE if longer than {@link #mtu()}; -EAGAIN if every transmit slot is in flight (the
     *     kernel's NETDEV_TX_BUSY: poll, then try again); -EINVAL for a bad argument; the send verb's error else
     */
    int send(int etherType, DirectBuffer packet, int offset, int length, AddressHandle address, int dqpn);

    /**
     * Receives up to {@code max} packets, handing each to {@code receiver}, and reclaims transmit slots whose
     * sends completed.
     *
     * @param receiver gets the packets
     * @param max most packets to hand over
     * @return packets handed over
     */
    int poll(NetdevReceiver receiver, int max);

    /**
     * {@code attach_mcast}: receive what is sent to a multicast group.
     *
     * @param gidHi the group's GID, high 64 bits
     * @param gidLo low 64 bits
     * @param setQkey take {@code qkey} as the netdev's Q_Key (the group's, as IPoIB takes the broadcast group's)
     * @param qkey the Q_Key
     * @return 0 or a negative errno (-EINVAL for a GID that is not multicast)
     */
    int attachMcast(long gidHi, long gidLo, boolean setQkey, int qkey);

    /**
     * {@code detach_mcast}.
     *
     * @param gidHi the group's GID, high 64 bits
     * @param gidLo low 64 bits
     * @return 0 or a negative errno (-EINVAL if not attached)
     */
    int detachMcast(long gidHi, long gidLo);

    /** Destroys the netdev's QP, CQs and memory. */
    @Override
    void close();
}
