package io.jrxe.rxe.verbs;

/**
 * Completion event callback of a CQ armed with {@link CompletionQueue#reqNotify(boolean)}. Called once per
 * arming, on the engine thread that posted the triggering completion; it should only wake the consumer.
 */
@FunctionalInterface
public interface CompletionHandler
{
    /**
     * @param cq the CQ that has a new completion.
     */
    void onCompletionEvent(CompletionQueue cq);
}
