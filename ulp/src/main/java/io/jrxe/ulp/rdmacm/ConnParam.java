package io.jrxe.ulp.rdmacm;

import java.util.Arrays;

/**
 * Connection parameters ({@code struct rdma_conn_param}), given to {@link CmId#connect} and {@link CmId#accept}
 * and reported in CONNECT_REQUEST, CONNECT_RESPONSE and ESTABLISHED events. On a request event
 * {@code responderResources} and {@code initiatorDepth} are already swapped to the receiver's point of view, as
 * the kernel CM swaps them: the peer's initiator depth is what we may offer as responder resources.
 * <p>
 * Private-data limits (IBA 12.6, minus rdma_cm's 36-byte header in a REQ): {@link #MAX_REQ_PRIVATE_DATA} 56,
 * {@link #MAX_REP_PRIVATE_DATA} 196, {@link #MAX_REJ_PRIVATE_DATA} 148, {@link #MAX_SIDR_REQ_PRIVATE_DATA} 180,
 * {@link #MAX_SIDR_REP_PRIVATE_DATA} 136, DREQ 220, DREP and RTU 224.
 */
public final class ConnParam
{
    /** User private data in a REQ (92 - 36). */
    public static final int MAX_REQ_PRIVATE_DATA = 56;
    /** Private data in a REP. */
    public static final int MAX_REP_PRIVATE_DATA = 196;
    /** Private data in a REJ. */
    public static final int MAX_REJ_PRIVATE_DATA = 148;
    /** User private data in a SIDR_REQ (216 - 36). */
    public static final int MAX_SIDR_REQ_PRIVATE_DATA = 180;
    /** Private data in a SIDR_REP. */
    public static final int MAX_SIDR_REP_PRIVATE_DATA = 136;
    /** Private data in a DREQ. */
    public static final int MAX_DREQ_PRIVATE_DATA = 220;

    private byte[] privateData = new byte[0];
    private int responderResources;
    private int initiatorDepth;
    private boolean flowControl;
    private int retryCount = 7;
    private int rnrRetryCount = 7;
    private boolean srq;
    private int qpNum;

    /** @return a copy of the private data */
    public byte[] privateData()
    {
        return privateData.clone();
    }

    /**
     * @param data private data (copied)
     * @return this
     */
    public ConnParam privateData(final byte[] data)
    {
        this.privateData = null == data ? new byte[0] : data.clone();
        return this;
    }

    /**
     * @param data private data
     * @param length bytes used
     * @return this
     */
    public ConnParam privateData(final byte[] data, final int length)
    {
        this.privateData = Arrays.copyOf(data, length);
        return this;
    }

    /** @return private data length */
    public int privateDataLength()
    {
        return privateData.length;
    }

    /** @return incoming RDMA READ / atomic operations we serve at once */
    public int responderResources()
    {
        return responderResources;
    }

    /**
     * @param value responder resources
     * @return this
     */
    public ConnParam responderResources(final int value)
    {
        this.responderResources = value;
        return this;
    }

    /** @return outgoing RDMA READ / atomic operations we issue at once */
    public int initiatorDepth()
    {
        return initiatorDepth;
    }

    /**
     * @param value initiator depth
     * @return this
     */
    public ConnParam initiatorDepth(final int value)
    {
        this.initiatorDepth = value;
        return this;
    }

    /** @return end-to-end flow control */
    public boolean flowControl()
    {
        return flowControl;
    }

    /**
     * @param value end-to-end flow control
     * @return this
     */
    public ConnParam flowControl(final boolean value)
    {
        this.flowControl = value;
        return this;
    }

    /** @return transport retry count (0..7) */
    public int retryCount()
    {
        return retryCount;
    }

    /**
     * @param value transport retry count (0..7)
     * @return this
     */
    public ConnParam retryCount(final int value)
    {
        this.retryCount = value;
        return this;
    }

    /** @return RNR retry count (0..7, 7 = infinite) */
    public int rnrRetryCount()
    {
        return rnrRetryCount;
    }

    /**
     * @param value RNR retry count (0..7)
     * @return this
     */
    public ConnParam rnrRetryCount(final int value)
    {
        this.rnrRetryCount = value;
        return this;
    }

    /** @return the QP uses an SRQ */
    public boolean srq()
    {
        return srq;
    }

    /**
     * @param value the QP uses an SRQ
     * @return this
     */
    public ConnParam srq(final boolean value)
    {
        this.srq = value;
        return this;
    }

    /** @return the QPN (of the peer in events; ours when the id has no QP) */
    public int qpNum()
    {
        return qpNum;
    }

    /**
     * @param value QPN to announce when the id has no QP of its own
     * @return this
     */
    public ConnParam qpNum(final int value)
    {
        this.qpNum = value;
        return this;
    }

    @Override
    public String toString()
    {
        return "ConnParam{rr=" + responderResources + ", id=" + initiatorDepth + ", retry=" + retryCount +
            ", rnr=" + rnrRetryCount + ", qpn=0x" + Integer.toHexString(qpNum) + ", pd=" + privateData.length + "B}";
    }
}
