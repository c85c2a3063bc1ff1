package io.jrxe.ulp.nfsmount;

import io.jrxe.ulp.rpcrdma.RpcRdmaTransport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.List;

/**
 * A mounted export, by path relative to the export. Used by one thread at a time.
 */
public interface NfsMount extends AutoCloseable
{
    /** @return "3" or "4.1" */
    String version();

    /** @return bytes per READ */
    int rsize();

    /** @return bytes per WRITE */
    int wsize();

    /** @return the RDMA transport of the (first) connection: negotiated inline sizes, credits, counters */
    RpcRdmaTransport transport();

    /**
     * @param dir a directory ("" for the export's root)
     * @return its entries (without "." and "..")
     * @throws IOException an NfsError for a status, or the transport's failure
     */
    List<NfsEntry> list(String dir) throws IOException;

    /**
     * Read a whole file, in order.
     *
     * @param path the file
     * @param out where its bytes go
     * @param progress told as bytes arrive
     * @return bytes read
     * @throws IOException an NfsError, or the stream's
     */
    long read(String path, OutputStream out, NfsProgress progress) throws IOException;

    /**
     * Create or truncate a file and write a local file into it (UNSTABLE writes, then COMMIT).
     *
     * @param path the file
     * @param in the local file, from position 0 to its size
     * @param progress told as the server acknowledges bytes
     * @return bytes written
     * @throws IOException an NfsError, or the channel's
     */
    long write(String path, FileChannel in, NfsProgress progress) throws IOException;

    /**
     * Create an empty file (UNCHECKED: an existing one is left as it is).
     *
     * @param path the file
     * @throws IOException an NfsError
     */
    void create(String path) throws IOException;

    /**
     * Remove a file.
     *
     * @param path the file
     * @throws IOException an NfsError
     */
    void remove(String path) throws IOException;

    /**
     * Hold a read delegation on a file (NFSv4.1: OPEN for read asking for one, CLOSE, the delegation kept).
     *
     * @param path the file
     * @return the delegation's type ("READ" or "WRITE")
     * @throws IOException an NfsError: the server granted none (status NO_DELEGATION, its reason in the message)
     *     or NFSv3 has no delegations (NOTSUPP)
     */
    String holdDelegation(String path) throws IOException;

    /**
     * Wait until the server recalls a held delegation (CB_RECALL on the back channel) and its DELEGRETURN is
     * answered, keeping the lease alive meanwhile.
     *
     * @param timeoutNs how long
     * @return true when a delegation was recalled and returned
     * @throws IOException an NfsError
     */
    boolean awaitRecall(long timeoutNs) throws IOException;

    /** @return reverse-direction calls answered, by kind ("calls=N cb_null=N cb_sequence=N ..."); "" for v3 */
    String backchannel();

    /** Unmount: UMNT (v3) or DESTROY_SESSION and DESTROY_CLIENTID (4.1), and close the connections. */
    @Override
    void close() throws IOException;
}
