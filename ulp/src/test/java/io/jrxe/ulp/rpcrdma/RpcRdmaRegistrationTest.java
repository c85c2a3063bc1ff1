package io.jrxe.ulp.rpcrdma;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.ulp.sunrpc.RpcCall;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.ulp.rpcrdma.RpcPair.MS;
import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No rkey the client offered outlives its RPC or its connection: a server that kept one (here a side RC QP from
 * node B into the client transport's PD, which accepts remote writes, so only the registration decides) gets
 * REM_ACCESS_ERR and the client's memory stays as it was, after the reconnect a timeout forced and after the call
 * was freed in flight. Each test first writes through the live registration, so the side channel is known to reach
 * the client's memory.
 */
class RpcRdmaRegistrationTest
{
    private static final int COUNT = 64 * 1024;
    private static final int OK = WcStatus.SUCCESS.code();
    private static final int REM_ACCESS_ERR = WcStatus.REM_ACCESS_ERR.code();

    private RpcPair pair;
    private final List<SideChannel> sides = new ArrayList<>();
    private final UnsafeBuffer dst = new UnsafeBuffer(BufferUtil.allocateDirectAligned(COUNT, 4096));

    @AfterEach
    void close()
    {
        for (final SideChannel s : sides)
        {
            s.close();
        }
        if (null != pair)
        {
            pair.close();
        }
    }

    private SideChannel side()
    {
        final SideChannel s = new SideChannel(pair, pair.client.transport().qp().pd());
        sides.add(s);
        return s;
    }

    /** A READ whose 64 KiB of data come back through a Write chunk on {@link #dst}. */
    private RpcCall read(final RpcCall call)
    {
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.READ));
        call.args().putInt(0).putInt(COUNT);
        call.readPayloadTo(dst.addressOffset(), COUNT).replyLimit(256);
        assertEquals(0, pair.client.submit(call));
        return call;
    }

    /** @return {rkey, offset} of the call's only MR, its Write chunk */
    private long[] writeChunk(final RpcCall call)
    {
        final RpcRdmaReq req = (RpcRdmaReq)call.transportData();
        assertEquals(1, req.mrCount, "one MR: the Write chunk");
        final FrwrMr m = pair.client.transport().frwr.mr(req.mrs[0]);
        assertEquals(FrwrMr.REGISTERED, m.state);
        assertEquals(dst.addressOffset(), m.offset, "the chunk's offset is the memory's address");
        return new long[]{m.handle & 0xFFFF_FFFFL, m.offset};
    }

    private void assertDst(final byte value, final int length, final String what)
    {
        for (int i = 0; i < length; i++)
        {
            assertEquals(value, dst.getByte(i), what + ": byte " + i);
        }
    }

    @Test
    void shouldInvalidateEveryRkeyOfferedBeforeADisconnect()
    {
        pair = new RpcPair(WireFaults.none(), new RpcRdmaClient.Context().timeoutNs(100 * MS).retries(3),
            new RpcRdmaServerContext());
        pair.connect();
        final RpcRdmaTransport t = pair.client.transport();
        pair.program.dropNext = 2; // the first two transmissions get no reply
        final RpcCall call = read(new RpcCall());
        pair.runUntil(() -> 1 == pair.program.dropNext, SECOND, "the first transmission dropped");
        final long[] first = writeChunk(call);
        assertEquals(OK, side().write((int)first[0], first[1], 16, (byte)0xC3), "the live registration");
        assertDst((byte)0xC3, 16, "written through the live rkey");

        pair.runUntil(() -> 0 == pair.program.dropNext, 10 * SECOND, "the retransmission dropped");
        assertEquals(2, t.counters().get(RpcRdmaCounter.CONNECT_COUNT), "the timer forced a reconnect");
        assertTrue(t.counters().get(RpcRdmaCounter.MRS_RECYCLED) >= 1, t.counters().describe(true));
        final long[] second = writeChunk(call);
        assertNotEquals(first[0], second[0], "a new rkey for the retransmission");

        assertEquals(REM_ACCESS_ERR, side().write((int)first[0], first[1], 16, (byte)0xEE),
            "the rkey offered before the disconnect is dead");
        assertDst((byte)0xC3, 16, "the client's memory untouched by the dead rkey");
        assertEquals(OK, side().write((int)second[0], second[1], 16, (byte)0x3C), "while the new one is alive");
        assertDst((byte)0x3C, 16, "written through the new rkey");

        pair.runUntil(call::isDone, 10 * SECOND, "the reply to the third transmission");
        assertEquals(0, call.status(), call.toString());
        assertEquals(COUNT, call.readPayload(call.results().getInt()));
        for (int i = 0; i < COUNT; i += 511)
        {
            assertEquals(TestProgram.pattern(i), dst.getByte(i), "READ byte " + i);
        }
        assertEquals(3, call.transmissions());
        assertEquals(REM_ACCESS_ERR, side().write((int)second[0], second[1], 16, (byte)0xEE),
            "the second transmission's rkey is dead too");
        assertEquals(TestProgram.pattern(0), dst.getByte(0));
        pair.client.release(call);
        assertEquals(t.mrPoolSize(), t.freeMrs());
    }

    @Test
    void shouldInvalidateTheRegistrationsOfACallFreedInFlight()
    {
        pair = new RpcPair();
        pair.connect();
        final RpcRdmaTransport t = pair.client.transport();
        pair.program.dropNext = 1;
        final RpcCall call = read(new RpcCall());
        pair.runUntil(() -> 0 == pair.program.dropNext, SECOND, "the call dropped by the server");
        final long[] chunk = writeChunk(call);
        assertEquals(OK, side().write((int)chunk[0], chunk[1], 16, (byte)0xC3), "the live registration");
        assertTrue(t.freeMrs() < t.mrPoolSize());

        pair.client.release(call); // xprt_rdma_free of a call still waiting for its reply
        pair.runUntil(() -> t.mrPoolSize() == t.freeMrs(), SECOND, "the MR pool whole again");
        assertEquals(1, t.counters().get(RpcRdmaCounter.LOCAL_INV_NEEDED));
        assertEquals(REM_ACCESS_ERR, side().write((int)chunk[0], chunk[1], 16, (byte)0xEE),
            "the freed call's rkey is dead");
        assertDst((byte)0xC3, 16, "the client's memory untouched");
        assertTrue(t.isConnected(), "invalidated on the live connection");
        assertEquals(1, t.counters().get(RpcRdmaCounter.CONNECT_COUNT));

        final RpcCall next = read(new RpcCall());
        pair.runUntil(next::isDone, 10 * SECOND, "a later READ");
        assertEquals(0, next.status());
        assertEquals(TestProgram.pattern(5), dst.getByte(5));
        pair.client.release(next);
    }
}
