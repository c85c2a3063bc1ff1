package io.jrxe.ulp.nfs;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where {@link Nfs3Session#writeFile} takes a local file's bytes: chunk after chunk in file order, and again from
 * offset 0 if the server restarts before the COMMIT ({@link TransferProgress#restarted}). {@link TransferSources}
 * has sources for a file channel (any offset) and a stream (in order only).
 */
public interface TransferSource
{
    /**
     * Fill a buffer with the bytes at an offset.
     *
     * @param offset where in the file
     * @param dst to fill from position to limit, completely
     * @throws IOException when the source is shorter (EOFException) or cannot go back to the offset
     */
    void read(long offset, ByteBuffer dst) throws IOException;
}
