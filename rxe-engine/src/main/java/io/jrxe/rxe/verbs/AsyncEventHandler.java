package io.jrxe.rxe.verbs;

/**
 * Receives asynchronous events. Called on the thread that detected the event (usually the engine thread), so an
 * implementation must be quick and must not block or call back into data-path verbs of the same object.
 */
@FunctionalInterface
public interface AsyncEventHandler
{
    /**
     * @param event the event type.
     * @param element the affiliated object: QPN for QP events, CQ handle for CQ events, SRQ handle for SRQ events,
     *                port number for port events.
     */
    void onAsyncEvent(AsyncEvent event, int element);
}
