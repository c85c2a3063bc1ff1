package io.jrxe.rxe.verbs;

import java.util.Map;
import java.util.TreeMap;

/**
 * The live single and page mappings of a {@link DeviceDma}, so that an unmap or sync names a mapping that
 * exists, with the size, direction and function it was mapped with (the checks of the kernel's DMA debugging,
 * lib/dma-debug.c, made errors). The same range mapped twice is one entry with a count.
 * <pre>
 *   TreeMap by DMA address -> Mapping(size, direction, page?, count) -> next Mapping at the same address ...
 * </pre>
 * Guarded by the owning DeviceDma.
 */
final class DmaMappingTable
{
    private static final class Mapping
    {
        final long address;
        final long size;
        final DmaDirection direction;
        final boolean page;
        int count;
        Mapping next;

        Mapping(final long address, final long size, final DmaDirection direction, final boolean page)
        {
            this.address = address;
            this.size = size;
            this.direction = direction;
            this.page = page;
        }

        boolean sameAs(final long size, final DmaDirection direction, final boolean page)
        {
            return this.size == size && this.direction == direction && this.page == page;
        }
    }

    private final TreeMap<Long, Mapping> byAddress = new TreeMap<>();
    private int count;

    void add(final long address, final long size, final DmaDirection direction, final boolean page)
    {
        final Mapping head = byAddress.get(address);
        for (Mapping m = head; null != m; m = m.next)
        {
            if (m.sameAs(size, direction, page))
            {
                m.count++;
                count++;
                return;
            }
        }
        final Mapping added = new Mapping(address, size, direction, page);
        added.count = 1;
        added.next = head;
        byAddress.put(address, added);
        count++;
    }

    /**
     * Removes one count of the mapping.
     *
     * @throws VerbsException EINVAL naming what differs from the mappings at that address, if none matches.
     */
    void remove(final long address, final long size, final DmaDirection direction, final boolean page)
    {
        final String what = page ? "unmapPage" : "unmapSingle";
        Mapping previous = null;
        for (Mapping m = byAddress.get(address); null != m; previous = m, m = m.next)
        {
            if (m.sameAs(size, direction, page))
            {
                count--;
                if (0 == --m.count)
                {
                    unlink(previous, m);
                }
                return;
            }
        }
        final Mapping found = byAddress.get(address);
        if (null == found)
        {
            throw new VerbsException(Errno.EINVAL, what + " of DMA address 0x" + Long.toHexString(address) +
                ": nothing is mapped there (already unmapped, or not an address mapSingle/mapPage returned)");
        }
        throw new VerbsException(Errno.EINVAL, what + " of DMA address 0x" + Long.toHexString(address) + " size " +
            size + " " + direction + ": it was mapped by " + (found.page ? "mapPage" : "mapSingle") + " with size " +
            found.size + " " + found.direction + "; unmap with the function, size and direction it was mapped with");
    }

    /** @return true if {@code [address, address + size)} lies inside one live mapping. */
    boolean covers(final long address, final long size)
    {
        for (final Map.Entry<Long, Mapping> e : byAddress.headMap(address, true).descendingMap().entrySet())
        {
            for (Mapping m = e.getValue(); null != m; m = m.next)
            {
                if (address - m.address <= m.size - size)
                {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return live mappings, each map of the same range counted. */
    int count()
    {
        return count;
    }

    private void unlink(final Mapping previous, final Mapping m)
    {
        if (null != previous)
        {
            previous.next = m.next;
        }
        else if (null != m.next)
        {
            byAddress.put(m.address, m.next);
        }
        else
        {
            byAddress.remove(m.address);
        }
    }
}
