package io.jrxe.ulp.cmapps;

import io.jrxe.net.Ipv6;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.PortAttr;
import io.jrxe.rxe.verbs.QpInitAttr;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import io.jrxe.ulp.rdmacm.CmEvent;
import io.jrxe.ulp.rdmacm.CmEventType;
import io.jrxe.ulp.rdmacm.CmId;
import io.jrxe.ulp.rdmacm.EventChannel;
import io.jrxe.ulp.rdmacm.PortSpace;
import io.jrxe.ulp.rdmacm.RdmaCm;
import io.jrxe.ulp.rdmacm.RdmaVerbs;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * rdma-core's {@code mckey} (librdmacm/examples/mckey.c) on jrxe's rdma_cm, wire-compatible with it both ways: one
 * UD id on the UDP port space joins a multicast group and either sends C messages of S bytes to it or receives C.
 * <pre>
 *   resolve_addr(bind, group) -&gt; ADDR_RESOLVED: create the QP (C sends, C receives); a receiver posts C
 *                                receives of S + 40 (the GRH area); join_multicast(group)
 *   MULTICAST_JOIN: the group's address vector, QPN 0xFFFFFF, Q_Key 0x01234567 (RDMA_UDP_QKEY) -&gt; an AH
 *   sender:   C SEND_WITH_IMM of S bytes, imm = the QPN (htobe32(qp_num) on the wire), to QPN 0xFFFFFF
 *   receiver: C receive completions
 *   leave_multicast, destroy
 * </pre>
 * Where the C tool's sends are unsignaled and it leaves at once, jrxe signals them and waits for their completions
 * before it leaves, so that no message is still queued when the QP goes (what is on the wire is the same). The C
 * receiver only counts completions; jrxe's also checks each one's status and length.
 */
public final class Mckey
{
    /** The receive buffer's header area ({@code sizeof(struct ibv_grh)}). */
    public static final int GRH_LENGTH = 40;
    private static final int RESOLVE_TIMEOUT_MS = 2000;

    private final RdmaCm cm;
    private final MckeySettings s;
    private final CmTestSupport support;
    private final WorkCompletion[] wcs = new WorkCompletion[16];

    /**
     * @param cm the node's connection manager
     * @param settings mckey's options (checked here)
     * @throws IllegalArgumentException if an option is wrong
     */
    public Mckey(final RdmaCm cm, final MckeySettings settings)
    {
        this.cm = cm;
        this.s = settings.check();
        this.support = new CmTestSupport("mckey", new CmTestSettings(0, PortSpace.UDP)
            .timeout(settings.timeoutMs(), TimeUnit.MILLISECONDS).log(settings.log()), System.nanoTime());
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
    }

