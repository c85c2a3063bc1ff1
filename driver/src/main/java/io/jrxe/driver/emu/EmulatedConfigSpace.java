package io.jrxe.driver.emu;

import io.jrxe.driver.pci.MmioRegion;

import static io.jrxe.driver.emu.VirtioSpec.*;
import static io.jrxe.driver.virtio.SplitVirtqueue.*;
import static io.jrxe.driver.virtio.VirtioNet.*;
import static io.jrxe.driver.virtio.VirtioPci.*;

/**
 * The 256-byte PCI configuration space of the emulated virtio-net function, laid out as QEMU lays out a
 * modern-only virtio-net-pci (plus one power-management capability, so drivers must skip foreign capabilities).
 * <pre>
 *  0x00 vendor 1af4 | device 1041       0x04 command | status (cap list)   0x08 rev 01 | class 02 00 00
 *  0x10..0x1f BAR0..3 absent            0x20 BAR4 64-bit prefetchable mem (16 KiB), low | 0x24 high
 *  0x2c subsystem 1af4:1100             0x34 capabilities pointer = 0x40   0x3c int line | pin INTA
 *
 *  capability list (virtio 1.1 §4.1.4), all vendor caps pointing into BAR4:
 *  0x40 COMMON  bar4 +0x0000 len 0x1000 --> 0x50 NOTIFY bar4 +0x3000 len 0x1000, multiplier 4
 *       --> 0x64 power management (not virtio) --> 0x6c ISR bar4 +0x1000 len 0x1000
 *       --> 0x7c DEVICE bar4 +0x2000 len 0x1000 --> 0x8c PCI_CFG window (bar/offset/length/data RW) --> end
 * </pre>
 * Writable: command (memory, bus master, INTx disable), BAR4/BAR5 (sizing), interrupt line, and the PCI_CFG
 * capability's bar/offset/length/data. Everything else ignores writes, as read-only registers do.
 */
final class EmulatedConfigSpace
{
    static final int SIZE = 256;
    static final int BAR_INDEX = 4;
    static final long BAR_LENGTH = 0x4000;
    static final long BAR_ADDRESS = 0xfe000000L;
    /** Memory BAR, 64-bit, prefetchable (PCI 3.0 §6.2.5.1). */
    private static final int BAR_FLAGS = 0x0c;

    static final int CAP_COMMON = 0x40;
    static final int CAP_NOTIFY = 0x50;
    static final int CAP_PM = 0x64;
    static final int CAP_ISR = 0x6c;
    static final int CAP_DEVICE = 0x7c;
    static final int CAP_PCI_CFG = 0x8c;

    private static final int COMMAND_WRITABLE = PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER | PCI_COMMAND_INTX_DISABLE;
    /** vfio-pci enables memory decode when the device is opened; bus mastering is the driver's job. */
    private static final int COMMAND_AT_OPEN = PCI_COMMAND_MEMORY;

    private final byte[] config = new byte[SIZE];
    private final byte[] writable = new byte[SIZE];
    private final MmioRegion bar4;
    private final EmulatedNicCounters counters;
    private volatile int command;

