package io.jrxe.ulp.rpcrdma;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcCallListener;
import io.jrxe.ulp.sunrpc.RpcMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;

import static io.jrxe.ulp.rpcrdma.RpcPair.MS;
import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the transport does when the network or the server misbehaves: a lost reply (RPC timeout: forced
 * disconnect, reconnect, retransmission, the reply cache answering the replay), a lossy, reordering and
 * duplicating wire with connections dropped under load (every call answered exactly once), a server that never
 * answers (ETIMEDOUT after the retries), and MRs recycled so no rkey survives a reconnect.
 */
class RpcRdmaRecoveryTest
{
    private RpcPair pair;

    @AfterEach
    void close()
    {
        if (null != pair)
        {
            pair.close();
        }
    }

    private static RpcRdmaClient.Context shortTimeouts(final long timeoutNs, final int retries)
    {
        return new RpcRdmaClient.Context().timeoutNs(timeoutNs).retries(retries);
    }

    private RpcCall increment(final RpcCall call, final int delta)
    {
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.INCREMENT));
        call.args().putInt(delta);
        assertEquals(0, pair.client.submit(call));
        return call;
    }

    @Test
    void shouldReplayALostReplyFromTheReplyCacheAfterTheReconnect()
    {
        final boolean[] blackHole = {false};
        // every RoCE frame (UDP port 4791) from B (the server) to A is lost while the black hole is open: the reply
        // never arrives; ARP still passes, as on a fabric that loses packets but not its neighbours
        final WireFaults faults = WireFaults.none().filter((src, dst, frame, off, len) -> blackHole[0] && 1 == src &&
            len > 38 && 0x0800 == frame.getShort(off + 12, java.nio.ByteOrder.BIG_ENDIAN) &&
            4791 == (frame.getShort(off + 36, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF));
        pair = new RpcPair(faults, shortTimeouts(200 * MS, 3), new RpcRdmaServerContext());
        pair.connect();
        final RpcCall call = increment(new RpcCall(), 5);
        pair.runUntil(() -> 1 == pair.program.executions, SECOND, "the call executed");
        blackHole[0] = true;
        pair.runFor(150 * MS);
        blackHole[0] = false;
        pair.runUntil(call::isDone, 30 * SECOND, "the replayed reply");
        assertEquals(0, call.status(), () -> call + " " + pair.client);
        assertEquals(5, call.results().getInt());
        assertEquals(1, pair.program.executions, "executed once: the retransmission was answered from the cache");
        assertEquals(1, pair.dispatcher.cache().hits());
        final RpcRdmaCounters c = pair.client.transport().counters();
        // the RC layer saw the server go silent first (its SEND unacknowledged: RETRY_EXC_ERR, the connection
        // forced down) and the client reconnected, with back-off, until the path came back
        assertTrue(c.get(RpcRdmaCounter.RETRANSMITS) >= 1, c.describe(true));
        assertTrue(c.get(RpcRdmaCounter.CONNECT_COUNT) >= 2, "reconnected: " + c.describe(true));
        pair.client.release(call);
    }

    @Test
    void shouldAnswerEveryCallExactlyOnceOnAFaultyWireWithConnectionsDropped()
    {
        final WireFaults faults = WireFaults.none().seed(11).loss(0.01).reorder(0.02).duplicate(0.02);
        pair = new RpcPair(faults, shortTimeouts(2 * SECOND, 20), new RpcRdmaServerContext());
        pair.connect();
        final int total = 300;
        final int window = 24;
        final ArrayDeque<RpcCall> idle = new ArrayDeque<>();
        for (int i = 0; i < window; i++)
        {
            idle.add(new RpcCall());
        }
        final long[] sum = {0};
        final int[] done = {0};
        final long[] maxSeen = {0};
        final RpcCallListener listener = c ->
        {
            assertEquals(0, c.status(), c.toString());
            assertEquals(RpcMessage.SUCCESS, c.acceptStat());
            maxSeen[0] = Math.max(maxSeen[0], c.results().getInt() & 0xFFFF_FFFFL);
            done[0]++;
        };
        int sent = 0;
        int drops = 0;
        final ArrayDeque<RpcCall> inFlight = new ArrayDeque<>();
        while (done[0] < total)
        {
            while (sent < total && !idle.isEmpty())
            {
                final RpcCall c = idle.poll();
                increment(c.listener(listener), sent + 1);
                sum[0] += sent + 1;
                inFlight.add(c);
                sent++;
            }
            if (sent >= total / 3 && 0 == drops || sent >= 2 * total / 3 && 1 == drops)
            {
                drops++;
                for (int s = 0; s < pair.server.connectionSlots(); s++)
                {
                    if (null != pair.server.connection(s))
                    {
                        pair.server.disconnect(pair.server.connection(s)); // the server drops the connection
                    }
                }
            }
            pair.runUntil(() -> inFlight.peek().isDone(), 120 * SECOND, "a reply");
            while (!inFlight.isEmpty() && inFlight.peek().isDone())
            {
                final RpcCall c = inFlight.poll();
                pair.client.release(c);
                idle.add(c);
            }
        }
        assertEquals(sum[0], pair.program.total, "every increment applied exactly once");
        assertEquals(sum[0], maxSeen[0], "some reply saw the final total");
        assertEquals(total, pair.program.executions, "no call executed twice");
        final RpcRdmaCounters c = pair.client.transport().counters();
        assertTrue(c.get(RpcRdmaCounter.CONNECT_COUNT) >= 3, "two dropped connections came back: " +
            c.describe(true));
        final RpcRdmaTransport t = pair.client.transport();
        pair.runUntil(() -> t.mrPoolSize() == t.freeMrs(), SECOND, "the MR pool whole again");
    }

    @Test
    void shouldResendOnANewConnectionWhenATimeoutForcesADisconnect()
    {
        pair = new RpcPair(WireFaults.none(), shortTimeouts(100 * MS, 2), new RpcRdmaServerContext());
        pair.connect();
        pair.program.dropNext = 1; // the server loses the first transmission (svc_drop): only the timer can help
        final RpcCall call = increment(new RpcCall(), 7);
        pair.runUntil(call::isDone, 30 * SECOND, "the reply to the retransmission");
        assertEquals(0, call.status(), call.toString());
        assertEquals(7, call.results().getInt());
        assertEquals(2, call.transmissions());
        final RpcRdmaCounters c = pair.client.transport().counters();
        assertEquals(1, c.get(RpcRdmaCounter.RPC_TIMEOUTS), "xprt_rdma_timer forced the disconnect: " +
            c.describe(true));
        assertEquals(2, c.get(RpcRdmaCounter.CONNECT_COUNT), c.describe(true));
        assertEquals(1, c.get(RpcRdmaCounter.RETRANSMITS), c.describe(true));
        pair.client.release(call);
    }

    @Test
    void shouldResendAnInlineCallWithAPayloadByteForByte()
    {
        pair = new RpcPair(WireFaults.none(), shortTimeouts(100 * MS, 2), new RpcRdmaServerContext());
        pair.connect();
        final int length = 1001; // inline (under 4096), padded, with a tail word after the payload
        final org.agrona.concurrent.UnsafeBuffer src = new org.agrona.concurrent.UnsafeBuffer(
            org.agrona.BufferUtil.allocateDirectAligned(4096, 64));
        for (int i = 0; i < length; i++)
        {
            src.putByte(i, (byte)(i * 13 + 7));
        }
        pair.program.dropNext = 1; // the first transmission is lost: the call is marshalled a second time
        final RpcCall call = new RpcCall();
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.WRITE));
        call.args().putInt(64).putInt(length);
        call.payload(src.addressOffset(), length);
        call.args().putInt(0x5A5A1234); // the tail: moved up behind the payload when the call goes inline
        assertEquals(0, pair.client.submit(call));
        pair.runUntil(call::isDone, 30 * SECOND, "the reply to the retransmission");
        assertEquals(0, call.status(), call.toString());
        assertEquals(2, call.transmissions());
        assertEquals(length, call.results().getInt());
        assertEquals(TestProgram.checksum(src, 0, length), call.results().getInt(), "the resent bytes are the bytes");
        assertEquals(0x5A5A1234, call.results().getInt(), "and the tail is the tail");
        assertEquals(TestProgram.checksum(src, 0, length), TestProgram.checksum(pair.program.file, 64, length));
        pair.client.release(call);
    }

    @Test
    void shouldFailACallWithEtimedoutWhenTheServerNeverAnswers()
    {
        pair = new RpcPair(WireFaults.none(), shortTimeouts(100 * MS, 2), new RpcRdmaServerContext());
        pair.connect();
        pair.program.dropNext = 1000;
        final RpcCall call = increment(new RpcCall(), 1);
        pair.runUntil(call::isDone, 30 * SECOND, "the call's failure");
        assertEquals(-Errno.ETIMEDOUT, call.status());
        assertEquals(3, call.transmissions(), "sent, then resent after each of its 2 timeouts");
        final RpcRdmaCounters c = pair.client.transport().counters();
        assertEquals(2, c.get(RpcRdmaCounter.RPC_TIMEOUTS), "each timeout forced a disconnect: " + c.describe(true));
        pair.client.release(call);
        pair.program.dropNext = 0;
        final RpcCall next = increment(new RpcCall(), 2);
        pair.runUntil(next::isDone, 30 * SECOND, "a later call's reply");
        assertEquals(0, next.status(), "the transport recovered: " + next);
        assertEquals(2, next.results().getInt());
    }
}
