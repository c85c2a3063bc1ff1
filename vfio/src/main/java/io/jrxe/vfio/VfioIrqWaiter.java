package io.jrxe.vfio;

import com.sun.jna.Memory;

import static io.jrxe.vfio.LinuxConstants.EAGAIN;
import static io.jrxe.vfio.LinuxConstants.EINTR;
import static io.jrxe.vfio.LinuxConstants.POLLIN;

/**
 * Waits for a device's interrupts: {@code poll(2)} over the eventfds VFIO signals for its vectors, then a read of
 * each ready eventfd's counter, which resets it. For the one thread that takes a device's interrupts; it blocks
 * in JNA calls, so it is never a data-path thread.
 * <pre>
 *   struct pollfd, one per vector (8 bytes):
 *   0          4            6             8
 *   +----------+------------+-------------+
 *   | fd s32   | events s16 | revents s16 |    events = POLLIN
 *   +----------+------------+-------------+
 * </pre>
 */
public final class VfioIrqWaiter
{
    private static final int POLLFD_LENGTH = 8;
    private static final int EVENTS = 4;
    private static final int REVENTS = 6;

    private final Syscalls syscalls;
    private final int[] eventfds;
    private final Memory pollfds;
    private final Memory counter = new Memory(Long.BYTES);

    /**
     * @param syscalls where poll and read go
     * @param eventfds the non-blocking eventfds of the vectors to wait for
     */
    public VfioIrqWaiter(final Syscalls syscalls, final int[] eventfds)
    {
        if (0 == eventfds.length)
        {
            throw new IllegalArgumentException("no eventfds to wait for");
        }
        this.syscalls = syscalls;
        this.eventfds = eventfds.clone();
        this.pollfds = new Memory((long)POLLFD_LENGTH * eventfds.length);
        for (int i = 0; i < eventfds.length; i++)
        {
            pollfds.setInt((long)i * POLLFD_LENGTH, eventfds[i]);
            pollfds.setShort((long)i * POLLFD_LENGTH + EVENTS, POLLIN);
        }
    }

    /**
     * Waits up to {@code timeoutMs} for any vector.
     *
     * @return the vectors that fired (their counters are now 0), 0 on timeout or when a signal interrupted poll
     * @throws VfioException if poll or read fails otherwise (e.g. the eventfds were closed)
     */
    public int await(final int timeoutMs)
    {
        for (int i = 0; i < eventfds.length; i++)
        {
            pollfds.setShort((long)i * POLLFD_LENGTH + REVENTS, (short)0);
        }
        final int ready = syscalls.poll(pollfds, eventfds.length, timeoutMs);
        if (ready <= 0)
        {
            if (0 == ready || -EINTR == ready)
            {
                return 0;
            }
            throw new VfioException("poll on interrupt eventfds failed: " + Errors.describe(syscalls, -ready), -ready);
        }
        int fired = 0;
        for (int i = 0; i < eventfds.length; i++)
        {
            final short revents = pollfds.getShort((long)i * POLLFD_LENGTH + REVENTS);
            if (0 == revents)
            {
                continue;
            }
            if (0 == (revents & POLLIN))
            {
                throw new VfioException("interrupt eventfd " + eventfds[i] + " reports poll events 0x" +
                    Integer.toHexString(revents & 0xffff) + " (closed?)", LinuxConstants.EIO);
            }
            final long n = syscalls.read(eventfds[i], counter, Long.BYTES);
            if (n < 0 && -EAGAIN != n)
            {
                throw new VfioException("read of interrupt eventfd " + eventfds[i] + " failed: " +
                    Errors.describe(syscalls, (int)-n), (int)-n);
            }
            fired++;
        }
        return fired;
    }
}
