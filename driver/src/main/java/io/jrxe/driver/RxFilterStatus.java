package io.jrxe.driver;

/**
 * Where a NIC's receive filter stands ({@link NicDevice#rxFilterStatus()}).
 */
public enum RxFilterStatus
{
    /** The NIC cannot filter: it receives every frame on its link (promiscuous), whatever is asked. */
    UNSUPPORTED,
    /** The NIC can filter and nothing was asked yet: it is in its state after reset (a virtio NIC: promiscuous). */
    NOT_SET,
    /** The last request is on its way to the device. */
    PENDING,
    /** The device took the last request. */
    APPLIED,
    /**
     * The device refused a command of the last request, or did not answer in time ({@link NicDevice#rxFilterError()}
     * says which): the commands before it took effect, the rest were not sent. A NIC turns promiscuous mode off
     * last, so a first request that fails leaves it promiscuous.
     */
    FAILED
}
