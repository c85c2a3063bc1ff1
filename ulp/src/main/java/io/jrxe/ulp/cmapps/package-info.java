/**
 * rdma-core's librdmacm example programs as jrxe library code, each wire-compatible with the C tool in both roles
 * and built on jrxe's rdma_cm API ({@link io.jrxe.ulp.rdmacm}): {@link io.jrxe.ulp.cmapps.Cmatose}
 * ({@code ucmatose}: many RC connections on one event channel, the server sends first) and
 * {@link io.jrxe.ulp.cmapps.Udaddy} ({@code udaddy}: UD QPs found through SIDR, replies addressed from the work
 * completion). The command-line wrappers ({@code jrxe ucmatose}, {@code jrxe udaddy}) live in the tools module and
 * only parse options, open the node and print.
 *
 * <h2>Versions followed</h2>
 * rdma-core v44 (Debian bookworm's {@code rdmacm-utils}), {@code librdmacm/examples/cmatose.c} and
 * {@code udaddy.c}: the order of posts, sends and CM calls, the connection parameters and the buffer sizes are
 * theirs; the progress lines ({@code "cmatose: starting server"}, {@code "receiving data transfers"} ...) are
 * theirs too and go to {@link io.jrxe.ulp.cmapps.CmTestSettings#log()}.
 *
 * <h2>What jrxe adds</h2>
 * Every wait is bounded by one overall timeout; each message has its own slot and, with
 * {@link io.jrxe.ulp.cmapps.CmTestSettings#verify()}, a pattern the receiver checks (the C tools send whatever
 * their buffer holds, so keep it off against them: lengths, opcodes and immediates are checked either way); the
 * connection set-up time is measured ({@link io.jrxe.ulp.cmapps.CmTestResult#connectNs()}). An error event ends a
 * run with {@link io.jrxe.ulp.cmapps.CmEventFailure}, as the C tools give up on one.
 *
 * <h2>rping, rdma_server, rdma_client</h2>
 * {@link io.jrxe.ulp.cmapps.Rping} ({@code rping}: per ping the server RDMA READs the client's start buffer and
 * RDMA WRITEs it into the client's sink, on an id with an event channel) and
 * {@link io.jrxe.ulp.cmapps.RdmaServerClient} ({@code rdma_server}/{@code rdma_client}: the synchronous style, ids
 * from {@link io.jrxe.ulp.rdmacm.RdmaCm#getAddrInfo} and {@link io.jrxe.ulp.rdmacm.RdmaCm#createEp}, a 16-byte
 * echo) follow {@code rping.c}, {@code rdma_server.c} and {@code rdma_client.c} of the same version, with their
 * output lines. They bound each wait rather than the whole run (an {@code rping -C 0} runs as long as it is let):
 * rping with deadlines on its channels, the synchronous tools, whose calls have no timeout, with a watchdog that
 * interrupts the blocked call, as {@code alarm(2)} would.
 */
package io.jrxe.ulp.cmapps;
