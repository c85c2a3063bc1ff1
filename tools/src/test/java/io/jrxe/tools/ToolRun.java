package io.jrxe.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One side of a tool under test, on one of the {@link EmulatedNodes}' threads, with its stdout and stderr captured:
 * the tests' way to run both sides of a tool at once and then look at their exit statuses and lines.
 *
 * @param future the side's exit status, once it ends
 * @param out    its stdout
 * @param err    its stderr
 */
record ToolRun(Future<Integer> future, ByteArrayOutputStream out, ByteArrayOutputStream err)
{
    /** How long a test waits for one side to end: long enough for a slow, shared CI machine. */
    static final long JOIN_SECONDS = 120;

    /** A tool's entry point, given where to print. */
    @FunctionalInterface
    interface Body
    {
        int run(PrintStream out, PrintStream err) throws Exception;
    }

    /** Starts {@code body} on one of the nodes' threads. */
    static ToolRun start(final EmulatedNodes nodes, final Body body)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        final PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new ToolRun(nodes.submit(() -> body.run(o, e)), out, err);
    }

    /**
     * The tests' bound on the tools' waits, well inside {@link #JOIN_SECONDS}.
     *
     * @return {@code args} and {@code --timeout 60}
     */
    static String[] withTimeout(final String... args)
    {
        final String[] all = Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--timeout";
        all[args.length + 1] = "60";
        return all;
    }

    /** @return the exit status, waiting for the side to end */
    int status() throws Exception
    {
        return future.get(JOIN_SECONDS, TimeUnit.SECONDS);
    }

    String output()
    {
        return out.toString(StandardCharsets.UTF_8);
    }

    String errors()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** @return stdout's last line that is not blank */
    String lastLine()
    {
        final String[] lines = output().strip().split("\n");
        return lines[lines.length - 1];
    }

    @Override
    public String toString()
    {
        return "--- stdout\n" + output() + "--- stderr\n" + errors();
    }
}
