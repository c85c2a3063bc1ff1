package io.jrxe.rxe.verbs;

import org.junit.jupiter.api.Test;

import static io.jrxe.rxe.verbs.AddressHandleTest.assertErrno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rdma_cap_*, rdma_max_mad_size, rdma_start_port / rdma_end_port: rxe's answers and the flag logic behind them. */
class PortCapabilitiesTest
{
    private final RxeDevice device = new VerbsFixture().device;

    @Test
    void shouldAnswerAsTheKernelDoesForRxe()
    {
        assertEquals(0x0080_3005, device.coreCapFlags(1), "RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP");
        assertTrue(device.capIbMad(1));
        assertTrue(device.capIbCm(1));
        assertTrue(device.capAfIb(1));
        assertTrue(device.capEthAh(1));
        assertFalse(device.capOpaMad(1));
        assertFalse(device.capIbSmi(1), "no QP0");
        assertFalse(device.capIwCm(1));
        assertFalse(device.capIbSa(1));
        assertFalse(device.capIbMcast(1));
        assertFalse(device.capOpaAh(1));
        assertFalse(device.capRoceGidTable(1), "rxe has no add_gid/del_gid ops");
        assertFalse(device.capIbSwitch());
        assertEquals(256, device.maxMadSize(1));
        assertEquals(1, device.startPort());
        assertEquals(1, device.endPort());
    }

    @Test
    void shouldRefusePortsOutsideTheRange()
    {
        for (final int port : new int[]{ 0, 2, -1 })
        {
            assertErrno(Errno.EINVAL, () -> device.capIbMad(port), "port " + port);
            assertErrno(Errno.EINVAL, () -> device.capEthAh(port), "port " + port);
            assertErrno(Errno.EINVAL, () -> device.capIbMcast(port), "port " + port);
            assertErrno(Errno.EINVAL, () -> device.capRoceGidTable(port), "port " + port);
            assertErrno(Errno.EINVAL, () -> device.maxMadSize(port), "port " + port);
            assertErrno(Errno.EINVAL, () -> device.coreCapFlags(port), "port " + port);
        }
    }

    @Test
    void shouldTestTheFlagsAsTheKernelsInlineFunctions()
    {
        // RDMA_CORE_PORT_IBA_IB: an InfiniBand port, and a switch (management port 0)
        final PortCapabilities ib = new Fixed(CoreCapFlags.PROT_IB | CoreCapFlags.IB_MAD | CoreCapFlags.IB_SMI |
            CoreCapFlags.IB_CM | CoreCapFlags.IB_SA | CoreCapFlags.AF_IB, true);
        assertTrue(ib.capIbSmi(0));
        assertTrue(ib.capIbSa(0));
        assertTrue(ib.capIbMcast(0), "multicast goes with the SA");
        assertFalse(ib.capEthAh(0));
        assertEquals(0, ib.startPort(), "a switch starts at port 0");
        // OPA_AH is tested as a whole mask; IW_CM and OPA_MAD by their bits
        final PortCapabilities opa = new Fixed(CoreCapFlags.OPA_AH | CoreCapFlags.OPA_MAD | CoreCapFlags.IW_CM, false);
        assertTrue(opa.capOpaAh(1));
        assertTrue(opa.capOpaMad(1));
        assertTrue(opa.capIwCm(1));
        assertFalse(opa.capIbMad(1));
        assertEquals(1, opa.startPort());
    }

    /** A port with given flags. */
    private static final class Fixed implements PortCapabilities
    {
        private final int flags;
        private final boolean isSwitch;

        Fixed(final int flags, final boolean isSwitch)
        {
            this.flags = flags;
            this.isSwitch = isSwitch;
        }

        @Override
        public int coreCapFlags(final int port)
        {
            return flags;
        }

        @Override
        public int maxMadSize(final int port)
        {
            return 0;
        }

        @Override
        public boolean capRoceGidTable(final int port)
        {
            return false;
        }

        @Override
        public boolean capIbSwitch()
        {
            return isSwitch;
        }

        @Override
        public int endPort()
        {
            return isSwitch ? 0 : 1;
        }
    }
}
