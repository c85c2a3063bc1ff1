package io.jrxe.rxe.spi;

import io.jrxe.rxe.verbs.WcStatus;

/**
 * Result codes of memory key validation ({@link MrAccess}). Allocation-free ints for the data path; the
 * transport maps any non-OK result of a remote check to a NAK Remote Access Error (AETH syndrome 0x62,
 * rxe_resp.c {@code RESPST_ERR_RKEY_VIOLATION}) and of a local SGE check to {@code IB_WC_LOC_PROT_ERR}
 * (rxe_req.c, copy_data failure).
 */
public final class MrStatus
{
    /** Key valid, rights present, range inside the region. */
    public static final int OK = 0;
    /** No region/window with this index, or the key byte does not match, or no rkey was issued. */
    public static final int INVALID_KEY = 1;
    /** The region belongs to another PD than the QP. */
    public static final int PD_MISMATCH = 2;
    /** The region lacks a required access right. */
    public static final int ACCESS_DENIED = 3;
    /** [va, va + length) is not inside the region (including 64-bit wrap-around). */
    public static final int OUT_OF_RANGE = 4;
    /** The region was deregistered/invalidated, or the window is not bound. */
    public static final int INVALID_STATE = 5;
    /** A type 2 window bound to another QP (IBA: type 2B windows are QP-associated). */
    public static final int WRONG_QP = 6;
    /** The operation is not allowed on this object (e.g. invalidating a type 1 window or a bound MR). */
    public static final int NOT_ALLOWED = 7;
    /** The SGE list is shorter than the data (receive: {@code LOC_LEN_ERR}). */
    public static final int LENGTH = 8;

    /** AETH syndrome of a NAK Remote Access Error. */
    public static final int AETH_NAK_REMOTE_ACCESS_ERROR = 0x62;

    private MrStatus()
    {
    }

    /**
     * @param status a non-OK status of a local (lkey) check.
     * @return the work completion status the requester reports ({@code IB_WC_LOC_PROT_ERR}).
     */
    public static int toLocalWcStatus(final int status)
    {
        return OK == status ? WcStatus.SUCCESS.code() : WcStatus.LOC_PROT_ERR.code();
    }

    /**
     * @param status result code.
     * @return its name.
     */
    public static String name(final int status)
    {
        switch (status)
        {
            case OK: return "OK";
            case INVALID_KEY: return "INVALID_KEY";
            case PD_MISMATCH: return "PD_MISMATCH";
            case ACCESS_DENIED: return "ACCESS_DENIED";
            case OUT_OF_RANGE: return "OUT_OF_RANGE";
            case INVALID_STATE: return "INVALID_STATE";
            case WRONG_QP: return "WRONG_QP";
            case NOT_ALLOWED: return "NOT_ALLOWED";
            case LENGTH: return "LENGTH";
            default: return "MrStatus(" + status + ")";
        }
    }

    /**
     * Overflow-safe unsigned range check: is [va, va + length) inside [start, start + size)?
     *
     * @param start region start (unsigned).
     * @param size region size (unsigned).
     * @param va access start (unsigned).
     * @param length access length (unsigned).
     * @return true if inside.
     */
    public static boolean inRange(final long start, final long size, final long va, final long length)
    {
        return Long.compareUnsigned(va, start) >= 0 &&
            Long.compareUnsigned(length, size) <= 0 &&
            Long.compareUnsigned(va - start, size - length) <= 0;
    }
}
