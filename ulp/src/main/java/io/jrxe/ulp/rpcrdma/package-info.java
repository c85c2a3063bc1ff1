/**
 * RPC-over-RDMA version 1 (RFC 8166, with RFC 8797's connection parameters): ONC RPC carried over an RC connection
 * made through rdma_cm, client and server, with the operations and behaviour of Linux's xprtrdma and svcrdma.
 * <pre>
 *   client:  RpcRdmaClient (an RpcClient: xids, the queue of calls waiting for a connection or a credit, timers)
 *              RpcRdmaTransport (xprtrdma's operations: setup, close, setPort, timer, allocate/free, sendRequest,
 *                                allocRegbuf/freeRegbuf, onSendCompletion/onReceiveCompletion, postExtraRecv)
 *                RpcRdmaConnector  rdma_cm connection, RFC 8797 private data, drain, reconnect with back-off
 *                RpcRdmaMarshal    chunk choice (inline, Read, Write, Reply, position-zero Read + RDMA_NOMSG)
 *                RpcRdmaReplyHandler  replies matched by xid, credits, invalidation, reverse calls
 *                FrwrOps/FrwrMr    FRWR registration of chunks under fresh rkeys, LOCAL_INV, recycling
 *                RpcRdmaReq/Rep, Regbuf   per-slot and per-receive buffers, registered for local access only
 *   server:  RpcRdmaServer (svcrdma: listener, connections, credits, send queue, reverse calls)
 *              SvcRdmaRecvFrom  header checks, credit checks, Read chunks pulled by RDMA READ
 *              SvcRdmaSendTo    Write and Reply chunks pushed by RDMA WRITE, inline or RDMA_NOMSG replies
 *              SvcRdmaPools, SvcRdmaCall, SvcRdmaConnection, ReverseCalls
 *   wire:    RpcRdmaHeader + ChunkLists (the transport header), ConnectPrivate (RFC 8797), RpcRdma (constants)
 *   counters: RpcRdmaCounter (xprtrdma's and svcrdma's names, then one per reason a message is refused)
 * </pre>
 * A client and its transport, or a server, are driven by one thread each; the CM's thread only queues events.
 * Nothing on the data path allocates; FRWR's {@code ib_map_mr_sg} and key update take the device's lock (the
 * engine's API). Where jrxe departs from Linux it says so where it does.
 */
package io.jrxe.ulp.rpcrdma;
