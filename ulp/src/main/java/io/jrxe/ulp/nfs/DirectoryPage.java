package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;

/**
 * READDIRPLUS3resok (RFC 1813 §3.3.17): one reply's worth of a directory listing, its cookie verifier and whether
 * it ends the directory. The next page is asked for with the last entry's cookie and this page's
 * {@link #cookieVerifier()}. The entry objects are kept and reused from page to page.
 * <pre>
 *   | dir_attributes: post_op_attr | cookieverf (8) | { value_follows TRUE | entryplus3 } ... | FALSE | eof (bool) |
 * </pre>
 */
public final class DirectoryPage
{
    private final PostOpAttr dirAttributes = new PostOpAttr();
    private DirEntryPlus[] entries = new DirEntryPlus[0];
    private int count;
    private long cookieVerifier;
    private boolean eof;

    /**
     * Read the body after dir_attributes.
     *
     * @param xdr where
     * @return this
     */
    DirectoryPage decodeBody(final XdrDecoder xdr)
    {
        cookieVerifier = xdr.getHyper();
        count = 0;
        while (xdr.getBoolean())
        {
            if (count == entries.length)
            {
                final DirEntryPlus[] grown = java.util.Arrays.copyOf(entries, Math.max(16, 2 * entries.length));
                for (int i = count; i < grown.length; i++)
                {
                    grown[i] = new DirEntryPlus();
                }
                entries = grown;
            }
            entries[count++].decode(xdr);
        }
        eof = xdr.getBoolean();
        return this;
    }

    /** @return the directory's attributes */
    public PostOpAttr dirAttributes()
    {
        return dirAttributes;
    }

    /** @return entries on this page */
    public int count()
    {
        return count;
    }

    /**
     * @param index 0 .. count - 1
     * @return an entry (reused by the next page)
     */
    public DirEntryPlus entry(final int index)
    {
        if (index >= count)
        {
            throw new IndexOutOfBoundsException(index + " of " + count);
        }
        return entries[index];
    }

    /** @return the cookie verifier to send with the next page's request */
    public long cookieVerifier()
    {
        return cookieVerifier;
    }

    /** @return true when this page ends the directory */
    public boolean eof()
    {
        return eof;
    }
}
