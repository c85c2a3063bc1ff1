package io.jrxe.tools;

import io.jrxe.ulp.nfsmount.NfsEntry;
import io.jrxe.ulp.nfsmount.NfsMount;
import io.jrxe.ulp.nfsmount.NfsProgress;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The commands of {@code jrxe nfs}, run one after another on one mount, each printing its {@code JRXE-NFS} line
 * (see {@link NfsCommand}).
 */
final class NfsScript
{
    private final NfsMount mount;
    private final PrintStream out;
    private final PrintStream err;

    NfsScript(final NfsMount mount, final PrintStream out, final PrintStream err)
    {
        this.mount = mount;
        this.out = out;
        this.err = err;
    }

    /** Split {@code a b ; c d} at lone {@code ;} words. */
    static List<List<String>> split(final List<String> words)
    {
        final List<List<String>> commands = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (final String w : words)
        {
            if (";".equals(w))
            {
                if (!current.isEmpty())
                {
                    commands.add(current);
                }
                current = new ArrayList<>();
            }
            else
            {
                current.add(w);
            }
        }
        if (!current.isEmpty())
        {
            commands.add(current);
        }
        if (commands.isEmpty())
        {
            throw new IllegalArgumentException("no command: ls, get, put, create, rm or bench");
        }
        for (final List<String> c : commands)
        {
            check(c);
        }
        return commands;
    }

    private static void check(final List<String> c)
    {
        final String name = c.get(0);
        final int args = c.size() - 1;
        final boolean ok;
        switch (name)
        {
            case "ls": ok = args <= 1; break;
            case "get": case "put": ok = 2 == args; break;
            case "create": case "rm": ok = 1 == args; break;
            case "recall": ok = 1 == args || 2 == args; break;
            case "bench": ok = args >= 2 && ("read".equals(c.get(1)) || "write".equals(c.get(1))); break;
            default: ok = false; break;
        }
        if (!ok)
        {
            throw new IllegalArgumentException("bad command '" + String.join(" ", c) + "': ls [DIR] | " +
                "get REMOTE LOCAL | put LOCAL REMOTE | create REMOTE | rm REMOTE | recall REMOTE [SECONDS] | " +
                "bench read|write REMOTE --size B --runs N");
        }
    }

    void run(final List<String> c) throws IOException
    {
        switch (c.get(0))
        {
            case "ls": ls(c.size() > 1 ? c.get(1) : ""); break;
            case "get": get(c.get(1), Path.of(c.get(2))); break;
            case "put": put(Path.of(c.get(1)), c.get(2)); break;
            case "create":
                mount.create(c.get(1));
                out.println("JRXE-NFS create path=" + c.get(1));
                break;
            case "rm":
                mount.remove(c.get(1));
                out.println("JRXE-NFS rm path=" + c.get(1));
                break;
            case "recall":
                recall(c.get(1), c.size() > 2 ? Integer.parseInt(c.get(2)) : 120);
                break;
            default: bench(c); break;
        }
        out.flush();
    }

