/**
 * T10-DIF protection information (PI) for signature (integrity) memory regions: the CRC-16 and IP-checksum guards,
 * the 8-byte tuple, and the generation and checking rules of {@code struct ib_t10_dif_domain}.
 * <pre>
 *   data in memory (memory domain T10-DIF): data and PI in separate buffers
 *     data MR:  | block 0 (pi_interval) | block 1 | block 2 | ...
 *     meta MR:  | PI 0 (8) | PI 1 | PI 2 | ...
 *
 *   data on the wire (wire domain T10-DIF): interleaved
 *     | block 0 | PI 0 | block 1 | PI 1 | block 2 | PI 2 | ...        block b at b * (pi_interval + 8)
 *
 *   PI tuple (8 bytes, big-endian):  | guard (2) | app tag (2) | ref tag (4) |
 * </pre>
 * Pure computation over Agrona buffers: no allocation, no locks; the engine thread runs it while it copies payload
 * into or out of an integrity region.
 */
package io.jrxe.rxe.pi;
