package io.jrxe.ulp.cm;

import io.jrxe.rxe.node.ManualClock;
import io.jrxe.rxe.node.NodePair;
import io.jrxe.rxe.node.NodePairContext;
import io.jrxe.rxe.node.RoceNode;
import io.jrxe.rxe.verbs.AddressHandle;
import io.jrxe.rxe.verbs.AhAttr;
import io.jrxe.rxe.verbs.GidTable;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.ulp.cm.mad.CmAttributes;
import io.jrxe.ulp.cm.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The CM's QP1 under what {@code CmReceiveFuzzTest} found (a real pair, B's {@link CmService}, A a bare
 * {@link GsiPeer}):
 * <ul>
 *   <li>a datagram longer than a MAD completes its receive in error (LOC_LEN_ERR) while the QP stays ready: the
 *       CM must count it and post the buffer again. MadPort reposted only successful receives, so each such
 *       datagram cost a receive buffer for good, and as many as QP1 has buffers made the CM deaf;</li>
 *   <li>a MAD that waits for a send slot must not depend on its sender's AH: the CM releases a connection, and
 *       destroys its AH, right after queueing its last MAD (a REJ, a SIDR_REP). The queued MAD kept that AH, its
 *       post failed once a slot freed, and the MAD was lost (a burst of more REJs than send slots).</li>
 * </ul>
 */
class MadPortTest
{
    private static final int SLOTS = 4;
    private static final int SEND_SLOTS = 2;

    private final ManualClock clock = new ManualClock();
    private final NodePair pair = new NodePair(new NodePairContext().clock(clock));
    private final CmService cm = new CmService(pair.b().device(), new CmService.Context().clock(clock)
        .slots(SLOTS, SEND_SLOTS).cmResponseTimeout(12).packetLifetime(8));
    private final GsiPeer peer = new GsiPeer(pair.a().device());
    private final AddressHandle toCm = peer.createAh(new AhAttr().dgid(0, GidTable.ipv4MappedLo(NodePair.IP_B))
        .sgidIndex(RoceNode.GID_INDEX_IPV4).hopLimit(64).portNum(RxeDevice.PORT));
    private final byte[] datagram = new byte[GsiPeer.MAX_LENGTH];
    private final MadHeader header = new MadHeader();
    private int getResps;
    private int sends;

    MadPortTest()
    {
        pair.resolve(1_000_000_000L);
    }

    @AfterEach
    void close()
    {
        peer.destroyAh(toCm);
        peer.close();
        cm.close();
        pair.close();
    }

    private void sendAndSettle(final int length)
    {
        peer.send(datagram, length, toCm);
        settle();
    }

    private void settle()
    {
        for (int idle = 0; idle < 2; )
        {
            final int work = pair.step() + cm.doWork() + peer.poll((buffer, offset, n) ->
            {
                if (MadHeader.METHOD_GET_RESP == header.wrap(buffer, offset).method())
                {
                    getResps++;
                }
                else
                {
                    sends++;
                }
            });
            idle = 0 == work ? idle + 1 : 0;
        }
    }

    @Test
    void shouldCountALongDatagramAndKeepItsReceiveBuffer()
    {
        header.wrap(new UnsafeBuffer(datagram), 0).initCm(MadHeader.METHOD_GET, CmAttributes.CLASS_PORT_INFO, 7);
        for (int i = 0; i <= SLOTS; i++)
        {
            sendAndSettle(MadHeader.MAD_SIZE + 1 + i); // a Get(ClassPortInfo) with bytes after it
        }
        assertEquals(SLOTS + 1, cm.counters().get(CmCounters.Drop.RECV_ERROR));
        assertEquals(0, getResps, "not read as a MAD");
        sendAndSettle(MadHeader.MAD_SIZE);
        assertEquals(1, getResps, "the CM still receives");
        assertEquals(0, cm.counters().get(CmCounters.Drop.SHORT));
    }

    @Test
    void shouldSendAQueuedMadAfterItsConnectionsAhIsGone()
    {
        final CmConnection[] conns = new CmConnection[SEND_SLOTS + 1];
        for (int i = 0; i < conns.length; i++)
        {
            conns[i] = cm.create(new CmHandler()
            {
            });
            conns[i].serviceId(0x0106_1C06L).path(0, GidTable.ipv4MappedLo(NodePair.IP_B), 0,
                GidTable.ipv4MappedLo(NodePair.IP_A), 0, 64).qp(QpType.RC, 0x100 + i, 0, 1, 1);
            cm.sendReq(conns[i], null, 0, RoceNode.GID_INDEX_IPV4);
        }
        assertEquals(1, cm.port.pendingCount(), "two REQs in the send slots, one waiting");
        for (final CmConnection conn : conns)
        {
            cm.destroy(conn); // a REJ each, queued; the connection and its AH are released at once
        }
        assertEquals(0, cm.connectionCount());
        settle();
        assertEquals(2 * conns.length, sends, "every REQ and every REJ reached the peer");
        assertEquals(0, cm.port.sendFailures());
        assertEquals(0, cm.port.pendingCount());
    }
}
