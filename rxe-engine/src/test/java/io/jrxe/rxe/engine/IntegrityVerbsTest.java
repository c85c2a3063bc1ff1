package io.jrxe.rxe.engine;

import io.jrxe.rxe.pi.PiTuple;
import io.jrxe.rxe.verbs.AccessFlags;
import io.jrxe.rxe.verbs.Errno;
import io.jrxe.rxe.verbs.MemoryRegion;
import io.jrxe.rxe.verbs.MrCheckStatus;
import io.jrxe.rxe.verbs.MrType;
import io.jrxe.rxe.verbs.Mtu;
import io.jrxe.rxe.verbs.ProtectionDomain;
import io.jrxe.rxe.verbs.QpType;
import io.jrxe.rxe.verbs.QueuePair;
import io.jrxe.rxe.verbs.RxeDevice;
import io.jrxe.rxe.verbs.SendFlags;
import io.jrxe.rxe.verbs.SendWorkRequest;
import io.jrxe.rxe.verbs.SigAttrs;
import io.jrxe.rxe.verbs.SigDomain;
import io.jrxe.rxe.verbs.T10DifDomain;
import io.jrxe.rxe.verbs.VerbsException;
import io.jrxe.rxe.verbs.WcStatus;
import io.jrxe.rxe.verbs.WorkCompletion;
import io.jrxe.rxe.verbs.WrOpcode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verbs of integrity regions refuse what the kernel refuses: ib_alloc_mr of an integrity type, bad list
 * capacities, attributes that do not fit their domain or the mapping (EINVAL at post), REG_MR on an integrity
 * region, ib_check_mr_status on another region; a registration on a QP of another PD fails its WR; a region used
 * before it is registered protects its memory. None of it disturbs the engines.
 */
class IntegrityVerbsTest extends EngineTestBase
{
    private static final int N = 512;
    private static final int DATA = 4 * N;

    private final List<WorkCompletion> aSent = new ArrayList<>();
    private final UnsafeBuffer data = IntegrityRegionTest.direct(DATA);
    private final UnsafeBuffer meta = IntegrityRegionTest.direct(4 * PiTuple.SIZE);

    IntegrityVerbsTest()
    {
        super(59);
    }

    private QueuePair[] connect()
    {
        return pair.connect(QpType.RC, 64, Mtu.MTU_1024, 10, 20, new EnginePair.QpTuning());
    }

    private MemoryRegion mapped(final ProtectionDomain pd, final int dataLength, final boolean withMeta)
    {
        final RxeDevice dev = pair.a.device;
        final MemoryRegion mr = dev.allocMrIntegrity(pd, 2, 2);
        final int n = withMeta ?
            dev.mapMrSgPi(mr, new long[]{data.addressOffset()}, new int[]{dataLength}, 1, 0,
                new long[]{meta.addressOffset()}, new int[]{4 * PiTuple.SIZE}, 1, 0, 4096) :
            dev.mapMrSgPi(mr, new long[]{data.addressOffset()}, new int[]{dataLength}, 1, 0, null, null, 0, 0, 4096);
        assertEquals(withMeta ? 2 : 1, n);
        return mr;
    }

