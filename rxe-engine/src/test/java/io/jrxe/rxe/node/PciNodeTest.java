package io.jrxe.rxe.node;

import io.jrxe.net.NetStackContext;
import io.jrxe.vfio.PciSysfs;
import io.jrxe.vfio.VfioContext;
import io.jrxe.vfio.VfioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opening a node on a PCI address fails with a message that says what to fix, and leaves nothing behind (no pcap
 * file, nothing open). The sysfs tree is a temporary directory: no VFIO needed.
 */
class PciNodeTest
{
    @TempDir
    Path dir;

    private PciNode.Context context(final String address)
    {
        return new PciNode.Context().pciAddress(address).pcap(dir.resolve("node.pcap"))
            .vfio(new VfioContext().sysfs(new PciSysfs(dir.resolve("sys"))).devVfio(dir.resolve("dev-vfio")))
            .net(new NetStackContext().ipv4Address("10.9.0.2").ipv4PrefixLength(24));
    }

    @Test
    void shouldRefuseAMalformedAddressShowingTheExpectedForm()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new PciNode(context("03:00")));
        assertTrue(ex.getMessage().contains("not a PCI address: '03:00'"), ex.getMessage());
        assertTrue(ex.getMessage().contains("0000:00:03.0"), ex.getMessage());
        assertFalse(Files.exists(dir.resolve("node.pcap")), "nothing opened after a refused address");
    }

    @Test
    void shouldSayHowToFindTheAddressOfAnAbsentDevice()
    {
        final VfioException ex = assertThrows(VfioException.class, () -> new PciNode(context("0000:00:1f.7")));
        assertTrue(ex.getMessage().startsWith("no PCI device 0000:00:1f.7 in "), ex.getMessage());
        assertTrue(ex.getMessage().endsWith("check the address with lspci -D"), ex.getMessage());
        assertFalse(Files.exists(dir.resolve("node.pcap")));
    }

    @Test
    void shouldSayToBindADeviceThatIsNotBoundToVfioPci() throws IOException
    {
        Files.createDirectories(dir.resolve("sys/bus/pci/devices/0000:00:03.0"));
        final VfioException ex = assertThrows(VfioException.class, () -> new PciNode(context("00:03.0")));
        assertEquals("PCI device 0000:00:03.0 is not bound to any driver, not to vfio-pci: run: jrxe bind " +
            "0000:00:03.0", ex.getMessage());
    }

    @Test
    void shouldNameTheMissingSettings()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new PciNode(new PciNode.Context().pciAddress("0000:00:03.0")));
        assertTrue(ex.getMessage().contains("Context.net"), ex.getMessage());
    }
}
