package io.jrxe.ulp.oob;

import io.jrxe.rxe.proto.Gid;
import io.jrxe.rxe.verbs.Mtu;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exchange as it runs over rdma_cm ({@code -R}): the messages a perftest peer's {@code ctx_xchg_data} and
 * {@code ctx_hand_shake} SEND, in order and size, with a scripted channel in place of the rdma_cm connection.
 */
class PerftestCmExchangeTest
{
    /** A peer with an IPv6 GID: perftest does not compare GID types with rdma_cm. */
    private static final PerftestDest PEER = new PerftestDest(0, 128, 0x22, 0x654321, 0x4321, 0x7F00_0000_2000L, 0,
        Gid.linkLocalFromMac(0x5254_0012_3456L));

    @Test
    void clientSendsPerftestsMessagesAndNoDone() throws OobException
    {
        final ScriptedChannel ch = new ScriptedChannel(PerftestVersion.V6_06.encode(), be32(8192), be32(128),
            new byte[]{'3', 0}, new byte[56], new byte[56], PEER.encodeBinary(1), PEER.encodeBinary(1),
            PEER.encodeBinary(1));
        final PerftestExchange exchange = new PerftestExchange(ch, Side.CLIENT);
        exchange.exchangeVersions();
        assertEquals(new PerftestSysData(8192, 128), exchange.exchangeSysData(PerftestSysData.DEFAULT));
        assertEquals(Mtu.MTU_1024, exchange.exchangeMtu(Mtu.MTU_4096));
        exchange.syncBeforeQps();
        exchange.syncBeforeQps();
        assertEquals(PEER, exchange.exchangeDest(PerftestDestTest.CLIENT));
        assertEquals(PEER, exchange.sync());
        assertFalse(exchange.close(), "no \"done\" with rdma_cm");
        assertTrue(ch.closed);

        final List<byte[]> expected = List.of(PerftestVersion.V6_06.encode(), be32(4096), be32(64),
            new byte[]{'5', 0}, new byte[56], new byte[56], PerftestDestTest.CLIENT.encodeBinary(1),
            PerftestDestTest.CLIENT.encodeBinary(1), PerftestDestTest.CLIENT.encodeBinary(1));
        assertEquals(expected.size(), ch.written.size());
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), ch.written.get(i), "message " + i);
        }
    }

    @Test
    void syncBeforeQpsBelongsBetweenTheMtuAndTheFirstKeyMessage() throws OobException
    {
        final ScriptedChannel ch = new ScriptedChannel(PerftestVersion.V6_06.encode());
        final PerftestExchange exchange = new PerftestExchange(ch, Side.SERVER);
        assertThrows(IllegalStateException.class, exchange::syncBeforeQps);
        exchange.exchangeVersions();
        assertThrows(IllegalStateException.class, exchange::syncBeforeQps);
    }

    private static byte[] be32(final int value)
    {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    /** Hands out the peer's messages in order, keeps what this side writes, and checks lengths as a RECV would. */
    private static final class ScriptedChannel implements PerftestChannel
    {
        final Deque<byte[]> incoming = new ArrayDeque<>();
        final List<byte[]> written = new ArrayList<>();
        boolean closed;

        ScriptedChannel(final byte[]... messages)
        {
            incoming.addAll(List.of(messages));
        }

        @Override
        public void write(final byte[] message, final String what)
        {
            written.add(message.clone());
        }

        @Override
        public void readFully(final byte[] dst, final String what, final long timeoutNs) throws OobException
        {
            final byte[] next = incoming.poll();
            if (null == next || next.length != dst.length)
            {
                throw new OobException("scripted peer has no " + dst.length + "-byte " + what);
            }
            System.arraycopy(next, 0, dst, 0, dst.length);
        }

        @Override
        public long ioTimeoutNs()
        {
            return 1_000_000_000L;
        }

        @Override
        public boolean binaryKeys()
        {
            return true;
        }

        @Override
        public boolean finishClose()
        {
            return false;
        }

        @Override
        public void close()
        {
            closed = true;
        }
    }
}
