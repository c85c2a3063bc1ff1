/**
 * ONC RPC version 2 (RFC 5531): the application API of jrxe's RPC layer, independent of the transport.
 * <pre>
 *   client:  RpcClient (RpcRdmaClient over RDMA, RpcTcpClient over TCP)
 *              prepare(call) -&gt; call.args() ... -&gt; execute(call) | submit(call) + progress() -&gt; call.results()
 *            RpcCall: one reusable call (rpc_rqst): args head | DDP payload | args tail, reply, status
 *            RpcAuth: AUTH_NONE, AUTH_SYS, encoded once
 *   server:  RpcProgram (one program: versions, procedures) registered with an RpcDispatcher (svc_process),
 *            RpcServerCall (svc_rqst): header, args, results with an optional DDP payload,
 *            DuplicateReplyCache: a retransmission gets the first execution's reply
 *   wire:    RpcCallHeader, RpcReplyHeader, RpcMessage (constants)
 *   TCP:     RpcTcpClient (RpcTcpOptions), RpcTcpServer (a thread per connection), record marking (RFC 5531 §11)
 *            by RpcRecordWriter and RpcRecordReader
 *   errors:  RpcException: no reply (negative errno) or a reply other than MSG_ACCEPTED SUCCESS
 *   rpcbind: Rpcbind, the port mapper v2 client (RFC 1833 §3, PMAPPROC_GETPORT)
 * </pre>
 * Calls and server calls are reused: nothing here allocates per call. A client or a dispatcher is driven by one
 * thread at a time.
 */
package io.jrxe.ulp.sunrpc;