    private static SendWorkRequest regIntegrity(final MemoryRegion mr)
    {
        return new SendWorkRequest(1).wrId(7).opcode(WrOpcode.REG_MR_INTEGRITY).sendFlags(SendFlags.SIGNALED)
            .reg(mr, mr.rkey(), AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
    }

    private static SigAttrs attrs(final SigDomain mem, final SigDomain wire)
    {
        return new SigAttrs(0xff, mem, wire);
    }

    private static SigDomain dif(final int interval)
    {
        return SigDomain.t10Dif(T10DifDomain.builder().piInterval(interval).build());
    }

    private void assertPostRefused(final QueuePair qp, final SendWorkRequest wr, final String why)
    {
        assertEquals(-Errno.EINVAL, qp.postSend(wr), why);
    }

    @Test
    void shouldRefuseAllocationsTheKernelRefuses()
    {
        final RxeDevice dev = pair.a.device;
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
            () -> dev.allocMr(pair.a.pd, MrType.INTEGRITY, 4)).errno(), "ib_alloc_mr(IB_MR_TYPE_INTEGRITY)");
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
            () -> dev.allocMrIntegrity(pair.a.pd, 0, 1)).errno(), "no data list");
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
            () -> dev.allocMrIntegrity(pair.a.pd, 1, -1)).errno(), "negative meta list");
        final MemoryRegion mr = dev.allocMrIntegrity(pair.a.pd, 1, 0);
        assertEquals(MrType.INTEGRITY, mr.type());
        assertEquals(MemoryRegion.STATE_FREE, mr.state());
        assertEquals(-Errno.EINVAL, dev.mapMrSgPi(mr, new long[]{data.addressOffset()}, new int[]{DATA}, 1, 0,
            new long[]{meta.addressOffset()}, new int[]{32}, 1, 0, 4096), "meta list on a region without one");
        assertEquals(-Errno.EINVAL, dev.mapMrSgPi(mr, new long[]{0}, new int[]{DATA}, 1, 0, null, null, 0, 0, 4096));
        assertEquals(-Errno.EINVAL, dev.mapMrSgPi(mr, new long[]{data.addressOffset()}, new int[]{DATA}, 1, 0, null,
            null, 0, 0, 1000), "page size not a power of two");
        final MemoryRegion plain = dev.allocMr(pair.a.pd, MrType.MEM_REG, 4);
        assertEquals(-Errno.EINVAL, dev.mapMrSgPi(plain, new long[]{data.addressOffset()}, new int[]{DATA}, 1, 0,
            null, null, 0, 0, 4096), "map_mr_sg_pi of a MEM_REG region");
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
            () -> dev.checkMrStatus(plain, MrCheckStatus.CHECK_SIG_STATUS)).errno(), "not an integrity region");
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class,
            () -> dev.checkMrStatus(mr, 2)).errno(), "unknown check bit");
        assertEquals(0, dev.checkMrStatus(plain, 0).failStatus(), "mlx5: no check asked, nothing to refuse");
        dev.deregMr(mr);
        dev.deregMr(plain);
    }

    @Test
    void shouldRefuseAttributesThatDoNotFitTheirDomainsAtPost()
    {
        final QueuePair qa = connect()[0];
        final MemoryRegion noMeta = mapped(pair.a.pd, DATA, false);
        assertPostRefused(qa, regIntegrity(noMeta), "no attributes set");
        noMeta.sigAttrs(attrs(SigDomain.none(), SigDomain.none()));
        assertPostRefused(qa, regIntegrity(noMeta), "both domains NONE");
        noMeta.sigAttrs(attrs(SigDomain.none(), dif(520)));
        assertPostRefused(qa, regIntegrity(noMeta), "pi_interval 520 (data and PI interleaved in memory)");
        noMeta.sigAttrs(attrs(SigDomain.none(), dif(8192)));
        assertPostRefused(qa, regIntegrity(noMeta), "pi_interval above 4096");
        noMeta.sigAttrs(new SigAttrs(0x1ff, SigDomain.none(), dif(N)));
        assertPostRefused(qa, regIntegrity(noMeta), "check_mask wider than 8 bits");
        noMeta.sigAttrs(attrs(SigDomain.none(),
            SigDomain.t10Dif(T10DifDomain.builder().appTag(0x1_0000).build())));
        assertPostRefused(qa, regIntegrity(noMeta), "app tag wider than 16 bits");
        noMeta.sigAttrs(attrs(SigDomain.none(), dif(4096)));
        assertPostRefused(qa, regIntegrity(noMeta), "2048 data bytes are not whole 4096-byte blocks");
        noMeta.sigAttrs(attrs(dif(N), SigDomain.none()));
        assertPostRefused(qa, regIntegrity(noMeta), "memory PI without a protection buffer");

        final MemoryRegion withMeta = mapped(pair.a.pd, DATA, true);
        withMeta.sigAttrs(attrs(dif(N), dif(1024)));
        assertPostRefused(qa, regIntegrity(withMeta), "memory and wire intervals differ");
        final MemoryRegion odd = mapped(pair.a.pd, DATA - 100, false);
        odd.sigAttrs(attrs(SigDomain.none(), dif(N)));
        assertPostRefused(qa, regIntegrity(odd), "data not a multiple of the interval");

        withMeta.sigAttrs(attrs(dif(N), dif(N)));
        assertPostRefused(qa, new SendWorkRequest(1).wrId(8).opcode(WrOpcode.REG_MR).sendFlags(SendFlags.SIGNALED)
            .reg(withMeta, withMeta.rkey(), AccessFlags.LOCAL_WRITE), "REG_MR of an integrity region");
        final MemoryRegion plain = pair.a.device.allocMr(pair.a.pd, MrType.MEM_REG, 4);
        assertPostRefused(qa, regIntegrity(plain), "REG_MR_INTEGRITY of a MEM_REG region");

        pair.a.postSend(qa, regIntegrity(withMeta)); // the fitting one is taken, and nothing was queued before it
        pair.runUntil(() -> pair.a.pollSend(aSent).size() >= 1, MS, 100_000);
        assertEquals(1, aSent.size());
        assertEquals(WcStatus.SUCCESS.code(), aSent.get(0).status(), aSent.get(0).toString());
        assertEquals(MemoryRegion.STATE_VALID, withMeta.state());
    }

    @Test
    void shouldFailTheRegistrationOnAQpOfAnotherPd()
    {
        final QueuePair qa = connect()[0];
        final ProtectionDomain other = pair.a.device.allocPd();
        final MemoryRegion mr = mapped(other, DATA, false);
        mr.sigAttrs(attrs(SigDomain.none(), dif(N)));
        pair.a.postSend(qa, regIntegrity(mr));
        pair.runUntil(() -> pair.a.pollSend(aSent).size() >= 1, MS, 100_000);
        assertEquals(WcStatus.LOC_QP_OP_ERR.code(), aSent.get(0).status(), "rxe_reg_fast_mr: the PD must match");
        assertEquals(MemoryRegion.STATE_FREE, mr.state());
    }

    @Test
    void shouldProtectMemoryBehindAnUnregisteredIntegrityRegion()
    {
        final QueuePair[] qps = connect();
        final MemoryRegion mr = mapped(pair.a.pd, DATA, false);
        mr.sigAttrs(attrs(SigDomain.none(), dif(N)));
        final EnginePair.Region dst = pair.b.register(DATA + 32, ALL);
        final SendWorkRequest wr = new SendWorkRequest(1).wrId(9).opcode(WrOpcode.RDMA_WRITE)
            .sendFlags(SendFlags.SIGNALED).remoteAddr(dst.address()).rkey(dst.mr.rkey());
        wr.sgl().add(mr.iova(), DATA + 32, mr.lkey());
        pair.a.postSend(qps[0], wr);
        pair.runUntil(() -> pair.a.pollSend(aSent).size() >= 1, MS, 100_000);
        assertEquals(WcStatus.LOC_PROT_ERR.code(), aSent.get(0).status(), "not registered: no valid lkey");
        assertEquals(0, dst.buffer.getLong(0), "nothing sent");
        final MrCheckStatus status = pair.a.device.checkMrStatus(mr, MrCheckStatus.CHECK_SIG_STATUS);
        assertEquals(0, status.failStatus(), "no signature error from a refused access");
        assertTrue(pair.internalErrors.isEmpty());
    }

    @Test
    void shouldFailARegistrationWhoseMappingChangedAfterThePost()
    {
        final QueuePair qa = connect()[0];
        final MemoryRegion mr = mapped(pair.a.pd, DATA, false);
        mr.sigAttrs(attrs(SigDomain.none(), dif(N)));
        pair.a.postSend(qa, regIntegrity(mr)); // fits now; the engine has not run it yet
        assertEquals(1, pair.a.device.mapMrSgPi(mr, new long[]{data.addressOffset()}, new int[]{DATA - 1}, 1, 0,
            null, null, 0, 0, 4096), "the consumer re-maps before the registration executes");
        pair.runUntil(() -> pair.a.pollSend(aSent).size() >= 1, MS, 100_000);
        assertEquals(WcStatus.LOC_QP_OP_ERR.code(), aSent.get(0).status(),
            "checked again at execution: 2047 bytes are not whole blocks");
        assertEquals(MemoryRegion.STATE_FREE, mr.state());
    }
}
