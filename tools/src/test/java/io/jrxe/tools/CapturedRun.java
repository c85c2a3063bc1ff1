package io.jrxe.tools;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs the CLI through {@link Jrxe#execute} with stdout and stderr captured (the commands print to System.out).
 */
final class CapturedRun
{
    final int exitCode;
    final String out;
    final String err;

    private CapturedRun(final int exitCode, final String out, final String err)
    {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    static synchronized CapturedRun of(final String... args)
    {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            System.setOut(o);
            System.setErr(e);
            final int code = Jrxe.execute(args);
            return new CapturedRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Override
    public String toString()
    {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
