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
        BindCommand.class,
        UnbindCommand.class,
        StatCommand.class,
        DevinfoCommand.class,
        NicCommand.class,
        DemoCommand.class,
        BenchCommand.class,
        PerfCommand.class,
        PingpongCommand.class,
        UcmatoseCommand.class,
        UdaddyCommand.class,
        MckeyCommand.class,
        RpingCommand.class,
        RdmaServerCommand.class,
        RdmaClientCommand.class,
        NfsCommand.class,
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
        final CommandLine cli = new CommandLine(new Jrxe());
        cli.setExecutionExceptionHandler(Jrxe::report);
        // jrxe nfs's commands take options of their own (bench ... --size B --runs N): words after the target
        // that are not nfs's options belong to the commands
        cli.getSubcommands().get("nfs").setUnmatchedOptionsArePositionalParams(true);
        return cli.execute(args);
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }

    /**
     * Setup errors (bad device, VFIO not ready, wrong arguments) carry a message that says what to fix: print it
     * alone. Anything else is a bug: print the stack trace.
     */
    private static int report(final Exception ex, final CommandLine cli, final CommandLine.ParseResult parsed)
    {
        if (ex instanceof IllegalStateException || ex instanceof IllegalArgumentException ||
            ex instanceof java.io.UncheckedIOException)
        {
            cli.getErr().println("jrxe " + cli.getCommandName() + ": " + ex.getMessage());
        }
        else
        {
            ex.printStackTrace(cli.getErr());
        }
        return 1;
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
