package io.jrxe.ulp.oob;

import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.RdmaCmException;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Bounded waits on rdma_cm events for the perftest {@code -R} connections: every event taken is acknowledged at
 * once (an id can only be destroyed with none outstanding), a wait that passes its bound or meets an error event
 * fails with an {@link OobException} that names the step.
 */
final class PerftestCmEvents
{
    /** perftest's {@code rdma_resolve_addr}/{@code rdma_resolve_route} timeout. */
    static final int RESOLVE_TIMEOUT_MS = 2000;

    private PerftestCmEvents()
    {
    }

    /** An error event (REJECTED, UNREACHABLE, ...): the step failed on the peer's or the path's account. */
    static final class Failure extends OobException
    {
        private static final long serialVersionUID = 1L;

        private final transient CmEventType type;

        Failure(final String message, final CmEventType type)
        {
            super(message);
            this.type = type;
        }

        /** @return the event that ended the wait. */
        CmEventType type()
        {
            return type;
        }
    }

    /**
     * Waits for one event of {@code expected}.
     *
     * @param channel   where the event arrives.
     * @param expected  the event the step leads to.
     * @param timeoutNs bound.
     * @param what      the step, for errors ("... while waiting for ESTABLISHED of {what}").
     * @return the event, acknowledged.
     * @throws Failure     on any other event (the CM's error events, or one the step cannot lead to).
     * @throws OobException on timeout.
     */
    static CmEvent await(final EventChannel channel, final CmEventType expected, final long timeoutNs,
        final String what) throws OobException
    {
        final CmEvent event = next(channel, System.nanoTime() + timeoutNs);
        if (null == event)
        {
            throw new OobException("timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) +
                " ms waiting for " + expected.str() + " of " + what);
        }
        if (expected != event.type())
        {
            throw new Failure(what + " failed: " + event.type().str() + (0 != event.status() ?
                " (status " + event.status() + ")" : "") + " instead of " + expected.str() + hint(event), event.type());
        }
        return event;
    }

    /** {@code rdma_resolve_addr} then {@code rdma_resolve_route}, 2 s each as perftest gives them. */
    static void resolve(final CmId id, final EventChannel channel, final InetSocketAddress server, final String what)
        throws OobException
    {
        id.resolveAddr(null, server, RESOLVE_TIMEOUT_MS);
        await(channel, CmEventType.ADDR_RESOLVED, TimeUnit.MILLISECONDS.toNanos(2 * RESOLVE_TIMEOUT_MS), what);
        id.resolveRoute(RESOLVE_TIMEOUT_MS);
        await(channel, CmEventType.ROUTE_RESOLVED, TimeUnit.MILLISECONDS.toNanos(2 * RESOLVE_TIMEOUT_MS), what);
    }

    /** Acknowledges whatever is queued, so that the ids can be destroyed. */
    static void drain(final EventChannel channel)
    {
        for (CmEvent event = channel.pollEvent(); null != event; event = channel.pollEvent())
        {
            channel.ackEvent(event);
        }
    }

    /**
     * {@code rdma_destroy_id}, first acknowledging what is queued; an event that arrives in between makes the id
     * refuse (EBUSY), so drain and try again.
     */
    static void destroy(final CmId id, final EventChannel channel)
    {
        for (int attempt = 1; ; attempt++)
        {
            drain(channel);
            try
            {
                id.destroy();
                return;
            }
            catch (final RdmaCmException ex)
            {
                if (attempt >= 3)
                {
                    throw ex;
                }
            }
        }
    }

    /**
     * The next event, acknowledged, or null once {@code deadline} ({@link System#nanoTime()}) has passed.
     */
    static CmEvent next(final EventChannel channel, final long deadline)
    {
        final long remaining = deadline - System.nanoTime();
        if (remaining <= 0)
        {
            return null;
        }
        try
        {
            final CmEvent event = channel.getEvent(remaining, TimeUnit.NANOSECONDS);
            if (null != event)
            {
                channel.ackEvent(event);
            }
            return event;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String hint(final CmEvent event)
    {
        if (CmEventType.REJECTED == event.type() && 8 == event.status())
        {
            return ": nobody listens on that port (REJ reason 8, invalid service ID); is the server side started?";
        }
        return "";
    }
}
