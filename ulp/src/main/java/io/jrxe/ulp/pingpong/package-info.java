/**
 * The verbs side of rdma-core's pingpong examples that jrxe plays against the Linux tools or against itself:
 * {@link io.jrxe.ulp.pingpong.XsrqPingpong} is {@code ibv_xsrq_pingpong} (XRC: initiator and target QPs, an XRC SRQ
 * in an XRC domain). Their address exchanges are in {@link io.jrxe.ulp.oob}; the {@code jrxe pingpong} command only
 * parses options and prints.
 */
package io.jrxe.ulp.pingpong;
