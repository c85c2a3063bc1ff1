package io.jrxe.tools;

import io.jrxe.vfio.FakeSysfsTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BindCommandTest
{
    private static final String NIC = "0000:00:03.0";

    @TempDir
    Path tmp;

    private FakeSysfsTree sysfsWithVirtioNic()
    {
        return new FakeSysfsTree(tmp.resolve("sys")).driver("virtio-pci").driver("vfio-pci")
            .device(NIC, "virtio-pci", 3);
    }

    private static int run(final Object command, final String... args)
    {
        return new CommandLine(command).execute(args);
    }

    @Test
    void shouldBindToVfioAndGiveTheDeviceBackToItsOriginalDriver()
    {
        final FakeSysfsTree tree = sysfsWithVirtioNic();
        final BindCommand bind = new BindCommand();
        final Path state = tmp.resolve("state");

        final int bound = bindWith(tree, bind, state);
        assertEquals(0, bound);
        assertEquals("vfio-pci", tree.sysfs().driver(NIC));
        assertTrue(Files.exists(state.resolve(NIC + ".driver")));

        final int restored = unbindWith(tree, state);
        assertEquals(0, restored);
        assertEquals("virtio-pci", tree.sysfs().driver(NIC));
        assertFalse(Files.exists(state.resolve(NIC + ".driver")), "the record is removed after unbind");
    }

    @Test
    void shouldKeepTheFirstRecordWhenBoundTwice()
    {
        final FakeSysfsTree tree = sysfsWithVirtioNic();
        final Path state = tmp.resolve("state");
        assertEquals(0, bindWith(tree, new BindCommand(), state));
        assertEquals(0, bindWith(tree, new BindCommand(), state));
        assertEquals("virtio-pci", new BindingStore(state).originalDriver(NIC));
    }

    @Test
    void shouldFailWithAMessageForAnUnknownDevice()
    {
        final FakeSysfsTree tree = sysfsWithVirtioNic();
        final BindCommand bind = new BindCommand();
        bind.binding.sysfsRoot = tree.root();
        final CommandLine cli = new CommandLine(bind);
        final java.io.StringWriter err = new java.io.StringWriter();
        cli.setErr(new java.io.PrintWriter(err));
        cli.setExecutionExceptionHandler((ex, c, p) ->
        {
            c.getErr().println(ex.getMessage());
            return 1;
        });
        assertEquals(1, cli.execute("--state-dir", tmp.resolve("s").toString(), "0000:00:09.0"));
        assertTrue(err.toString().contains("lspci"), err.toString());
    }

    /** Runs bind with the fake tree's writer, which imitates the kernel moving the driver link. */
    private static int bindWith(final FakeSysfsTree tree, final BindCommand bind, final Path state)
    {
        bind.binding.sysfs = tree.sysfs();
        return run(bind, "--state-dir", state.toString(), NIC);
    }

    private static int unbindWith(final FakeSysfsTree tree, final Path state)
    {
        final UnbindCommand unbind = new UnbindCommand();
        unbind.binding.sysfs = tree.sysfs();
        return run(unbind, "--state-dir", state.toString(), NIC);
    }
}
