package io.jrxe.ulp.nfs;

import java.util.ArrayList;
import java.util.List;

/**
 * A path relative to an export, split into the names LOOKUP takes one at a time (RFC 1813 §3.3.3: LOOKUP resolves
 * one name, the client walks a path): "a/b/c", "/a//b/" and "./a/b" all give [a, b]; ".." is sent as it is (the
 * server resolves it, and stops at the export's root).
 */
public final class Nfs3Path
{
    private Nfs3Path()
    {
    }

    /**
     * @param path a path, '/'-separated
     * @return its names, without empty ones and "."
     */
    public static List<String> names(final String path)
    {
        final List<String> names = new ArrayList<>();
        for (final String name : path.split("/"))
        {
            if (!name.isEmpty() && !".".equals(name))
            {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * @param path a path
     * @return its parent's names (all but the last), with the last in {@link #leaf}
     * @throws IllegalArgumentException when the path names the export itself
     */
    public static List<String> parent(final String path)
    {
        final List<String> names = names(path);
        if (names.isEmpty())
        {
            throw new IllegalArgumentException("\"" + path + "\" names the export itself, not a file in it");
        }
        return names.subList(0, names.size() - 1);
    }

    /**
     * @param path a path
     * @return its last name
     * @throws IllegalArgumentException when the path names the export itself
     */
    public static String leaf(final String path)
    {
        final List<String> names = names(path);
        if (names.isEmpty())
        {
            throw new IllegalArgumentException("\"" + path + "\" names the export itself, not a file in it");
        }
        return names.get(names.size() - 1);
    }
}
