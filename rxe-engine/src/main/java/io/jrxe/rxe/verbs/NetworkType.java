package io.jrxe.rxe.verbs;

/**
 * Network header type of a RoCE GID or completion, values of {@code enum rdma_network_type}.
 */
public enum NetworkType
{
    /** Native InfiniBand (not used by rxe). */
    IB,
    /** RoCE v1 (not used by this engine). */
    ROCE_V1,
    /** RoCE v2 over IPv4: the GID is IPv4-mapped {@code ::ffff:a.b.c.d}. */
    IPV4,
    /** RoCE v2 over IPv6. */
    IPV6;

    /** @return the {@code rdma_network_type} value. */
    public int code()
    {
        return ordinal();
    }
}
