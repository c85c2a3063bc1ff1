package io.jrxe.ulp.nfsmount;

import io.jrxe.ulp.rpcrdma.RpcRdma;
import io.jrxe.ulp.sunrpc.RpcAuth;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.net.InetAddress;
import java.util.function.Supplier;

/**
 * What to mount and how, with the Linux client's defaults where it has them (proto=rdma, port=20049,
 * timeo=600, retrans=2).
 */
public final class NfsMountOptions
{
    private InetAddress server;
    private String export;
    private String version = "3";
    private int port = RpcRdma.NFS_RDMA_PORT;
    private int pmapPort = 111;
    private InetAddress mountHost;
    private int rsize;
    private int wsize;
    private int outstanding = 4;
    private int nconnect = 1;
    private RpcAuth auth = RpcAuth.sys(0, "jrxe", 0, 0);
    private long timeoutNs = 60_000_000_000L;
    private int retries = 2;
    private long connectTimeoutNs = 30_000_000_000L;
    private Supplier<IdleStrategy> idle = () -> new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);

    /**
     * @param server the NFS server
     * @param export the export's path on it ("/srv/nfs")
     * @return this
     */
    public NfsMountOptions server(final InetAddress server, final String export)
    {
        this.server = server;
        this.export = export;
        return this;
    }

    /** @return the server */
    public InetAddress server()
    {
        return server;
    }

    /** @return the export */
    public String export()
    {
        return export;
    }

    /**
     * @param version "3" or "4.1"
     * @return this
     */
    public NfsMountOptions version(final String version)
    {
        if (!"3".equals(version) && !"4.1".equals(version))
        {
            throw new IllegalArgumentException("NFS version 3 or 4.1, not " + version);
        }
        this.version = version;
        return this;
    }

    /** @return "3" or "4.1" */
    public String version()
    {
        return version;
    }

    /**
     * @param port NFS's RDMA port (20049, the IANA nfsrdma port)
     * @return this
     */
    public NfsMountOptions port(final int port)
    {
        this.port = port;
        return this;
    }

    /** @return NFS's RDMA port */
    public int port()
    {
        return port;
    }

    /**
     * @param port the port mapper's TCP port, for MOUNT (v3)
     * @return this
     */
    public NfsMountOptions pmapPort(final int port)
    {
        this.pmapPort = port;
        return this;
    }

    /** @return the port mapper's port */
    public int pmapPort()
    {
        return pmapPort;
    }

    /**
     * Where MOUNT (v3) is asked, when not the NFS server's address (a server with another address on the network
     * the host's own stack reaches, or a test).
     *
     * @param host the port mapper's and mountd's host
     * @param pmapPort the port mapper's TCP port
     * @return this
     */
    public NfsMountOptions mountVia(final InetAddress host, final int pmapPort)
    {
        this.mountHost = host;
        this.pmapPort = pmapPort;
        return this;
    }

    /** @return where MOUNT is asked: {@link #mountVia}'s host, or the server */
    public InetAddress mountHost()
    {
        return null == mountHost ? server : mountHost;
    }

    /**
     * @param rsize bytes per READ (0: the server's preference)
     * @param wsize bytes per WRITE (0: the server's preference)
     * @return this
     */
    public NfsMountOptions sizes(final int rsize, final int wsize)
    {
        this.rsize = rsize;
        this.wsize = wsize;
        return this;
    }

    /** @return bytes per READ asked for (0: the server's preference) */
    public int rsize()
    {
        return rsize;
    }

    /** @return bytes per WRITE asked for (0: the server's preference) */
    public int wsize()
    {
        return wsize;
    }

    /**
     * @param calls READs or WRITEs in flight in a transfer
     * @return this
     */
    public NfsMountOptions outstanding(final int calls)
    {
        this.outstanding = calls;
        return this;
    }

    /** @return READs or WRITEs in flight */
    public int outstanding()
    {
        return outstanding;
    }

    /**
     * @param connections RDMA connections to the server (v3 only; Linux's nconnect)
     * @return this
     */
    public NfsMountOptions nconnect(final int connections)
    {
        if (connections < 1 || connections > 16)
        {
            throw new IllegalArgumentException("nconnect must be 1..16 (as Linux's), not " + connections);
        }
        this.nconnect = connections;
        return this;
    }

    /** @return RDMA connections */
    public int nconnect()
    {
        return nconnect;
    }

    /**
     * @param auth the credential of every call
     * @return this
     */
    public NfsMountOptions auth(final RpcAuth auth)
    {
        this.auth = auth;
        return this;
    }

    /** @return the credential */
    public RpcAuth auth()
    {
        return auth;
    }

    /**
     * @param timeoutNs an RPC's timeout (timeo)
     * @param retries timeouts before a call fails (retrans)
     * @return this
     */
    public NfsMountOptions timeout(final long timeoutNs, final int retries)
    {
        this.timeoutNs = timeoutNs;
        this.retries = retries;
        return this;
    }

    /** @return an RPC's timeout */
    public long timeoutNs()
    {
        return timeoutNs;
    }

    /** @return timeouts before a call fails */
    public int retries()
    {
        return retries;
    }

    /**
     * @param ns how long the first connection may take
     * @return this
     */
    public NfsMountOptions connectTimeoutNs(final long ns)
    {
        this.connectTimeoutNs = ns;
        return this;
    }

    /** @return how long the first connection may take */
    public long connectTimeoutNs()
    {
        return connectTimeoutNs;
    }

    /**
     * @param idle a new idle strategy for each waiting client (what it does while no reply has come)
     * @return this
     */
    public NfsMountOptions idle(final Supplier<IdleStrategy> idle)
    {
        this.idle = idle;
        return this;
    }

    /** @return a new idle strategy */
    public IdleStrategy newIdle()
    {
        return idle.get();
    }
}
