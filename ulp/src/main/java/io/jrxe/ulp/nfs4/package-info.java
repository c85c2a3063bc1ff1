/**
 * NFSv4.1 (RFC 8881; XDR in RFC 5662) over jrxe's ONC RPC layer: the client's COMPOUND encoding and decoding, its
 * session, and the callback service a server calls back on the same connection.
 * <pre>
 *   Nfs41Session             connect (EXCHANGE_ID, CREATE_SESSION, RECLAIM_COMPLETE), paths under an export,
 *     │                      list, read / write whole files with N calls in flight, create, remove, lease,
 *     │                      delegations (hold, await a recall, DELEGRETURN), close
 *     ├── Nfs4ForeChannel    a request on a slot: SEQUENCE first, the slot table settled from its result,
 *     │     │                NFS4ERR_DELAY / NFS4ERR_GRACE retried with a bounded wait (Nfs4Backoff)
 *     │     ├── Nfs4SlotTable         sequence ids, highest / target slots, SEQ_MISORDERED and BADSLOT recovery
 *     │     ├── Nfs4CompoundEncoder   COMPOUND4args, one method per operation, summing the reply limit
 *     │     └── Nfs4CompoundDecoder   COMPOUND4res, result by result, errors as Nfs4StatusException
 *     ├── Nfs4PathWalker     paths under the export: LOOKUP walks, a prefix first when they outgrow a COMPOUND
 *     ├── Nfs4Lease          the lease: a SEQUENCE alone once half of it passed since the last
 *     ├── requests           Nfs4Request: Nfs4SessionRequests, Nfs4PathRequests, Nfs4IoRequests
 *     ├── Nfs4FileTransfer   whole files: OPEN, READs or WRITEs in flight, COMMIT (rewrite on a new verifier), CLOSE
 *     │     ├── Nfs4OpenFile          OPEN (a delegation granted kept, or returned with the CLOSE) and CLOSE
 *     │     └── pipelines             Nfs4ReadPipeline, Nfs4WritePipeline: READ/WRITE with DDP payloads
 *     └── Nfs4DelegationKeeper  delegations kept after CLOSE; DELEGRETURN when recalled, and at close
 *           └── Nfs4Delegations       the table (stateid, fh, path, type), marked when recalled
 *   Nfs4CallbackProgram      the RpcProgram of the back channel: CB_NULL, CB_COMPOUND with CB_SEQUENCE and
 *                            CB_RECALL (checked against the session's delegations; the DELEGRETURN is the
 *                            session's to send, from its own thread, after the dispatch)
 *   wire types               Nfs4 (constants), Nfs4Status, Nfs4Attr / Nfs4Attributes, Nfs4Stateid,
 *                            Nfs4FileHandle, Nfs4SessionId, Nfs4ChannelAttrs, result holders, Nfs4ReplySizes
 * </pre>
 * READ's and WRITE's data are DDP-eligible (RFC 8267 §2.2): WRITE hands its bytes to
 * {@link io.jrxe.ulp.sunrpc.RpcCall#payload}, READ says where its bytes go with
 * {@link io.jrxe.ulp.sunrpc.RpcCall#readPayloadTo}, and every COMPOUND sets
 * {@link io.jrxe.ulp.sunrpc.RpcCall#replyLimit} to its largest reply without READ data ({@link
 * io.jrxe.ulp.nfs4.Nfs4ReplySizes}), so an RPC-over-RDMA transport can choose Write and Reply chunks. The data
 * path (READ, WRITE) reuses its objects and allocates nothing unless an operation fails. A session is driven by
 * one thread, and so is its callback service: the transport dispatches the server's callbacks while that thread
 * drives the RPC client.
 */
package io.jrxe.ulp.nfs4;
