/**
 * Out-of-band TCP exchanges that let a jrxe process connect an RC QP with the Linux interop tools while the RDMA
 * traffic itself goes over jrxe's NIC: {@code ibv_rc_pingpong} ({@link io.jrxe.ulp.oob.PingpongExchange}) and
 * perftest's {@code ib_send_bw}, {@code ib_write_bw}, {@code ib_read_bw} ({@link io.jrxe.ulp.oob.PerftestExchange},
 * driven in the tools' order by {@link io.jrxe.ulp.oob.PerftestBwSession}) and {@code ib_send_lat},
 * {@code ib_write_lat}, {@code ib_read_lat}, {@code ib_atomic_lat} ({@link io.jrxe.ulp.oob.PerftestLatSession}, with
 * perftest's latency statistics in {@link io.jrxe.ulp.oob.PerftestLatReport}; the verbs side of those tests is
 * {@link io.jrxe.ulp.perftest}). perftest's exchange can also run over
 * rdma_cm, as its {@code -R} does: {@link io.jrxe.ulp.oob.PerftestTransport} picks the socket
 * ({@link io.jrxe.ulp.oob.PerftestTcpTransport}) or an rdma_cm connection with the data QPs connected through rdma_cm
 * too ({@link io.jrxe.ulp.oob.PerftestCmTransport}, on {@link io.jrxe.ulp.rdmacm}).
 *
 * <h2>Versions followed</h2>
 * The versions Debian bookworm ships (the lab's guest image): rdma-core 44.0 ({@code ibverbs-utils 44.0-2}) and
 * perftest 4.5-0.17 ({@code perftest 4.5+0.17-1}), whose protocol {@code VERSION} is "6.06". Message formats were
 * taken from the {@code linux-rdma/rdma-core} and {@code linux-rdma/perftest} sources and checked against the format
 * strings, message sizes and call order in the Debian binaries. Differences from current upstream perftest that
 * matter on the wire: 6.06 writes "done\0" after the closing hand-shake (later versions do not; both are accepted),
 * and it has no parameter negotiation (perftest 6.28 and later negotiate only with peers of 6.28 or later, so
 * announcing 6.06 keeps them on this conversation).
 *
 * <h2>What the peer tool is assumed to run with</h2>
 * <ul>
 *   <li>The TCP exchange, or rdma_cm when both sides use it (perftest {@code -R}); port
 *       {@link io.jrxe.ulp.oob.OobContext#DEFAULT_PORT} (18515) unless {@code -p} is given on both sides.</li>
 *   <li>RoCE, so a GID: perftest picks one by itself on Ethernet (or {@code -x}); ibv_rc_pingpong needs
 *       {@code -g <index>} of the IPv4 RoCE v2 GID.</li>
 *   <li>perftest: RC ({@code -c RC}, the default); bandwidth tests one-way or bidirectional ({@code -b}), for
 *       iterations or a duration ({@code -D}), one size or all ({@code -a}) as {@link io.jrxe.ulp.oob.PerftestBwMode}
 *       lists; latency tests with fixed iterations or {@code -D}, {@code -a} allowed; no {@code --report-per-port}
 *       unless this side mirrors it. {@code -q}, {@code -b}, {@code -a} and (for ib_send_bw) {@code -D} change the
 *       conversation, so both sides must be given the same (the messages carry no count or mode). Options with no
 *       effect on the socket: {@code -s}, {@code -n}, {@code -t}, {@code -u}, {@code -F}.
 *       {@code --report_gbits} does not change the conversation, but the numbers in the exchanged report are in the
 *       sender's unit, so both sides should use the same setting.</li>
 *   <li>ibv_rc_pingpong: any {@code -s}, {@code -n}, {@code -r}; {@code -m} must match this side's path MTU since the
 *       tool does not exchange it.</li>
 * </ul>
 *
 * <h2>QP settings</h2>
 * {@link io.jrxe.ulp.oob.PeerQpSettings} lists what each tool sets for INIT, RTR and RTS (min RNR timer 12, ACK timeout
 * 14, retry and RNR retry 7, PSN {@code lrand48() & 0xffffff}; rd_atomic 1 for rc_pingpong, the advertised
 * {@code out_reads} for perftest) and fills a {@link io.jrxe.rxe.verbs.QpAttr} the same way, through
 * {@link io.jrxe.rxe.node.QpConnector}, which holds the defaults the tools share and the transitions themselves.
 *
 * <h2>Use</h2>
 * <pre>{@code
 *   try (ServerSocket listener = OobChannel.listen(null, OobContext.DEFAULT_PORT);
 *        OobChannel ch = OobChannel.accept(listener, new OobContext()))
 *   {
 *       PerftestBwSession.Result r = PerftestBwSession.run(new PerftestExchange(ch, Side.SERVER),
 *           PerftestTest.WRITE_BW, PerftestBwMode.oneWay(65536), activeMtu, PerftestSysData.DEFAULT, verbsPeer,
 *           trafficTimeoutNs);
 *       System.out.print(PerftestReportFormatter.RESULT_LINE + PerftestReportFormatter.header(Unit.MB_PER_SEC) +
 *           PerftestReportFormatter.line(r.remoteReport(), Unit.MB_PER_SEC) + PerftestReportFormatter.RESULT_LINE);
 *   }
 * }</pre>
 * Blocking I/O on a plain socket is fine here: these exchanges happen before and after the measured traffic, never on
 * the data path.
 */
package io.jrxe.ulp.oob;
