package io.jrxe.vfio;

import static io.jrxe.vfio.LinuxConstants.EACCES;
import static io.jrxe.vfio.LinuxConstants.EPERM;
import static io.jrxe.vfio.LinuxConstants.RLIMIT_MEMLOCK;
import static io.jrxe.vfio.LinuxConstants.RLIM_INFINITY;

/**
 * Builds the text of {@link VfioException}s: the failed step, the system's own words for the error, and the
 * command that fixes it.
 */
final class Errors
{
    static final String ROOT_HINT =
        "run as root (sudo), or chown the /dev/vfio nodes to this user and raise the locked-memory limit "
        + "(ulimit -l unlimited)";

    private Errors()
    {
    }

    /** "Operation not permitted (EPERM, errno 1)" style text for {@code errno}. */
    static String describe(final Syscalls syscalls, final int errno)
    {
        return syscalls.strerror(errno) + " (errno " + errno + ")";
    }

    static boolean isPermission(final int errno)
    {
        return EACCES == errno || EPERM == errno;
    }

    /** Message for a permission failure on {@code path}, naming the effective uid. */
    static VfioException permissionDenied(final Syscalls syscalls, final String path, final int errno)
    {
        return new VfioException(
            "permission denied opening " + path + ": " + describe(syscalls, errno) + ", running as euid " +
            syscalls.geteuid() + (0 == syscalls.geteuid() ? " (root: check SELinux/AppArmor or the node's mode)" :
            " (not root)") + ": " + ROOT_HINT, errno);
    }

    /** Soft RLIMIT_MEMLOCK in bytes, {@link LinuxConstants#RLIM_INFINITY} when unlimited, -errno on failure. */
    static long memlockLimit(final Syscalls syscalls)
    {
        final Rlimit limit = new Rlimit();
        final int result = syscalls.getrlimit(RLIMIT_MEMLOCK, limit);
        return result < 0 ? result : limit.rlim_cur;
    }

    /** "unlimited", or the limit as {@code ulimit -l} prints it (KiB) with the bytes alongside. */
    static String formatMemlock(final long limitBytes)
    {
        if (RLIM_INFINITY == limitBytes)
        {
            return "unlimited";
        }
        if (limitBytes < 0)
        {
            return "unknown (getrlimit failed)";
        }
        return (limitBytes / 1024) + " KiB (" + limitBytes + " bytes)";
    }
}
