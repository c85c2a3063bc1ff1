package io.jrxe.ulp.nfs;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where {@link Nfs3Session#readFile} puts a remote file's bytes: chunk after chunk in file order, so a caller can
 * hash them as they pass (an md5 of what was transferred). {@link TransferSinks} has sinks for channels and streams.
 */
public interface TransferSink
{
    /**
     * Take the next chunk. The buffer is reused once this returns: consume or copy it.
     *
     * @param offset its offset in the file (the sum of the chunks before it)
     * @param data the bytes, from position to limit (a direct buffer)
     * @throws IOException to abort the transfer
     */
    void accept(long offset, ByteBuffer data) throws IOException;
}
