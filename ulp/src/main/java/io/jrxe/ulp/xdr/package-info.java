/**
 * XDR (RFC 4506): the External Data Representation every ONC RPC message is written in, as two flyweights over
 * Agrona buffers. Everything is a multiple of four bytes, big-endian:
 * <pre>
 *   int, unsigned int, enum, bool   [ 4 bytes ]                                       RFC 4506 §4.1-4.4
 *   hyper, unsigned hyper           [ 8 bytes ]                                       RFC 4506 §4.5
 *   opaque fixed[n]                 [ n bytes | 0-3 zero bytes of padding ]           RFC 4506 §4.9
 *   opaque var&lt;m&gt;, string&lt;m&gt;       [ length (4) | length bytes | padding ]           RFC 4506 §4.10-4.11
 *   optional-data *p                [ bool | the item if TRUE ]                       RFC 4506 §4.19
 * </pre>
 * {@link io.jrxe.ulp.xdr.XdrEncoder} writes and {@link io.jrxe.ulp.xdr.XdrDecoder} reads; neither allocates on
 * the data path. A decoder never reads past the bytes it was given: a length or count that overruns them, padding
 * that is not zero or a boolean other than 0 or 1 throws {@link io.jrxe.ulp.xdr.XdrException} (a malformed
 * message, to be counted and dropped or answered with GARBAGE_ARGS by the layer above).
 */
package io.jrxe.ulp.xdr;
