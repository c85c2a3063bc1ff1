/**
 * The verbs API, jrxe's ib_verbs: what an application or an upper-layer protocol uses, and nothing of the engine.
 * <pre>
 *   RxeDevice ── ProtectionDomain ── MemoryRegion (regMr, allocMr + mapMrSg + REG_MR), FastMemoryRegion, MemoryWindow
 *       │                        │     MemoryRegion INTEGRITY (allocMrIntegrity + mapMrSgPi + sigAttrs + REG_MR_INTEGRITY,
 *       │                        │     checkMrStatus): T10-DIF inserted/stripped/checked on the fly (SigAttrs)
 *       │                        └── QueuePair (RC, UC, UD, GSI) ── postSend / postRecv
 *       │                        └── SharedReceiveQueue, AddressHandle
 *       ├── CompletionQueue ── poll, reqNotify ──▶ CompletionChannel (getEvent / pollEvent, ackEvents)
 *       ├── async events ──▶ getAsyncEvent / ackAsyncEvent, or an AsyncEventHandler
 *       ├── dma() (ib_dma_*), queryDevice / queryPort / queryGid, rdma_cap_*
 *       └── (DevicePort, io.jrxe.rxe.spi: the engine's side, claimed once, not reachable from here)
 * </pre>
 * Threading model: control verbs (create/modify/query/destroy, registration) are thread-safe through the
 * {@link io.jrxe.rxe.verbs.RxeDevice} lock and may allocate and throw {@link io.jrxe.rxe.verbs.VerbsException} with the
 * kernel's errno and a message that says what to fix. Data-path verbs ({@code postSend}, {@code postRecv},
 * {@code poll}, {@code reqNotify}) allocate nothing, never throw for bad input and return {@code 0} or a negative
 * {@link io.jrxe.rxe.verbs.Errno} value. Each data-path ring is single-producer/single-consumer: the application
 * thread produces work requests and consumes completions, the engine thread consumes work requests and produces
 * completions. Verbs that change state the engine reads without a lock (CQ resize, FMR maps) run on the engine
 * thread through its invoker and wait for it. Completion events reach waiting threads through a
 * {@link io.jrxe.rxe.verbs.CompletionChannel} without a lost wake-up; the engine thread never blocks on them.
 */
package io.jrxe.rxe.verbs;