    /** Hold a read delegation, say so, and wait for the server to recall it (something else opens the file). */
    private void recall(final String remote, final int seconds) throws IOException
    {
        final String type = mount.holdDelegation(remote);
        out.println("JRXE-NFS delegation path=" + remote + " type=" + type);
        out.flush();
        final long t0 = System.nanoTime();
        if (!mount.awaitRecall(java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds)))
        {
            throw new io.jrxe.ulp.nfsmount.NfsError("CB_RECALL", "TIMEOUT", "no recall of \"" + remote +
                "\" within " + seconds + " s", null);
        }
        out.println("JRXE-NFS recall path=" + remote + " returned=1 secs=" +
            String.format(Locale.ROOT, "%.3f", (System.nanoTime() - t0) / 1e9));
    }

    private void ls(final String dir) throws IOException
    {
        final List<NfsEntry> entries = mount.list(dir);
        for (final NfsEntry e : entries)
        {
            out.println(e.type() + " " + e.size() + " " + e.name());
        }
        out.println("JRXE-NFS ls dir=" + (dir.isEmpty() ? "/" : dir) + " entries=" + entries.size());
    }

    private void get(final String remote, final Path local) throws IOException
    {
        final MessageDigest md5 = md5();
        final long t0 = System.nanoTime();
        final long bytes;
        try (OutputStream file = new DigestOutputStream(Files.newOutputStream(local), md5))
        {
            bytes = mount.read(remote, file, progress("get " + remote, t0));
        }
        line("get", remote, bytes, t0, hex(md5.digest()));
    }

    private void put(final Path local, final String remote) throws IOException
    {
        final String sum = md5Of(local);
        final long t0 = System.nanoTime();
        final long bytes;
        try (FileChannel in = FileChannel.open(local, StandardOpenOption.READ))
        {
            bytes = mount.write(remote, in, progress("put " + remote, t0));
        }
        line("put", remote, bytes, t0, sum);
    }

    private void line(final String op, final String path, final long bytes, final long t0, final String md5)
    {
        final double secs = (System.nanoTime() - t0) / 1e9;
        out.println("JRXE-NFS " + op + " path=" + path + " bytes=" + bytes + " secs=" +
            String.format(Locale.ROOT, "%.3f", secs) + " MBps=" + NfsCommand.mbps(bytes, secs) + " md5=" + md5);
    }

    private void bench(final List<String> c) throws IOException
    {
        final boolean read = "read".equals(c.get(1));
        final String remote = c.get(2);
        long size = 16L << 20;
        int runs = 5;
        for (int i = 3; i + 1 < c.size(); i += 2)
        {
            if ("--size".equals(c.get(i)))
            {
                size = Long.parseLong(c.get(i + 1));
            }
            else if ("--runs".equals(c.get(i)))
            {
                runs = Integer.parseInt(c.get(i + 1));
            }
            else
            {
                throw new IllegalArgumentException("bench takes --size B and --runs N, not " + c.get(i));
            }
        }
        Path source = null;
        if (!read)
        {
            source = Files.createTempFile("jrxe-nfs-bench", ".bin");
            fill(source, size);
        }
        try
        {
            final double[] rates = new double[runs];
            for (int run = 1; run <= runs; run++)
            {
                final long t0 = System.nanoTime();
                final long bytes;
                if (read)
                {
                    bytes = mount.read(remote, OutputStream.nullOutputStream(), NfsProgress.NONE);
                }
                else
                {
                    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ))
                    {
                        bytes = mount.write(remote, in, NfsProgress.NONE);
                    }
                }
                final double secs = (System.nanoTime() - t0) / 1e9;
                rates[run - 1] = bytes / secs / 1e6;
                out.println("JRXE-NFS bench op=" + c.get(1) + " run=" + run + " bytes=" + bytes + " secs=" +
                    String.format(Locale.ROOT, "%.3f", secs) + " MBps=" + NfsCommand.mbps(bytes, secs));
                out.flush();
            }
            Arrays.sort(rates);
            out.println("JRXE-NFS bench op=" + c.get(1) + " runs=" + runs + " median_MBps=" +
                String.format(Locale.ROOT, "%.2f", rates[(runs - 1) / 2]));
        }
        finally
        {
            if (null != source)
            {
                Files.deleteIfExists(source);
            }
        }
    }

    private static void fill(final Path file, final long size) throws IOException
    {
        final ByteBuffer block = ByteBuffer.allocate(1 << 20);
        long x = size;
        for (int i = 0; i < block.capacity(); i++)
        {
            x = x * 6364136223846793005L + 1442695040888963407L;
            block.put(i, (byte)(x >>> 56));
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING))
        {
            long done = 0;
            while (done < size)
            {
                block.clear().limit((int)Math.min(block.capacity(), size - done));
                done += ch.write(block, done);
            }
        }
    }

    /** A line on stderr every second while a transfer runs. */
    private NfsProgress progress(final String what, final long t0)
    {
        final long[] next = {t0 + 1_000_000_000L};
        return (done, total) ->
        {
            final long now = System.nanoTime();
            if (now - next[0] >= 0)
            {
                next[0] = now + 1_000_000_000L;
                err.println(what + ": " + String.format(Locale.ROOT, "%.1f of %.1f MiB, %s MB/s",
                    done / 1048576.0, total / 1048576.0, NfsCommand.mbps(done, (now - t0) / 1e9)));
            }
        };
    }

    static MessageDigest md5()
    {
        try
        {
            return MessageDigest.getInstance("MD5");
        }
        catch (final NoSuchAlgorithmException e)
        {
            throw new IllegalStateException("no MD5 in this JVM", e);
        }
    }

    private static String md5Of(final Path file) throws IOException
    {
        final MessageDigest md5 = md5();
        final ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ))
        {
            while (ch.read(buf) > 0)
            {
                buf.flip();
                md5.update(buf);
                buf.clear();
            }
        }
        return hex(md5.digest());
    }

    static String hex(final byte[] bytes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final byte b : bytes)
        {
            sb.append(String.format(Locale.ROOT, "%02x", b));
        }
        return sb.toString();
    }
}
