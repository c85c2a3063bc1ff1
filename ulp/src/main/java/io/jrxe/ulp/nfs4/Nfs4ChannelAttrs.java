package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;

/**
 * channel_attrs4 (RFC 8881 §18.36): what a client asks of a session's fore or back channel in CREATE_SESSION and
 * what the server grants (it may lower the sizes and the slot count, RFC 8881 §18.36.3).
 * <pre>
 *   | headerpadsize | maxrequestsize | maxresponsesize | maxresponsesize_cached | maxoperations | maxrequests |
 *   | rdma_ird&lt;1&gt;: count 0 or 1 [ ird ] |
 * </pre>
 * maxrequests is the number of slots; each size counts the whole RPC message, header included.
 */
public final class Nfs4ChannelAttrs
{
    /** Bytes on the wire without an rdma_ird value. */
    public static final int SIZE = 7 * 4;
    /** Bytes on the wire with one. */
    public static final int MAX_SIZE = SIZE + 4;

    private int headerPadSize;
    private int maxRequestSize;
    private int maxResponseSize;
    private int maxResponseSizeCached;
    private int maxOperations;
    private int maxRequests;
    private int rdmaIrd = -1;

    /**
     * @param maxRequestSize largest request the sender will send
     * @param maxResponseSize largest reply the sender accepts
     * @param maxResponseSizeCached largest reply the replier must be able to cache
     * @param maxOperations most operations in one COMPOUND
     * @param maxRequests slots
     * @return this
     */
    public Nfs4ChannelAttrs set(
        final int maxRequestSize, final int maxResponseSize, final int maxResponseSizeCached,
        final int maxOperations, final int maxRequests)
    {
        this.headerPadSize = 0;
        this.maxRequestSize = maxRequestSize;
        this.maxResponseSize = maxResponseSize;
        this.maxResponseSizeCached = maxResponseSizeCached;
        this.maxOperations = maxOperations;
        this.maxRequests = maxRequests;
        this.rdmaIrd = -1;
        return this;
    }

    /**
     * @param xdr where
     */
    public void encode(final XdrEncoder xdr)
    {
        xdr.putInt(headerPadSize).putInt(maxRequestSize).putInt(maxResponseSize).putInt(maxResponseSizeCached)
            .putInt(maxOperations).putInt(maxRequests);
        if (rdmaIrd >= 0)
        {
            xdr.putInt(1).putInt(rdmaIrd);
        }
        else
        {
            xdr.putInt(0);
        }
    }

    /**
     * @param xdr positioned at a channel_attrs4
     * @return this
     */
    public Nfs4ChannelAttrs decode(final XdrDecoder xdr)
    {
        headerPadSize = xdr.getInt();
        maxRequestSize = xdr.getInt();
        maxResponseSize = xdr.getInt();
        maxResponseSizeCached = xdr.getInt();
        maxOperations = xdr.getInt();
        maxRequests = xdr.getInt();
        final int irds = xdr.getInt();
        if (0 != (irds & ~1))
        {
            throw new XdrException("ca_rdma_ird<1> with " + irds + " values");
        }
        rdmaIrd = 1 == irds ? xdr.getInt() : -1;
        return this;
    }

    /** @return ca_headerpadsize */
    public int headerPadSize()
    {
        return headerPadSize;
    }

    /** @return ca_maxrequestsize */
    public int maxRequestSize()
    {
        return maxRequestSize;
    }

    /** @return ca_maxresponsesize */
    public int maxResponseSize()
    {
        return maxResponseSize;
    }

    /** @return ca_maxresponsesize_cached */
    public int maxResponseSizeCached()
    {
        return maxResponseSizeCached;
    }

    /** @return ca_maxoperations */
    public int maxOperations()
    {
        return maxOperations;
    }

    /** @return ca_maxrequests: the slot count */
    public int maxRequests()
    {
        return maxRequests;
    }

    /** @return ca_rdma_ird, or -1 when absent */
    public int rdmaIrd()
    {
        return rdmaIrd;
    }

    @Override
    public String toString()
    {
        return "channel[req=" + maxRequestSize + " resp=" + maxResponseSize + " cached=" + maxResponseSizeCached +
            " ops=" + maxOperations + " slots=" + maxRequests + "]";
    }
}