    EmulatedConfigSpace(final MmioRegion bar4, final EmulatedNicCounters counters)
    {
        this.bar4 = bar4;
        this.counters = counters;
        put16(PCI_VENDOR_ID, VENDOR_ID);
        put16(PCI_DEVICE_ID, DEVICE_ID_NET_MODERN);
        put16(PCI_STATUS, PCI_STATUS_CAP_LIST);
        config[PCI_REVISION_ID] = (byte)REVISION;
        put8(PCI_CLASS_PROG, CLASS_CODE_ETHERNET & 0xff);
        put8(PCI_CLASS_PROG + 1, (CLASS_CODE_ETHERNET >> 8) & 0xff);
        put8(PCI_CLASS_PROG + 2, (CLASS_CODE_ETHERNET >> 16) & 0xff);
        put16(PCI_SUBSYSTEM_VENDOR_ID, VENDOR_ID);
        put16(PCI_SUBSYSTEM_ID, SUBSYSTEM_ID);
        put8(PCI_CAPABILITY_POINTER, CAP_COMMON);
        put8(PCI_INTERRUPT_PIN, 1);
        markWritable(PCI_INTERRUPT_LINE, 1);
        markWritable(PCI_BAR0 + 4 * BAR_INDEX, 8);

        virtioCap(CAP_COMMON, CAP_NOTIFY, CAP_MIN_LEN, CFG_TYPE_COMMON, VirtioNetRegisters.COMMON_OFFSET);
        virtioCap(CAP_NOTIFY, CAP_PM, NOTIFY_CAP_MIN_LEN, CFG_TYPE_NOTIFY, VirtioNetRegisters.NOTIFY_OFFSET);
        put32(CAP_NOTIFY + CAP_NOTIFY_OFF_MULTIPLIER, VirtioNetRegisters.NOTIFY_OFF_MULTIPLIER);
        // PCI PM 1.2 §3.2: version 3, PMCSR in D0; present only so drivers learn to skip non-virtio caps
        put8(CAP_PM, PCI_CAP_ID_PM);
        put8(CAP_PM + 1, CAP_ISR);
        put16(CAP_PM + 2, 0x0003);
        virtioCap(CAP_ISR, CAP_DEVICE, CAP_MIN_LEN, CFG_TYPE_ISR, VirtioNetRegisters.ISR_OFFSET);
        virtioCap(CAP_DEVICE, CAP_PCI_CFG, CAP_MIN_LEN, CFG_TYPE_DEVICE, VirtioNetRegisters.DEVICE_OFFSET);
        // §4.1.4.7: the window's bar, offset, length and data are driver-written; the device starts with zeros
        put8(CAP_PCI_CFG + CAP_VNDR, PCI_CAP_ID_VENDOR);
        put8(CAP_PCI_CFG + CAP_NEXT, 0);
        put8(CAP_PCI_CFG + CAP_LEN, CAP_PCI_CFG_LENGTH);
        put8(CAP_PCI_CFG + CAP_CFG_TYPE, CFG_TYPE_PCI);
        markWritable(CAP_PCI_CFG + CAP_BAR, 1);
        markWritable(CAP_PCI_CFG + CAP_OFFSET, 12);
        writable[PCI_COMMAND] = (byte)COMMAND_WRITABLE;
        writable[PCI_COMMAND + 1] = (byte)(COMMAND_WRITABLE >>> 8);
        writeCommand(COMMAND_AT_OPEN);
        put32(PCI_BAR0 + 4 * BAR_INDEX, (int)BAR_ADDRESS | BAR_FLAGS);
        put32(PCI_BAR0 + 4 * BAR_INDEX + 4, (int)(BAR_ADDRESS >>> 32));
    }

    /**
     * Function-level reset as VFIO performs it: the kernel saves and restores the config header around the reset,
     * so command and BARs keep their values; the PCI_CFG access window starts over.
     */
    void resetFunction()
    {
        put8(CAP_PCI_CFG + CAP_BAR, 0);
        put32(CAP_PCI_CFG + CAP_OFFSET, 0);
        put32(CAP_PCI_CFG + CAP_LENGTH, 0);
        put32(CAP_PCI_CFG + CAP_PCI_CFG_DATA, 0);
    }

    boolean busMasterEnabled()
    {
        return 0 != (command & PCI_COMMAND_MASTER);
    }

    boolean memoryEnabled()
    {
        return 0 != (command & PCI_COMMAND_MEMORY);
    }

    int read(final int offset, final int width)
    {
        checkAccess(offset, width);
        if (overlaps(offset, width, CAP_PCI_CFG + CAP_PCI_CFG_DATA, 4))
        {
            pciCfgWindowRead();
        }
        int value = 0;
        for (int i = width - 1; i >= 0; i--)
        {
            value = (value << 8) | (config[offset + i] & 0xff);
        }
        return value;
    }

    void write(final int offset, final int width, final int value)
    {
        checkAccess(offset, width);
        for (int i = 0; i < width; i++)
        {
            final int at = offset + i;
            final int mask = writable[at] & 0xff;
            config[at] = (byte)((config[at] & ~mask) | ((value >>> (8 * i)) & mask));
        }
        if (overlaps(offset, width, PCI_COMMAND, 2))
        {
            writeCommand(get16(PCI_COMMAND));
        }
        if (overlaps(offset, width, PCI_BAR0 + 4 * BAR_INDEX, 8))
        {
            // BAR sizing (PCI 3.0 §6.2.5.1): size bits read back as zero, type bits are fixed
            put32(PCI_BAR0 + 4 * BAR_INDEX, (get32(PCI_BAR0 + 4 * BAR_INDEX) & ~(int)(BAR_LENGTH - 1)) | BAR_FLAGS);
        }
        if (overlaps(offset, width, CAP_PCI_CFG + CAP_PCI_CFG_DATA, 4))
        {
            pciCfgWindowWrite();
        }
    }

