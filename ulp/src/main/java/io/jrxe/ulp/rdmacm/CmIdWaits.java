package io.jrxe.ulp.rdmacm;

import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.ulp.cm.CmService;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * How a {@link CmId}'s calls wait: a synchronous id (created without a channel) waits for the event its call
 * leads to, as librdmacm does, and turns an error event into an {@link RdmaCmException} with librdmacm's errno;
 * work on the IB CM runs on the CM thread while the caller waits (or runs the CM itself when it drives it).
 * <pre>
 *   awaitSync:  ADDR_RESOLVED, ROUTE_RESOLVED, ESTABLISHED, CONNECT_RESPONSE  -> return
 *               ADDR_ERROR ... DISCONNECTED  -> RdmaCmException(-status, or REJECTED: ECONNREFUSED,
 *               UNREACHABLE: EHOSTUNREACH, DEVICE_REMOVAL: ENODEV, DISCONNECTED: ECONNRESET, else EIO)
 *   runOnCm:    the task's RdmaCmException as thrown, a VerbsException as RdmaCmException(its errno), else EIO
 * </pre>
 */
final class CmIdWaits
{
    private CmIdWaits()
    {
    }

    static void awaitSync(final CmId id, final CmEventType expected)
    {
        if (!id.sync)
        {
            return;
        }
        try
        {
            while (true)
            {
                final CmEvent event = id.channel.getEvent();
                id.channel.ackEvent(event);
                if (expected == event.type())
                {
                    if (null != event.param())
                    {
                        id.established = event.param();
                    }
                    return;
                }
                if (isError(event.type()))
                {
                    final int status = event.status();
                    throw new RdmaCmException(status < 0 ? -status : errnoOf(event.type()), event.type().str() +
                        (status != 0 ? " (status " + status + ")" : "") + " while waiting for " + expected.str(),
                        event.type(), status);
                }
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new RdmaCmException(Errno.EINTR, "interrupted waiting for " + expected.str());
        }
    }

    private static boolean isError(final CmEventType type)
    {
        switch (type)
        {
            case ADDR_ERROR:
            case ROUTE_ERROR:
            case CONNECT_ERROR:
            case UNREACHABLE:
            case REJECTED:
            case DEVICE_REMOVAL:
            case DISCONNECTED:
                return true;
            default:
                return false;
        }
    }

    private static int errnoOf(final CmEventType type)
    {
        switch (type)
        {
            case REJECTED: return Errno.ECONNREFUSED;
            case UNREACHABLE: return Errno.EHOSTUNREACH;
            case DEVICE_REMOVAL: return Errno.ENODEV;
            case DISCONNECTED: return Errno.ECONNRESET;
            default: return Errno.EIO;
        }
    }

    /** Run on the CM thread and wait (inline when the caller drives the CM, or is the CM thread). */
    static void runOnCm(final RdmaCm rdmaCm, final Runnable task)
    {
        final CmService cm = rdmaCm.cm();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        cm.submit(() ->
        {
            try
            {
                task.run();
                done.complete(null);
            }
            catch (final RuntimeException e)
            {
                done.completeExceptionally(e);
            }
        });
        if (cm.isCmThread() || rdmaCm.callerDrives())
        {
            while (!done.isDone())
            {
                cm.doWork();
            }
        }
        await(done);
    }

    private static void await(final CompletableFuture<Void> done)
    {
        try
        {
            done.get();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new RdmaCmException(Errno.EINTR, "interrupted waiting for the CM thread");
        }
        catch (final ExecutionException e)
        {
            final Throwable cause = e.getCause();
            if (cause instanceof RdmaCmException)
            {
                throw (RdmaCmException)cause;
            }
            if (cause instanceof VerbsException)
            {
                throw new RdmaCmException(((VerbsException)cause).errno(), cause.getMessage());
            }
            throw new RdmaCmException(Errno.EIO, String.valueOf(cause));
        }
    }
}
