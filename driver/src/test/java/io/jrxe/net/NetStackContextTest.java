package io.jrxe.net;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetStackContextTest
{
    @Test
    void shouldFillDefaults()
    {
        final NetStackContext ctx = new NetStackContext().ipv4Address("10.1.2.3").conclude();
        assertEquals(0x0A01_0203, ctx.ipv4Address());
        assertEquals(60_000_000_000L, ctx.neighborTimeoutNs());
        assertEquals(3, ctx.resolveMaxAttempts());
        assertEquals(32, ctx.txBatchSize());
        assertNotNull(ctx.nanoClock());
        assertNotNull(ctx.epochClock());
        assertNotNull(ctx.errorHandler());
        assertTrue(ctx.gratuitousArp());
        assertTrue(ctx.ipv6LinkLocal());
    }

    @Test
    void shouldSayWhatToFix()
    {
        assertMessage("set ipv4Address", new NetStackContext());
        assertMessage("unicast", new NetStackContext().ipv4Address("224.0.0.1"));
        assertMessage("ipv4PrefixLength", new NetStackContext().ipv4Address("10.0.0.1").ipv4PrefixLength(33));
        assertMessage("arpCacheSize", new NetStackContext().ipv4Address("10.0.0.1").arpCacheSize(0));
        assertMessage("txBatchSize", new NetStackContext().ipv4Address("10.0.0.1").txBatchSize(0));
        assertMessage("resolveMaxAttempts", new NetStackContext().ipv4Address("10.0.0.1").resolveMaxAttempts(0));
        assertThrows(IllegalArgumentException.class, () -> new NetStackContext().addIpv6Address("ff02::1"));
    }

    @Test
    void shouldRefuseDevicesTooSmallForIp()
    {
        try (LoopbackNic small = new LoopbackNic("small", Frames.MAC_A, 1500, 1024, 8))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> new NetStack(small, new NetStackContext().ipv4Address("10.0.0.1")));
            assertTrue(ex.getMessage().contains("IPv6 needs an MTU of at least 1280"), ex.getMessage());
            new NetStack(small, new NetStackContext().ipv4Address("10.0.0.1").ipv6LinkLocal(false));
        }
        try (LoopbackNic multicastMac = new LoopbackNic("m", 0x01_00_00_00_00_01L))
        {
            assertThrows(IllegalStateException.class,
                () -> new NetStack(multicastMac, new NetStackContext().ipv4Address("10.0.0.1")));
        }
    }

    private static void assertMessage(final String fragment, final NetStackContext ctx)
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class, ctx::conclude);
        assertTrue(ex.getMessage().contains(fragment), ex.getMessage());
    }
}
