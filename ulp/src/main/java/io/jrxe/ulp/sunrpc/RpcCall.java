package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.Xdr;
import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrEncoder;
import io.jrxe.ulp.xdr.XdrException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One RPC, reused call after call (the kernel's {@code rpc_rqst} with its task): the call's XDR, what the reply
 * may hold, the reply once it came, and the status. The call's bytes are three parts, as the kernel's
 * {@code xdr_buf}, so a transport can move the bulk part by RDMA instead of inline (RFC 8166 §3.4, "DDP-eligible"
 * data items; RFC 8267 for NFS: WRITE's data, READ's and READLINK's results):
 * <pre>
 *   send buffer (the transport's, from allocate):   [ RPC call header | args head ][ args tail ]
 *   payload (the caller's memory):                                     ^ payload() here: an opaque's bytes
 *   on the wire, inline:  header | head | payload | pad to 4 | tail
 *   reply, inline:        reply header | results ...   (a READ's data in the stream, copied out by readPayload)
 *   reply, Write chunk:   reply header | results ...   (a READ's data already at readPayloadAddress, no bytes)
 * </pre>
 * The caller owns it between {@link RpcClient#prepare} and {@link RpcClient#release}; the client and its
 * transport write to it only while it is in flight. Not thread safe.
 */
public final class RpcCall
{
    /** Not prepared. */
    public static final int IDLE = 0;
    /** Prepared: buffers allocated, header written, arguments being encoded. */
    public static final int PREPARED = 1;
    /** Sent or queued, no reply yet. */
    public static final int IN_FLIGHT = 2;
    /** Done: a reply ({@link #status()} 0) or a failure (negative errno). */
    public static final int DONE = 3;

    private final XdrEncoder args = new XdrEncoder();
    private final XdrDecoder results = new XdrDecoder();
    private final RpcReplyHeader replyHeader = new RpcReplyHeader();
    private final UnsafeBuffer replyView = new UnsafeBuffer(0, 0);

    private int state = IDLE;
    private int xid;
    private int program;
    private int version;
    private int procedure;
    private RpcAuth auth = RpcAuth.none();

    private MutableDirectBuffer sendBuffer;
    private int sendOffset;
    private int sendCapacity;
    private int payloadPosition = -1;
    private long payloadAddress;
    private int payloadLength;
    private boolean assembled;

    private int replyLimit = 1024;
    private long readPayloadAddress;
    private int readPayloadLength = -1;
    private int writeChunkBytes = -1;
    private boolean payloadTaken;

    private int status;
    private boolean accepted;
    private Object transportData;
    private Object owner;
    private RpcCallListener listener;
    private int transmissions;
    private long deadlineNs;
    private long sentNs;

    /** @return {@link #IDLE}, {@link #PREPARED}, {@link #IN_FLIGHT} or {@link #DONE} */
    public int state()
    {
        return state;
    }

    /** @return true once a reply or a failure ended the call */
    public boolean isDone()
    {
        return DONE == state;
    }

    /** @return transaction id (assigned by prepare, kept across retransmissions) */
    public int xid()
    {
        return xid;
    }

    /** @return program number */
    public int program()
    {
        return program;
    }

    /** @return program version */
    public int version()
    {
        return version;
    }

    /** @return procedure number */
    public int procedure()
    {
        return procedure;
    }

    /** @return the credential */
    public RpcAuth auth()
    {
        return auth;
    }

    /**
     * The arguments' encoder, positioned after the call header once prepared. Write the arguments; for a bulk
     * data item write its length word, then call {@link #payload}, then go on with what follows it.
     *
     * @return the encoder
     */
    public XdrEncoder args()
    {
        return args;
    }

    /**
     * The bytes of a DDP-eligible opaque (an NFS WRITE's data) at the current position of {@link #args()}: they
     * stay in the caller's memory until the transport sends them inline or offers them as a Read chunk. The
     * opaque's length word must already be written; its padding is implied.
     *
     * @param address first byte (direct memory, alive until the call is done)
     * @param length bytes
     * @return this
     */
    public RpcCall payload(final long address, final int length)
    {
        if (PREPARED != state || payloadPosition >= 0 || length < 0)
        {
            throw new IllegalStateException("one payload per call, while preparing it (state " + state + ")");
        }
        payloadPosition = args.position();
        payloadAddress = address;
        payloadLength = length;
        return this;
    }

    /**
     * The largest reply expected, not counting a READ payload given to {@link #readPayloadTo} (the kernel's
     * {@code p_replen}). A reply that may be larger than the receive inline threshold goes to a Reply chunk.
     *
     * @param bytes RPC reply bytes, header included
     * @return this
     */
    public RpcCall replyLimit(final int bytes)
    {
        replyLimit = bytes;
        return this;
    }

    /**
     * Where a DDP-eligible result (an NFS READ's data) goes: the transport offers this memory as a Write chunk
     * when the reply would not fit inline, and {@link #readPayload} copies an inline one here.
     *
     * @param address first byte (direct memory, alive until the call is done)
     * @param maxLength bytes the result may hold
     * @return this
     */
    public RpcCall readPayloadTo(final long address, final int maxLength)
    {
        readPayloadAddress = address;
        readPayloadLength = maxLength;
        return this;
    }

    /**
     * The reply's results, after the accepted reply header, once {@link #status()} is 0 and
     * {@link #acceptStat()} SUCCESS. The view lasts until {@link RpcClient#release}.
     *
     * @return the decoder
     */
    public XdrDecoder results()
    {
        return results;
    }

    /**
     * Take a DDP-eligible result whose length word the caller just read: from the Write chunk (already in place,
     * nothing in the stream) or from the stream (copied to {@link #readPayloadTo}'s memory and skipped, padding
     * included).
     *
     * @param count the opaque's length, as decoded
     * @return count
     * @throws XdrException when the count exceeds what was placed or what was asked for
     */
    public int readPayload(final int count)
    {
        if (count < 0 || count > readPayloadLength || payloadTaken)
        {
            throw new XdrException("READ payload of " + count + " bytes, room for " + readPayloadLength);
        }
        payloadTaken = true;
        if (writeChunkBytes >= 0)
        {
            if (count > writeChunkBytes)
            {
                throw new XdrException("the reply claims " + count + " bytes, the Write chunk holds " +
                    writeChunkBytes);
            }
            return count;
        }
        final int at = results.skipFixedOpaque(count);
        replyView.wrap(readPayloadAddress, count);
        replyView.putBytes(0, results.buffer(), at, count);
        return count;
    }

    /** @return 0 when a reply came, else a negative errno (ETIMEDOUT, EIO, ENOTCONN...) */
    public int status()
    {
        return status;
    }

    /** @return true when the reply was MSG_ACCEPTED SUCCESS */
    public boolean accepted()
    {
        return accepted;
    }

    /** @return the reply's header (accept_stat, mismatch versions, auth_stat) */
    public RpcReplyHeader replyHeader()
    {
        return replyHeader;
    }

    /** @return accept_stat, or -1 for a denied reply */
    public int acceptStat()
    {
        return replyHeader.acceptStat();
    }

    /** @return how many times the call went on the wire */
    public int transmissions()
    {
        return transmissions;
    }

    /** @return the listener told when the call is done, or null */
    public RpcCallListener listener()
    {
        return listener;
    }

    /**
     * @param listener told when the call is done (on the thread driving the client), or null
     * @return this
     */
    public RpcCall listener(final RpcCallListener listener)
    {
        this.listener = listener;
        return this;
    }

    // ---- for clients and transports -------------------------------------------------------------------------

    /**
     * A transport gives the call its send buffer (the kernel's {@code rq_buffer}, from allocate).
     *
     * @param buffer registered memory
     * @param offset first byte of the call's region
     * @param capacity bytes in the region
     */
    public void attachSendBuffer(final MutableDirectBuffer buffer, final int offset, final int capacity)
    {
        sendBuffer = buffer;
        sendOffset = offset;
        sendCapacity = capacity;
    }

    /**
     * A client starts the call: header written, arguments next.
     *
     * @param owner the client
     * @param xid transaction id
     * @param program program
     * @param version version
     * @param procedure procedure
     * @param auth credential
     */
    public void begin(
        final Object owner, final int xid, final int program, final int version, final int procedure,
        final RpcAuth auth)
    {
        if (null == sendBuffer)
        {
            throw new IllegalStateException("no send buffer: the transport's allocate comes first");
        }
        this.owner = owner;
        this.xid = xid;
        this.program = program;
        this.version = version;
        this.procedure = procedure;
        this.auth = auth;
        payloadPosition = -1;
        payloadLength = 0;
        assembled = false;
        replyLimit = 1024;
        readPayloadLength = -1;
        readPayloadAddress = 0;
        writeChunkBytes = -1;
        payloadTaken = false;
        status = 0;
        accepted = false;
        transmissions = 0;
        args.wrap(sendBuffer, sendOffset, sendCapacity);
        RpcCallHeader.encode(args, xid, program, version, procedure, auth);
        state = PREPARED;
    }

    /** @return the client that prepared it, or null */
    public Object owner()
    {
        return owner;
    }

    /** @param state the new state */
    public void state(final int state)
    {
        this.state = state;
    }

    /** @return the send buffer */
    public MutableDirectBuffer sendBuffer()
    {
        return sendBuffer;
    }

    /** @return offset of the call's first byte (the xid) in {@link #sendBuffer()} */
    public int sendOffset()
    {
        return sendOffset;
    }

    /** @return capacity of the send region */
    public int sendCapacity()
    {
        return sendCapacity;
    }

    /** @return bytes before the payload (or all encoded bytes when there is none): the Read chunk's position */
    public int headLength()
    {
        return (payloadPosition < 0 ? args.position() : payloadPosition) - sendOffset;
    }

    /** @return bytes encoded after the payload */
    public int tailLength()
    {
        return payloadPosition < 0 ? 0 : args.position() - payloadPosition;
    }

    /** @return true when a payload was given */
    public boolean hasPayload()
    {
        return payloadPosition >= 0;
    }

    /** @return the payload's address */
    public long payloadAddress()
    {
        return payloadAddress;
    }

    /** @return the payload's length */
    public int payloadLength()
    {
        return payloadLength;
    }

    /** @return the whole call inline: head, payload and its padding, tail */
    public int inlineLength()
    {
        return headLength() + (hasPayload() ? Xdr.roundUp(payloadLength) : 0) + tailLength();
    }

    /**
     * Lay the whole call out inline in its send buffer, for a transport that sends it in one piece (TCP, an inline
     * RPC-over-RDMA call, a position-zero Read chunk): head | payload | pad to 4 | tail, the tail moved up behind
     * the payload. Done once per call: a retransmission finds it done (moving the tail again would overwrite it
     * with payload bytes).
     *
     * @return {@link #inlineLength()}, or -1 when it does not fit the send buffer (nothing moved)
     */
    public int assembleInline()
    {
        final int length = inlineLength();
        if (!hasPayload() || assembled)
        {
            return length;
        }
        if (length > sendCapacity)
        {
            return -1;
        }
        final int head = sendOffset + headLength();
        final int padded = Xdr.roundUp(payloadLength);
        sendBuffer.putBytes(head + padded, sendBuffer, head, tailLength());
        replyView.wrap(payloadAddress, payloadLength);
        sendBuffer.putBytes(head, replyView, 0, payloadLength);
        sendBuffer.setMemory(head + payloadLength, padded - payloadLength, (byte)0);
        assembled = true;
        return length;
    }

    /** @return the reply limit, see {@link #replyLimit(int)} */
    public int replyLimit()
    {
        return replyLimit;
    }

    /** @return true when a READ payload destination was given */
    public boolean hasReadPayload()
    {
        return readPayloadLength >= 0;
    }

    /** @return where a READ payload goes */
    public long readPayloadAddress()
    {
        return readPayloadAddress;
    }

    /** @return room for a READ payload */
    public int readPayloadLength()
    {
        return readPayloadLength;
    }

    /** @return the transport's per-call state (the kernel's {@code rpcrdma_req}) */
    public Object transportData()
    {
        return transportData;
    }

    /** @param data the transport's per-call state */
    public void transportData(final Object data)
    {
        transportData = data;
    }

    /** One more transmission. */
    public void transmitted(final long nowNs)
    {
        transmissions++;
        sentNs = nowNs;
    }

    /** @return when it was last transmitted */
    public long sentNs()
    {
        return sentNs;
    }

    /** @return the deadline of the current timeout */
    public long deadlineNs()
    {
        return deadlineNs;
    }

    /** @param deadlineNs the deadline of the current timeout */
    public void deadlineNs(final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
    }

    /**
     * A reply came: read its header. The reply's bytes must stay where they are until release.
     *
     * @param buffer holding the RPC reply (the receive buffer, or the Reply chunk's memory)
     * @param offset first byte (the xid)
     * @param length bytes
     * @param writeChunkBytes bytes the server wrote into the Write chunk, or -1 when it used none
     * @throws XdrException when the reply is malformed
     */
    public void replyReceived(final DirectBuffer buffer, final int offset, final int length, final int writeChunkBytes)
    {
        this.writeChunkBytes = writeChunkBytes;
        results.wrap(buffer, offset, length);
        accepted = replyHeader.decode(results);
        status = 0;
        state = DONE;
    }

    /**
     * The call ended without a reply.
     *
     * @param errno positive errno (ETIMEDOUT, EIO, ...)
     */
    public void failed(final int errno)
    {
        status = -errno;
        accepted = false;
        state = DONE;
    }

    @Override
    public String toString()
    {
        return "RpcCall[xid=" + Integer.toUnsignedString(xid, 16) + " prog=" + program + " vers=" + version +
            " proc=" + procedure + " state=" + state + " status=" + status + "]";
    }
}
