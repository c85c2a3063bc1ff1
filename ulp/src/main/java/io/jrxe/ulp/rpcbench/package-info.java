/**
 * RPC-over-RDMA benchmarks between two jrxe nodes on emulated NICs in one JVM (run by {@code jrxe bench rpc}):
 * NULL RPC rate with a window of calls in flight, one-at-a-time round-trip latency, and bulk READ/WRITE throughput
 * through Write and Read chunks, each with the bytes the driving thread allocated per RPC.
 * <pre>
 *   one thread: [device A, device B, engine A, engine B, CM A, CM B, RpcRdmaClient (A), RpcRdmaServer (B)]
 *   BenchProgram (0x20000100 v1): NULL | READ(count) -&gt; opaque payload | WRITE(opaque payload) -&gt; count
 * </pre>
 */
package io.jrxe.ulp.rpcbench;
