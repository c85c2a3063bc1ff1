package io.jrxe.ulp.oob;

import org.junit.jupiter.api.Test;

import static io.jrxe.ulp.oob.Loopback.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerftestVersionTest
{
    @Test
    void encodesLikeStrncpyIntoSixteenBytes()
    {
        assertArrayEquals(ascii("6.06\0\0\0\0\0\0\0\0\0\0\0\0"), PerftestVersion.V6_06.encode());
    }

    @Test
    void decodesUpToTheNul() throws OobException
    {
        assertEquals("25.04.0", PerftestVersion.decode(ascii("25.04.0\0xxxxxxxx")).text());
    }

    @Test
    void comparesLikeAtof()
    {
        assertEquals(6.06, PerftestVersion.V6_06.value());
        assertEquals(25.04, new PerftestVersion("25.04.0-0.84").value());
        assertEquals(0.0, new PerftestVersion("v6").value());
        assertTrue(new PerftestVersion("5.70").atLeast(PerftestVersion.MIN_COMPATIBLE));
        assertFalse(new PerftestVersion("5.6").atLeast(PerftestVersion.MIN_COMPATIBLE));
    }

    @Test
    void rejectsMalformedFields()
    {
        assertThrows(OobException.class, () -> PerftestVersion.decode(new byte[16]));
        assertThrows(OobException.class, () -> PerftestVersion.decode(ascii("6.06\u0001\0\0\0\0\0\0\0\0\0\0\0")));
        assertThrows(OobException.class, () -> PerftestVersion.decode(ascii("0123456789abcdef")));
        assertThrows(IllegalArgumentException.class, () -> new PerftestVersion("0123456789abcdef"));
    }
}
