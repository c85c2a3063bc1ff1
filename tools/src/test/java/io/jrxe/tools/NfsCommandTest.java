package io.jrxe.tools;

import io.jrxe.ulp.nfsmount.NfsEntry;
import io.jrxe.ulp.nfsmount.NfsError;
import io.jrxe.ulp.nfsmount.NfsMount;
import io.jrxe.ulp.nfsmount.NfsProgress;
import io.jrxe.ulp.rpcrdma.RpcRdmaTransport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jrxe nfs}'s commands and lines ({@link NfsScript}) on a mount kept in memory, and the command line's
 * checks; the mount over RDMA itself is tested in ulp (NfsMountsTest) and against knfsd in the QEMU suite.
 */
class NfsCommandTest
{
    /** A mount of files in a map. */
    static final class MapMount implements NfsMount
    {
        final Map<String, byte[]> files = new TreeMap<>();
        boolean recalled;

        @Override
        public String version()
        {
            return "4.1";
        }

        @Override
        public int rsize()
        {
            return 4096;
        }

        @Override
        public int wsize()
        {
            return 4096;
        }

        @Override
        public RpcRdmaTransport transport()
        {
            return null;
        }

        @Override
        public List<NfsEntry> list(final String dir)
        {
            final List<NfsEntry> out = new ArrayList<>();
            files.forEach((name, bytes) -> out.add(new NfsEntry(name, 'f', bytes.length)));
            return out;
        }

        private byte[] file(final String path) throws NfsError
        {
            final byte[] b = files.get(path);
            if (null == b)
            {
                throw new NfsError("LOOKUP", "NFS4ERR_NOENT", path + ": no such file", null);
            }
            return b;
        }

        @Override
        public long read(final String path, final OutputStream out, final NfsProgress progress) throws IOException
        {
            final byte[] b = file(path);
            out.write(b);
            progress.progress(b.length, b.length);
            return b.length;
        }

        @Override
        public long write(final String path, final FileChannel in, final NfsProgress progress) throws IOException
        {
            final ByteBuffer buf = ByteBuffer.allocate((int)in.size());
            int n = 0;
            while (buf.hasRemaining() && n >= 0)
            {
                n = in.read(buf);
            }
            files.put(path, buf.array());
            return buf.capacity();
        }

        @Override
        public void create(final String path)
        {
            files.putIfAbsent(path, new byte[0]);
        }

        @Override
        public void remove(final String path) throws NfsError
        {
            file(path);
            files.remove(path);
        }

        @Override
        public String holdDelegation(final String path) throws NfsError
        {
            file(path);
            return "READ";
        }

        @Override
        public boolean awaitRecall(final long timeoutNs)
        {
            recalled = true;
            return true;
        }

        @Override
        public String backchannel()
        {
            return "calls=1";
        }

        @Override
        public void close()
        {
        }
    }

    private final MapMount mount = new MapMount();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final NfsScript script = new NfsScript(mount, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    private List<String> lines()
    {
        return Arrays.asList(out.toString(StandardCharsets.UTF_8).split("\n"));
    }

    private String line(final String prefix)
    {
        return lines().stream().filter(l -> l.startsWith(prefix)).findFirst().orElse("none: " + prefix);
    }

    private static String md5(final byte[] b) throws Exception
    {
        return NfsScript.hex(MessageDigest.getInstance("MD5").digest(b));
    }

    @Test
    void shouldSplitCommandsAtLoneSemicolonsAndRefuseBadOnes()
    {
        assertEquals(List.of(List.of("ls"), List.of("get", "a", "b"), List.of("rm", "a")),
            NfsScript.split(List.of("ls", ";", "get", "a", "b", ";", ";", "rm", "a", ";")));
        assertThrows(IllegalArgumentException.class, () -> NfsScript.split(List.of()));
        assertThrows(IllegalArgumentException.class, () -> NfsScript.split(List.of("get", "a")));
        assertThrows(IllegalArgumentException.class, () -> NfsScript.split(List.of("bench", "copy", "x")));
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> NfsScript.split(List.of("ls", ";", "mv", "a", "b")));
        assertTrue(bad.getMessage().contains("mv a b"), bad.getMessage());
    }

    @Test
    void shouldPutGetListAndRemoveWithTheirLines() throws Exception
    {
        final byte[] data = "the quick brown fox".getBytes(StandardCharsets.US_ASCII);
        final Path local = Files.createTempFile("nfs-put", ".bin");
        final Path copy = Files.createTempFile("nfs-get", ".bin");
        try
        {
            Files.write(local, data);
            for (final List<String> c : NfsScript.split(List.of("put", local.toString(), "f.bin", ";", "get",
                "f.bin", copy.toString(), ";", "create", "e", ";", "ls", ";", "rm", "e", ";", "recall", "f.bin")))
            {
                script.run(c);
            }
            assertArrayEquals(data, Files.readAllBytes(copy));
            assertTrue(line("JRXE-NFS put ").contains("path=f.bin bytes=19 "), line("JRXE-NFS put "));
            assertTrue(line("JRXE-NFS put ").endsWith("md5=" + md5(data)));
            assertTrue(line("JRXE-NFS get ").endsWith("md5=" + md5(data)), line("JRXE-NFS get "));
            assertTrue(lines().contains("f 0 e") && lines().contains("f 19 f.bin"), lines().toString());
            assertEquals("JRXE-NFS ls dir=/ entries=2", line("JRXE-NFS ls"));
            assertEquals("JRXE-NFS rm path=e", line("JRXE-NFS rm"));
            assertEquals("JRXE-NFS delegation path=f.bin type=READ", line("JRXE-NFS delegation"));
            assertTrue(line("JRXE-NFS recall ").startsWith("JRXE-NFS recall path=f.bin returned=1 secs="));
            assertTrue(mount.recalled);
            final NfsError missing = assertThrows(NfsError.class, () -> script.run(List.of("rm", "nope")));
            assertEquals("NFS4ERR_NOENT", missing.status());
        }
        finally
        {
            Files.deleteIfExists(local);
            Files.deleteIfExists(copy);
        }
    }

    @Test
    void shouldBenchEveryRunAndTheMedian() throws Exception
    {
        mount.files.put("b", new byte[5000]);
        script.run(List.of("bench", "read", "b", "--runs", "3"));
        script.run(List.of("bench", "write", "w", "--size", "7000", "--runs", "3"));
        for (int run = 1; run <= 3; run++)
        {
            assertTrue(line("JRXE-NFS bench op=read run=" + run).contains(" bytes=5000 "));
            assertTrue(line("JRXE-NFS bench op=write run=" + run).contains(" bytes=7000 "));
        }
        assertTrue(line("JRXE-NFS bench op=read runs=3 median_MBps=").length() > 40);
        assertTrue(line("JRXE-NFS bench op=write runs=3 median_MBps=").length() > 40);
        assertEquals(7000, mount.files.get("w").length);
        assertThrows(IllegalArgumentException.class, () -> script.run(List.of("bench", "read", "b", "--depth", "2")));
    }

    @Test
    void shouldRefuseATargetWithoutAnExport()
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try
        {
            assertTrue(0 != Jrxe.execute("nfs", "--pci", "0000:00:03.0", "--ip", "10.9.0.2/24", "10.9.0.1", "ls"));
        }
        finally
        {
            System.setErr(saved);
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("SERVER:/EXPORT"), err.toString());
    }
}
