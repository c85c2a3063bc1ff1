package io.jrxe.rxe.stats;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;

/**
 * Child JVM for {@link CountersFileProcessTest}: writes a counters file and bumps it on command from stdin.
 * <pre>
 *   args: dir device      stdout: READY, then OK per "inc" line; "exit" closes the file and ends
 * </pre>
 */
public final class CountersChild
{
    private CountersChild()
    {
    }

    /**
     * @param args directory and device name
     * @throws Exception on I/O failure
     */
    public static void main(final String[] args) throws Exception
    {
        final CountersFile file = CountersFile.create(
            new CountersFile.Context().deviceName(args[1]).directory(Paths.get(args[0])).qpSlots(8));
        final CounterSet device = file.deviceSet(0);
        device.add(RxeCounter.SENT_PKTS, 41);
        final CounterSet qp = file.allocateQp(0x123, 0, device);
        qp.add(RxeCounter.RCVD_PKTS, 7);
        System.out.println("READY");
        System.out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while (null != (line = in.readLine()))
        {
            if ("inc".equals(line))
            {
                device.increment(RxeCounter.SENT_PKTS);
                qp.increment(RxeCounter.RCVD_PKTS);
                System.out.println("OK");
                System.out.flush();
            }
            else if ("exit".equals(line))
            {
                break;
            }
        }
        file.close();
    }
}
