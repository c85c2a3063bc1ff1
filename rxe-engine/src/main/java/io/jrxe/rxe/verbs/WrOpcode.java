package io.jrxe.rxe.verbs;

/**
 * Send work request opcodes, values of {@code enum ib_wr_opcode} (shared with {@code ib_uverbs_wr_opcode}), and
 * the per-QP-type table of which are allowed (rxe_opcode.c {@code rxe_wr_opcode_info}).
 */
public final class WrOpcode
{
    /** RDMA WRITE. */
    public static final int RDMA_WRITE = 0;
    /** RDMA WRITE with immediate (consumes a receive WQE at the target). */
    public static final int RDMA_WRITE_WITH_IMM = 1;
    /** SEND. */
    public static final int SEND = 2;
    /** SEND with immediate. */
    public static final int SEND_WITH_IMM = 3;
    /** RDMA READ. */
    public static final int RDMA_READ = 4;
    /** Atomic compare and swap (8 bytes). */
    public static final int ATOMIC_CMP_AND_SWP = 5;
    /** Atomic fetch and add (8 bytes). */
    public static final int ATOMIC_FETCH_AND_ADD = 6;
    /** Local invalidate of an MR or type 2 MW. */
    public static final int LOCAL_INV = 7;
    /** Bind a memory window. */
    public static final int BIND_MW = 8;
    /** SEND with invalidate (IETH carries the rkey to invalidate at the target). */
    public static final int SEND_WITH_INV = 9;
    /** LSO (not supported). */
    public static final int TSO = 10;
    /** RDMA READ with invalidate (kernel only). */
    public static final int RDMA_READ_WITH_INV = 11;
    /** Masked compare and swap (not supported). */
    public static final int MASKED_ATOMIC_CMP_AND_SWP = 12;
    /** Masked fetch and add (not supported). */
    public static final int MASKED_ATOMIC_FETCH_AND_ADD = 13;
    /** FLUSH to persistence/global visibility. */
    public static final int FLUSH = 14;
    /** ATOMIC WRITE (8 bytes). */
    public static final int ATOMIC_WRITE = 15;
    /** Fast registration of an MR (kernel only). */
    public static final int REG_MR = 0x20;
    /**
     * Registration of an integrity region with its signature attributes ({@code IB_WR_REG_MR_INTEGRITY}, kernel
     * only; the seed's {@code IB_WR_REG_SIG_MR}). Completes as {@link WcOpcode#REG_MR}, as on mlx5.
     */
    public static final int REG_MR_INTEGRITY = 0x21;

    /** Class of the opcode: carries payload from the SGEs and may be inline. */
    public static final int CLASS_INLINE = 1;
    /** Class: SEND family (consumes a receive WQE). */
    public static final int CLASS_SEND = 1 << 1;
    /** Class: RDMA WRITE family (RETH). */
    public static final int CLASS_WRITE = 1 << 2;
    /** Class: RDMA READ family. */
    public static final int CLASS_READ = 1 << 3;
    /** Class: 8-byte atomic (AtomicETH). */
    public static final int CLASS_ATOMIC = 1 << 4;
    /** Class: local operation executed by the requester without a packet. */
    public static final int CLASS_LOCAL = 1 << 5;
    /** Class: FLUSH. */
    public static final int CLASS_FLUSH = 1 << 6;
    /** Class: ATOMIC WRITE. */
    public static final int CLASS_ATOMIC_WRITE = 1 << 7;

    private static final int RC = 1 << 2;
    private static final int UC = 1 << 3;
    private static final int UD = 1 << 4;
    private static final int GSI = 1 << 1;
    private static final int XRC = 1 << 9; // XRC_INI: the RC operations whose XRC opcodes IBA Table 35 defines

    private WrOpcode()
    {
    }

    /**
     * The classes of an opcode on a QP type, or 0 if the opcode is not allowed there (rxe {@code wr_opcode_mask}).
     * SEND_WITH_INV is restricted to RC: only RC has the SEND-with-invalidate packet opcodes (0x16/0x17,
     * ib_pack.h), although rxe's table also lists UC and UD.
     *
     * @param opcode WR opcode.
     * @param type QP type.
     * @return class bits or 0.
     */
    public static int classes(final int opcode, final QpType type)
    {
        final int t = 1 << type.code();
        switch (opcode)
        {
            case RDMA_WRITE:
            case RDMA_WRITE_WITH_IMM:
                return 0 != (t & (RC | UC | XRC)) ? CLASS_INLINE | CLASS_WRITE : 0;
            case SEND:
            case SEND_WITH_IMM:
                return 0 != (t & (RC | UC | UD | GSI | XRC)) ? CLASS_INLINE | CLASS_SEND : 0;
            case SEND_WITH_INV:
                return 0 != (t & (RC | XRC)) ? CLASS_INLINE | CLASS_SEND : 0;
            case RDMA_READ:
            case RDMA_READ_WITH_INV:
                return 0 != (t & (RC | XRC)) ? CLASS_READ : 0;
            case ATOMIC_CMP_AND_SWP:
            case ATOMIC_FETCH_AND_ADD:
                return 0 != (t & (RC | XRC)) ? CLASS_ATOMIC : 0;
            case LOCAL_INV:
            case REG_MR:
            case REG_MR_INTEGRITY:
                return 0 != (t & (RC | XRC)) ? CLASS_LOCAL : 0;
            case BIND_MW:
                return 0 != (t & (RC | UC | XRC)) ? CLASS_LOCAL : 0;
            case FLUSH: // RC only: jrxe has no XRC FLUSH or ATOMIC WRITE opcodes (its table stops at 0xB7)
                return 0 != (t & RC) ? CLASS_FLUSH : 0;
            case ATOMIC_WRITE:
                return 0 != (t & RC) ? CLASS_ATOMIC_WRITE : 0;
            default:
                return 0;
        }
    }

    /**
     * @param opcode WR opcode.
     * @return its name.
     */
    public static String name(final int opcode)
    {
        switch (opcode)
        {
            case RDMA_WRITE: return "RDMA_WRITE";
            case RDMA_WRITE_WITH_IMM: return "RDMA_WRITE_WITH_IMM";
            case SEND: return "SEND";
            case SEND_WITH_IMM: return "SEND_WITH_IMM";
            case RDMA_READ: return "RDMA_READ";
            case ATOMIC_CMP_AND_SWP: return "ATOMIC_CMP_AND_SWP";
            case ATOMIC_FETCH_AND_ADD: return "ATOMIC_FETCH_AND_ADD";
            case LOCAL_INV: return "LOCAL_INV";
            case BIND_MW: return "BIND_MW";
            case SEND_WITH_INV: return "SEND_WITH_INV";
            case TSO: return "TSO";
            case RDMA_READ_WITH_INV: return "RDMA_READ_WITH_INV";
            case MASKED_ATOMIC_CMP_AND_SWP: return "MASKED_ATOMIC_CMP_AND_SWP";
            case MASKED_ATOMIC_FETCH_AND_ADD: return "MASKED_ATOMIC_FETCH_AND_ADD";
            case FLUSH: return "FLUSH";
            case ATOMIC_WRITE: return "ATOMIC_WRITE";
            case REG_MR: return "REG_MR";
            case REG_MR_INTEGRITY: return "REG_MR_INTEGRITY";
            default: return "WrOpcode(" + opcode + ")";
        }
    }
}