    /**
     * Runs the test.
     *
     * @return how it ended
     * @throws CmEventFailure on an error event (ADDR_ERROR ...)
     * @throws IllegalStateException on a timeout or a failed verb
     */
    public MckeyResult run()
    {
        support.log("mckey: starting " + (s.sender() ? "client" : "server"));
        final EventChannel channel = cm.createEventChannel();
        final CmId id = cm.createId(channel, null, PortSpace.UDP);
        final InetSocketAddress group = new InetSocketAddress(s.group(), 0);
        MemoryRegion mr = null;
        AddressHandle ah = null;
        boolean joined = false;
        try
        {
            id.resolveAddr(null == s.bind() ? null : new InetSocketAddress(s.bind(), 0), group, RESOLVE_TIMEOUT_MS);
            await(channel, CmEventType.ADDR_RESOLVED, "address resolution");
            final int mtu = id.verbs().queryPort(id.portNum(), new PortAttr()).activeMtu().bytes();
            if (s.size() > mtu)
            {
                throw new IllegalStateException("mckey: message size " + s.size() + " is larger than active mtu " +
                    mtu);
            }
            final int depth = Math.max(1, s.count());
            final QpInitAttr init = new QpInitAttr();
            init.cap().maxSendWr(depth).maxRecvWr(depth).maxSendSge(1).maxRecvSge(1);
            id.createQp(null, init);
            final int slot = GRH_LENGTH + s.size();
            final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(depth * slot, 4096));
            mr = RdmaVerbs.regMsgs(id, buffer);
            if (!s.sender())
            {
                for (int i = 0; i < s.count(); i++)
                {
                    check(RdmaVerbs.postRecv(id, i, buffer.addressOffset() + (long)i * slot, slot, mr),
                        "post receives");
                }
            }
            support.log("mckey: joining");
            id.joinMulticast(group, null);
            joined = true;
            final CmEvent join = await(channel, CmEventType.MULTICAST_JOIN, "the multicast join");
            final String dgid = gidText(join.ahAttr().dgidHi(), join.ahAttr().dgidLo());
            ah = id.verbs().createAh(id.pd(), join.ahAttr());
            support.log("mckey: joined dgid: " + dgid + " mlid 0x0 sl 0");
            final int remoteQpn = join.qpNum();
            final int remoteQkey = join.qkey();
            channel.ackEvent(join);
            int completed = 0;
            int failed = 0;
            if (s.count() > 0)
            {
                if (s.sender())
                {
                    support.log("initiating data transfers");
                    postSends(id, ah, remoteQpn, remoteQkey, buffer, mr);
                    for (int done = 0; done < s.count(); )
                    {
                        final int n = support.awaitCompletions(id.sendCq(), id.sendCqChannel(), wcs, "send completions");
                        for (int k = 0; k < n; k++)
                        {
                            if (WcStatus.SUCCESS.code() == wcs[k].status())
                            {
                                completed++;
                            }
                            else
                            {
                                failed++;
                            }
                        }
                        done += n;
                    }
                }
                else
                {
                    support.log("receiving data transfers");
                    for (int done = 0; done < s.count(); )
                    {
                        final int n = support.awaitCompletions(id.recvCq(), id.recvCqChannel(), wcs,
                            "receive completions (" + done + " of " + s.count() + ")");
                        for (int k = 0; k < n; k++)
                        {
                            final boolean good = WcStatus.SUCCESS.code() == wcs[k].status() &&
                                slot == wcs[k].byteLen();
                            completed += good ? 1 : 0;
                            failed += good ? 0 : 1;
                        }
                        done += n;
                    }
                }
                support.log("data transfers complete");
            }
            id.leaveMulticast(group);
            joined = false;
            support.log("test complete");
            return new MckeyResult(s.sender(), dgid, s.count(), s.size(), completed, failed);
        }
        finally
        {
            release(channel, id, joined ? group : null, ah, mr);
        }
    }

    private void postSends(
        final CmId id, final AddressHandle ah, final int remoteQpn, final int remoteQkey, final UnsafeBuffer buffer,
        final MemoryRegion mr)
    {
        final SendWorkRequest wr = new SendWorkRequest(1);
        for (int i = 0; i < s.count(); i++)
        {
            for (int j = 0; j < s.size(); j++)
            {
                buffer.putByte(j, (byte)(i + j));
            }
            // the C tool's imm_data = htobe32(qp_num): jrxe's immData is written big-endian, so the QPN as it is
            wr.wrId(i).opcode(WrOpcode.SEND_WITH_IMM).sendFlags(SendFlags.SIGNALED).immData(id.qp().qpn()).ah(ah)
                .remoteQpn(remoteQpn).remoteQkey(remoteQkey).next(null);
            wr.sgl().clear().add(buffer.addressOffset(), s.size(), mr.lkey());
            final int ret = id.qp().postSend(wr);
            if (0 != ret)
            {
                throw new IllegalStateException("mckey: failed to post sends: " + ret + " (" + id.qp().postError() +
                    ")");
            }
        }
    }

    private CmEvent await(final EventChannel channel, final CmEventType expected, final String what)
    {
        final CmEvent event = support.nextEvent(channel, what);
        if (expected != event.type())
        {
            channel.ackEvent(event);
            final CmEventFailure failure = new CmEventFailure("mckey", event.type(), event.status());
            support.log(failure.getMessage());
            throw failure;
        }
        if (CmEventType.MULTICAST_JOIN != expected)
        {
            channel.ackEvent(event);
        }
        return event;
    }

    private static void check(final int ret, final String what)
    {
        if (0 != ret)
        {
            throw new IllegalStateException("mckey: failed to " + what + ": " + ret);
        }
    }

    private void release(
        final EventChannel channel, final CmId id, final InetSocketAddress group, final AddressHandle ah,
        final MemoryRegion mr)
    {
        new Teardown(null)
            .step(() ->
            {
                if (null != group)
                {
                    id.leaveMulticast(group);
                }
            })
            .step(() ->
            {
                if (null != ah)
                {
                    id.verbs().destroyAh(ah);
                }
            })
            .step(() ->
            {
                if (null != mr)
                {
                    RdmaVerbs.deregMr(id, mr);
                }
            })
            .step(() -> CmTestSupport.destroy(channel, id))
            .step(channel::close)
            .finish();
    }

    /** The GID as inet_ntop(AF_INET6) prints it: {@code ::ffff:239.1.2.3} for an IPv4 group, else RFC 5952. */
    static String gidText(final long hi, final long lo)
    {
        if (0 == hi && 0x0000_FFFFL == (lo >>> 32))
        {
            return "::ffff:" + ((lo >>> 24) & 0xFF) + "." + ((lo >>> 16) & 0xFF) + "." + ((lo >>> 8) & 0xFF) + "." +
                (lo & 0xFF);
        }
        return Ipv6.format(hi, lo);
    }
}
