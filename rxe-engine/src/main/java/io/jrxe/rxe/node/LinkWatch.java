package io.jrxe.rxe.node;

import io.jrxe.driver.NicDevice;

/**
 * Notices the NIC's link going down and coming back, as rxe hears of its netdev's carrier (NETDEV_DOWN/UP ->
 * rxe_port_down/up). The driver polls, so nothing signals a change: the duty cycle asks the NIC only once per
 * interval of the duty-cycle clock ({@link NicDevice#linkUp()} reads device registers, an MMIO access on a VFIO
 * NIC), and pays one comparison per cycle otherwise. A link that goes down and comes back within one interval is
 * not seen. A virtio device that needs a reset reports its link down too, and so its port goes DOWN. Owned by the
 * node's duty cycle thread.
 */
final class LinkWatch
{
    private final NicDevice nic;
    private final long intervalNs;
    private long nextCheckNs;
    private boolean up;

    /**
     * @param nic        the NIC
     * @param intervalNs time between two looks at the NIC's link status
     * @param nowNs      duty-cycle clock now; the first look is now
     */
    LinkWatch(final NicDevice nic, final long intervalNs, final long nowNs)
    {
        this.nic = nic;
        this.intervalNs = intervalNs;
        this.up = nic.linkUp();
        this.nextCheckNs = nowNs + intervalNs;
    }

    /**
     * @return the link status as last seen
     */
    boolean isUp()
    {
        return up;
    }

    /**
     * @param nowNs duty-cycle clock
     * @return true if the link status changed since the last look ({@link #isUp()} tells which way)
     */
    boolean poll(final long nowNs)
    {
        if (nowNs - nextCheckNs < 0)
        {
            return false;
        }
        nextCheckNs = nowNs + intervalNs;
        final boolean now = nic.linkUp();
        if (now == up)
        {
            return false;
        }
        up = now;
        return true;
    }
}
