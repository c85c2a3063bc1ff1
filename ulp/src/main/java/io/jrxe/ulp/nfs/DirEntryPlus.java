package io.jrxe.ulp.nfs;

import io.jrxe.ulp.xdr.XdrDecoder;

/**
 * {@code entryplus3} (RFC 1813 §3.3.17): one directory entry of a READDIRPLUS reply, reused page after page.
 * <pre>
 *   | fileid (8) | name: string | cookie (8) | name_attributes: post_op_attr | name_handle: post_op_fh3 |
 * </pre>
 */
public final class DirEntryPlus
{
    private final PostOpAttr attributes = new PostOpAttr();
    private final FileHandle3 handle = new FileHandle3();
    private long fileid;
    private String name;
    private long cookie;
    private boolean handlePresent;

    /**
     * @param xdr positioned at the fileid
     * @return this
     */
    DirEntryPlus decode(final XdrDecoder xdr)
    {
        fileid = xdr.getHyper();
        name = xdr.getString(Nfs3.MAX_NAME);
        cookie = xdr.getHyper();
        attributes.decode(xdr);
        handlePresent = xdr.getBoolean();
        if (handlePresent)
        {
            handle.decode(xdr);
        }
        return this;
    }

    /** @return the file id */
    public long fileid()
    {
        return fileid;
    }

    /** @return the entry's name */
    public String name()
    {
        return name;
    }

    /** @return the cookie to continue the listing after this entry */
    public long cookie()
    {
        return cookie;
    }

    /** @return the entry's attributes, if the server sent them */
    public PostOpAttr attributes()
    {
        return attributes;
    }

    /** @return true when the server sent the entry's handle */
    public boolean handlePresent()
    {
        return handlePresent;
    }

    /** @return the entry's handle (meaningful when {@link #handlePresent()}) */
    public FileHandle3 handle()
    {
        return handle;
    }
}
