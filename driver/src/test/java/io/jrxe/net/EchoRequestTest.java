package io.jrxe.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.net.Frames.IP_A;
import static io.jrxe.net.Frames.IP_B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EchoRequestTest
{
    private final TestNet a = TestNet.a();
    private final TestNet b = TestNet.b();
    private final List<int[]> replies = new ArrayList<>();

    @AfterEach
    void close()
    {
        a.close();
        b.close();
    }

    @Test
    void shouldPingAPeerAndCheckTheEchoedData()
    {
        LoopbackNic.connect(a.nic, b.nic);
        a.stack.echoListener((src, id, seq, len, matches) -> replies.add(new int[]{src, id, seq, len, matches ? 1 : 0}));

        assertFalse(a.stack.sendEchoRequest4(IP_B, 7, 1, 56), "unresolved: ARP first");
        a.stack.poll();
        b.stack.poll();
        a.stack.poll();
        assertTrue(a.stack.isResolved4(IP_B));

        for (int seq = 1; seq <= 3; seq++)
        {
            assertTrue(a.stack.sendEchoRequest4(IP_B, 7, seq, 56 + seq));
            a.stack.poll(); // flushes the request
            b.stack.poll(); // answers
            a.stack.poll(); // receives the reply
        }
        assertEquals(3, replies.size());
        for (int i = 0; i < 3; i++)
        {
            final int[] r = replies.get(i);
            assertEquals(IP_B, r[0]);
            assertEquals(7, r[1]);
            assertEquals(i + 1, r[2]);
            assertEquals(56 + i + 1, r[3]);
            assertEquals(1, r[4], "echoed data equals the request's pattern");
        }
        assertEquals(3, a.stack.counter(NetCounter.ICMP_ECHO_REQUESTS_SENT));
        assertEquals(3, a.stack.counter(NetCounter.ICMP_ECHO_REPLIES_RCVD));
        assertEquals(3, b.stack.counter(NetCounter.ICMP_ECHO_REPLIES));
        a.assertAllBuffersFree();
        b.assertAllBuffersFree();
    }

    @Test
    void shouldReportAReplyWhoseDataWasAltered()
    {
        a.stack.echoListener((src, id, seq, len, matches) -> replies.add(new int[]{seq, matches ? 1 : 0}));
        // A reply to sequence 5 whose data is not the pattern of sequence 5.
        final byte[] reply = Frames.ipv4(
            Frames.MAC_A, Frames.MAC_B, IP_B, IP_A, 1, Frames.icmpEcho(0, 9, 5, new byte[]{1, 2, 3}));
        a.exchange(reply);
        assertEquals(1, replies.size());
        assertEquals(5, replies.get(0)[0]);
        assertEquals(0, replies.get(0)[1]);
    }
}
