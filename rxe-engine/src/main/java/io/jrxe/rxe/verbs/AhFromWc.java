package io.jrxe.rxe.verbs;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The address vector that replies to the sender of a received datagram ({@code ib_init_ah_attr_from_wc},
 * core/verbs.c), for rxe's single RoCE v2 port: the addresses of the received packet reversed.
 * <pre>
 *  network type  = wc.networkHdrType if WITH_NETWORK_HDR_TYPE, else by the header ({@code ib_get_net_type_by_grh})
 *  sgid, dgid    = the packet's, from the 40-byte header area ({@link RdmaNetworkHeader#getGidsFromRdmaHdr})
 *  GRH flag      = required on RoCE                                   else EPROTOTYPE
 *  sgid index    = the local RoCE v2 GID equal to the packet's dgid   else ENOENT
 *  reply dgid    = the packet's sgid
 *  flow label    = word 0 of the area & 0xFFFFF, traffic class = (word 0 >> 20) & 0xFF (0 and 0 for IPv4: rxe
 *                  zeroes those bytes), hop limit 0xFF, sl = wc.sl, port = the port
 * </pre>
 * The kernel then resolves the destination MAC with a route lookup, which also sets the hop limit from the route;
 * jrxe resolves the next hop when it sends (its network stack's neighbour table), so the vector keeps hop limit
 * 0xFF and an unresolved MAC (-1).
 */
final class AhFromWc
{
    private static final NetworkType[] NETWORK_TYPES = NetworkType.values();

    private AhFromWc()
    {
    }

    /**
     * @param gids   the port's GID table.
     * @param port   the port the message arrived on (checked by the caller).
     * @param wc     the receive completion.
     * @param grh    the receive buffer (its first 40 bytes are the header area).
     * @param offset where the area starts in {@code grh}.
     * @param dst    receives the vector; written only on success.
     * @throws VerbsException EINVAL (no completion, no 40-byte area, unknown network type), EPROTOTYPE (the
     *                        completion has no GRH), ENOENT (the packet's destination GID is not local).
     */
    static void init(
        final GidTable gids, final int port, final WorkCompletion wc, final DirectBuffer grh, final int offset,
        final AhAttr dst)
    {
        if (null == wc || null == dst)
        {
            throw new VerbsException(Errno.EINVAL, "the completion and the destination AhAttr are required");
        }
        if (!RdmaNetworkHeader.holdsArea(grh, offset))
        {
            throw new VerbsException(Errno.EINVAL, "the receive buffer must hold the 40-byte network header area " +
                "at offset " + offset + ": pass the buffer of the receive WR, from its start");
        }
        final NetworkType netType = networkType(wc, grh, offset);
        final byte[] sgid = new byte[16];
        final byte[] dgid = new byte[16];
        if (0 != RdmaNetworkHeader.getGidsFromRdmaHdr(grh, offset, netType, sgid, dgid))
        {
            throw new VerbsException(Errno.EINVAL, "completion network header type " + wc.networkHdrType() +
                " is no rdma_network_type (IB 0, RoCE v1 1, IPv4 2, IPv6 3)");
        }
        if (0 == (wc.wcFlags() & WcFlags.GRH))
        {
            throw new VerbsException(Errno.EPROTOTYPE, "the completion has no GRH (WcFlags.GRH): a RoCE reply " +
                "needs the sender's address; use a UD or GSI receive completion");
        }
        final long dgidHi = GidTable.bytesToLong(dgid, 0);
        final long dgidLo = GidTable.bytesToLong(dgid, 8);
        // the GID type must match too: the table holds RoCE v2 GIDs only, so IB and RoCE v1 packets find none
        final int sgidIndex = NetworkType.IPV4 == netType || NetworkType.IPV6 == netType ?
            gids.find(dgidHi, dgidLo) : -1;
        if (sgidIndex < 0)
        {
            throw new VerbsException(Errno.ENOENT, "the packet's destination GID " + Long.toHexString(dgidHi) + ":" +
                Long.toHexString(dgidLo) + " (" + netType + ") is not a RoCE v2 GID of this port");
        }
        final int versionClassFlow = grh.getInt(offset, ByteOrder.BIG_ENDIAN);
        dst.dgid(GidTable.bytesToLong(sgid, 0), GidTable.bytesToLong(sgid, 8))
            .sgidIndex(sgidIndex)
            .flowLabel(versionClassFlow & 0xfffff)
            .trafficClass((versionClassFlow >>> 20) & 0xff)
            .hopLimit(0xff)
            .sl(wc.sl())
            .portNum(port)
            .dmac(-1L)
            .staticRate(IbRate.PORT_CURRENT);
    }

    private static NetworkType networkType(final WorkCompletion wc, final DirectBuffer grh, final int offset)
    {
        if (0 == (wc.wcFlags() & WcFlags.WITH_NETWORK_HDR_TYPE))
        {
            return RdmaNetworkHeader.getNetTypeByGrh(grh, offset);
        }
        final int code = wc.networkHdrType();
        return code >= 0 && code < NETWORK_TYPES.length ? NETWORK_TYPES[code] : null;
    }
}
