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
}
