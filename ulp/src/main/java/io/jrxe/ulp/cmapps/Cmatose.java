package io.jrxe.ulp.cmapps;

import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaVerbs;

import java.util.List;

/**
 * rdma-core's {@code cmatose} (installed as {@code ucmatose}, librdmacm/examples/cmatose.c) on jrxe's rdma_cm,
 * wire-compatible with it in both roles. Every connection is RC with {@code sq_sig_all}, its own PD and two CQs,
 * and all ids share one asynchronous event channel, as in the C tool:
 * <pre>
 *   client, per id:  resolve_addr -&gt; ADDR_RESOLVED: resolve_route -&gt; ROUTE_RESOLVED: create QP, post C receives,
 *                    connect (responder_resources 1, initiator_depth 1, retry 5, rnr retry 0)
 *   server:          bind + listen on port 7471; CONNECT_REQUEST: create QP, post C receives, accept(NULL)
 *   both:            wait until every id is ESTABLISHED
 *   server:          post C sends per connection, wait for them, then wait for C receives per connection
 *   client:          wait for C receives per connection, then post C sends per connection (the replies)
 *   server:          disconnect all; the client answers each DISCONNECTED with its own disconnect
 * </pre>
 * jrxe gives message i its own send and receive slot (the C tool reuses one buffer: its payload is whatever the
 * buffer holds), so with {@link CmTestSettings#verify()} each side can check what it received:
 * <pre>
 *   per connection: | send 0 | send 1 | ... | send C-1 | recv 0 | recv 1 | ... | recv C-1 |   (S bytes each)
 * </pre>
 * Not supported: {@code -m} (migrating the ids to a new channel) and {@code -f} (address formats other than IPv4).
 * What it shares with {@link Udaddy} (set-up, polling, clean-up) is {@code CmTestTool}'s.
 */
public final class Cmatose extends CmTestTool<CmTestTool.Node>
{
    /** cmatose's port. */
    public static final int DEFAULT_PORT = 7471;
    private static final int SERVER_SEED = 0x53;
    private static final int CLIENT_SEED = 0x43;
    /** An RC receive lands at the start of its slot: no header area. */
    private static final Profile PROFILE = new Profile("cmatose", List.of(PortSpace.TCP, PortSpace.IB), 0,
        CLIENT_SEED, SERVER_SEED, "connection", "connections");

    private int disconnectsLeft;

    /**
     * @param cm the node's connection manager
     * @param settings the options (start from {@link #settings()})
     * @throws IllegalArgumentException if an option is out of range
     */
    public Cmatose(final RdmaCm cm, final CmTestSettings settings)
    {
        super(cm, settings, PROFILE, Node::new);
    }

    /** @return cmatose's defaults: port 7471, TCP port space, 1 connection, 10 messages of 100 bytes */
    public static CmTestSettings settings()
    {
        return new CmTestSettings(DEFAULT_PORT, PortSpace.TCP);
    }

    @Override
    void serverTransfers()
    {
        if (count > 0)
        {
            support.log("initiating data transfers");
            for (final Node c : nodes)
            {
                postSends(c, 0);
            }
            support.log("completing sends");
            pollCqs(true);
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("data transfers complete");
        }
        support.log("cmatose: disconnecting");
        for (final Node c : nodes)
        {
            if (c.connected)
            {
                c.connected = false;
                c.id.disconnect();
            }
        }
        disconnectEvents();
        support.log("disconnected");
    }

    @Override
    void clientTransfers()
    {
        if (count > 0)
        {
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("sending replies");
            for (final Node c : nodes)
            {
                postSends(c, 0);
            }
            support.log("data transfers complete");
        }
        disconnectEvents();
    }

    private void disconnectEvents()
    {
        while (disconnectsLeft > 0)
        {
            handleNext(disconnectsLeft + " disconnections");
        }
    }

    @Override
    void onRouteResolved(final Node c)
    {
        prepare(c, true);
        // cmatose zeroes its conn_param, then sets these three: no private data, RNR retry 0
        c.id.connect(new ConnParam().responderResources(1).initiatorDepth(1).retryCount(5).rnrRetryCount(0));
    }

    @Override
    void onConnectRequest(final Node c)
    {
        prepare(c, true);
        c.id.accept(null);
    }

    @Override
    void onEstablished(final Node c, final CmEvent event)
    {
        connected(c);
        disconnectsLeft++;
    }

    /** DISCONNECTED: the client answers the server's DREQ with its own disconnect, as cmatose does. */
    @Override
    void onOtherEvent(final CmEvent event)
    {
        if (CmEventType.DISCONNECTED == event.type())
        {
            event.id().disconnect();
            disconnectsLeft--;
        }
    }

    @Override
    int postSend(final Node c, final int slot, final int flags)
    {
        return RdmaVerbs.postSend(c.id, slot, c.buffer.addressOffset() + (long)slot * size, size, c.mr, flags);
    }
}
