package io.jrxe.rxe.stats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counters file across processes: a child JVM writes and this one reads, and the other way round with the
 * {@link RxeStat} command line in the child.
 */
@Timeout(120)
class CountersFileProcessTest
{
    @TempDir
    Path dir;

    private static ProcessBuilder javaProcess(final Class<?> main, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx64m");
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    }

    @Test
    void shouldReadCountersThatAnotherProcessWrites() throws Exception
    {
        final Process child = javaProcess(CountersChild.class, dir.toString(), "jrxeP").start();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8))
        {
            assertEquals("READY", out.readLine());
            try (CountersFileReader reader = CountersFileReader.map(dir.resolve("jrxeP.counters")))
            {
                assertEquals(child.pid(), reader.pid());
                assertEquals("jrxeP", reader.deviceName());
                assertTrue(reader.isWriterAlive());
                assertEquals(41, reader.deviceValue(RxeCounter.SENT_PKTS));
                final int slot = reader.findQp(0x123);
                assertEquals(0, slot);
                assertEquals(7, reader.qpValue(slot, RxeCounter.RCVD_PKTS.id()));
                assertEquals(7, reader.deviceValue(RxeCounter.RCVD_PKTS));

                command(in, "inc");
                assertEquals("OK", out.readLine());
                assertEquals(42, reader.deviceValue(RxeCounter.SENT_PKTS));
                assertEquals(8, reader.qpValue(slot, RxeCounter.RCVD_PKTS.id()));

                command(in, "exit");
                assertTrue(child.waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, child.exitValue());
                assertFalse(reader.isActive(), "the child closed the file");
                assertEquals(42, reader.deviceValue(RxeCounter.SENT_PKTS), "values outlive the writer");
            }
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    @Test
    void shouldPrintCountersOfThisProcessFromAChildRxeStat() throws Exception
    {
        try (CountersFile file = CountersFile.create(
            new CountersFile.Context().deviceName("jrxeQ").directory(dir).qpSlots(8)))
        {
            file.deviceSet(0).add(RxeCounter.ICRC_ERR, 3);
            file.allocateQp(291, 0, file.deviceSet(0)).add(RxeCounter.SENT_BYTES, 4096);

            final Process child = javaProcess(RxeStat.class, "--dir", dir.toString(), "--qp", "jrxeQ").start();
            final List<String> lines = readAll(child);
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue(), String.join("\n", lines));
            assertTrue(lines.get(0).startsWith("jrxeQ pid " + ProcessHandle.current().pid() + " running"),
                lines.get(0));
            assertTrue(lines.contains("icrc_err 3"), lines.toString());
            assertTrue(lines.contains("sent_bytes 4096"), lines.toString());
            assertTrue(lines.contains("qp 291 rc"), lines.toString());
            assertTrue(lines.contains("  sent_bytes 4096"), lines.toString());
            assertFalse(lines.contains("sent_pkts 0"), "zero counters are hidden without --all");
        }
    }

    private static void command(final Writer in, final String line) throws IOException
    {
        in.write(line + "\n");
        in.flush();
    }

    private static List<String> readAll(final Process process) throws IOException
    {
        try (BufferedReader reader = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
        {
            return reader.lines().collect(Collectors.toList());
        }
    }
}
