package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.CompletionChannel;
import io.jrxe.rxe.verbs.CompletionQueue;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.RdmaCmException;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What {@link Cmatose} and {@link Udaddy} do the same way: wait for a CM event or for completions without ever
 * waiting past the run's deadline, turn error events into {@link CmEventFailure}, fill and check message payloads.
 * What every tool of the package does the same way: destroy ids even when an event raced in just before (a
 * TIMEWAIT_EXIT, say, which must be acknowledged first), and word a timeout or an interrupted wait.
 */
final class CmTestSupport
{
    /** Destroy attempts per id: each retry follows a drain of the channel, so one suffices unless events race. */
    private static final int DESTROY_ATTEMPTS = 10;

    private final String tool;
    private final long deadlineNs;
    private final long timeoutNs;
    private final Consumer<String> log;

    CmTestSupport(final String tool, final CmTestSettings settings, final long startNs)
    {
        this.tool = tool;
        this.timeoutNs = settings.timeoutNs();
        this.deadlineNs = startNs + timeoutNs;
        this.log = settings.log();
    }

    void log(final String line)
    {
        log.accept(line);
    }

    /**
     * @param channel the tool's channel
     * @param what what the tool is waiting for, for the timeout message
     * @return the next event (not yet acknowledged)
     * @throws IllegalStateException when the run's deadline passes first
     */
    CmEvent nextEvent(final EventChannel channel, final String what)
    {
        try
        {
            final CmEvent event = channel.getEvent(remainingNs(what), TimeUnit.NANOSECONDS);
            if (null == event)
            {
                throw timedOut(tool, timeoutNs, what);
            }
            return event;
        }
        catch (final InterruptedException e)
        {
            throw interrupted(tool, what, e);
        }
    }

    /**
     * The tools' handling of a failed connection attempt: print the event and give up.
     *
     * @param event an event
     * @throws CmEventFailure if it is an error event
     */
    void failOnError(final CmEvent event)
    {
        switch (event.type())
        {
            case ADDR_ERROR:
            case ROUTE_ERROR:
            case CONNECT_ERROR:
            case UNREACHABLE:
            case REJECTED:
                final CmEventFailure failure = new CmEventFailure(tool, event.type(), event.status());
                log(failure.getMessage());
                throw failure;
            default:
                break;
        }
    }

    /**
     * Wait for completions, sleeping on the CQ's completion channel (armed between two polls, so none is missed).
     *
     * @param cq the CQ
     * @param channel its completion channel
     * @param wcs where they go
     * @param what for the timeout message
     * @return completions polled, at least 1
     * @throws IllegalStateException when the run's deadline passes first
     */
    int awaitCompletions(
        final CompletionQueue cq, final CompletionChannel channel, final WorkCompletion[] wcs, final String what)
    {
        try
        {
            while (true)
            {
                int n = cq.poll(wcs, wcs.length);
                if (0 == n)
                {
                    cq.reqNotify(false);
                    n = cq.poll(wcs, wcs.length);
                }
                if (n < 0)
                {
                    throw new IllegalStateException(tool + ": failed polling CQ: " + n);
                }
                if (n > 0)
                {
                    return n;
                }
                final CompletionQueue fired = channel.getEvent(remainingNs(what), TimeUnit.NANOSECONDS);
                if (null != fired)
                {
                    fired.ackEvents(1);
                }
            }
        }
        catch (final InterruptedException e)
        {
            throw interrupted(tool, what, e);
        }
    }

    /**
     * @param wc a completion
     * @param what "send" or "receive", for the message
     * @throws IllegalStateException if it failed
     */
    void requireSuccess(final WorkCompletion wc, final String what)
    {
        if (WcStatus.SUCCESS.code() != wc.status())
        {
            throw new IllegalStateException(tool + ": " + what + " completion failed: " +
                WcStatus.of(wc.status()).message() + " (status " + wc.status() + ", wr_id " + wc.wrId() + ")");
        }
    }

    private long remainingNs(final String what)
    {
        final long left = deadlineNs - System.nanoTime();
        if (left <= 0)
        {
            throw timedOut(tool, timeoutNs, what);
        }
        return left;
    }

    /**
     * The tools' timeout message, the same whether the bound is on the whole run or on each wait.
     *
     * @param who the tool (and role), the message's prefix
     * @param timeoutNs the bound that passed
     * @param what what the tool was waiting for
     * @return the exception to throw
     */
    static IllegalStateException timedOut(final String who, final long timeoutNs, final String what)
    {
        return new IllegalStateException(who + ": timed out after " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) +
            " s waiting for " + what + " (raise --timeout, or check that the peer runs)");
    }

    /**
     * Keeps the thread's interrupt (the caller's, to act on) and words the failed wait.
     *
     * @param who the tool (and role), the message's prefix
     * @param what what the tool was waiting for
     * @param cause the interrupt
     * @return the exception to throw
     */
    static IllegalStateException interrupted(final String who, final String what, final InterruptedException cause)
    {
        Thread.currentThread().interrupt();
        return new IllegalStateException(who + ": interrupted waiting for " + what, cause);
    }

    /**
     * Fill one message: byte j of message i is {@code seed + 31 i + j}, so a message landing in the wrong slot, a
     * truncated one or one from the other side all fail {@link #matches}.
     */
    static void fill(final UnsafeBuffer buffer, final int offset, final int size, final int message, final int seed)
    {
        for (int j = 0; j < size; j++)
        {
            buffer.putByte(offset + j, pattern(seed, message, j));
        }
    }

    static boolean matches(final UnsafeBuffer buffer, final int offset, final int size, final int message,
        final int seed)
    {
        for (int j = 0; j < size; j++)
        {
            if (buffer.getByte(offset + j) != pattern(seed, message, j))
            {
                return false;
            }
        }
        return true;
    }

    private static byte pattern(final int seed, final int message, final int j)
    {
        return (byte)(seed + 31 * message + j);
    }

    /**
     * Acknowledge whatever is queued (late DISCONNECTED or TIMEWAIT_EXIT events), then destroy the id; an event
     * that arrives between the two makes destroy refuse (EBUSY), so drain and try again.
     */
    static void destroy(final EventChannel channel, final CmId id)
    {
        for (int attempt = 1; ; attempt++)
        {
            drain(channel);
            try
            {
                id.destroy();
                return;
            }
            catch (final RdmaCmException e)
            {
                if (Errno.EBUSY != e.errno() || attempt == DESTROY_ATTEMPTS)
                {
                    throw e;
                }
            }
        }
    }

    static void drain(final EventChannel channel)
    {
        for (CmEvent e = channel.pollEvent(); null != e; e = channel.pollEvent())
        {
            channel.ackEvent(e);
        }
    }

    /**
     * @param tool the tool
     * @param bytes the message buffer one connection needs
     * @throws IllegalArgumentException if -C times -S asks for more than 1 GiB per connection
     */
    static void checkBufferSize(final String tool, final long bytes)
    {
        if (bytes > 1L << 30)
        {
            throw new IllegalArgumentException(tool + ": -C times -S needs " + bytes + " bytes of buffers per " +
                "connection; at most 1 GiB");
        }
    }
}
