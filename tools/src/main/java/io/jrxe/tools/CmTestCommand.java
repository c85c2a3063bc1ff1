package io.jrxe.tools;

import io.jrxe.ulp.cmapps.CmTestSettings;
import io.jrxe.ulp.rdmacm.RdmaCm;
import picocli.CommandLine.Mixin;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * What {@code jrxe ucmatose} and {@code jrxe udaddy} share: the node they run on, the C tools' common options, and
 * the run's frame: the options are turned into settings before the NIC is opened (so their errors come first), and a
 * server prints {@code JRXE-CM-LISTEN} once it listens. Each command keeps its own port options and its test.
 */
abstract class CmTestCommand implements Callable<Integer>
{
    @Mixin
    CmAppRunner node = new CmAppRunner();

    @Mixin
    CmToolOptions options = new CmToolOptions();

    private final String tool;

    /**
     * @param tool the command's name, in the JRXE-CM-LISTEN line
     */
    CmTestCommand(final String tool)
    {
        this.tool = tool;
    }

    @Override
    public Integer call()
    {
        settings(System.out); // option errors before the NIC is opened
        return node.run(cm -> run(cm, System.out, () -> { }));
    }

    /**
     * The whole test on an open connection manager, separate from {@link #call()} so tests can run it on emulated
     * NICs.
     *
     * @param listening called once a server listens (after it printed {@code JRXE-CM-LISTEN})
     * @return the exit status
     */
    final int run(final RdmaCm cm, final PrintStream out, final Runnable listening)
    {
        final CmTestSettings s = settings(out);
        s.listening(CmAppRunner.announce(out, tool, s.portSpace(), s.port(), listening));
        return test(cm, s, out);
    }

    /**
     * @param out where the tool's progress lines go
     * @return the tool's defaults with every option applied, checked
     * @throws IllegalArgumentException for an option out of range
     */
    abstract CmTestSettings settings(PrintStream out);

    /**
     * Run the tool and print its outcome.
     *
     * @return the exit status
     */
    abstract int test(RdmaCm cm, CmTestSettings s, PrintStream out);
}
