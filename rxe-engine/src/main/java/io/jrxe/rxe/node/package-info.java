/**
 * Whole jrxe RoCE nodes, ready to use from Java: the pieces a program needs to bring RDMA up without the CLI.
 * <ul>
 *   <li>{@link io.jrxe.rxe.node.RoceNode}: a NIC, the L2/L3 stack, a verbs device and the engine, wired as the
 *       kernel wires rdma_rxe to a netdev.</li>
 *   <li>{@link io.jrxe.rxe.node.PciNode}: a node on a NIC bound to vfio-pci, opened by PCI address (VFIO function,
 *       virtio driver, optional pcap).</li>
 *   <li>{@link io.jrxe.rxe.node.EmulatedNode}: a node on one emulated virtio-net NIC of an
 *       {@link io.jrxe.driver.emu.EmulatedNetwork}.</li>
 *   <li>{@link io.jrxe.rxe.node.NodePair} ({@link io.jrxe.rxe.node.NodePairContext}): two nodes on an emulated
 *       wire with fault injection, device models on threads or stepped by the caller, real or
 *       {@link io.jrxe.rxe.node.ManualClock virtual} time, an optional raw wire port; the harness of the demo, the
 *       benchmarks and the integration tests.</li>
 *   <li>{@link io.jrxe.rxe.node.NodeThreads}: the thread layouts (engine on its own thread, engines sharing a
 *       thread, everything on the caller's thread) with a choice of idle strategy.</li>
 *   <li>{@link io.jrxe.rxe.node.QpConnector}: the RC/UC connect defaults of ibv_rc_pingpong and perftest and the
 *       RESET to INIT to RTR to RTS transitions.</li>
 * </ul>
 * <pre>
 *   try (NodePair pair = new NodePair(new NodePairContext());
 *        NodeThreads threads = NodeThreads.start(NodeThreads.Layout.NODE, NodeThreads.Idle.YIELD::create, pair))
 *   {
 *       // verbs on pair.a().device() and pair.b().device(); connect QPs with new QpConnector().connect(...)
 *   }
 * </pre>
 * Threads: a node's engine is driven by exactly one thread at a time, its own ({@link
 * io.jrxe.rxe.node.RoceNode#start()}, {@link io.jrxe.rxe.node.NodeThreads}) or the caller's
 * ({@link io.jrxe.rxe.node.RoceNode#progress()}, {@link io.jrxe.rxe.node.NodePair#step()}); verbs may be called from
 * any thread. Owners close what they opened in reverse order; threads stop before the nodes close.
 */
package io.jrxe.rxe.node;
