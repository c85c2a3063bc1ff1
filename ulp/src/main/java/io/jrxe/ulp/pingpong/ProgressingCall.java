package io.jrxe.ulp.pingpong;

import io.jrxe.rxe.node.RoceNode;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Runs a blocking call (a TCP exchange with a peer tool) on a helper thread while the calling thread keeps the node
 * going. The peer resolves this node's address (ARP) when it moves its QPs to RTR, in the middle of the exchange,
 * and the kernel fails that modify ("Failed to modify QP to RTR") if nobody answers; ACKs of the last messages must
 * leave while the termination hand-shake waits, too. The node stays owned by the calling thread.
 */
public final class ProgressingCall
{
    private ProgressingCall()
    {
    }

    /**
     * @param node the node the calling thread drives.
     * @param idle what the calling thread does between idle duty cycles.
     * @param name the helper thread's name.
     * @param call the blocking call.
     * @param <T> its result type.
     * @return its result.
     * @throws IOException what the call threw, or an interruption
     */
    public static <T> T call(final RoceNode node, final IdleStrategy idle, final String name, final Callable<T> call)
        throws IOException
    {
        final FutureTask<T> task = new FutureTask<>(call);
        final Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        while (!task.isDone())
        {
            idle.idle(node.progress());
        }
        idle.reset();
        try
        {
            return task.get();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during " + name, ex);
        }
        catch (final ExecutionException ex)
        {
            final Throwable cause = ex.getCause();
            if (cause instanceof IOException)
            {
                throw (IOException)cause;
            }
            if (cause instanceof RuntimeException)
            {
                throw (RuntimeException)cause;
            }
            throw new IOException(cause);
        }
    }
}
