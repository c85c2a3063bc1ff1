package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmEventFailure;
import io.jrxe.ulp.cmapps.CmTestResult;
import io.jrxe.ulp.cmapps.CmTestSettings;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The options {@code jrxe ucmatose} and {@code jrxe udaddy} share, spelled as the C tools spell them
 * ({@code -s server_address}, {@code -b bind_address}, {@code -c}, {@code -C}, {@code -S}, {@code -t}), plus
 * {@code --timeout} and {@code --verify}; and how both commands print the outcome.
 */
final class CmToolOptions
{
    @Option(names = "-s", paramLabel = "server_address", description = "connect to this server (default: be the " +
        "server)")
    String server;

    @Option(names = "-b", paramLabel = "bind_address", description = "local address to bind (server) or resolve " +
        "from (client)")
    String bind;

    @Option(names = "-c", paramLabel = "connections", description = "connections (default: ${DEFAULT-VALUE})")
    int connections = 1;

    @Option(names = "-C", paramLabel = "message_count", description = "messages each way per connection " +
        "(default: ${DEFAULT-VALUE})")
    int messageCount = 10;

    @Option(names = "-S", paramLabel = "message_size", description = "bytes per message (default: ${DEFAULT-VALUE})")
    int messageSize = 100;

    @Option(names = "-t", paramLabel = "type_of_service", description = "IP type of service of the connections")
    String tos;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "seconds the whole test may take " +
        "(default: ${DEFAULT-VALUE})")
    int timeoutSeconds = 60;

    @Option(names = "--verify", description = "fill messages with a pattern and check it on receipt (both sides " +
        "jrxe: the C tools send whatever their buffer holds)")
    boolean verify;

    /**
     * @param s the tool's defaults
     * @param out where the progress lines go
     * @return the settings with these options applied
     * @throws IllegalArgumentException for an option out of range or an address that does not resolve
     */
    CmTestSettings apply(final CmTestSettings s, final PrintStream out)
    {
        CmAppRunner.checkTimeout(timeoutSeconds);
        return s.serverAddress(CmAppRunner.address(server, "-s")).bindAddress(CmAppRunner.address(bind, "-b"))
            .connections(connections).messageCount(messageCount).messageSize(messageSize)
            .tos(null == tos ? -1 : number(tos, "-t")).verify(verify).timeout(timeoutSeconds, TimeUnit.SECONDS)
            .log(out::println);
    }

    /**
     * Runs one tool and prints its final line, or the error event that ended it.
     *
     * @param tag the final line's tag, e.g. JRXE-UCMATOSE
     * @param run the tool's run
     * @param details what follows {@code status=}, from the result
     * @return the exit status: 0 when every message arrived intact
     */
    static int report(final PrintStream out, final String tag, final Supplier<CmTestResult> run,
        final Function<CmTestResult, String> details)
    {
        final CmTestResult r;
        try
        {
            r = run.get();
        }
        catch (final CmEventFailure e)
        {
            CmAppRunner.printEvent(out, e);
            return 1;
        }
        out.println(tag + " role=" + r.role() + " connections=" + r.connections() + " messages=" + r.messages() +
            " size=" + r.size() + " status=" + (r.ok() ? "ok" : "FAILED") + details.apply(r) +
            (r.ok() ? "" : " sent=" + r.sent() + " received=" + r.received() + " bad_messages=" + r.bad()));
        out.flush();
        return r.ok() ? 0 : 1;
    }

    static String seconds(final double value)
    {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    static int number(final String text, final String option)
    {
        try
        {
            return Integer.decode(text.trim());
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(option + " wants a number (decimal or 0x hex), got " + text);
        }
    }
}
