package io.jrxe.ulp.rpcrdma;

import io.jrxe.driver.emu.WireFaults;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.ulp.sunrpc.RpcCall;
import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcMessage;
import io.jrxe.ulp.sunrpc.RpcProgram;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.jrxe.ulp.rpcrdma.RpcPair.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reverse-direction calls (RFC 8167; NFSv4.1's backchannel): the server calls a program of the client on the
 * client's own connection; the client's transport recognises the CALL among its replies, dispatches it to its
 * backchannel programs and answers RDMA_MSG with no chunks; the server matches the answer by xid.
 */
class RpcRdmaBackchannelTest
{
    /** A callback program: NULL, and DOUBLE(int) -> 2 * int. */
    static final class Callback implements RpcProgram
    {
        int calls;

        @Override
        public int program()
        {
            return 0x4000_0000;
        }

        @Override
        public int lowVersion()
        {
            return 1;
        }

        @Override
        public int highVersion()
        {
            return 1;
        }

        @Override
        public int call(final RpcServerCall call)
        {
            calls++;
            if (1 == call.header().procedure())
            {
                call.results().putInt(2 * call.args().getInt());
            }
            return RpcMessage.SUCCESS;
        }
    }

    private final Callback callback = new Callback();
    private RpcPair pair;

    @AfterEach
    void close()
    {
        pair.close();
    }

    private SvcRdmaConnection only()
    {
        for (int s = 0; s < pair.server.connectionSlots(); s++)
        {
            if (null != pair.server.connection(s))
            {
                return pair.server.connection(s);
            }
        }
        return null;
    }

    @Test
    void shouldAnswerReverseCallsOnTheForwardConnection()
    {
        final RpcRdmaClient.Context ctx = new RpcRdmaClient.Context();
        ctx.transport().bcMaxRequests(2);
        pair = new RpcPair(WireFaults.none(), ctx, new RpcRdmaServerContext());
        pair.client.transport().backchannel(new RpcDispatcher(null).register(callback));
        pair.connect();
        final SvcRdmaConnection conn = only();
        assertNotNull(conn);
        pair.runUntil(conn::isEstablished, SECOND, "the server's side established");

        final RpcCall rc = new RpcCall();
        for (int i = 1; i <= 5; i++)
        {
            assertEquals(0, pair.server.prepareReverseCall(conn, rc, 0x4000_0000, 1, 1));
            rc.args().putInt(21 * i);
            assertEquals(0, pair.server.sendReverseCall(rc));
            pair.runUntil(rc::isDone, 10 * SECOND, "the client's answer");
            assertEquals(0, rc.status());
            assertTrue(rc.accepted());
            assertEquals(42 * i, rc.results().getInt());
            pair.server.releaseReverseCall(rc);
        }
        assertEquals(5, callback.calls);
        assertEquals(5, pair.client.transport().counters().get(RpcRdmaCounter.BCALL_COUNT));
        assertEquals(5, pair.server.counters().get(RpcRdmaCounter.SVC_BC_REPLIES));

        // forward calls still work beside them
        final RpcCall call = new RpcCall();
        assertEquals(0, pair.client.prepare(call, TestProgram.PROGRAM, 1, TestProgram.INCREMENT));
        call.args().putInt(9);
        assertEquals(0, pair.client.execute(call));
        assertEquals(9, call.results().getInt());
        pair.client.release(call);
    }

    @Test
    void shouldPostExtraReceivesOnlyOnAConnection()
    {
        final RpcRdmaClient.Context ctx = new RpcRdmaClient.Context();
        ctx.transport().bcMaxRequests(2);
        pair = new RpcPair(WireFaults.none(), ctx, new RpcRdmaServerContext());
        assertEquals(-Errno.ENOTCONN, pair.client.transport().postExtraRecv(1), "no QP to post on yet");
        pair.connect();
        assertEquals(0, pair.client.transport().postExtraRecv(2));
    }
}
