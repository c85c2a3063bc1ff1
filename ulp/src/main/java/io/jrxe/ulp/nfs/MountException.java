package io.jrxe.ulp.nfs;

import java.io.IOException;

/**
 * A MOUNT procedure that ran and failed with a {@code mountstat3} (RFC 1813 Appendix I), e.g.
 * {@code MOUNT3 MNT "/export": MNT3ERR_ACCES (permission denied: not exported to this client?)}.
 */
public final class MountException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final int status;

    /**
     * @param operation the operation ("MOUNT3 MNT")
     * @param path the export path
     * @param status the mountstat3
     */
    public MountException(final String operation, final String path, final int status)
    {
        super(operation + " \"" + path + "\": " + Mount3.statusText(status));
        this.status = status;
    }

    /** @return the mountstat3 */
    public int status()
    {
        return status;
    }
}
