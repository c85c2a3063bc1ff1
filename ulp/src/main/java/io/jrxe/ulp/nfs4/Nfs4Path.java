package io.jrxe.ulp.nfs4;

import java.util.ArrayList;
import java.util.List;

/**
 * Paths as the session takes them: '/'-separated, relative to the export (a leading '/' is allowed), turned into
 * the components LOOKUP walks (RFC 8881 §18.13: one name per LOOKUP, no separators). "." components and repeated
 * or trailing separators are dropped; ".." is refused (a server has no obligation to give LOOKUPP the meaning a
 * local path has, RFC 8881 §18.14), as is a NUL.
 */
public final class Nfs4Path
{
    private Nfs4Path()
    {
    }

    /**
     * @param path a path, "" or "/" for the top
     * @return its components
     * @throws IllegalArgumentException for "..", or a NUL in a name
     */
    public static String[] components(final String path)
    {
        final List<String> out = new ArrayList<>();
        for (final String part : path.split("/"))
        {
            if (part.isEmpty() || ".".equals(part))
            {
                continue;
            }
            if ("..".equals(part) || part.indexOf('\0') >= 0)
            {
                throw new IllegalArgumentException("path component '" + part.replace('\0', '?') + "' in " + path);
            }
            out.add(part);
        }
        return out.toArray(new String[0]);
    }

    /**
     * @param export the export's components
     * @param relative the components under it
     * @return both, export first
     */
    public static String[] join(final String[] export, final String[] relative)
    {
        final String[] all = new String[export.length + relative.length];
        System.arraycopy(export, 0, all, 0, export.length);
        System.arraycopy(relative, 0, all, export.length, relative.length);
        return all;
    }

    /**
     * @param components components
     * @param count how many of them
     * @return them as a path, "/a/b" ("/" for none)
     */
    public static String toString(final String[] components, final int count)
    {
        if (0 == count)
        {
            return "/";
        }
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            sb.append('/').append(components[i]);
        }
        return sb.toString();
    }
}
