/**
 * The verbs side of perftest's tests on a jrxe device: the QPs, buffers and measured loops that the conversations of
 * {@link io.jrxe.ulp.oob} ({@link io.jrxe.ulp.oob.PerftestLatSession}) call back into, so that a Java program can be
 * one side of {@code ib_send_lat}, {@code ib_write_lat}, {@code ib_read_lat} or {@code ib_atomic_lat} against the
 * Linux tools or another jrxe process ({@link io.jrxe.ulp.perftest.PerftestLatPeer}).
 * <pre>{@code
 *   PerftestLatPeer peer = null;
 *   try (PerftestTransport t = new PerftestTcpTransport(device, Side.SERVER, new InetSocketAddress(18515), oob))
 *   {
 *       PerftestExchange x = new PerftestExchange(t.open(), Side.SERVER);
 *       peer = new PerftestLatPeer(device, t, x, settings, idle, clock, listener);
 *       PerftestLatSession.run(x, settings.test, List.of(2L), mtu, PerftestSysData.DEFAULT, peer, timeoutNs);
 *   }
 *   finally
 *   {
 *       if (null != peer) peer.close();   // after the transport, which destroys the QP
 *   }
 * }</pre>
 * The engine must run on its own thread ({@code RoceNode.start()}): the loops spin on completions and on memory the
 * peer writes. Loops follow perftest 4.5-0.17's {@code run_iter_lat*} step for step, allocate nothing and take no
 * locks; statistics are computed after a run ({@link io.jrxe.ulp.oob.PerftestLatReport}), or for {@code -D} the
 * average over the sampled period ({@link io.jrxe.ulp.oob.PerftestLatDurationReport}), the intervals going to a
 * {@link io.jrxe.ulp.perftest.LatencyRecorder} as they happen.
 * <p>
 * The bandwidth tests' loops ({@link io.jrxe.ulp.perftest.PerftestBwTraffic}: {@code run_iter_bw},
 * {@code run_iter_bw_server}, {@code run_iter_bi}) serve a tool's {@link io.jrxe.ulp.oob.PerftestBwSession.Peer}.
 * Duration mode in both is perftest's alarm-driven state machine read from a clock
 * ({@link io.jrxe.ulp.perftest.DurationTimeline}).
 */
package io.jrxe.ulp.perftest;
