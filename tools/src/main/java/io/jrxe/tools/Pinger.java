package io.jrxe.tools;

import io.jrxe.net.EchoListener;
import io.jrxe.net.Ipv4;
import io.jrxe.net.NetStack;

/**
 * Sends ICMP echo requests from one stack to a peer, one outstanding at a time, and measures round trips.
 * Both stacks are polled by the caller on one thread.
 */
final class Pinger implements EchoListener
{
    private static final long RESEND_NS = 200_000_000L;

    private final NetStack stack;
    private final int peer;
    private final int count;
    private final int identifier;
    private int nextSequence = 1;
    private long sentAtNs;
    private boolean outstanding;
    long replies;
    long corrupted;
    long rttSumNs;
    long rttMaxNs;

    Pinger(final NetStack stack, final NetStack peerStack, final int peer, final int count)
    {
        this.stack = stack;
        this.peer = peer;
        this.count = count;
        this.identifier = (int)(stack.macAddress() & 0xFFFF);
        stack.echoListener(this);
    }

    boolean done()
    {
        return replies + corrupted >= count;
    }

    /** Sends the next request when none is outstanding (or the last one is presumed lost). */
    void step()
    {
        if (done())
        {
            return;
        }
        final long now = System.nanoTime();
        if (outstanding && now - sentAtNs < RESEND_NS)
        {
            return;
        }
        if (stack.sendEchoRequest4(peer, identifier, nextSequence, 56))
        {
            outstanding = true;
            sentAtNs = now;
        }
    }

    @Override
    public void onEchoReply(
        final int srcIp, final int id, final int sequence, final int payloadLength, final boolean dataMatches)
    {
        if (srcIp != peer || id != identifier || sequence != nextSequence || !outstanding)
        {
            return; // a late or duplicated reply
        }
        final long rtt = System.nanoTime() - sentAtNs;
        outstanding = false;
        nextSequence++;
        if (!dataMatches)
        {
            corrupted++;
            return;
        }
        replies++;
        rttSumNs += rtt;
        rttMaxNs = Math.max(rttMaxNs, rtt);
    }

    void report(final String direction)
    {
        System.out.printf("ping %s %s: %d/%d replies, %d corrupted, rtt avg %.1f us max %.1f us%n",
            direction, Ipv4.format(peer), replies, count, corrupted,
            replies == 0 ? 0.0 : rttSumNs / 1e3 / replies, rttMaxNs / 1e3);
    }
}
