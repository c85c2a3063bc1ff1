package io.jrxe.rxe.verbs;

import io.jrxe.rxe.spi.MrAccess;
import io.jrxe.rxe.spi.MrStatus;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.jrxe.rxe.verbs.AccessFlags.LOCAL_WRITE;
import static io.jrxe.rxe.verbs.AccessFlags.MW_BIND;
import static io.jrxe.rxe.verbs.AccessFlags.REMOTE_READ;
import static io.jrxe.rxe.verbs.AccessFlags.REMOTE_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryWindowTest
{
    private static final long IOVA = 0x10_0000L;
    private final VerbsFixture f = new VerbsFixture();
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final MrAccess access = new MrAccess(f.port.mrTable());
    private final MemoryRegion mr =
        f.device.regMr(f.pd, memory.addressOffset(), 4096, IOVA, LOCAL_WRITE | REMOTE_READ | MW_BIND);

    @Test
    void shouldBindType1WindowAndCheckRemoteAccessThroughIt()
    {
        final MemoryWindow mw = f.device.allocMw(f.pd, MemoryWindow.TYPE_1);
        assertTrue(mw.index() > f.device.queryDevice().maxMr(), "MW indices are above the MR range");
        final int unbound = mw.rkey();
        assertEquals(MrStatus.INVALID_STATE, access.checkRemote(f.pd, 16, unbound, REMOTE_READ, IOVA, 1));

        final int rkey = f.device.bindMw(mw, mr, IOVA + 1024, 512, REMOTE_READ | REMOTE_WRITE);
        assertNotEquals(unbound, rkey, "a bind changes the key byte");
        assertEquals(rkey >>> 8, unbound >>> 8);
        assertEquals(MrStatus.OK, access.checkRemote(f.pd, 16, rkey, REMOTE_READ, IOVA + 1024, 512));
        assertEquals(memory.addressOffset() + 1024, access.address());
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkRemote(f.pd, 16, rkey, REMOTE_READ, IOVA + 1023, 1));
        assertEquals(MrStatus.OUT_OF_RANGE, access.checkRemote(f.pd, 16, rkey, REMOTE_READ, IOVA + 1536, 1));
        assertEquals(MrStatus.INVALID_KEY, access.checkRemote(f.pd, 16, unbound, REMOTE_READ, IOVA + 1024, 1));
        assertEquals(MrStatus.PD_MISMATCH,
            access.checkRemote(f.device.allocPd(), 16, rkey, REMOTE_READ, IOVA + 1024, 1));
        assertEquals(MrStatus.ACCESS_DENIED, access.checkRemote(f.pd, 16, rkey, AccessFlags.REMOTE_ATOMIC,
            IOVA + 1024, 8));
    }

    @Test
    void shouldEnforceBindRules()
    {
        final MemoryWindow mw = f.device.allocMw(f.pd, MemoryWindow.TYPE_1);
        final MemoryRegion noBind = f.device.regMr(f.pd, memory.addressOffset(), 4096, IOVA, LOCAL_WRITE);
        VerbsException ex = assertThrows(VerbsException.class,
            () -> f.device.bindMw(mw, noBind, IOVA, 8, REMOTE_READ));
        assertTrue(ex.getMessage().contains("C10-73"), ex.getMessage());

        final MemoryRegion readOnly = f.device.regMr(f.pd, memory.addressOffset(), 4096, IOVA, REMOTE_READ | MW_BIND);
        ex = assertThrows(VerbsException.class, () -> f.device.bindMw(mw, readOnly, IOVA, 8, REMOTE_WRITE));
        assertTrue(ex.getMessage().contains("C10-74"), ex.getMessage());

        ex = assertThrows(VerbsException.class, () -> f.device.bindMw(mw, mr, IOVA + 4000, 200, REMOTE_READ));
        assertTrue(ex.getMessage().contains("C10-75"), ex.getMessage());

        ex = assertThrows(VerbsException.class,
            () -> f.device.bindMw(mw, mr, IOVA, 8, REMOTE_READ | AccessFlags.ZERO_BASED));
        assertTrue(ex.getMessage().contains("o10-36.2.2"), ex.getMessage());

        final MemoryWindow type2 = f.device.allocMw(f.pd, MemoryWindow.TYPE_2);
        assertThrows(VerbsException.class, () -> f.device.bindMw(type2, mr, IOVA, 8, REMOTE_READ));
    }

    @Test
    void shouldBindType2WindowToOneQpAndInvalidateIt()
    {
        final MemoryWindow mw = f.device.allocMw(f.pd, MemoryWindow.TYPE_2);
        assertNotNull(mw.entry().checkBind(f.device.allocPd(), mr.entry(), IOVA, 64, REMOTE_READ),
            "C10-72: QP of another PD");
        assertNotNull(mw.entry().checkBind(f.pd, mr.entry(), IOVA, 0, REMOTE_READ), "o10-37.2.40: zero length");
        assertNull(mw.entry().checkBind(f.pd, mr.entry(), IOVA, 64, REMOTE_READ));

        final int rkey = mw.entry().bind(0x5a, mr.entry(), IOVA, 64, REMOTE_READ, 17);
        assertEquals(0x5a, rkey & 0xff);
        assertEquals(1, mr.boundWindows());
        assertEquals(MrStatus.OK, access.checkRemote(f.pd, 17, rkey, REMOTE_READ, IOVA, 64));
        assertEquals(MrStatus.WRONG_QP, access.checkRemote(f.pd, 18, rkey, REMOTE_READ, IOVA, 64));
        assertNotNull(mw.entry().checkBind(f.pd, mr.entry(), IOVA, 64, REMOTE_READ),
            "o10-37.2.30: must be free to re-bind");

        assertEquals(MrStatus.INVALID_KEY, mw.entry().invalidate(rkey ^ 1));
        assertEquals(MrStatus.OK, mw.entry().invalidate(rkey));
        assertEquals(0, mr.boundWindows());
        assertEquals(MrStatus.INVALID_STATE, access.checkRemote(f.pd, 17, rkey, REMOTE_READ, IOVA, 64));
        assertNull(mw.entry().checkBind(f.pd, mr.entry(), IOVA, 64, REMOTE_READ));
    }

    @Test
    void shouldNotInvalidateType1Window()
    {
        final MemoryWindow mw = f.device.allocMw(f.pd, MemoryWindow.TYPE_1);
        final int rkey = f.device.bindMw(mw, mr, IOVA, 64, REMOTE_READ);
        assertEquals(MrStatus.NOT_ALLOWED, mw.entry().invalidate(rkey));
    }

    @Test
    void shouldStopWorkingWhenDeallocated()
    {
        final MemoryWindow mw = f.device.allocMw(f.pd, MemoryWindow.TYPE_1);
        final int rkey = f.device.bindMw(mw, mr, IOVA, 64, REMOTE_READ);
        f.device.deallocMw(mw);
        assertEquals(MrStatus.INVALID_KEY, access.checkRemote(f.pd, 16, rkey, REMOTE_READ, IOVA, 1));
        assertEquals(0, mr.boundWindows());
        f.device.deregMr(mr);
    }
}
