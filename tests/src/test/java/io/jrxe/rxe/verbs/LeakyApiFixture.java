package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.DevicePort;
import io.jrxe.rxe.spi.SendWqe;
import io.jrxe.rxe.spi.WqeRing;

/**
 * A deliberately leaky "API" class for {@code ArchitectureTest}: it sits in the API package and hands out provider
 * types, so the test can show that its rule flags exactly that. Never used otherwise.
 */
public final class LeakyApiFixture
{
    private final DevicePort port;

    /**
     * @param port a provider-side type in a public constructor (a violation)
     */
    public LeakyApiFixture(final DevicePort port)
    {
        this.port = port;
    }

    /**
     * @param qp a QP
     * @return its send ring (a violation)
     */
    public WqeRing<SendWqe> sendRing(final QueuePair qp)
    {
        return port.sendRing(qp);
    }
}
