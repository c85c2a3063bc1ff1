package io.jrxe.ulp.oob;

import java.util.Arrays;

/**
 * The TCP conversation of ibv_rc_pingpong (rdma-core 44.0 {@code pp_client_exch_dest} / {@code pp_server_exch_dest}):
 * <pre>
 *   client                                   server (posted its receives before accepting)
 *     |---- 52-byte address message --------&gt;|   server parses it, moves its QP to RTR and RTS
 *     |&lt;--- 52-byte address message ---------|
 *     |---- "done\0" (5 bytes) -------------&gt;|   server reads up to 52 bytes and wants exactly 5
 *   close                                  close
 * </pre>
 * The client moves its QP to RTR/RTS only after the exchange and then sends first, so the server must be ready to
 * receive when it writes its message: the {@link RemoteDestHandler} runs before that write.
 */
public final class PingpongExchange
{
    /** {@code write(sockfd, "done", sizeof "done")}: the four letters and the NUL. */
    static final byte[] DONE = { 'd', 'o', 'n', 'e', 0 };

    private PingpongExchange()
    {
    }

    /**
     * Called by the server with the client's address before the server answers; it connects the local QP
     * (INIT to RTR to RTS, see {@link PeerQpSettings#rcPingpong()}) and has receives posted.
     */
    @FunctionalInterface
    public interface RemoteDestHandler
    {
        /**
         * @param remote the client's QP address.
         * @throws Exception if the QP cannot be connected; the exchange then stops without answering, as
         *                   rc_pingpong's server does.
         */
        void onRemoteDest(PingpongDest remote) throws Exception;
    }

    /**
     * Client side: send the local address, read the server's, send "done".
     *
     * @param channel connection to the server.
     * @param local   this side's QP address.
     * @return the server's QP address.
     * @throws OobException if the server's message is malformed, late or missing.
     */
    public static PingpongDest client(final OobChannel channel, final PingpongDest local) throws OobException
    {
        channel.write(local.encode(), PingpongDest.MESSAGE_NAME);
        final byte[] msg = new byte[PingpongDest.MESSAGE_LENGTH];
        channel.readFully(msg, PingpongDest.MESSAGE_NAME);
        channel.write(DONE, "\"done\"");
        return PingpongDest.decode(msg);
    }

    /**
     * Server side: read the client's address, let {@code connect} bring the QP up, send the local address, wait for
     * the client's "done".
     *
     * @param channel connection from the client.
     * @param local   this side's QP address.
     * @param connect connects the local QP to the client's before the answer goes out.
     * @return the client's QP address.
     * @throws OobException if a message is malformed, late or missing, or {@code connect} failed.
     */
    public static PingpongDest server(
        final OobChannel channel,
        final PingpongDest local,
        final RemoteDestHandler connect) throws OobException
    {
        final byte[] msg = new byte[PingpongDest.MESSAGE_LENGTH];
        channel.readFully(msg, PingpongDest.MESSAGE_NAME);
        final PingpongDest remote = PingpongDest.decode(msg);
        try
        {
            connect.onRemoteDest(remote);
        }
        catch (final Exception ex)
        {
            throw new OobException("could not connect to the remote QP " + remote + ": " + ex.getMessage(), ex);
        }
        channel.write(local.encode(), PingpongDest.MESSAGE_NAME);
        final byte[] done = new byte[DONE.length];
        channel.readFully(done, "\"done\" from the ibv_rc_pingpong client");
        if (!Arrays.equals(done, DONE))
        {
            throw WireText.malformed(done, "\"done\" message", "expected \"done\\0\"");
        }
        return remote;
    }
}
