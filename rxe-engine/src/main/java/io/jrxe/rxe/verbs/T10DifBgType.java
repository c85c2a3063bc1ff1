package io.jrxe.rxe.verbs;

/**
 * What the 2-byte block guard of a T10-DIF tuple holds ({@code enum ib_t10_dif_bg_type}).
 */
public enum T10DifBgType
{
    /** CRC-16 T10-DIF: polynomial 0x8BB7, no reflection, no final xor ({@code IB_T10DIF_CRC}); the SCSI wire format. */
    CRC,
    /** The 16-bit IP checksum of RFC 1071 ({@code IB_T10DIF_CSUM}); cheaper for a host, used in the memory domain. */
    CSUM
}
