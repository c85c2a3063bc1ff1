package io.jrxe.ulp.cm.mad;

/**
 * ClassPortInfo, IBA 13.4.8.1: attribute 0x0001 of every management class, here the CM's, 72 bytes at the start of
 * the MAD's data area (offsets below are from there). A CM answers Get(ClassPortInfo) with GetResp; jrxe fills the
 * versions, CapabilityMask and RespTimeValue and leaves redirection and traps zero (not redirected, no traps).
 * RespT is RespTimeValue (5 bits, 4.096 us * 2^value).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |  BaseVersion  |  ClassVersion |      CapabilityMask (16)      |   0
 *  +---------------+---------------+---------------------+---------+
 *  |                 CapabilityMask2 (27)                |  RespT  |   4
 *  +-----------------------------------------------------+---------+
 *  |                       RedirectGID (128)                       |   8
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------+-------+---------------------------------------+
 *  |   RedirectTC  | RedSL |            RedirectFL (20)            |  24
 *  +---------------+-------+-------+-------------------------------+
 *  |        RedirectLID (16)       |       RedirectP_Key (16)      |  28
 *  +---------------+---------------+-------------------------------+
 *  |    reserved   |                RedirectQP (24)                |  32
 *  +---------------+-----------------------------------------------+
 *  |                       RedirectQ_Key (32)                      |  36
 *  +---------------------------------------------------------------+
 *  |                         TrapGID (128)                         |  40
 *  |                                                               |
 *  |                                                               |
 *  |                                                               |
 *  +---------------+-------+---------------------------------------+
 *  |     TrapTC    | TrapSL|              TrapFL (20)              |  56
 *  +---------------+-------+-------+-------------------------------+
 *  |          TrapLID (16)         |         TrapP_Key (16)        |  60
 *  +---------------+---------------+-------------------------------+
 *  |     TrapHL    |                  TrapQP (24)                  |  64
 *  +---------------+-----------------------------------------------+
 *  |                         TrapQ_Key (32)                        |  68
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ClassPortInfo extends CmMessage<ClassPortInfo>
{
    /** AttributeID of ClassPortInfo. */
    public static final int ATTRIBUTE_ID = CmAttributes.CLASS_PORT_INFO;
    /** Length of ClassPortInfo in bytes. */
    public static final int LENGTH = 72;
    /** ClassPortInfo has no PrivateData: this is where the attribute ends. */
    public static final int PRIVATE_DATA_OFFSET = LENGTH;
    /** ClassPortInfo has no PrivateData. */
    public static final int PRIVATE_DATA_LENGTH = 0;

    /** Creates a ClassPortInfo flyweight over no buffer yet: {@link #wrap} it before use. */
    public ClassPortInfo()
    {
        super(ATTRIBUTE_ID, PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH);
    }

    /** @return BaseVersion (8 bits): the highest MAD base version supported, 1 */
    public int baseVersion()
    {
        return field8(0, 8);
    }

    /**
     * @param baseVersion BaseVersion (8 bits): the highest MAD base version supported, 1
     * @return this for chaining
     */
    public ClassPortInfo baseVersion(final int baseVersion)
    {
        field8(0, 8, baseVersion);
        return this;
    }

    /** @return ClassVersion (8 bits): the highest class version supported, 2 for CM */
    public int classVersion()
    {
        return field8(1, 8);
    }

    /**
     * @param classVersion ClassVersion (8 bits): the highest class version supported, 2 for CM
     * @return this for chaining
     */
    public ClassPortInfo classVersion(final int classVersion)
    {
        field8(1, 8, classVersion);
        return this;
    }

    /** @return CapabilityMask (16 bits) */
    public int capabilityMask()
    {
        return field16(2, 16);
    }

    /**
     * @param capabilityMask CapabilityMask (16 bits)
     * @return this for chaining
     */
    public ClassPortInfo capabilityMask(final int capabilityMask)
    {
        field16(2, 16, capabilityMask);
        return this;
    }

    /** @return CapabilityMask2 (27 bits) */
    public int capabilityMask2()
    {
        return field32(4, 27);
    }

    /**
     * @param capabilityMask2 CapabilityMask2 (27 bits)
     * @return this for chaining
     */
    public ClassPortInfo capabilityMask2(final int capabilityMask2)
    {
        field32(4, 27, capabilityMask2);
        return this;
    }

    /** @return RespTimeValue (5 bits, 4.096 us * 2^value): the most a response takes */
    public int respTimeValue()
    {
        return bloc(7, 3, 5);
    }

    /**
     * @param respTimeValue RespTimeValue (5 bits, 4.096 us * 2^value): the most a response takes
     * @return this for chaining
     */
    public ClassPortInfo respTimeValue(final int respTimeValue)
    {
        bloc(7, 3, 5, respTimeValue);
        return this;
    }

    /**
     * ClassPortInfo is never sent: a CM returns it in the GetResp to a Get, whose header the caller writes with
     * {@link MadHeader#initCm}.
     *
     * @param transactionId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public ClassPortInfo init(final long transactionId)
    {
        throw new UnsupportedOperationException("ClassPortInfo is not sent: it answers a Get with a GetResp");
    }

    /**
     * ClassPortInfo has no LocalCommID.
     *
     * @return 0
     */
    @Override
    public int localCommId()
    {
        return 0;
    }

    /**
     * ClassPortInfo has no LocalCommID.
     *
     * @param localCommId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public ClassPortInfo localCommId(final int localCommId)
    {
        throw noSuchField("ClassPortInfo", "LocalCommID");
    }

    /**
     * ClassPortInfo has no RemoteCommID.
     *
     * @return 0
     */
    @Override
    public int remoteCommId()
    {
        return 0;
    }

    /**
     * ClassPortInfo has no RemoteCommID.
     *
     * @param remoteCommId ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public ClassPortInfo remoteCommId(final int remoteCommId)
    {
        throw noSuchField("ClassPortInfo", "RemoteCommID");
    }
}
