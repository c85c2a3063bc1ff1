/**
 * The RoCEv2 transport engine, rxe's split in Java: {@link io.jrxe.rxe.engine.Receiver} (rxe_recv.c),
 * {@link io.jrxe.rxe.engine.Requester} (rxe_req.c), {@link io.jrxe.rxe.engine.Completer} (rxe_comp.c),
 * {@link io.jrxe.rxe.engine.Responder} and {@link io.jrxe.rxe.engine.DatagramResponder} (rxe_resp.c),
 * {@link io.jrxe.rxe.engine.MulticastTable} and {@link io.jrxe.rxe.engine.MulticastReceiver} (rxe_mcast.c,
 * rxe_rcv_mcast_pkt), {@link io.jrxe.rxe.engine.LocalOperations} (REG_MR, LOCAL_INV, BIND_MW), the
 * retransmit/RNR/pace timers, DCQCN congestion control ({@link io.jrxe.rxe.engine.CongestionControl}: CNPs for CE
 * marks, and {@link io.jrxe.rxe.engine.DcqcnRp}, the per-QP rate the requester is paced at), the engine's counters
 * and, when configured, per-QP latency histograms (recorded by the requester and completer, published by
 * {@link io.jrxe.rxe.engine.LatencyPublisher}), all driven by {@link io.jrxe.rxe.engine.RxeEngine#progress()} on one
 * thread, the engine thread, which owns every QP's transport state.
 * <p>
 * Threads: applications reach the engine only through the verbs API (posts ring a {@link io.jrxe.rxe.engine.Doorbell},
 * modifies queue a command, {@link io.jrxe.rxe.engine.RxeEngine#invoke} queues a task); the engine reaches the verbs
 * objects only through the device's {@link io.jrxe.rxe.spi.DevicePort}. The hot path allocates nothing, takes no
 * lock and calls no JNA.
 */
package io.jrxe.rxe.engine;
