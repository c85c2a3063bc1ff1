package io.jrxe.tools;

import io.jrxe.ulp.nfsmount.NfsError;
import io.jrxe.ulp.nfsmount.NfsMount;
import io.jrxe.ulp.nfsmount.NfsMountOptions;
import io.jrxe.ulp.nfsmount.NfsMounts;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rpcrdma.RpcRdmaTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrxe nfs}: an NFS client on a VFIO-bound NIC, NFSv3 or NFSv4.1 over RPC-over-RDMA, against any NFS server
 * with an RDMA listener (knfsd: {@code echo 'rdma 20049' > /proc/fs/nfsd/portlist}). Several commands run in one
 * mount, separated by a lone {@code ;}:
 * <pre>
 *   jrxe nfs --pci 0000:00:03.0 --ip 10.9.0.2/24 --vers 3 10.9.0.1:/srv/nfs ls ';' get big.bin /tmp/big.bin
 * </pre>
 * Lines for scripts ({@link NfsScript} runs the commands):
 * <pre>
 *   JRXE-NFS READY vers=3 server=10.9.0.1 port=20049 rsize=B wsize=B inline_send=B inline_recv=B credits=N
 *   JRXE-NFS ls dir=DIR entries=N            (after one "TYPE SIZE NAME" line per entry)
 *   JRXE-NFS get path=P bytes=N secs=S MBps=X md5=HEX      JRXE-NFS put ...      JRXE-NFS create path=P
 *   JRXE-NFS rm path=P                       JRXE-NFS bench op=read run=I bytes=N secs=S MBps=X, then median_MBps
 *   JRXE-NFS ERROR op=OP status=NFS3ERR_NOENT message...   (exit status 1)
 *   JRXE-NFS backchannel calls=N cb_null=N cb_sequence=N   (4.1, at the end)
 *   JRXE-NFS rpcrdma COUNTERS                               (the transport's counters, at the end)
 * </pre>
 * MB/s are 10^6 bytes per second. A transfer that takes longer than a second prints a progress line on stderr
 * every second. The MOUNT protocol of NFSv3 runs over TCP through the host's own network stack (port mapper on
 * port 111), as mount.nfs does with proto=rdma.
 */
@Command(name = "nfs", sortOptions = false,
    description = "An NFS client (NFSv3 or NFSv4.1) over RPC-over-RDMA on jrxe's VFIO NIC: ls, get, put, " +
        "create, rm, bench; several commands separated by ';'.")
final class NfsCommand implements Callable<Integer>
{
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--vers", description = "NFS version: 3 or 4.1 (default: ${DEFAULT-VALUE})")
    String version = "3";

    @Option(names = "--rsize", description = "bytes per READ (default: the server's preference)")
    int rsize;

    @Option(names = "--wsize", description = "bytes per WRITE (default: the server's preference)")
    int wsize;

    @Option(names = "--nconnect", description = "RDMA connections (NFSv3; default: ${DEFAULT-VALUE})")
    int nconnect = 1;

    @Option(names = "--outstanding", description = "READs or WRITEs in flight per transfer " +
        "(default: ${DEFAULT-VALUE})")
    int outstanding = 4;

    @Option(names = "--port", description = "the server's NFS/RDMA port (default: ${DEFAULT-VALUE})")
    int port = 20049;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "an RPC's timeout and the connection's " +
        "(default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 60;

    @Mixin
    CmAppRunner node = new CmAppRunner();

    @Parameters(index = "0", paramLabel = "SERVER:/EXPORT", description = "the server and the export's path")
    String target;

    @Parameters(index = "1..*", paramLabel = "COMMAND", description = "ls [DIR] | get REMOTE LOCAL | " +
        "put LOCAL REMOTE | create REMOTE | rm REMOTE | bench read|write REMOTE --size B --runs N; ';' between")
    List<String> words = new ArrayList<>();

    @Override
    public Integer call()
    {
        final int colon = null == target ? -1 : target.indexOf(":/");
        if (colon <= 0)
        {
            throw new IllegalArgumentException("the target is SERVER:/EXPORT, e.g. 10.9.0.1:/srv/nfs, not " + target);
        }
        CmAppRunner.checkTimeout(timeoutSeconds);
        final List<List<String>> commands = NfsScript.split(words);
        final InetAddress server = CmAppRunner.address(target.substring(0, colon), "SERVER");
        final NfsMountOptions options = new NfsMountOptions().server(server, target.substring(colon + 1))
            .version(version).port(port).sizes(rsize, wsize).outstanding(outstanding).nconnect(nconnect)
            .timeout(TimeUnit.SECONDS.toNanos(timeoutSeconds), 2)
            .connectTimeoutNs(TimeUnit.SECONDS.toNanos(timeoutSeconds)).idle(node.idle::create);
        return node.run(cm -> run(cm, options, commands));
    }

    private static int run(final RdmaCm cm, final NfsMountOptions options, final List<List<String>> commands)
    {
        final PrintStream out = System.out;
        NfsMount mount = null;
        try
        {
            mount = NfsMounts.mount(cm, options);
            final RpcRdmaTransport t = mount.transport();
            out.println("JRXE-NFS READY vers=" + mount.version() + " server=" +
                options.server().getHostAddress() + " port=" + options.port() + " rsize=" + mount.rsize() +
                " wsize=" + mount.wsize() + " inline_send=" + t.inlineSend() + " inline_recv=" + t.inlineRecv() +
                " credits=" + t.credits());
            out.flush();
            final NfsScript script = new NfsScript(mount, out, System.err);
            for (final List<String> command : commands)
            {
                script.run(command);
            }
            return 0;
        }
        catch (final NfsError e)
        {
            out.println("JRXE-NFS ERROR op=" + e.operation() + " status=" + e.status() + " " + e.getMessage());
            return 1;
        }
        catch (final IOException | RuntimeException e)
        {
            out.println("JRXE-NFS ERROR op=" + (null == mount ? "MOUNT" : "IO") + " status=" +
                e.getClass().getSimpleName() + " " + e.getMessage());
            return 1;
        }
        finally
        {
            if (null != mount)
            {
                final String bc = mount.backchannel();
                if (!bc.isEmpty())
                {
                    out.println("JRXE-NFS backchannel " + bc);
                }
                out.println("JRXE-NFS rpcrdma " + mount.transport().counters().describe(true));
                try
                {
                    mount.close();
                }
                catch (final IOException e)
                {
                    out.println("JRXE-NFS WARNING unmount: " + e.getMessage());
                }
            }
            out.flush();
        }
    }

    static String mbps(final long bytes, final double secs)
    {
        return String.format(Locale.ROOT, "%.2f", secs > 0 ? bytes / secs / 1e6 : 0.0);
    }
}
