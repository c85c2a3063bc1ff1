/**
 * The verbs object layer of the rxe engine: device and port attributes, GID table, protection domains, memory
 * regions and windows, completion queues, queue pairs with their send/receive rings, shared receive queues,
 * address handles and asynchronous events.
 * <p>
 * Threading model: control verbs (create/modify/query/destroy, registration) are thread-safe through the
 * {@link io.jrxe.rxe.verbs.RxeDevice} lock and may allocate and throw {@link io.jrxe.rxe.verbs.VerbsException}.
 * Data-path verbs ({@code postSend}, {@code postRecv}, {@code poll}, {@code reqNotify}) allocate nothing, never
 * throw for bad input and return {@code 0} or a negative {@link io.jrxe.rxe.verbs.Errno} value. Each data-path
 * ring is single-producer/single-consumer: the application thread produces work requests and consumes completions,
 * the engine thread consumes work requests and produces completions.
 */
package io.jrxe.rxe.verbs;
