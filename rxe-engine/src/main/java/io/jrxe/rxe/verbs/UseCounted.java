package io.jrxe.rxe.verbs;

/**
 * Count of the objects that reference a verbs object (a PD by its MRs/QPs/..., a CQ or SRQ by its QPs). Changed
 * only under the device lock; destroy is refused with EBUSY while it is not zero.
 */
abstract class UseCounted
{
    private int useCount;

    /** @return number of objects that reference this one. */
    public int useCount()
    {
        return useCount;
    }

    void acquire()
    {
        useCount++;
    }

    void release()
    {
        useCount--;
    }
}
