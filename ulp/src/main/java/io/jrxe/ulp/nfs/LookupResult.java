package io.jrxe.ulp.nfs;

/**
 * LOOKUP3resok (RFC 1813 §3.3.3): the object's handle, its attributes and the directory's. Reusable.
 */
public final class LookupResult
{
    private final FileHandle3 handle = new FileHandle3();
    private final PostOpAttr attributes = new PostOpAttr();
    private final PostOpAttr dirAttributes = new PostOpAttr();

    /** @return the object's file handle */
    public FileHandle3 handle()
    {
        return handle;
    }

    /** @return the object's attributes */
    public PostOpAttr attributes()
    {
        return attributes;
    }

    /** @return the directory's attributes */
    public PostOpAttr dirAttributes()
    {
        return dirAttributes;
    }
}
