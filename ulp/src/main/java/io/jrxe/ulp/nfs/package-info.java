/**
 * NFS version 3 (RFC 1813) over any {@link io.jrxe.ulp.sunrpc.RpcClient}: RPC-over-RDMA or TCP. MOUNT v3
 * (Appendix I) runs over TCP only.
 * <pre>
 *   Nfs3Session    paths relative to an export: lookup, list, readFile / writeFile with N outstanding READs or
 *                  UNSTABLE WRITEs + COMMIT, create, remove; TransferProgress, TransferSink, TransferSource
 *   Nfs3Client     the procedures: NULL GETATTR SETATTR LOOKUP ACCESS READ WRITE CREATE REMOVE READDIRPLUS FSINFO
 *                  COMMIT; startRead/finishRead and startWrite/finishWrite for outstanding bulk calls
 *   MountClient    MNT and UMNT, mountd found through the port mapper (io.jrxe.ulp.sunrpc.Rpcbind)
 *   types          FileHandle3, Fattr3, PostOpAttr, WccData, Sattr3 (reusable, decoded in place)
 *   results        LookupResult, ReadResult, WriteResult, CommitResult, CreateResult, FsInfo, DirectoryPage
 *   constants      Nfs3 (procedures, ftype3, stable_how, createmode3, ACCESS3_), Nfs3Status (nfsstat3), Mount3,
 *                  Nfs3Sizes (each procedure's largest reply: RpcCall.replyLimit)
 *   errors         NfsException (an nfsstat3), MountException (a mountstat3), WriteVerifierChangedException (the
 *                  server restarted between UNSTABLE writes and COMMIT); RPC failures are RpcExceptions
 * </pre>
 * What an RPC-over-RDMA transport sees (RFC 8267 §2.2): a WRITE's data is the call's payload (a Read chunk or
 * inline), a READ's data goes to the memory given by {@code readPayloadTo} (a Write chunk or copied from an inline
 * reply), and every call carries the largest reply it may get in {@code replyLimit}, READDIRPLUS's set by its
 * maxcount (a Reply chunk when it exceeds the inline threshold).
 */
package io.jrxe.ulp.nfs;
