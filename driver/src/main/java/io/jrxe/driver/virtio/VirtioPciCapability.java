package io.jrxe.driver.virtio;

/**
 * One virtio structure located by a vendor-specific PCI capability (virtio 1.1 §4.1.4).
 *
 * @param cfgType             {@link VirtioPci#CFG_TYPE_COMMON} etc.
 * @param bar                 BAR index 0..5 holding the structure
 * @param offset              byte offset of the structure within the BAR
 * @param length              byte length of the structure
 * @param notifyOffMultiplier for NOTIFY only: queue_notify_off is multiplied by this, §4.1.4.4; 0 otherwise
 * @param configOffset        where the capability itself sits in configuration space (for messages)
 */
public record VirtioPciCapability(
    int cfgType, int bar, long offset, long length, int notifyOffMultiplier, int configOffset)
{
    @Override
    public String toString()
    {
        return "cfg_type " + cfgType + " at config 0x" + Integer.toHexString(configOffset) + " -> bar " + bar +
            " + 0x" + Long.toHexString(offset) + " length 0x" + Long.toHexString(length) +
            (cfgType == VirtioPci.CFG_TYPE_NOTIFY ? " multiplier " + notifyOffMultiplier : "");
    }
}
