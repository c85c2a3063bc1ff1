/**
 * An NFS mount over jrxe: one small API in front of the NFSv3 and NFSv4.1 clients, on RPC-over-RDMA through the
 * node's RDMA CM, for tools and applications that want files, not procedures.
 * <pre>
 *   NfsMounts.mount(cm, options)  --vers 3:   MOUNT v3 over TCP (the OS's sockets: MOUNT never runs over RDMA)
 *                                             for the root handle, then NFSv3 over RDMA to port 20049
 *                                 --vers 4.1: EXCHANGE_ID, CREATE_SESSION with a back channel on the same
 *                                             connection, RECLAIM_COMPLETE, all over RDMA
 *   NfsMount: list, read (N READs outstanding), write (N UNSTABLE WRITEs + COMMIT), create, remove,
 *             the transport's negotiated sizes and counters, the back channel's counts
 *   NfsError: an NFS status (NFS3ERR_NOENT, NFS4ERR_STALE ...) with the operation, for a clear message
 * </pre>
 */
package io.jrxe.ulp.nfsmount;
