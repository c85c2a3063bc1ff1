package io.jrxe.rxe.verbs;

/**
 * Work completion opcodes, values of {@code enum ib_wc_opcode} (include/rdma/ib_verbs.h, uapi ib_user_verbs.h).
 * Receive completions have bit 7 set so {@code 0 != (opcode & RECV)} tests for one.
 */
public final class WcOpcode
{
    /** SEND (any variant) completed. */
    public static final int SEND = 0;
    /** RDMA WRITE (with or without immediate) completed. */
    public static final int RDMA_WRITE = 1;
    /** RDMA READ completed. */
    public static final int RDMA_READ = 2;
    /** Compare and swap completed. */
    public static final int COMP_SWAP = 3;
    /** Fetch and add completed. */
    public static final int FETCH_ADD = 4;
    /** Memory window bind completed. */
    public static final int BIND_MW = 5;
    /** Local invalidate completed. */
    public static final int LOCAL_INV = 6;
    /** LSO send (unused by rxe). */
    public static final int LSO = 7;
    /** FLUSH completed. */
    public static final int FLUSH = 8;
    /** ATOMIC WRITE completed. */
    public static final int ATOMIC_WRITE = 9;
    /** Fast registration completed. */
    public static final int REG_MR = 10;
    /** Masked compare and swap (unsupported by rxe). */
    public static final int MASKED_COMP_SWAP = 11;
    /** Masked fetch and add (unsupported by rxe). */
    public static final int MASKED_FETCH_ADD = 12;
    /** A receive WQE consumed by a SEND. */
    public static final int RECV = 1 << 7;
    /** A receive WQE consumed by an RDMA WRITE with immediate. */
    public static final int RECV_RDMA_WITH_IMM = RECV + 1;

    private WcOpcode()
    {
    }

    /**
     * @param opcode WC opcode.
     * @return its name.
     */
    public static String name(final int opcode)
    {
        switch (opcode)
        {
            case SEND: return "SEND";
            case RDMA_WRITE: return "RDMA_WRITE";
            case RDMA_READ: return "RDMA_READ";
            case COMP_SWAP: return "COMP_SWAP";
            case FETCH_ADD: return "FETCH_ADD";
            case BIND_MW: return "BIND_MW";
            case LOCAL_INV: return "LOCAL_INV";
            case LSO: return "LSO";
            case FLUSH: return "FLUSH";
            case ATOMIC_WRITE: return "ATOMIC_WRITE";
            case REG_MR: return "REG_MR";
            case MASKED_COMP_SWAP: return "MASKED_COMP_SWAP";
            case MASKED_FETCH_ADD: return "MASKED_FETCH_ADD";
            case RECV: return "RECV";
            case RECV_RDMA_WITH_IMM: return "RECV_RDMA_WITH_IMM";
            default: return "WcOpcode(" + opcode + ")";
        }
    }

    /**
     * The completion opcode of a send-queue work request ({@code wr_to_wc_opcode} in rxe_comp.c).
     *
     * @param wrOpcode {@link WrOpcode} value.
     * @return the {@link WcOpcode}, or -1 if the WR opcode has none.
     */
    public static int ofWrOpcode(final int wrOpcode)
    {
        switch (wrOpcode)
        {
            case WrOpcode.RDMA_WRITE:
            case WrOpcode.RDMA_WRITE_WITH_IMM:
                return RDMA_WRITE;
            case WrOpcode.SEND:
            case WrOpcode.SEND_WITH_IMM:
            case WrOpcode.SEND_WITH_INV:
                return SEND;
            case WrOpcode.RDMA_READ:
            case WrOpcode.RDMA_READ_WITH_INV:
                return RDMA_READ;
            case WrOpcode.ATOMIC_CMP_AND_SWP:
                return COMP_SWAP;
            case WrOpcode.ATOMIC_FETCH_AND_ADD:
                return FETCH_ADD;
            case WrOpcode.LOCAL_INV:
                return LOCAL_INV;
            case WrOpcode.BIND_MW:
                return BIND_MW;
            case WrOpcode.REG_MR:
            case WrOpcode.REG_MR_INTEGRITY:
                return REG_MR;
            case WrOpcode.FLUSH:
                return FLUSH;
            case WrOpcode.ATOMIC_WRITE:
                return ATOMIC_WRITE;
            default:
                return -1;
        }
    }
}
