package io.jrxe.ulp.nfs;

/**
 * READ3resok (RFC 1813 §3.3.6) without the data, which went to the caller's memory: how many bytes came, whether
 * they end the file, the file's attributes. Reusable.
 */
public final class ReadResult
{
    private final PostOpAttr attributes = new PostOpAttr();
    private int count;
    private boolean eof;

    /**
     * @param count bytes read
     * @param eof true when the read reached the end of the file
     */
    void set(final int count, final boolean eof)
    {
        this.count = count;
        this.eof = eof;
    }

    /** @return bytes read (at most those asked for; fewer is a short read) */
    public int count()
    {
        return count;
    }

    /** @return true when the data ends at the end of the file */
    public boolean eof()
    {
        return eof;
    }

    /** @return the file's attributes after the read */
    public PostOpAttr attributes()
    {
        return attributes;
    }
}
