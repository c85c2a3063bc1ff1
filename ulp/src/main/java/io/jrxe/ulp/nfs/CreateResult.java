package io.jrxe.ulp.nfs;

/**
 * CREATE3resok (RFC 1813 §3.3.8): the new file's handle (always filled in: the client looks it up when the server
 * leaves it out of the post_op_fh3), its attributes and the directory's wcc_data. Reusable.
 */
public final class CreateResult
{
    private final FileHandle3 handle = new FileHandle3();
    private final PostOpAttr attributes = new PostOpAttr();
    private final WccData dirWcc = new WccData();

    /** @return the new file's handle */
    public FileHandle3 handle()
    {
        return handle;
    }

    /** @return the new file's attributes */
    public PostOpAttr attributes()
    {
        return attributes;
    }

    /** @return the directory's wcc_data */
    public WccData dirWcc()
    {
        return dirWcc;
    }
}
