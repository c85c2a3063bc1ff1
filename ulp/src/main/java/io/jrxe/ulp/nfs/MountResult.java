package io.jrxe.ulp.nfs;

/**
 * mountres3_ok (RFC 1813 Appendix I): the export's root file handle and the auth flavors the server accepts for it.
 */
public final class MountResult
{
    private final FileHandle3 root;
    private final int[] flavors;

    /**
     * @param root the root handle
     * @param flavors auth flavors, in the server's order of preference
     */
    public MountResult(final FileHandle3 root, final int[] flavors)
    {
        this.root = root;
        this.flavors = flavors.clone();
    }

    /** @return the export's root file handle */
    public FileHandle3 root()
    {
        return root;
    }

    /** @return the auth flavors (AUTH_SYS is 1), a copy */
    public int[] flavors()
    {
        return flavors.clone();
    }

    /**
     * @param flavor an auth flavor
     * @return true when the server listed it (or listed none, which old servers do)
     */
    public boolean accepts(final int flavor)
    {
        if (0 == flavors.length)
        {
            return true;
        }
        for (final int f : flavors)
        {
            if (f == flavor)
            {
                return true;
            }
        }
        return false;
    }
}
