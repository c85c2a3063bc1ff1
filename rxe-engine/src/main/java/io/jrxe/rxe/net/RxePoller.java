package io.jrxe.rxe.net;

/**
 * Hook through which the engine's duty cycle drives the network stack (NIC rx/tx, ARP, ...). The stack hands
 * RoCEv2 datagrams to the engine's {@link RxePacketSink} from inside {@link #poll()}.
 */
@FunctionalInterface
public interface RxePoller
{
    /**
     * Runs one batch of network work.
     *
     * @return amount of work done, 0 when idle (drives the idle strategy)
     */
    int poll();
}
