package io.jrxe.rxe.stats;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RxeStatTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private List<String> lines()
    {
        return Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    void shouldPrintNonZeroCountersAndQps()
    {
        try (CountersFile file = CountersFile.create(new CountersFile.Context().deviceName("s0").directory(dir)
            .epochClock(() -> 1_000L)))
        {
            file.deviceSet(0).add(RxeCounter.RCVD_PKTS, 12);
            file.allocateQp(40, 3, file.deviceSet(0)).increment(RxeCounter.BAD_QKEY);
            file.allocateQp(41, 5, file.deviceSet(0)).increment(RxeCounter.XRC_BAD_SRQN); // Opcode.QP_XRC
            new RxeStat(out, () -> 3_726_000L).perQp(true).print(new CountersFileReader(file.buffer()));
        }
        final List<String> lines = lines();
        assertEquals("s0 pid " + ProcessHandle.current().pid() + " running, up 1:02:05", lines.get(0));
        assertTrue(lines.contains("rcvd_pkts 12"), lines.toString());
        assertTrue(lines.contains("bad_qkey 1"));
        assertTrue(lines.contains("qp 40 ud"));
        assertTrue(lines.contains("  bad_qkey 1"));
        assertTrue(lines.contains("qp 41 xrc"), lines.toString());
        assertTrue(lines.contains("  xrc_bad_srqn 1"), lines.toString());
        assertFalse(lines.contains("sent_pkts 0"));
    }

    @Test
    void shouldPrintDeltasAndRates()
    {
        try (CountersFile file = CountersFile.create(new CountersFile.Context().deviceName("s1").directory(dir)))
        {
            final CountersFileReader reader = new CountersFileReader(file.buffer());
            final long[] before = new long[reader.counterCount()];
            reader.deviceValues(before);
            file.deviceSet(0).add(RxeCounter.SENT_BYTES, 2_000_000);
            file.deviceSet(0).add(RxeCounter.SENT_PKTS, 500);
            final long[] after = new long[reader.counterCount()];
            reader.deviceValues(after);
            new RxeStat(out, () -> 0L).printDeltas(reader, before, after, 500);
        }
        final List<String> lines = lines();
        assertTrue(lines.contains("sent_pkts 500 +500 1000/s"), lines.toString());
        assertTrue(lines.contains("sent_bytes 2000000 +2000000 4000000/s"), lines.toString());
        assertEquals(3, lines.size(), "header plus the two non-zero counters");
    }

    @Test
    void shouldWatchForTheRequestedIntervals() throws Exception
    {
        try (CountersFile file = CountersFile.create(new CountersFile.Context().deviceName("s2").directory(dir)))
        {
            file.deviceSet(0).add(RxeCounter.ACKS_RCVD, 9);
            new RxeStat(out, System::currentTimeMillis).watch(List.of(file.path()), 1, 2);
        }
        final long blocks = lines().stream().filter(l -> l.startsWith("acks_rcvd 9 +0 ")).count();
        assertEquals(2, blocks);
    }

    @Test
    void shouldListFilesAndReportUsageErrors() throws Exception
    {
        try (CountersFile a = CountersFile.create(new CountersFile.Context().deviceName("b").directory(dir));
            CountersFile b = CountersFile.create(new CountersFile.Context().deviceName("a").directory(dir)))
        {
            Files.write(dir.resolve("other.txt"), new byte[1]);
            assertEquals(List.of(b.path(), a.path()), RxeStat.listCounterFiles(List.of(dir, dir.resolve("none"))));

            final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
            final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
            assertEquals(2, RxeStat.run(new String[]{"--bogus"}, out, err));
            assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("unknown option --bogus"));
            assertEquals(1, RxeStat.run(new String[]{"--dir", dir.toString(), "nosuch"}, out, err));
            assertEquals(0, RxeStat.run(new String[]{"--dir", dir.toString(), "--all", "a"}, out, err));
            assertTrue(lines().contains("sent_pkts 0"));
            assertFalse(bytes.toString(StandardCharsets.UTF_8).contains("b pid"));
        }
    }
}
