package io.jrxe.ulp.nfs4;

import io.jrxe.ulp.sunrpc.RpcDispatcher;
import io.jrxe.ulp.sunrpc.RpcServerCall;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The callback service as the transport would drive it: hand-built reverse-direction calls (as knfsd's
 * fs/nfsd/nfs4callback.c encodes them) dispatched into an {@link RpcDispatcher}, reply bytes checked.
 */
class Nfs4CallbackProgramTest
{
    private static final int PROG = Nfs4CallbackProgram.DEFAULT_PROGRAM;
    private static final long SH = 0x1111222233334444L;
    private static final long SL = 0x5555666677778888L;
    private static final byte[] FH = {(byte)0xFA, (byte)0xCE, 0, 1};

    private final Nfs4CallbackProgram cb = new Nfs4CallbackProgram(PROG);
    private final RpcDispatcher dispatcher = new RpcDispatcher(null).register(cb);
    private final RpcServerCall serverCall = new RpcServerCall();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[8192]);
    private int xid = 0x0BAC_0000;

    @BeforeEach
    void bind()
    {
        cb.bind(new Nfs4SessionId().set(SH, SL), 2, 4);
        serverCall.origin(new InetSocketAddress(InetAddress.getLoopbackAddress(), 2049), null);
    }

    /** An RPC call header as knfsd's backchannel sends it: AUTH_SYS uid 0 gid 0 (the csa_sec_parms), no verifier. */
    private Wire call(final int version, final int proc)
    {
        xid++;
        final byte[] machine = "server".getBytes(StandardCharsets.US_ASCII);
        return Wire.of().i(xid, 0, 2, PROG, version, proc)
            .i(1, 4 + 4 + 8 + 4 + 4 + 4).i(0).opaque(machine).i(0, 0, 0)   // AUTH_SYS: stamp name uid gid gids<>
            .i(0, 0);                                                      // verifier AUTH_NONE
    }

    private static Wire compound(final Wire w, final String tag, final int minor, final int ops)
    {
        return w.str(tag).i(minor).i(0 /* callback_ident */).i(ops);
    }

    private static Wire cbSequence(final Wire w, final long sh, final long sl, final int seqid, final int slot)
    {
        return w.i(Nfs4.OP_CB_SEQUENCE).h(sh).h(sl).i(seqid, slot, 0).b(false).i(0);
    }

    private static Wire cbRecall(final Wire w)
    {
        return w.i(Nfs4.OP_CB_RECALL).i(1, 2, 3, 4).b(false).opaque(FH);
    }

    private byte[] dispatch(final Wire w)
    {
        final byte[] msg = w.bytes();
        final int n = dispatcher.dispatch(serverCall, new UnsafeBuffer(msg), 0, msg.length, out, 0, out.capacity());
        assertTrue(n > 0, "a reply");
        return Wire.copy(out, 0, n);
    }

    private static Wire accepted()
    {
        return Wire.of().i(0 /* xid: the call's */, 1, 0, 0, 0, 0);
    }

    private void assertWire(final Wire expected, final byte[] got)
    {
        assertWire(expected, got, "");
    }

    /** The expected reply, its xid made the last call's (the arguments were built before the call was). */
    private void assertWire(final Wire expected, final byte[] got, final String what)
    {
        final byte[] want = expected.bytes();
        new UnsafeBuffer(want).putInt(0, xid, java.nio.ByteOrder.BIG_ENDIAN);
        assertArrayEquals(want, got, what + "\nexpected\n" + Wire.hex(want) + "\ngot\n" + Wire.hex(got));
    }

    @Test
    void cbNullIsAnsweredWithNoResults()
    {
        assertWire(accepted(), dispatch(call(1, 0)));
        assertEquals(1, cb.calls());
        assertEquals(1, cb.cbNull());
        assertEquals(0, cb.cbSequence());
    }

    @Test
    void cbSequenceAloneAdvancesTheSlot()
    {
        assertWire(accepted().i(0).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 0, 1, 1),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 1, 0)));
        assertWire(accepted().i(0).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(2, 0, 1, 1),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 2, 0)));
        assertWire(accepted().i(0).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 1, 1, 1),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 1, 1)), "slot 1 starts at 1 too");
        assertEquals(3, cb.cbSequence());
        assertEquals(0, cb.others());
    }

    @Test
    void cbRecallAfterCbSequenceIsNotSupported()
    {
        // knfsd's CB_RECALL: CB_SEQUENCE, CB_RECALL(stateid, truncate, fh); processing stops at CB_RECALL
        final byte[] reply = dispatch(cbRecall(cbSequence(compound(call(1, 1), "", 1, 2), SH, SL, 1, 0)));
        assertWire(accepted().i(Nfs4Status.NOTSUPP).str("").i(2)
            .i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 0, 1, 1)
            .i(Nfs4.OP_CB_RECALL, Nfs4Status.NOTSUPP), reply);
        assertEquals(1, cb.cbSequence());
        assertEquals(1, cb.others());
        assertEquals(1, cb.refused());
    }

    @Test
    void aRetryGetsTheSameReply()
    {
        final byte[] first = dispatch(cbRecall(cbSequence(compound(call(1, 1), "t1", 1, 2), SH, SL, 1, 0)));
        final byte[] again = dispatch(cbRecall(cbSequence(compound(call(1, 1), "t1", 1, 2), SH, SL, 1, 0)));
        assertEquals(first.length, again.length);
        // the RPC header carries each call's own xid; the CB_COMPOUND results are the kept ones
        assertArrayEquals(java.util.Arrays.copyOfRange(first, 24, first.length),
            java.util.Arrays.copyOfRange(again, 24, again.length));
        assertEquals(1, cb.replays());
        assertEquals(1, cb.others(), "the retry did not run CB_RECALL again");
    }

    @Test
    void aSequenceIdOutOfOrderIsRefused()
    {
        dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 1, 0));
        assertWire(accepted().i(Nfs4Status.SEQ_MISORDERED).str("").i(1)
                .i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.SEQ_MISORDERED),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 3, 0)));
        assertWire(accepted().i(0).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(2, 0, 1, 1),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 2, 0)), "the slot did not move");
    }

    @Test
    void anotherSessionOrNoneIsBadSession()
    {
        assertWire(accepted().i(Nfs4Status.BADSESSION).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.BADSESSION),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL + 1, 1, 0)));
        cb.unbind();
        assertFalse(cb.bound());
        assertWire(accepted().i(Nfs4Status.BADSESSION).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.BADSESSION),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 1, 0)));
    }

    @Test
    void slotChecks()
    {
        assertWire(accepted().i(Nfs4Status.BADSLOT).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.BADSLOT),
            dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 1, 2)));
        final Wire highest = compound(call(1, 1), "", 1, 1).i(Nfs4.OP_CB_SEQUENCE).h(SH).h(SL).i(1, 0, 5)
            .b(false).i(0);
        assertWire(accepted().i(Nfs4Status.BAD_HIGH_SLOT).str("").i(1)
            .i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.BAD_HIGH_SLOT), dispatch(highest));
        final Wire many = cbSequence(compound(call(1, 1), "", 1, 5), SH, SL, 1, 0);
        assertWire(accepted().i(Nfs4Status.TOO_MANY_OPS).str("").i(1)
            .i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.TOO_MANY_OPS), dispatch(many));
    }

    @Test
    void operationsOutOfPlace()
    {
        assertWire(accepted().i(Nfs4Status.OP_NOT_IN_SESSION).str("").i(1)
                .i(Nfs4.OP_CB_RECALL, Nfs4Status.OP_NOT_IN_SESSION),
            dispatch(cbRecall(compound(call(1, 1), "", 1, 1))));
        final Wire twice = cbSequence(cbSequence(compound(call(1, 1), "", 1, 2), SH, SL, 1, 0), SH, SL, 2, 0);
        assertWire(accepted().i(Nfs4Status.SEQUENCE_POS).str("").i(2)
            .i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 0, 1, 1)
            .i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.SEQUENCE_POS), dispatch(twice));
    }

    @Test
    void anUndefinedOperationIsCbIllegal()
    {
        final Wire w = cbSequence(compound(call(1, 1), "", 1, 2), SH, SL, 1, 0).i(99);
        assertWire(accepted().i(Nfs4Status.OP_ILLEGAL).str("").i(2)
            .i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 0, 1, 1)
            .i(Nfs4.OP_CB_ILLEGAL, Nfs4Status.OP_ILLEGAL), dispatch(w));
    }

    @Test
    void theTagIsEchoedAndAnotherMinorVersionRefused()
    {
        assertWire(accepted().i(Nfs4Status.MINOR_VERS_MISMATCH).str("cb tag").i(0),
            dispatch(cbSequence(compound(call(1, 1), "cb tag", 0, 1), SH, SL, 1, 0)));
        assertWire(accepted().i(0).str("cb tag").i(0), dispatch(compound(call(1, 1), "cb tag", 1, 0)));
    }

    @Test
    void rpcLevelAnswers()
    {
        final byte[] truncated = dispatch(cbSequence(compound(call(1, 1), "", 1, 1), SH, SL, 1, 0));
        assertEquals(24 + 12 + 8 + 32, truncated.length);
        final Wire garbage = compound(call(1, 1), "", 1, 1).i(Nfs4.OP_CB_SEQUENCE).h(SH);
        assertWire(Wire.of().i(0, 1, 0, 0, 0, 4), dispatch(garbage));        // GARBAGE_ARGS
        assertWire(Wire.of().i(0, 1, 0, 0, 0, 3), dispatch(call(1, 2)));     // PROC_UNAVAIL
        assertWire(Wire.of().i(0, 1, 0, 0, 0, 2, 1, 1), dispatch(call(4, 0))); // PROG_MISMATCH 1..1
    }
}
