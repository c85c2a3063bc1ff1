package io.jrxe.rxe.engine;

import io.jrxe.rxe.verbs.Errno;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Control-path tasks on the engine thread ({@link RxeEngine#invoke}, {@link RxeEngine#invokeAndWait}): the CM and
 * the verbs that change engine-read state (CQ resize, FMR maps) rely on them.
 */
class EngineInvokeTest
{
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void shouldRunAnInvokedTaskInTheNextDutyCycleOnTheDrivingThread()
    {
        final EnginePair pair = new EnginePair(31);
        final AtomicReference<Thread> ranOn = new AtomicReference<>();
        assertTrue(pair.a.engine.invoke(() -> ranOn.set(Thread.currentThread())));
        assertNull(ranOn.get(), "queued, not run");
        pair.a.engine.progress();
        assertSame(Thread.currentThread(), ranOn.get());
    }

    @Test
    void shouldRunInlineWhenTheCallerDrivesTheEngine()
    {
        final EnginePair pair = new EnginePair(32);
        pair.a.engine.progress(); // this thread is now the engine's
        final int[] ran = new int[1];
        assertEquals(0, pair.a.engine.invokeAndWait(() -> ran[0]++, SECOND));
        assertEquals(1, ran[0], "ran before returning, without another duty cycle");
    }

    @Test
    void shouldWaitForTheEngineThreadAndPassBackItsFailure() throws Exception
    {
        final EnginePair pair = new EnginePair(33);
        final AgentRunner runner = new AgentRunner(new BusySpinIdleStrategy(), Throwable::printStackTrace, null,
            new RxeAgent(pair.a.engine, "invoke-test"));
        AgentRunner.startOnThread(runner);
        try
        {
            final AtomicReference<Thread> ranOn = new AtomicReference<>();
            assertEquals(0, pair.a.engine.invokeAndWait(() -> ranOn.set(Thread.currentThread()), 10 * SECOND));
            assertSame(runner.thread(), ranOn.get());
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> pair.a.engine.invokeAndWait(() ->
                {
                    throw new IllegalStateException("task failed");
                }, 10 * SECOND));
            assertEquals("task failed", ex.getMessage());
        }
        finally
        {
            runner.close();
        }
    }

    @Test
    void shouldTimeOutWhenNothingDrivesTheEngine()
    {
        final EnginePair pair = new EnginePair(34);
        final int[] ran = new int[1];
        final Thread other = new Thread(() -> ran[0] = pair.a.engine.invokeAndWait(() ->
        {
        }, TimeUnit.MILLISECONDS.toNanos(50)));
        other.start();
        assertTrue(joined(other));
        assertEquals(-Errno.ETIMEDOUT, ran[0]);
    }

    @Test
    void shouldReachTheEngineThreadThroughTheDeviceApi()
    {
        final EnginePair pair = new EnginePair(35);
        final AtomicReference<Thread> ranOn = new AtomicReference<>();
        assertTrue(pair.a.device.invoke(() -> ranOn.set(Thread.currentThread())));
        assertNull(ranOn.get(), "queued for the engine's next duty cycle");
        pair.a.engine.progress();
        assertSame(Thread.currentThread(), ranOn.get());
        final int[] ran = new int[1];
        assertEquals(0, pair.a.device.invokeAndWait(() -> ran[0]++, 1, TimeUnit.SECONDS));
        assertEquals(1, ran[0], "inline: this thread drives the engine");

        pair.a.engine.close(); // detached: the caller owns everything, tasks run at once
        assertTrue(pair.a.device.invoke(() -> ran[0]++));
        assertEquals(2, ran[0]);
    }

    @Test
    void shouldNeverRunATaskWhoseWaitTimedOut()
    {
        final EnginePair pair = new EnginePair(36);
        final int[] result = {1};
        final int[] ran = new int[1];
        final Thread other = new Thread(() -> result[0] = pair.a.engine.invokeAndWait(() -> ran[0]++,
            TimeUnit.MILLISECONDS.toNanos(20)));
        other.start();
        assertTrue(joined(other));
        assertEquals(-Errno.ETIMEDOUT, result[0]);
        pair.a.engine.progress(); // the engine comes round at last: the cancelled task must not run
        assertEquals(0, ran[0], "a verb that reported ETIMEDOUT took no effect");
    }

    private static boolean joined(final Thread thread)
    {
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
