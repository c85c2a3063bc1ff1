package io.jrxe.ulp.nfsmount;

/**
 * One directory entry as a listing shows it.
 *
 * @param name the entry's name
 * @param type 'f' file, 'd' directory, 'l' symbolic link, '?' anything else
 * @param size bytes
 */
public record NfsEntry(String name, char type, long size)
{
    /**
     * @param ftype an NFSv3 ftype3 or NFSv4 nfs_ftype4: both number a regular file 1, a directory 2 and a
     *              symbolic link 5 (RFC 1813 §2.5, RFC 8881 §3.3.7)
     * @return its letter
     */
    static char letterOf(final int ftype)
    {
        switch (ftype)
        {
            case 1: return 'f';
            case 2: return 'd';
            case 5: return 'l';
            default: return '?';
        }
    }
}
