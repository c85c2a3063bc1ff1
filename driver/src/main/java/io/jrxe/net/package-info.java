/**
 * A small L2/L3 stack over a {@link io.jrxe.driver.NicDevice}: Ethernet, ARP, IPv4 + ICMP echo, IPv6 + NDP + ICMPv6
 * echo, and UDP demultiplexing to {@link io.jrxe.net.UdpHandler}s (port 4791 is the RoCEv2 engine).
 * <p>
 * Each stack runs on the one thread that drives its NIC queue pair; the per-packet path allocates nothing. Packets are
 * {@code int} buffer ids of the device's {@link io.jrxe.driver.mem.PacketPool}; headers are read and written in
 * place through the pool's {@link org.agrona.concurrent.UnsafeBuffer}. The entry point is
 * {@link io.jrxe.net.NetStack}, configured by a {@link io.jrxe.net.NetStackContext}.
 * <p>
 * At its first poll the stack sets the NIC's receive filter ({@link io.jrxe.driver.NicDevice#rxFilter}) to its own
 * MAC, broadcast and the multicast groups it joined (IPv6 all-nodes and the solicited-node group of each address),
 * so that a NIC on a shared link does not hand it every other station's frames; {@code promiscuous(true)} in the
 * context keeps every frame coming, for captures and debugging. Groups its users join later
 * ({@link io.jrxe.net.MulticastGroups}: RoCE UD multicast) are added to the filter as they come and go, with IGMPv2 or
 * MLDv2 reports.
 * <p>
 * On a multiqueue NIC the primary stack (queue pair 0) makes a lane per further pair
 * ({@link io.jrxe.net.NetStack#lane(int)}), one per engine shard thread. RSS steers UDP flows to the pairs and every
 * other frame to pair 0, so ARP replies and Neighbor Advertisements for a lane's requests reach the primary, which
 * passes each neighbour entry it learns to every lane through a single-producer, single-consumer ring
 * ({@code NeighborRelay}). Only the primary touches the NIC's control path (receive filter, multicast groups).
 */
package io.jrxe.net;
