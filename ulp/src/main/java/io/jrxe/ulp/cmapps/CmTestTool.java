package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.WcOpcode;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * What cmatose.c and udaddy.c share, their {@code struct cmatest}: the nodes (one id each, with its QP, message
 * buffer and MR), one asynchronous event channel for all ids, and the steps both C tools take the same way. The
 * server binds and listens, takes up to {@code -c} requests and refuses one more; the client creates {@code -c} ids
 * and resolves them (setting {@code -t} between address and route); every node gets a QP, a buffer whose first C
 * slots of S bytes hold what it sends, and C posted receives; completions are polled node by node, C each; at the end
 * every MR and id is released and the channel closed, even after a failure.
 * <p>
 * jrxe gives message i its own send and receive slot (the C tools reuse one buffer), so each side can check what it
 * received; a receive slot starts with the transport's header area ({@link Profile#recvHeader()}: a UD receive's
 * GRH):
 * <pre>
 *   per node: | send 0 | ... | send C-1 | header | recv 0 | ... | header | recv C-1 |   (S bytes each message)
 * </pre>
 * A subclass keeps what really differs between the C tools: the transport and its connection parameters, what
 * makes a node count as connected, how a message is sent, what a good receive looks like, and the order of the data
 * phases ({@link #serverTransfers()}, {@link #clientTransfers()}).
 *
 * @param <N> the tool's node
 */
abstract class CmTestTool<N extends CmTestTool.Node>
{
    private static final int RESOLVE_TIMEOUT_MS = 2000;

    /** One id: the C tools' {@code struct cmatest_node}, as far as both have it. */
    static class Node
    {
        final int index;
        CmId id;
        boolean connected;
        UnsafeBuffer buffer;
        MemoryRegion mr;

        Node(final int index)
        {
            this.index = index;
        }
    }

    /**
     * What tells the tools apart in their options, buffers, lines and payloads.
     *
     * @param tool       the C tool's name, the prefix of its progress lines and messages
     * @param portSpaces the port spaces its transport runs on
     * @param recvHeader the bytes in front of each received message (a UD receive's GRH)
     * @param clientSeed the client's payload pattern seed
     * @param serverSeed the server's payload pattern seed
     * @param node       what the tool calls one node in a timeout message ("connection", "id")
     * @param setUp      what it waits for while setting up, in a timeout message ("connections", "resolutions")
     */
    record Profile(String tool, List<PortSpace> portSpaces, int recvHeader, int clientSeed, int serverSeed,
        String node, String setUp)
    {
    }

    final CmTestSettings s;
    final String tool;
    final int count;
    final int size;
    final List<N> nodes = new ArrayList<>();
    CmTestSupport support;
    private final RdmaCm cm;
    private final Profile profile;
    private final IntFunction<N> newNode;
    private final Map<CmId, N> byId = new IdentityHashMap<>();
    private final WorkCompletion[] wcs = new WorkCompletion[8];
    private EventChannel channel;
    private CmId listenId;
    private CmId rejected;
    private int connIndex;
    private int connectsLeft;
    private long sent;
    private long received;
    private long bad;
    private long firstConnectNs;
    private long lastConnectNs;

    /**
     * @param cm the node's connection manager
     * @param settings the options, checked here
     * @param profile the tool's name, port spaces, buffer layout, seeds and words
     * @param newNode makes the tool's node number i
     * @throws IllegalArgumentException if an option is out of range
     */
    CmTestTool(final RdmaCm cm, final CmTestSettings settings, final Profile profile, final IntFunction<N> newNode)
    {
        this.cm = cm;
        this.profile = profile;
        this.newNode = newNode;
        this.tool = profile.tool();
        this.s = settings.check(tool);
        requirePortSpace();
        this.count = s.messageCount();
        this.size = s.messageSize();
        CmTestSupport.checkBufferSize(tool, (long)count * (2L * size + profile.recvHeader()));
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
    }

    private void requirePortSpace()
    {
        if (!profile.portSpaces().contains(s.portSpace()))
        {
            throw new IllegalArgumentException(tool + ": port space must be " + profile.portSpaces().stream()
                .map(PortSpace::name).collect(Collectors.joining(" or ")) + ", got " + s.portSpace());
        }
    }

    /** The server's data phases and ending, once every node is connected. */
    abstract void serverTransfers();

    /** The client's data phases and ending, once every node is connected. */
    abstract void clientTransfers();

    /** ROUTE_RESOLVED on a client's node: set the node up and connect. */
    abstract void onRouteResolved(N node);

    /** A CONNECT_REQUEST taken on as {@code node} (its id set): set the node up and accept. */
    abstract void onConnectRequest(N node);

    /** ESTABLISHED on one of the client's nodes (cmatose: on either side). */
    abstract void onEstablished(N node, CmEvent event);

    /**
     * Post send {@code slot} of a node.
     *
     * @return 0, or the post's error
     */
    abstract int postSend(N node, int slot, int flags);

    /** Any other event (not an error one: those end the run before). Nothing to do by default. */
    void onOtherEvent(final CmEvent event)
    {
        // DEVICE_REMOVAL: clean-up follows the test; TIMEWAIT_EXIT: nothing to do
    }

    /** @return what follows a failed post's number in its message (nothing by default) */
    String postError(final N node)
    {
        return "";
    }

    /** Called after each batch of receive completions of a node, with its first. Nothing by default. */
    void afterReceives(final N node, final WorkCompletion first)
    {
    }

    /** Release what the tool hung on a node besides its MR, QP and id. Nothing by default. */
    void releaseNode(final N node)
    {
    }

    /**
     * Runs the whole test, releasing every id, QP, AH and MR before returning.
     *
     * @return what was exchanged and how long setting up took
     * @throws CmEventFailure if the CM reported an error event (rejected, unreachable, SIDR refused ...)
     * @throws IllegalStateException on a timeout, a failed work request or (udaddy) a message larger than the MTU
     */
    public final CmTestResult run()
    {
        final long start = System.nanoTime();
        for (int i = 0; i < s.connections(); i++)
        {
            nodes.add(newNode.apply(i));
        }
        support = new CmTestSupport(tool, s, start);
        channel = cm.createEventChannel();
        connectsLeft = nodes.size();
        RuntimeException failure = null;
        try
        {
            runRole();
            support.log("test complete");
        }
        catch (final RuntimeException e)
        {
            failure = e;
            throw e;
        }
        finally
        {
            new Teardown(failure).step(this::destroyAll).finish();
        }
        support.log("return status 0");
        return new CmTestResult(s.isClient(), nodes.size(), count, size, sent, received, bad,
            lastConnectNs - firstConnectNs, System.nanoTime() - start);
    }

    private void runRole()
    {
        if (s.isClient())
        {
            clientSetUp();
            clientTransfers();
        }
        else
        {
            serverSetUp();
            serverTransfers();
        }
    }

    private void serverSetUp()
    {
        support.log(tool + ": starting server");
        listenId = cm.createId(channel, this, s.portSpace());
        listenId.bindAddr(null == s.bindAddress() ? new InetSocketAddress(s.port()) :
            new InetSocketAddress(s.bindAddress(), s.port()));
        listenId.listen(0);
        s.listening().run();
        connectEvents();
    }

    private void clientSetUp()
    {
        support.log(tool + ": starting client");
        final InetSocketAddress dst = new InetSocketAddress(s.serverAddress(), s.port());
        final InetSocketAddress src = null == s.bindAddress() ? null : new InetSocketAddress(s.bindAddress(), 0);
        for (final N c : nodes)
        {
            c.id = cm.createId(channel, c, s.portSpace());
            byId.put(c.id, c);
        }
        support.log(tool + ": connecting");
        firstConnectNs = System.nanoTime();
        for (final N c : nodes)
        {
            c.id.resolveAddr(src, dst, RESOLVE_TIMEOUT_MS);
        }
        connectEvents();
    }

    private void connectEvents()
    {
        while (connectsLeft > 0)
        {
            handleNext(connectsLeft + " of " + nodes.size() + " " + profile.setUp());
        }
    }

    /**
     * Wait for the next event and handle it as the C tools' {@code cma_handler} does; it is acknowledged afterwards,
     * as there.
     *
     * @param what what the tool waits for, for the timeout message
     */
    final void handleNext(final String what)
    {
        final CmEvent event = support.nextEvent(channel, what);
        try
        {
            support.failOnError(event);
            switch (event.type())
            {
                case ADDR_RESOLVED -> addrHandler(event.id());
                case ROUTE_RESOLVED -> onRouteResolved(byId.get(event.id()));
                case CONNECT_REQUEST -> connectHandler(event.id());
                case ESTABLISHED -> onEstablished(byId.get(event.id()), event);
                default -> onOtherEvent(event);
            }
        }
        finally
        {
            channel.ackEvent(event);
        }
    }

    private void addrHandler(final CmId id)
    {
        if (s.tos() >= 0)
        {
            id.setTos(s.tos());
        }
        id.resolveRoute(RESOLVE_TIMEOUT_MS);
    }

    private void connectHandler(final CmId id)
    {
        if (0 == connIndex)
        {
            firstConnectNs = System.nanoTime();
        }
        if (connIndex == nodes.size())
        {
            support.log(tool + ": failing connection request");
            rejected = id;
            id.reject(null);
            throw new IllegalStateException(tool + ": more connection requests than the " + nodes.size() +
                " connections expected (-c)");
        }
        final N c = nodes.get(connIndex++);
        c.id = id;
        byId.put(id, c);
        onConnectRequest(c);
    }

    /** The node is connected: one fewer to wait for, and the set-up time runs to here. */
    final void connected(final N c)
    {
        c.connected = true;
        connectsLeft--;
        lastConnectNs = System.nanoTime();
    }

    /**
     * The C tools' {@code init_node} and {@code post_recvs}: the QP (on the id's own PD and CQs), the buffer with
     * this side's pattern in the send slots, registered, and C receives posted.
     *
     * @param sqSigAll whether every send is signaled
     */
    final void prepare(final N c, final boolean sqSigAll)
    {
        initNode(c, sqSigAll);
        postRecvs(c);
    }

    private void initNode(final N c, final boolean sqSigAll)
    {
        final int depth = Math.max(1, count);
        final QpInitAttr init = new QpInitAttr().sqSigAll(sqSigAll);
        init.cap().maxSendWr(depth).maxRecvWr(depth).maxSendSge(1).maxRecvSge(1);
        c.id.createQp(null, init);
        if (count > 0)
        {
            c.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(recvOffset(count), 4096));
            c.mr = RdmaVerbs.regMsgs(c.id, c.buffer);
            final int seed = s.isClient() ? profile.clientSeed() : profile.serverSeed();
            for (int i = 0; i < count; i++)
            {
                CmTestSupport.fill(c.buffer, i * size, size, i, seed);
            }
        }
    }

    private void postRecvs(final N c)
    {
        for (int i = 0; i < count; i++)
        {
            final int ret = RdmaVerbs.postRecv(c.id, i, c.buffer.addressOffset() + recvOffset(i),
                profile.recvHeader() + size, c.mr);
            if (0 != ret)
            {
                throw new IllegalStateException(tool + ": failed to post receives: " + ret);
            }
        }
    }

    /** The C tools' {@code post_sends}: C sends on a connected node. */
    final void postSends(final N c, final int flags)
    {
        if (!c.connected)
        {
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final int ret = postSend(c, i, flags);
            if (0 != ret)
            {
                throw new IllegalStateException(tool + ": failed to post sends: " + ret + postError(c));
            }
            sent++;
        }
    }

    /** The C tools' {@code poll_cqs}: C completions from each connected node's send or receive CQ. */
    final void pollCqs(final boolean send)
    {
        for (final N c : nodes)
        {
            if (c.connected)
            {
                pollCq(c, send);
            }
        }
    }

    private void pollCq(final N c, final boolean send)
    {
        final String what = (send ? "send" : "receive") + " completions of " + profile.node() + " " + c.index;
        for (int done = 0; done < count; )
        {
            final int n = send ?
                support.awaitCompletions(c.id.sendCq(), c.id.sendCqChannel(), wcs, what) :
                support.awaitCompletions(c.id.recvCq(), c.id.recvCqChannel(), wcs, what);
            for (int k = 0; k < n; k++)
            {
                support.requireSuccess(wcs[k], send ? "send" : "receive");
                if (!send)
                {
                    countReceive(c, wcs[k]);
                }
            }
            if (!send)
            {
                afterReceives(c, wcs[0]);
            }
            done += n;
        }
    }

    private void countReceive(final N c, final WorkCompletion wc)
    {
        received++;
        if (!goodReceive(c, wc))
        {
            bad++;
        }
    }

    /** @return where receive slot {@code slot} (its header area first) starts in a node's buffer */
    final int recvOffset(final int slot)
    {
        return count * size + slot * (profile.recvHeader() + size);
    }

    /**
     * What both tools check of a received message; a tool may check more.
     *
     * @param wc a successful completion from a node's receive CQ
     * @return whether it is a RECV that filled its whole slot and, with {@link CmTestSettings#verify()}, holds the
     *     peer's pattern
     */
    boolean goodReceive(final N c, final WorkCompletion wc)
    {
        final int slot = (int)wc.wrId();
        return WcOpcode.RECV == wc.opcode() && profile.recvHeader() + size == wc.byteLen() &&
            (!s.verify() || CmTestSupport.matches(c.buffer, recvOffset(slot) + profile.recvHeader(), size, slot,
                s.isClient() ? profile.serverSeed() : profile.clientSeed()));
    }

    private void destroyAll()
    {
        for (final N c : nodes)
        {
            if (null == c.id)
            {
                continue;
            }
            releaseNode(c);
            if (null != c.mr)
            {
                RdmaVerbs.deregMr(c.id, c.mr);
            }
            CmTestSupport.destroy(channel, c.id);
        }
        for (final CmId id : new CmId[]{rejected, listenId})
        {
            if (null != id)
            {
                CmTestSupport.destroy(channel, id);
            }
        }
        channel.close();
    }
}
