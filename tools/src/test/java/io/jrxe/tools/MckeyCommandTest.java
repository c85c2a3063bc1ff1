package io.jrxe.tools;

import io.jrxe.net.NetCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jrxe mckey} on both ends over two emulated nodes: a receiver on node A joins 239.1.2.3, a sender on node B
 * joins and sends, and the receiver gets every message.
 */
class MckeyCommandTest
{
    @TempDir
    Path countersDir;

    /** Counts down once the receiver prints the line the C tool prints when it starts waiting for messages. */
    private static PrintStream watching(final PrintStream out, final CountDownLatch receiving)
    {
        return new PrintStream(out, true)
        {
            @Override
            public void println(final String line)
            {
                super.println(line);
                if ("receiving data transfers".equals(line))
                {
                    receiving.countDown();
                }
            }
        };
    }

    @Test
    void aSenderReachesAReceiverOnTheOtherNode() throws Exception
    {
        try (EmulatedCms cms = new EmulatedCms(countersDir))
        {
            final CountDownLatch receiving = new CountDownLatch(1);
            final MckeyCommand receiver = new MckeyCommand();
            new CommandLine(receiver).parseArgs(ToolRun.withTimeout("-m", "239.1.2.3", "-C", "5", "-S", "200"));
            final ToolRun atA = ToolRun.start(cms.nodes, (out, err) -> receiver.run(cms.a, watching(out, receiving)));
            assertTrue(receiving.await(ToolRun.JOIN_SECONDS, TimeUnit.SECONDS), atA::toString);

            final MckeyCommand sender = new MckeyCommand();
            new CommandLine(sender).parseArgs(ToolRun.withTimeout("-m", "239.1.2.3", "-s", "-C", "5", "-S", "200"));
            final ToolRun atB = ToolRun.start(cms.nodes, (out, err) -> sender.run(cms.b, out));
            assertEquals(0, atB.status(), atB.toString());
            assertEquals(0, atA.status(), atA.toString());
            assertEquals("JRXE-MCKEY role=receiver group=::ffff:239.1.2.3 messages=5 size=200 completed=5 " +
                "failed=0 status=ok", atA.lastLine());
            assertEquals("JRXE-MCKEY role=sender group=::ffff:239.1.2.3 messages=5 size=200 completed=5 " +
                "failed=0 status=ok", atB.lastLine());
            assertTrue(atA.output().startsWith("mckey: starting server\nmckey: joining\n" +
                "mckey: joined dgid: ::ffff:239.1.2.3 mlid 0x0 sl 0\nreceiving data transfers\n" +
                "data transfers complete\ntest complete\n"), atA.output());
            assertTrue(atB.output().contains("initiating data transfers\ndata transfers complete\n"), atB.output());
            // both joined and left: IGMPv2 reports and leaves went out from each node
            assertEquals(1, cms.nodes.a.stack().counter(NetCounter.IGMP_LEAVES_SENT));
            assertEquals(1, cms.nodes.b.stack().counter(NetCounter.IGMP_LEAVES_SENT));
            assertEquals(0, cms.a.idCount(), "every id destroyed");
        }
    }

    @Test
    void optionsWithoutMeaningOnRoceAreRefusedBeforeTheNicIsOpened()
    {
        final CapturedRun unmapped = CapturedRun.of("mckey", "-M", "ff12::1");
        assertEquals(1, unmapped.exitCode, unmapped.toString());
        assertTrue(unmapped.err.contains("need an InfiniBand port"), unmapped.toString());
        final CapturedRun ipoib = CapturedRun.of("mckey", "-m", "239.1.2.3", "-p", "0x2");
        assertEquals(1, ipoib.exitCode, ipoib.toString());
        assertTrue(ipoib.err.contains("UDP port space only"), ipoib.toString());
        final CapturedRun unicast = CapturedRun.of("mckey", "-m", "10.0.0.1");
        assertEquals(1, unicast.exitCode, unicast.toString());
        assertTrue(unicast.err.contains("is not a multicast address"), unicast.toString());
    }
}
