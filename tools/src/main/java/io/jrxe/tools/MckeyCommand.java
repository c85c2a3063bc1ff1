package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmEventFailure;
import io.jrxe.ulp.cmapps.Mckey;
import io.jrxe.ulp.cmapps.MckeyResult;
import io.jrxe.ulp.cmapps.MckeySettings;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * {@code jrxe mckey}: rdma-core's {@code mckey} on a VFIO-bound NIC through jrxe's rdma_cm, wire-compatible with
 * the C tool both ways ({@link Mckey}): a UD id joins multicast group {@code -m} and sends ({@code -s}) or receives
 * {@code -C} messages of {@code -S} bytes.
 * <pre>
 *   peer$ mckey -m 239.1.2.3                                   (receives 10 messages)
 *   jrxe$ jrxe mckey --pci 0000:00:03.0 --ip 10.9.0.2/24 -m 239.1.2.3 -s
 * </pre>
 * Both sides print the C tool's progress lines and {@code JRXE-MCKEY role=sender group=::ffff:239.1.2.3
 * messages=10 size=100 completed=10 failed=0 status=ok}. Exit status 0 when every message went or came.
 * {@code -M} (an AF_IB address) and {@code -p} other than 0x111 (UDP) have no meaning on RoCE and are refused.
 */
@Command(name = "mckey", mixinStandardHelpOptions = true, sortOptions = false,
    description = "mckey (librdmacm) over jrxe's VFIO NIC: join a UD multicast group through rdma_cm and send " +
        "(-s) or receive messages.")
final class MckeyCommand implements Callable<Integer>
{
    @Mixin
    CmAppRunner node = new CmAppRunner();

    @Option(names = "-m", paramLabel = "mcast_addr", description = "multicast address (IPv4 or IPv6) to join")
    String group;

    @Option(names = "-M", paramLabel = "unmapped_addr", description = "an unmapped (AF_IB) multicast address: " +
        "InfiniBand only, refused on RoCE")
    String unmapped;

    @Option(names = "-b", paramLabel = "bind_addr", description = "local address to bind")
    String bind;

    @Option(names = "-s", description = "send the messages (default: receive them)")
    boolean sender;

    @Option(names = "-C", paramLabel = "message_count", description = "messages (default: ${DEFAULT-VALUE})")
    int count = MckeySettings.DEFAULT_COUNT;

    @Option(names = "-S", paramLabel = "message_size", description = "bytes per message (default: ${DEFAULT-VALUE})")
    int size = MckeySettings.DEFAULT_SIZE;

    @Option(names = "-p", paramLabel = "port_space", description = "port space number: 0x111 (UDP, the default) is " +
        "the one RoCE has; 0x2 (IPoIB) is refused")
    String portSpace;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "seconds each step may take (default: " +
        "${DEFAULT-VALUE}; the C tool waits forever)")
    int timeoutSeconds = 60;

    @Override
    public Integer call()
    {
        settings(System.out); // option errors before the NIC is opened
        return node.run(cm -> run(cm, System.out));
    }

    /** The whole run on an open connection manager (tests run it on emulated NICs). */
    int run(final RdmaCm cm, final PrintStream out)
    {
        final MckeyResult r;
        try
        {
            r = new Mckey(cm, settings(out)).run();
        }
        catch (final CmEventFailure e)
        {
            CmAppRunner.printEvent(out, e);
            return 1;
        }
        out.println("JRXE-MCKEY role=" + r.role() + " group=" + r.group() + " messages=" + r.messages() + " size=" +
            r.size() + " completed=" + r.completed() + " failed=" + r.failed() + " status=" +
            (r.ok() ? "ok" : "FAILED"));
        out.flush();
        return r.ok() ? 0 : 1;
    }

    MckeySettings settings(final PrintStream out)
    {
        if (null != unmapped)
        {
            throw new IllegalArgumentException("-M " + unmapped + ": unmapped (AF_IB) multicast addresses need an " +
                "InfiniBand port; on RoCE use -m with an IP multicast address");
        }
        if (null != portSpace && PortSpace.UDP.value() != CmToolOptions.number(portSpace, "-p"))
        {
            throw new IllegalArgumentException("-p: jrxe's mckey runs on the UDP port space only (0x111), got " +
                portSpace);
        }
        if (null == group)
        {
            throw new IllegalArgumentException("mckey: a multicast address is required (-m)");
        }
        CmAppRunner.checkTimeout(timeoutSeconds);
        return new MckeySettings().group(CmAppRunner.address(group, "-m")).bind(CmAppRunner.address(bind, "-b"))
            .sender(sender).count(count).size(size).timeoutMs(timeoutSeconds * 1000L)
            .log(line ->
            {
                out.println(line);
                out.flush();
            })
            .check();
    }
}
