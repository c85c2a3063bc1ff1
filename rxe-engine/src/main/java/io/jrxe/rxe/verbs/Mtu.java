package io.jrxe.rxe.verbs;

/**
 * IB path MTU, values of {@code enum ib_mtu}.
 */
public enum Mtu
{
    /** 256 bytes. */
    MTU_256(1, 256),
    /** 512 bytes. */
    MTU_512(2, 512),
    /** 1024 bytes. */
    MTU_1024(3, 1024),
    /** 2048 bytes. */
    MTU_2048(4, 2048),
    /** 4096 bytes. */
    MTU_4096(5, 4096);

    /**
     * Header budget rxe subtracts from the netdev MTU before picking the IB MTU ({@code RXE_MAX_HDR_LENGTH}):
     * room for IPv6 (40) + UDP (8) + BTH (12) + the largest extension headers + ICRC.
     */
    public static final int RXE_MAX_HDR_LENGTH = 80;

    private static final Mtu[] BY_CODE = { null, MTU_256, MTU_512, MTU_1024, MTU_2048, MTU_4096 };

    private final int code;
    private final int bytes;

    Mtu(final int code, final int bytes)
    {
        this.code = code;
        this.bytes = bytes;
    }

    /**
     * @return the {@code ib_mtu} enum value (1..5).
     */
    public int code()
    {
        return code;
    }

    /**
     * @return the MTU in bytes.
     */
    public int bytes()
    {
        return bytes;
    }

    /**
     * @param code {@code ib_mtu} value.
     * @return the MTU or {@code null} if the code is not 1..5.
     */
    public static Mtu ofCode(final int code)
    {
        return code >= 1 && code <= 5 ? BY_CODE[code] : null;
    }

    /**
     * The largest IB MTU not above a payload size ({@code rxe_mtu_int_to_enum}).
     *
     * @param bytes available payload bytes.
     * @return the MTU or {@code null} when below 256.
     */
    public static Mtu floorOf(final int bytes)
    {
        if (bytes < 256)
        {
            return null;
        }
        if (bytes < 512)
        {
            return MTU_256;
        }
        if (bytes < 1024)
        {
            return MTU_512;
        }
        if (bytes < 2048)
        {
            return MTU_1024;
        }
        return bytes < 4096 ? MTU_2048 : MTU_4096;
    }

    /**
     * The active MTU rxe derives from the netdev MTU ({@code rxe_set_mtu}): subtract the header budget, round
     * down to an IB MTU, clamp to 256..4096. A 1500-byte netdev gives 1024, 9000 gives 4096.
     *
     * @param netdevMtu Ethernet MTU (IP packet size).
     * @return the active IB MTU.
     */
    public static Mtu fromNetdevMtu(final int netdevMtu)
    {
        final Mtu mtu = floorOf(netdevMtu - RXE_MAX_HDR_LENGTH);
        return null == mtu ? MTU_256 : mtu;
    }
}
