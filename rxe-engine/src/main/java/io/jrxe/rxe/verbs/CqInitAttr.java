package io.jrxe.rxe.verbs;

/**
 * What a CQ is created with ({@code struct ib_cq_init_attr} plus the handler, channel and context arguments of
 * {@code ib_create_cq} / {@code ibv_create_cq}). Fluent setters share the getter's name.
 */
public final class CqInitAttr
{
    private int cqe;
    private CompletionHandler handler;
    private CompletionChannel channel;
    private Object context;
    private int compVector;

    /** @return minimum number of entries. */
    public int cqe()
    {
        return cqe;
    }

    /**
     * @param value minimum number of entries, 1..max_cqe
     * @return this
     */
    public CqInitAttr cqe(final int value)
    {
        cqe = value;
        return this;
    }

    /** @return the callback run on the engine thread when an armed CQ fires, or null. */
    public CompletionHandler handler()
    {
        return handler;
    }

    /**
     * @param value called on the engine thread when an armed CQ fires (the kernel's {@code comp_handler}); it must
     *              only wake the consumer
     * @return this
     */
    public CqInitAttr handler(final CompletionHandler value)
    {
        handler = value;
        return this;
    }

    /** @return the channel events are queued on, or null. */
    public CompletionChannel channel()
    {
        return channel;
    }

    /**
     * @param value the completion channel an armed CQ's events are queued on ({@code ibv_comp_channel}), of the
     *              same device
     * @return this
     */
    public CqInitAttr channel(final CompletionChannel value)
    {
        channel = value;
        return this;
    }

    /** @return the consumer's context object. */
    public Object context()
    {
        return context;
    }

    /**
     * @param value the consumer's object, returned by {@link CompletionQueue#context()} ({@code cq_context})
     * @return this
     */
    public CqInitAttr context(final Object value)
    {
        context = value;
        return this;
    }

    /** @return the completion vector. */
    public int compVector()
    {
        return compVector;
    }

    /**
     * @param value completion vector, 0..num_comp_vectors-1 (jrxe has one: its engine thread)
     * @return this
     */
    public CqInitAttr compVector(final int value)
    {
        compVector = value;
        return this;
    }
}
