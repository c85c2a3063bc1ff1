package io.jrxe.tools;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code jrxe} command line: one runnable jar, one subcommand per tool.
 */
@Command(
    name = "jrxe",
    mixinStandardHelpOptions = true,
    versionProvider = Jrxe.Version.class,
    description = "Software RoCEv2 over a user-space (VFIO) NIC driver.",
    subcommands = {
        CommandLine.HelpCommand.class,
    })
public final class Jrxe implements Runnable
{
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(final String[] args)
    {
        System.exit(execute(args));
    }

    /** Runs the CLI and returns the exit code, for tests. */
    public static int execute(final String... args)
    {
        return new CommandLine(new Jrxe()).execute(args);
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String v = Jrxe.class.getPackage().getImplementationVersion();
            return new String[]{"jrxe " + (null == v ? "dev" : v)};
        }
    }
}
