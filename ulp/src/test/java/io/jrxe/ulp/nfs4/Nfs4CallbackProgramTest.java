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

    /** The stateid {@link #cbRecall(Wire)} recalls: seqid 1, other 00000002 00000003 00000004. */
    private static final Nfs4Stateid HELD = new Nfs4Stateid().set(1, 0x0000_0002_0000_0003L, 4);

    private final Nfs4CallbackProgram cb = new Nfs4CallbackProgram(PROG);
    private final Nfs4Delegations delegations = new Nfs4Delegations();
    private final Nfs4SlotTable fore = new Nfs4SlotTable().reset(4);
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
        return cbRecall(w, 1, 0x0000_0002_0000_0003L, 4, FH);
    }

    /** CB_RECALL as knfsd encodes it (encode_cb_recall4args): stateid, truncate false, fh. */
    private static Wire cbRecall(
        final Wire w, final int seqid, final long otherHigh, final int otherLow, final byte[] fh)
    {
        return w.i(Nfs4.OP_CB_RECALL).i(seqid).h(otherHigh).i(otherLow).b(false).opaque(fh);
    }

    /** Bind as a session does: with its delegations and its fore channel's slot table; one read delegation held. */
    private void bindWithState()
    {
        cb.bind(new Nfs4SessionId().set(SH, SL), 2, 4, delegations, fore);
        assertEquals(0, delegations.add(HELD, new Nfs4FileHandle().set(FH, 0, FH.length), "/export/f",
            Nfs4.OPEN_DELEGATE_READ));
    }

    /** CB_SEQUENCE on slot 0 with seqid, then a CB_RECALL: the reply's CB_RECALL status. */
    private int recallStatus(final int seqid, final int stateSeqid, final long otherHigh, final int otherLow,
        final byte[] fh)
    {
        final byte[] reply = dispatch(cbRecall(cbSequence(compound(call(1, 1), "", 1, 2), SH, SL, seqid, 0),
            stateSeqid, otherHigh, otherLow, fh));
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(reply);
        assertEquals(0, b.getInt(24 + 4 + 4 + 4 + 4), "CB_SEQUENCE went through");
        assertEquals(Nfs4.OP_CB_RECALL, b.getInt(reply.length - 8));
        assertEquals(b.getInt(24), b.getInt(reply.length - 4), "the COMPOUND's status is CB_RECALL's");
        return b.getInt(reply.length - 4);
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
    void cbRecallOfADelegationNotHeldIsBadHandle()
    {
        // knfsd's CB_RECALL: CB_SEQUENCE, CB_RECALL(stateid, truncate, fh); bound without a table, nothing is held
        final byte[] reply = dispatch(cbRecall(cbSequence(compound(call(1, 1), "", 1, 2), SH, SL, 1, 0)));
        assertWire(accepted().i(Nfs4Status.BADHANDLE).str("").i(2)
            .i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 0, 1, 1)
            .i(Nfs4.OP_CB_RECALL, Nfs4Status.BADHANDLE), reply);
        assertEquals(1, cb.cbSequence());
        assertEquals(1, cb.cbRecall());
        assertEquals(0, cb.recallsAccepted());
        assertEquals(0, cb.others());
        assertEquals(1, cb.refused());
    }

    @Test
    void aHeldDelegationRecalledIsAcceptedAndMarkedForReturn()
    {
        bindWithState();
        assertWire(accepted().i(0).str("").i(2)
                .i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 0, 1, 1)
                .i(Nfs4.OP_CB_RECALL, 0),
            dispatch(cbRecall(cbSequence(compound(call(1, 1), "", 1, 2), SH, SL, 1, 0))));
        assertEquals(1, delegations.recalled());
        assertTrue(delegations.isRecalled(0));
        assertEquals(1, cb.recallsAccepted());

        // recalled again in a new request: NFS4_OK, still one DELEGRETURN due
        assertEquals(Nfs4Status.OK, recallStatus(2, 1, 0x0000_0002_0000_0003L, 4, FH));
        // seqid 0 names the current version of the state (RFC 8881 §8.2.2)
        assertEquals(Nfs4Status.OK, recallStatus(3, 0, 0x0000_0002_0000_0003L, 4, FH));
        assertEquals(1, delegations.recalled());
        assertEquals(1, delegations.size());
        assertEquals(3, cb.cbRecall());
        assertEquals(3, cb.recallsAccepted());
        assertEquals(0, cb.refused());
    }

    @Test
    void aRecallOfAStateidOrHandleNotHeldIsRefusedAsRfc8881Says()
    {
        bindWithState();
        final byte[] otherFile = {(byte)0xFA, (byte)0xCE, 0, 2};
        assertEquals(Nfs4Status.BAD_STATEID, recallStatus(1, 1, 0x0000_0002_0000_0003L, 5, FH),
            "the handle's delegation has another stateid");
        assertEquals(Nfs4Status.BAD_STATEID, recallStatus(2, 2, 0x0000_0002_0000_0003L, 4, FH),
            "the same other field with another seqid (not 0)");
        assertEquals(Nfs4Status.BADHANDLE, recallStatus(3, 1, 0x0000_0002_0000_0003L, 4, otherFile),
            "no delegation on that handle");
        delegations.openStarted();
        assertEquals(Nfs4Status.DELAY, recallStatus(4, 9, 9, 9, otherFile),
            "an OPEN is outstanding: its reply may grant the delegation recalled (RFC 8881 §2.10.6.3)");
        delegations.openEnded();
        assertEquals(Nfs4Status.BADHANDLE, recallStatus(5, 9, 9, 9, otherFile), "once the OPEN's reply was read");
        assertEquals(0, delegations.recalled());
        assertEquals(5, cb.cbRecall());
        assertEquals(0, cb.recallsAccepted());
        assertEquals(5, cb.refused());
    }

    @Test
    void aCallbackReferringToAForeChannelCallStillOutstandingIsDelayed()
    {
        bindWithState();
        final int slot = fore.acquire(); // an OPEN sent on slot 0 with seqid 1, its reply not read yet
        final java.util.function.IntFunction<Wire> referring = (seqid) -> cbRecall(compound(call(1, 1), "", 1, 2)
            .i(Nfs4.OP_CB_SEQUENCE).h(SH).h(SL).i(seqid, 0, 0).b(false)
            .i(2)                                       // two referring_call_list4
            .h(SH).h(SL + 1).i(1).i(5, 3)               // another session's call: not this client's to wait for
            .h(SH).h(SL).i(2).i(7, 2).i(fore.sequenceId(slot), slot)); // slot 2 is idle; slot 0 seqid 1 is out
        assertWire(accepted().i(Nfs4Status.DELAY).str("").i(1).i(Nfs4.OP_CB_SEQUENCE, Nfs4Status.DELAY),
            dispatch(referring.apply(1)));
        assertEquals(0, cb.cbRecall(), "CB_RECALL did not run");
        assertEquals(0, delegations.recalled());

        fore.succeeded(slot, 3, 3); // the reply was read
        assertWire(accepted().i(0).str("").i(2)
                .i(Nfs4.OP_CB_SEQUENCE, 0).h(SH).h(SL).i(1, 0, 1, 1)
                .i(Nfs4.OP_CB_RECALL, 0),
            dispatch(referring.apply(1)), "sent again with the same seqid: the slot had not moved");
        assertEquals(1, delegations.recalled());
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
        assertEquals(1, cb.cbRecall(), "the retry did not run CB_RECALL again");
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