    private void writeCommand(final int value)
    {
        final int c = value & COMMAND_WRITABLE;
        put16(PCI_COMMAND, c);
        command = c;
    }

    /**
     * virtio 1.1 §4.1.4.7.1: a read of pci_cfg_data reads cap.length bytes at cap.offset of BAR cap.bar into
     * pci_cfg_data. An invalid window (other BAR, length not 1/2/4, unaligned offset) leaves the data unchanged.
     */
    private void pciCfgWindowRead()
    {
        final int length = get32(CAP_PCI_CFG + CAP_LENGTH);
        final long offset = get32(CAP_PCI_CFG + CAP_OFFSET) & 0xffffffffL;
        if (!validWindow(length, offset))
        {
            return;
        }
        final int value;
        switch (length)
        {
            case 1:
                value = bar4.read8(offset);
                break;
            case 2:
                value = bar4.read16(offset);
                break;
            default:
                value = bar4.read32(offset);
                break;
        }
        put32(CAP_PCI_CFG + CAP_PCI_CFG_DATA, value);
    }

    /** §4.1.4.7.1: a write of pci_cfg_data writes its first cap.length bytes at cap.offset of BAR cap.bar. */
    private void pciCfgWindowWrite()
    {
        final int length = get32(CAP_PCI_CFG + CAP_LENGTH);
        final long offset = get32(CAP_PCI_CFG + CAP_OFFSET) & 0xffffffffL;
        if (!validWindow(length, offset))
        {
            return;
        }
        final int data = get32(CAP_PCI_CFG + CAP_PCI_CFG_DATA);
        switch (length)
        {
            case 1:
                bar4.write8(offset, data & 0xff);
                break;
            case 2:
                bar4.write16(offset, data & 0xffff);
                break;
            default:
                bar4.write32(offset, data);
                break;
        }
    }

    private boolean validWindow(final int length, final long offset)
    {
        final boolean valid = (config[CAP_PCI_CFG + CAP_BAR] & 0xff) == BAR_INDEX &&
            (1 == length || 2 == length || 4 == length) && 0 == offset % length && offset + length <= BAR_LENGTH;
        if (!valid)
        {
            counters.incrementShared(EmulatedNicCounters.BAD_REGISTER_ACCESSES);
        }
        return valid;
    }

    private void virtioCap(final int at, final int next, final int length, final int type, final int barOffset)
    {
        put8(at + CAP_VNDR, PCI_CAP_ID_VENDOR);
        put8(at + CAP_NEXT, next);
        put8(at + CAP_LEN, length);
        put8(at + CAP_CFG_TYPE, type);
        put8(at + CAP_BAR, BAR_INDEX);
        put32(at + CAP_OFFSET, barOffset);
        put32(at + CAP_LENGTH, VirtioNetRegisters.REGION_LENGTH);
    }

    private static void checkAccess(final int offset, final int width)
    {
        if (offset < 0 || offset + width > SIZE)
        {
            throw new IllegalArgumentException("config space access of " + width + " bytes at 0x" +
                Integer.toHexString(offset) + " is outside the " + SIZE + "-byte config space");
        }
    }

    private static boolean overlaps(final int offset, final int width, final int start, final int length)
    {
        return offset < start + length && start < offset + width;
    }

    private void markWritable(final int offset, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            writable[offset + i] = (byte)0xff;
        }
    }

    private void put8(final int offset, final int value)
    {
        config[offset] = (byte)value;
    }

    private void put16(final int offset, final int value)
    {
        config[offset] = (byte)value;
        config[offset + 1] = (byte)(value >>> 8);
    }

    private void put32(final int offset, final int value)
    {
        put16(offset, value);
        put16(offset + 2, value >>> 16);
    }

    private int get16(final int offset)
    {
        return (config[offset] & 0xff) | (config[offset + 1] & 0xff) << 8;
    }

    private int get32(final int offset)
    {
        return get16(offset) | get16(offset + 2) << 16;
    }
}
