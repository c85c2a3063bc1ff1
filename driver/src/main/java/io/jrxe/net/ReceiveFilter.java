package io.jrxe.net;

import io.jrxe.driver.NicDevice;
import io.jrxe.driver.RxFilterStatus;

/**
 * The stack's side of the NIC's receive filter ({@link NicDevice#rxFilter}): it asks the NIC for the frames this
 * node takes, so that on a shared link (a hub, a bridge flooding unknown unicast) the NIC does not hand it every
 * other station's traffic to be dropped one by one as {@link NetCounter#NOT_OUR_MAC}:
 * <pre>
 *   promiscuous off, all-multicast off, and the multicast MACs of the groups the stack joined:
 *     33:33:00:00:00:01      all-nodes ff02::1                       (IPv6 on: ND's advertisements, DAD)
 *     33:33:ff:xx:xx:xx      solicited-node ff02::1:ffxx:xxxx of each   (RFC 4861 §7.2.1: where Neighbor
 *                            IPv6 address, xx = its low 24 bits          Solicitations for it are sent)
 *   the NIC's own MAC and broadcast (ARP) pass any filter: nothing to ask for.
 * </pre>
 *   and the MACs of the groups users joined ({@link MulticastGroups}), each time that set changes.
 * Duplicates (a link-local and a global address with the same low 24 bits share a group) are named once. More MACs
 * than the NIC's table holds ({@link NicDevice#rxFilterCapacity()}): all-multicast instead. With
 * {@link NetStackContext#promiscuous(boolean)} the stack asks for promiscuous mode instead (debugging, captures).
 * A NIC that cannot filter stays as it is and {@link #status()} is {@link RxFilterStatus#UNSUPPORTED}.
 * <p>
 * The request is made at the stack's first poll, on the thread that drives the NIC (the NIC's control path belongs
 * to that thread like its data path), and followed poll by poll until the NIC has taken it or failed:
 * {@link NetCounter#RX_FILTER_UPDATES} or {@link NetCounter#RX_FILTER_ERRORS}. The stack's addresses are fixed when
 * it is built; {@link #program()} is called again at each change of the joined groups. Allocates nothing.
 */
final class ReceiveFilter
{
    private final NetStack stack;
    private final NicDevice device;
    private final boolean promiscuous;
    private final long[] joined;
    private final MulticastGroups groups;
    private final long[] macs;
    private int macCount;
    private boolean allMulticast;
    private boolean pending;
    private RxFilterStatus status;

    /**
     * @param joinedMacs the multicast MACs of the groups the stack joined (read again by each {@link #program()})
     */
    ReceiveFilter(
        final NetStack stack,
        final NicDevice device,
        final boolean promiscuous,
        final long[] joinedMacs,
        final MulticastGroups groups)
    {
        this.stack = stack;
        this.device = device;
        this.promiscuous = promiscuous;
        this.joined = joinedMacs;
        this.groups = groups;
        this.macs = new long[joinedMacs.length + groups.capacity() + 1];
        this.status = device.rxFilterCapacity() == NicDevice.NO_RX_FILTER ?
            RxFilterStatus.UNSUPPORTED : RxFilterStatus.NOT_SET;
    }

    /**
     * Sends the filter for the stack's current groups to the NIC.
     *
     * @return 1 if a request was made, 0 if the NIC cannot filter
     */
    int program()
    {
        macCount = 0;
        for (final long mac : joined)
        {
            if (!contains(mac))
            {
                macs[macCount++] = mac;
            }
        }
        for (int i = 0, n = groups.macCount(); i < n; i++)
        {
            final long mac = groups.mac(i);
            if (!contains(mac))
            {
                macs[macCount++] = mac;
            }
        }
        final int capacity = device.rxFilterCapacity();
        allMulticast = NicDevice.NO_RX_FILTER != capacity && macCount > capacity;
        if (NicDevice.NO_RX_FILTER == capacity ||
            !device.rxFilter(promiscuous, allMulticast, macs, allMulticast ? 0 : macCount))
        {
            status = RxFilterStatus.UNSUPPORTED;
            pending = false;
            return 0;
        }
        status = RxFilterStatus.PENDING;
        pending = true;
        return 1 + poll();
    }

    private boolean contains(final long mac)
    {
        for (int i = 0; i < macCount; i++)
        {
            if (macs[i] == mac)
            {
                return true;
            }
        }
        return false;
    }

    /** A request is on its way: {@link #poll()} follows it. */
    boolean pending()
    {
        return pending;
    }

    /**
     * Follows the request: asks the NIC where it stands and counts the outcome once.
     *
     * @return 1 when the request ended (taken or failed) in this call, else 0
     */
    int poll()
    {
        status = device.rxFilterStatus();
        if (RxFilterStatus.PENDING == status)
        {
            return 0;
        }
        pending = false;
        if (RxFilterStatus.APPLIED == status)
        {
            stack.count(NetCounter.RX_FILTER_UPDATES);
        }
        else if (RxFilterStatus.FAILED == status)
        {
            stack.count(NetCounter.RX_FILTER_ERRORS);
        }
        return 1;
    }

    RxFilterStatus status()
    {
        return status;
    }

    /**
     * Appends {@code rx_filter=<status> promisc=0|1 allmulti=0|1 mc_macs=<n>} (what was asked), and the NIC's
     * error, if any, as {@code rx_filter_error="..."}.
     */
    StringBuilder append(final StringBuilder sb)
    {
        sb.append("rx_filter=").append(status.name().toLowerCase())
            .append(" promisc=").append(promiscuous || RxFilterStatus.UNSUPPORTED == status ? 1 : 0)
            .append(" allmulti=").append(allMulticast ? 1 : 0)
            .append(" mc_macs=").append(allMulticast ? 0 : macCount);
        if (RxFilterStatus.FAILED == status && null != device.rxFilterError())
        {
            sb.append(" rx_filter_error=\"").append(device.rxFilterError()).append('"');
        }
        return sb;
    }
}
