package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.jrxe.rxe.verbs.AccessFlags.LOCAL_WRITE;
import static io.jrxe.rxe.verbs.AccessFlags.MW_BIND;
import static io.jrxe.rxe.verbs.AccessFlags.REMOTE_ATOMIC;
import static io.jrxe.rxe.verbs.AccessFlags.REMOTE_READ;
import static io.jrxe.rxe.verbs.AccessFlags.REMOTE_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryRegionTest
{
    private final VerbsFixture f = new VerbsFixture();
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final MrAccess access = new MrAccess(f.port.mrTable());
    private static final long IOVA = 0x7000_0000_0000L;

    private MemoryRegion reg(final int flags)
    {
        return f.device.regMr(f.pd, memory.addressOffset(), memory.capacity(), IOVA, flags);
    }

    @Test
    void shouldBuildKeysFromIndexAndKeyByte()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ);
        assertEquals(mr.index(), mr.lkey() >>> 8);
        assertEquals(mr.lkey(), mr.rkey(), "a remote right issues rkey = lkey");
        final MemoryRegion local = reg(LOCAL_WRITE);
        assertEquals(0, local.rkey(), "no remote right, no rkey");
        assertNotEquals(mr.index(), local.index());
    }

    @Test
    void shouldRequireLocalWriteForRemoteWriteAndAtomic()
    {
        VerbsException ex = assertThrows(VerbsException.class, () -> reg(REMOTE_WRITE));
        assertTrue(ex.getMessage().contains("require LOCAL_WRITE"), ex.getMessage());
        ex = assertThrows(VerbsException.class, () -> reg(REMOTE_ATOMIC | REMOTE_READ));
        assertEquals(Errno.EINVAL, ex.errno());
        assertThrows(VerbsException.class, () -> reg(AccessFlags.ON_DEMAND));
        reg(REMOTE_READ);
    }

    @Test
    void shouldRefuseHeapBuffersAndWrappingRanges()
    {
        assertThrows(VerbsException.class, () -> f.device.regMr(f.pd, new UnsafeBuffer(new byte[64]), LOCAL_WRITE));
        assertThrows(VerbsException.class,
            () -> f.device.regMr(f.pd, memory.addressOffset(), 4096, -2048L, LOCAL_WRITE));
        f.device.regMr(f.pd, memory.addressOffset(), 4096, -4096L, LOCAL_WRITE);
    }

    @Test
    void shouldAcceptValidLocalAndRemoteAccessAndResolveAddress()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ | REMOTE_WRITE);
        assertEquals(MrStatus.OK, access.checkLocal(f.pd, mr.lkey(), LOCAL_WRITE, IOVA + 100, 50));
        assertEquals(memory.addressOffset() + 100, access.address());
        assertEquals(MrStatus.OK, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_WRITE, IOVA, 4096));
        assertEquals(MrStatus.OK, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_READ, IOVA + 4096, 0));
    }

    @Test
    void shouldRefuseWrongKeyByte()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ);
        final int wrong = (mr.lkey() & ~0xff) | ((mr.lkey() + 1) & 0xff);
        assertEquals(MrStatus.INVALID_KEY, access.checkLocal(f.pd, wrong, 0, IOVA, 1));
        assertEquals(MrStatus.INVALID_KEY, access.checkRemote(f.pd, 16, wrong, REMOTE_READ, IOVA, 1));
        assertEquals(MrStatus.INVALID_KEY, access.checkRemote(f.pd, 16, 0x00ffff00, REMOTE_READ, IOVA, 1));
    }

    @Test
    void shouldRefuseRemoteUseOfRegionWithoutRkey()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE);
        assertEquals(MrStatus.INVALID_KEY, access.checkRemote(f.pd, 16, mr.lkey(), 0, IOVA, 1));
    }

    @Test
    void shouldRefuseOtherPd()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ);
        final ProtectionDomain other = f.device.allocPd();
        assertEquals(MrStatus.PD_MISMATCH, access.checkLocal(other, mr.lkey(), 0, IOVA, 1));
        assertEquals(MrStatus.PD_MISMATCH, access.checkRemote(other, 16, mr.rkey(), REMOTE_READ, IOVA, 1));
    }

    @Test
    void shouldRefuseMissingRight()
    {
        final MemoryRegion mr = reg(REMOTE_READ);
        assertEquals(MrStatus.ACCESS_DENIED, access.checkLocal(f.pd, mr.lkey(), LOCAL_WRITE, IOVA, 1));
        assertEquals(MrStatus.ACCESS_DENIED, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_WRITE, IOVA, 1));
        assertEquals(MrStatus.ACCESS_DENIED, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_ATOMIC, IOVA, 8));
        assertEquals(MrStatus.OK, access.checkLocal(f.pd, mr.lkey(), 0, IOVA, 1), "local read needs no right");
    }

    @Test
    void shouldRefuseRangesOutsideTheRegionIncludingWrapAround()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ);
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkLocal(f.pd, mr.lkey(), 0, IOVA - 1, 1));
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkLocal(f.pd, mr.lkey(), 0, IOVA + 4095, 2));
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkLocal(f.pd, mr.lkey(), 0, IOVA + 4097, 0));
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_READ, IOVA + 1, -1L));
        assertEquals(MrStatus.OUT_OF_RANGE,
            access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_READ, IOVA + 16, 0xffff_ffff_ffff_fff8L),
            "va + length wraps past 2^64 back into the region");
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_READ, -8L, 16));
    }

    @Test
    void shouldCheckRangesNearTheTopOfTheAddressSpace()
    {
        final long top = -4096L; // 0xffff_ffff_ffff_f000: the region ends exactly at 2^64
        final MemoryRegion mr = f.device.regMr(f.pd, memory.addressOffset(), 4096, top, LOCAL_WRITE | REMOTE_READ);
        assertEquals(MrStatus.OK, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_READ, -8L, 8));
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_READ, -8L, 9));
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkRemote(f.pd, 16, mr.rkey(), REMOTE_READ, 0, 8));
        assertTrue(MrStatus.inRange(top, 4096, top, 4096));
        assertFalse(MrStatus.inRange(top, 4096, top + 1, 4096));
    }

    @Test
    void shouldFailLookupsAfterDeregistration()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ);
        f.device.deregMr(mr);
        assertEquals(MrStatus.INVALID_KEY, access.checkLocal(f.pd, mr.lkey(), 0, IOVA, 1));
        assertThrows(VerbsException.class, () -> f.device.deregMr(mr));
    }

    @Test
    void shouldCopyBetweenRegionAndPacketBuffers()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ | REMOTE_WRITE);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[64]);
        packet.putLong(8, 0x1122334455667788L);
        assertEquals(MrStatus.OK, access.copyToRemote(f.pd, 16, mr.rkey(), IOVA + 256, packet, 8, 8));
        assertEquals(0x1122334455667788L, memory.getLong(256));

        memory.putInt(1000, 0xcafebabe);
        assertEquals(MrStatus.OK, access.copyFromLocal(f.pd, mr.lkey(), IOVA + 1000, packet, 0, 4));
        assertEquals(0xcafebabe, packet.getInt(0));

        assertEquals(MrStatus.OK, access.copyFromRemote(f.pd, 16, mr.rkey(), IOVA + 256, packet, 32, 8));
        assertEquals(0x1122334455667788L, packet.getLong(32));

        packet.putInt(40, 0x01020304);
        assertEquals(MrStatus.OK, access.copyToLocal(f.pd, mr.lkey(), IOVA, packet, 40, 4));
        assertEquals(0x01020304, memory.getInt(0));
    }

    @Test
    void shouldCopyNothingWhenTheCheckFails()
    {
        final MemoryRegion mr = reg(REMOTE_READ);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[16]);
        packet.putLong(0, -1L);
        memory.putLong(0, 7L);
        assertEquals(MrStatus.ACCESS_DENIED, access.copyToRemote(f.pd, 16, mr.rkey(), IOVA, packet, 0, 8));
        assertEquals(MrStatus.ACCESS_DENIED, access.copyToLocal(f.pd, mr.lkey(), IOVA, packet, 0, 8));
        assertEquals(7L, memory.getLong(0));
    }

    @Test
    void shouldRefuseDeallocOfUsedPd()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE);
        final ProtectionDomain pd = f.pd;
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.device.deallocPd(pd));
        assertEquals(Errno.EBUSY, ex.errno());
        f.device.deregMr(mr);
        f.device.destroyCq(f.sendCq);
        f.device.deallocPd(pd);
        assertThrows(VerbsException.class, () -> reg(LOCAL_WRITE), "a deallocated PD cannot be used");
    }

    @Test
    void shouldRefuseDeregistrationWhileWindowsAreBound()
    {
        final MemoryRegion mr = reg(LOCAL_WRITE | REMOTE_READ | MW_BIND);
        final MemoryWindow mw = f.device.allocMw(f.pd, MemoryWindow.TYPE_1);
        f.device.bindMw(mw, mr, IOVA, 128, REMOTE_READ);
        final VerbsException ex = assertThrows(VerbsException.class, () -> f.device.deregMr(mr));
        assertEquals(Errno.EBUSY, ex.errno());
        f.device.bindMw(mw, null, 0, 0, 0);
        f.device.deregMr(mr);
    }
}
