package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.Xdr;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import org.agrona.MutableDirectBuffer;

import java.net.InetSocketAddress;

/**
 * One call being served (the kernel's {@code svc_rqst}): its header, its arguments (the whole call, inline: a
 * transport that pulled Read chunks has put their bytes where they belong) and the results being written. Reused
 * call after call by the server's transport. Not thread safe.
 * <pre>
 *   results buffer:  [ accepted reply header | results head ][ payload: reservePayload ][ pad ][ results tail ]
 * </pre>
 * A DDP-eligible result (an NFS READ's data, RFC 8267) is written where {@link #reservePayload} says: a transport
 * then sends it inline, or RDMA WRITEs it into the client's Write chunk and leaves it out of the inline reply.
 */
public final class RpcServerCall
{
    private final RpcCallHeader header = new RpcCallHeader();
    private final XdrDecoder args = new XdrDecoder();
    private final XdrEncoder results = new XdrEncoder();
    private InetSocketAddress peer;
    private Object connection;
    private int payloadPosition = -1;
    private int payloadLength;

    /** @return the call's header */
    public RpcCallHeader header()
    {
        return header;
    }

    /** @return the arguments, after the call header */
    public XdrDecoder args()
    {
        return args;
    }

    /** @return where the results go, after the accepted reply header */
    public XdrEncoder results()
    {
        return results;
    }

    /** @return the client's address */
    public InetSocketAddress peer()
    {
        return peer;
    }

    /** @return the transport's connection the call came on (for a program that calls back on it), or null */
    public Object connection()
    {
        return connection;
    }

    /**
     * Room for a DDP-eligible result at the current position of {@link #results()}, whose length word the program
     * has just written; the padding is zeroed.
     *
     * @param length bytes
     * @return absolute offset in {@code results().buffer()} where the program writes them
     */
    public int reservePayload(final int length)
    {
        if (payloadPosition >= 0)
        {
            throw new IllegalStateException("one payload per reply");
        }
        payloadPosition = results.position();
        payloadLength = length;
        return results.skipWritten(length);
    }

    // ---- for transports -------------------------------------------------------------------------------------

    /**
     * @param peer the client
     * @param connection the transport's connection
     */
    public void origin(final InetSocketAddress peer, final Object connection)
    {
        this.peer = peer;
        this.connection = connection;
    }

    /** A new call: no payload yet. */
    public void reset()
    {
        payloadPosition = -1;
        payloadLength = 0;
    }

    /** @return true when the results have a DDP-eligible payload */
    public boolean hasPayload()
    {
        return payloadPosition >= 0;
    }

    /** @return absolute offset of the payload in the results buffer */
    public int payloadPosition()
    {
        return payloadPosition;
    }

    /** @return payload bytes (without padding) */
    public int payloadLength()
    {
        return payloadLength;
    }

    /** @return absolute offset just past the payload's padding (where the results' tail starts) */
    public int payloadEnd()
    {
        return payloadPosition + Xdr.roundUp(payloadLength);
    }

    /**
     * Drop a payload reserved by a program that then failed.
     */
    public void dropPayload()
    {
        payloadPosition = -1;
        payloadLength = 0;
    }

    /** @return the buffer results are written into */
    public MutableDirectBuffer resultsBuffer()
    {
        return results.buffer();
    }
}
