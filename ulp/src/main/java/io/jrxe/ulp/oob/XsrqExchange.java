package io.jrxe.ulp.oob;

import java.util.Arrays;

/**
 * The TCP conversation of ibv_xsrq_pingpong (rdma-core 44.0 {@code pp_client_connect} / {@code pp_server_connect}
 * and the termination hand-shake), one connection per client:
 * <pre>
 *   client                                       server (accepts -c clients, one after the other)
 *     |---- 66-byte address message (XsrqDest) ----&gt;|
 *     |&lt;--- 66-byte address message (XsrqDest) -----|   both then connect their TGT and INI QPs;
 *     |          ... XRC SENDs over RoCE ...          |   the server sends first
 *     |---- "END\0" (4 bytes) ----------------------&gt;|   after the last receive and send completion
 *     |&lt;--- "END\0" --------------------------------|   the server answers once every client has ended
 *   close                                         close
 * </pre>
 * The connection stays open through the ping-pong: the termination keeps a process from tearing its XRC SRQ down
 * while a peer's last message to it is still on the wire.
 */
public final class XsrqExchange
{
    /** {@code TERMINATION_MSG} "END" written with its NUL ({@code TERMINATION_MSG_SIZE} 4). */
    static final byte[] END = { 'E', 'N', 'D', 0 };

    private XsrqExchange()
    {
    }

    /**
     * Client side: send the local address, then read the server's.
     *
     * @param channel connection to the server.
     * @param local this side's address.
     * @return the server's address.
     * @throws OobException if the server's message is malformed, late or missing.
     */
    public static XsrqDest client(final OobChannel channel, final XsrqDest local) throws OobException
    {
        channel.write(local.encode(), XsrqDest.MESSAGE_NAME);
        return read(channel);
    }

    /**
     * Server side, per accepted client: read the client's address, then send the local one.
     *
     * @param channel connection from the client.
     * @param local this side's address for that client.
     * @return the client's address.
     * @throws OobException if the client's message is malformed, late or missing.
     */
    public static XsrqDest server(final OobChannel channel, final XsrqDest local) throws OobException
    {
        final XsrqDest remote = read(channel);
        channel.write(local.encode(), XsrqDest.MESSAGE_NAME);
        return remote;
    }

    /**
     * Writes the termination message.
     *
     * @param channel the connection.
     * @throws OobException if the write fails.
     */
    public static void sendEnd(final OobChannel channel) throws OobException
    {
        channel.write(END, "\"END\" termination message");
    }

    /**
     * Reads the termination message and checks it.
     *
     * @param channel the connection.
     * @throws OobException if it is missing, late or not "END\0".
     */
    public static void receiveEnd(final OobChannel channel) throws OobException
    {
        final byte[] msg = new byte[END.length];
        channel.readFully(msg, "\"END\" termination message");
        if (!Arrays.equals(msg, END))
        {
            throw WireText.malformed(msg, "termination message", "expected \"END\\0\"");
        }
    }

    private static XsrqDest read(final OobChannel channel) throws OobException
    {
        final byte[] msg = new byte[XsrqDest.MESSAGE_LENGTH];
        channel.readFully(msg, XsrqDest.MESSAGE_NAME);
        return XsrqDest.decode(msg);
    }
}
