package io.jrxe.rxe.engine;

import io.jrxe.driver.mem.PacketPool;
import io.jrxe.rxe.stats.RxeCounter;

/**
 * rxe's bound on the packets a QP has in flight ({@code qp->skb_out}, {@code RXE_INFLIGHT_SKBS_PER_QP_HIGH} and
 * {@code _LOW}): so that one QP with a deep window cannot take the whole transmit ring and leave the other QPs
 * waiting behind it.
 * <p>
 * What counts: every packet the {@link Transmitter} hands to the stack for the QP, from then until its buffer goes
 * back to the pool, which is when the NIC has returned its transmit descriptor in the used ring (or a device reset
 * or a stack with a full queue gave it up). A frame the stack still holds for a full ring counts, as an skb in a
 * qdisc does in rxe ({@code rxe_send} increments {@code skb_out}, the skb destructor {@code rxe_skb_tx_dtor}
 * decrements it when the driver frees the transmitted skb).
 * <pre>
 *  Transmitter.finish:  pool.tag(id, c.txTag); c.txInflight++ ; io.send(id)
 *  NIC's used ring -> driver frees id -> PacketPool.free -> onRelease(tag) -> c.txInflight--
 *                                                            below low and the requester waiting: schedule(c)
 * </pre>
 * How a reclaimed buffer finds its QP without the driver knowing QPs: the buffer carries the QP's tag in the pool's
 * header ({@link PacketPool#tag(int, int)}), and the pool tells its {@link PacketPool.ReleaseListener}, this
 * object, whoever frees it. A tag is the engine slot plus one in the low bits and a generation above them, taken
 * when the QP's context is made: a destroyed QP's packets that come back after its slot went to a new QP carry an
 * old generation and are not counted against the new one. (rxe keeps the QP alive, by the reference each skb
 * holds, until the last destructor has run; jrxe lets the slot go and forgets what its old owner sent.)
 * <p>
 * What is bounded: the requester only. {@link #admit} stops it once the QP has {@code high} packets in flight and
 * {@link #onRelease} schedules it again once fewer than {@code low} are left (hysteresis: it then sends a burst
 * instead of one packet per reclaimed descriptor). The responder's packets (ACKs, NAKs, READ and atomic responses)
 * count, as they do in rxe's {@code skb_out}, so a QP busy answering holds its own requests back, but they are never
 * stopped by it: rxe's responder does not look at {@code skb_out} either, a peer's window (128 PSNs, its
 * {@code max_rd_atomic}) bounds what it asks for, and stopping a READ response part-way makes the responder drop
 * the requests behind it (see {@link Transmitter#hasRoom}); the ring itself still holds them back, through the
 * stack's queue.
 * <p>
 * rxe's requester checks {@code skb_out > HIGH} before it builds a packet, so it can reach HIGH + 1 in flight; jrxe
 * stops at {@code >= high}, so that the high mark is the bound. Engine thread only; allocation free.
 */
final class TxInflight implements PacketPool.ReleaseListener
{
    private final RxeEngine engine;
    private final EngineCounters counters;
    /** The engine's QP table, by slot (the engine's own array: read here, written by the engine). */
    private final QpContext[] slots;
    private final int slotBits;
    private final int slotMask;
    private final int high;
    private final int low;
    /** Control thread, under the engine's lock (as the slot allocation it goes with). */
    private int generation;

    TxInflight(
        final RxeEngine engine,
        final EngineCounters counters,
        final QpContext[] slots,
        final int high,
        final int low)
    {
        this.engine = engine;
        this.counters = counters;
        this.slots = slots;
        this.slotBits = 32 - Integer.numberOfLeadingZeros(slots.length); // holds slot + 1 up to slots.length
        this.slotMask = (1 << slotBits) - 1;
        this.high = high;
        this.low = low;
    }

    /**
     * Control path, with the engine's lock held: the tag of a new context in {@code slot}, never
     * {@link PacketPool#NO_TAG}.
     */
    int newTag(final int slot)
    {
        generation++;
        return (generation << slotBits) | (slot + 1);
    }

    /** A packet of {@code c} in buffer {@code id} goes to the stack: it is in flight until the pool has it back. */
    void onSend(final PacketPool pool, final int id, final QpContext c)
    {
        pool.tag(id, c.txTag);
        c.txInflight++;
    }

    /**
     * Whether the requester of {@code c} may build another packet (rxe_requester's {@code skb_out} check). When it
     * may not, it is marked as waiting ({@code need_req_skb}) and {@link #onRelease} runs it again.
     */
    boolean admit(final QpContext c)
    {
        if (c.txInflight < high)
        {
            return true;
        }
        if (!c.needReqSkb)
        {
            c.needReqSkb = true;
            counters.increment(c, RxeCounter.NEED_REQ_SKB);
        }
        return false;
    }

    /**
     * {@inheritDoc} A buffer of a QP came back: one packet less in flight; below the low mark a waiting requester
     * is scheduled (rxe_skb_tx_dtor). Called from the pool's free, i.e. inside the stack's poll or flush on the
     * engine thread.
     */
    @Override
    public void onRelease(final int tag)
    {
        final int slot = (tag & slotMask) - 1;
        if (slot < 0 || slot >= slots.length)
        {
            return;
        }
        final QpContext c = slots[slot];
        if (null == c || c.txTag != tag)
        {
            return; // sent by a QP since destroyed
        }
        if (--c.txInflight < low && c.needReqSkb)
        {
            c.needReqSkb = false;
            engine.schedule(c);
        }
    }

    /** @return the high mark: the requester stops with this many packets in flight */
    int high()
    {
        return high;
    }

    /** @return the low mark: a stopped requester goes on below it */
    int low()
    {
        return low;
    }
}
