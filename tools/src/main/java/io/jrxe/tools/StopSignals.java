package io.jrxe.tools;

import sun.misc.Signal;

/**
 * Turns SIGINT and SIGTERM into a request to stop, for commands that own a device: their loop ends, they reset
 * and release the device, and exit with their own status. (With the JVM's default handling, SIGTERM starts the
 * shutdown sequence at once and the process exits with 143 whatever the command does.)
 */
final class StopSignals
{
    private StopSignals()
    {
    }

    static void install(final Runnable onStop)
    {
        final sun.misc.SignalHandler handler = signal -> onStop.run();
        Signal.handle(new Signal("INT"), handler);
        Signal.handle(new Signal("TERM"), handler);
    }
}
