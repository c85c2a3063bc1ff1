/**
 * RoCEv2 wire layer: header flyweights ({@link io.jrxe.rxe.proto.Bth}, {@link io.jrxe.rxe.proto.Reth},
 * {@link io.jrxe.rxe.proto.Aeth}, ...), the opcode table ({@link io.jrxe.rxe.proto.Opcode}), 24-bit PSN
 * arithmetic ({@link io.jrxe.rxe.proto.Psn}), the invariant CRC ({@link io.jrxe.rxe.proto.Icrc}), GIDs and
 * encapsulation constants ({@link io.jrxe.rxe.proto.RoceV2}). Everything here is allocation free per packet.
 */
package io.jrxe.rxe.proto;
