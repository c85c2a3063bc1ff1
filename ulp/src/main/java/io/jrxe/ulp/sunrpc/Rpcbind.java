package io.jrxe.ulp.sunrpc;

import io.jrxe.ulp.xdr.XdrDecoder;
import io.jrxe.ulp.xdr.XdrException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The port mapper client, version 2 (RFC 1833 §3: program 100000 on port 111; rpcbind answers it too): which port
 * serves a program. PMAPPROC_GETPORT's argument and result:
 * <pre>
 *   struct mapping { unsigned int prog; unsigned int vers; unsigned int prot; unsigned int port; }   16 bytes
 *   result: unsigned int port                                      0: not registered (RFC 1833 §3.2)
 * </pre>
 * Control path: allocates.
 */
public final class Rpcbind
{
    /** The port mapper's well-known port. */
    public static final int PMAP_PORT = 111;
    /** The port mapper's program number. */
    public static final int PMAP_PROGRAM = 100000;
    /** Port mapper protocol version 2. */
    public static final int PMAP_VERSION = 2;
    /** PMAPPROC_NULL. */
    public static final int PMAPPROC_NULL = 0;
    /** PMAPPROC_SET. */
    public static final int PMAPPROC_SET = 1;
    /** PMAPPROC_UNSET. */
    public static final int PMAPPROC_UNSET = 2;
    /** PMAPPROC_GETPORT. */
    public static final int PMAPPROC_GETPORT = 3;
    /** IPPROTO_TCP, the prot of a TCP mapping. */
    public static final int IPPROTO_TCP = 6;
    /** IPPROTO_UDP, the prot of a UDP mapping. */
    public static final int IPPROTO_UDP = 17;

    /** Largest GETPORT reply: accepted header and the port. */
    public static final int GETPORT_REPLY = RpcMessage.ACCEPTED_REPLY_HEADER + 4;

    private Rpcbind()
    {
    }

    /**
     * PMAPPROC_GETPORT on a connected client.
     *
     * @param client connected to the port mapper
     * @param program the program asked about
     * @param version its version
     * @param protocol {@link #IPPROTO_TCP} or {@link #IPPROTO_UDP}
     * @return the port, 0 when the program is not registered
     * @throws RpcException when the call fails
     */
    public static int getPort(final RpcClient client, final int program, final int version, final int protocol)
        throws RpcException
    {
        final String operation = "PMAP GETPORT";
        final RpcCall call = new RpcCall();
        final int rc = client.prepare(call, PMAP_PROGRAM, PMAP_VERSION, PMAPPROC_GETPORT);
        if (rc < 0)
        {
            throw RpcException.failed(operation, -rc);
        }
        try
        {
            call.args().putInt(program).putInt(version).putInt(protocol).putInt(0);
            call.replyLimit(GETPORT_REPLY);
            client.execute(call);
            RpcException.check(call, operation);
            final XdrDecoder results = call.results();
            final long port = results.getUnsignedInt();
            if (port > 0xFFFF)
            {
                throw RpcException.malformed(operation, "port " + port);
            }
            return (int)port;
        }
        catch (final XdrException ex)
        {
            throw RpcException.malformed(operation, ex.getMessage());
        }
        finally
        {
            client.release(call);
        }
    }

    /**
     * Ask a host's port mapper, over TCP, which TCP port serves a program.
     *
     * @param host the server
     * @param pmapPort the port mapper's port ({@link #PMAP_PORT} but in tests)
     * @param program the program
     * @param version its version
     * @param options connection settings
     * @return the port
     * @throws IOException when the port mapper cannot be reached or the program is not registered
     */
    public static int getTcpPort(
        final InetAddress host, final int pmapPort, final int program, final int version, final RpcTcpOptions options)
        throws IOException
    {
        final int port;
        try (RpcTcpClient client = RpcTcpClient.connect(new InetSocketAddress(host, pmapPort), RpcAuth.none(), options))
        {
            port = getPort(client, program, version, IPPROTO_TCP);
        }
        if (0 == port)
        {
            throw new IOException("program " + program + " version " + version + " is not registered for TCP with " +
                "the port mapper on " + host.getHostAddress() + ":" + pmapPort);
        }
        return port;
    }
}
