package io.jrxe.ulp.cmapps;

import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcFlags;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.ConnParam;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;

import java.util.List;

/**
 * rdma-core's {@code udaddy} (librdmacm/examples/udaddy.c) on jrxe's rdma_cm, wire-compatible with it in both roles:
 * UD QPs with Q_Key {@link CmId#RDMA_UDP_QKEY}, found through SIDR on the UDP port space, port 7174.
 * <pre>
 *   client, per id:  resolve_addr, resolve_route; check -S against the active MTU; create QP, post C receives,
 *                    connect (a SIDR_REQ) -&gt; ESTABLISHED carries the server QP's number, Q_Key and address:
 *                    make an AH from it
 *   server:          listen; CONNECT_REQUEST (the SIDR_REQ): check -S, create QP, post C receives, accept with
 *                    the QP's number (the SIDR_REP); the id counts as connected (no ESTABLISHED on this side)
 *   client:          C unsignaled SEND_WITH_IMM per id, imm = its own QPN; then wait for C receives per id
 *   server:          wait for C receives per id; the first one gives the reply AH (from the completion and the
 *                    GRH, ibv_create_ah_from_wc) and the peer QPN (the immediate); C signaled replies per id,
 *                    then wait for their completions
 * </pre>
 * The immediate is the QPN as a big-endian 32-bit number, what {@code htobe32(qp_num)} puts on the wire. A UD
 * receive starts with the 40-byte GRH area, so receive slots are S + 40 bytes:
 * <pre>
 *   per id: | send 0 | ... | send C-1 | GRH 40 | recv 0 (S) | ... | GRH 40 | recv C-1 (S) |
 * </pre>
 * Not supported: {@code -P ipoib} (no IPoIB on RoCE) and {@code -f} (address formats other than IPv4).
 * What it shares with {@link Cmatose} (set-up, polling, clean-up) is {@code CmTestTool}'s.
 */
public final class Udaddy extends CmTestTool<Udaddy.UdNode>
{
    /** udaddy's port. */
    public static final int DEFAULT_PORT = 7174;
    /** The receive buffer's header area ({@code sizeof(struct ibv_grh)}). */
    public static final int GRH_LENGTH = 40;
    private static final int SERVER_SEED = 0x75;
    private static final int CLIENT_SEED = 0x63;
    private static final Profile PROFILE =
        new Profile("udaddy", List.of(PortSpace.UDP), GRH_LENGTH, CLIENT_SEED, SERVER_SEED, "id", "resolutions");

    /** One id: udaddy's {@code struct cmatest_node}, with the peer's address to send to. */
    static final class UdNode extends Node
    {
        AddressHandle ah;
        int remoteQpn;
        int remoteQkey;

        UdNode(final int index)
        {
            super(index);
        }
    }

    private final SendWorkRequest wr = new SendWorkRequest(1);

    /**
     * @param cm the node's connection manager
     * @param settings the options (start from {@link #settings()})
     * @throws IllegalArgumentException if an option is out of range
     */
    public Udaddy(final RdmaCm cm, final CmTestSettings settings)
    {
        super(cm, settings, PROFILE, UdNode::new);
    }

    /** @return udaddy's defaults: port 7174, UDP port space, 1 connection, 10 messages of 100 bytes */
    public static CmTestSettings settings()
    {
        return new CmTestSettings(DEFAULT_PORT, PortSpace.UDP);
    }

    @Override
    void serverTransfers()
    {
        if (count > 0)
        {
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("sending replies");
            for (final UdNode c : nodes)
            {
                postSends(c, SendFlags.SIGNALED);
            }
            pollCqs(true);
            support.log("data transfers complete");
        }
    }

    @Override
    void clientTransfers()
    {
        if (count > 0)
        {
            support.log("initiating data transfers");
            for (final UdNode c : nodes)
            {
                postSends(c, 0);
            }
            support.log("receiving data transfers");
            pollCqs(false);
            support.log("data transfers complete");
        }
    }

    @Override
    void onRouteResolved(final UdNode c)
    {
        verifyTestParams(c.id);
        prepare(c, false);
        c.id.connect(new ConnParam()); // udaddy zeroes its conn_param: no private data
    }

    /** The SIDR_REQ: answered with the QP's number (the SIDR_REP); no ESTABLISHED follows on this side. */
    @Override
    void onConnectRequest(final UdNode c)
    {
        verifyTestParams(c.id);
        prepare(c, false);
        c.id.accept(new ConnParam().qpNum(c.id.qp().qpn()));
        connected(c);
    }

    /** udaddy's {@code resolved_handler}: the SIDR_REP's QPN, Q_Key and address vector. */
    @Override
    void onEstablished(final UdNode c, final CmEvent event)
    {
        c.remoteQpn = event.qpNum();
        c.remoteQkey = event.qkey();
        c.ah = c.id.verbs().createAh(c.id.pd(), event.ahAttr());
        connected(c);
    }

    private void verifyTestParams(final CmId id)
    {
        final int mtu = id.verbs().queryPort(id.portNum(), new PortAttr()).activeMtu().bytes();
        if (count > 0 && size > mtu)
        {
            throw new IllegalStateException("udaddy: message_size " + size + " is larger than active mtu " + mtu);
        }
    }

    @Override
    int postSend(final UdNode c, final int slot, final int flags)
    {
        final QueuePair qp = c.id.qp();
        // the C tool's imm_data = htobe32(qp_num): jrxe's immData is written big-endian, so the QPN as it is
        wr.wrId(slot).opcode(WrOpcode.SEND_WITH_IMM).sendFlags(flags).immData(qp.qpn()).ah(c.ah)
            .remoteQpn(c.remoteQpn).remoteQkey(c.remoteQkey).next(null);
        wr.sgl().clear().add(c.buffer.addressOffset() + (long)slot * size, size, c.mr.lkey());
        return qp.postSend(wr);
    }

    @Override
    String postError(final UdNode c)
    {
        return " (" + c.id.qp().postError() + ")";
    }

    /** udaddy's {@code create_reply_ah}: the server answers whoever sent the first message, with our own Q_Key. */
    @Override
    void afterReceives(final UdNode c, final WorkCompletion first)
    {
        if (null != c.ah)
        {
            return;
        }
        c.ah = c.id.verbs().createAhFromWc(c.id.pd(), first, c.buffer, recvOffset((int)first.wrId()),
            c.id.portNum());
        c.remoteQpn = first.immData();
        c.remoteQkey = c.id.qkey();
    }

    @Override
    boolean goodReceive(final UdNode c, final WorkCompletion wc)
    {
        // the immediate names the sending QP (the DETH's source QPN); a client also knows it from the SIDR_REP
        final boolean sender = wc.srcQp() == wc.immData() && (!s.isClient() || c.remoteQpn == wc.immData());
        return 0 != (wc.wcFlags() & WcFlags.WITH_IMM) && sender && super.goodReceive(c, wc);
    }

    @Override
    void releaseNode(final UdNode c)
    {
        if (null != c.ah)
        {
            c.id.verbs().destroyAh(c.ah);
        }
    }
}
