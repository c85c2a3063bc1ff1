/**
 * Wire formats of InfiniBand Communication Management (IBA Vol. 1 chapter 12) as flyweights over 256-byte MADs,
 * for jrxe's CM on QP1: {@link io.jrxe.ulp.cm.mad.MadHeader} (the MAD common header, IBA 13.4.2), one
 * {@link io.jrxe.ulp.cm.mad.CmMessage} subclass per CM message (REQ, MRA, REJ, REP, RTU, DREQ, DREP, LAP, APR,
 * SIDR_REQ, SIDR_REP; IBA Tables 106-120) plus {@link io.jrxe.ulp.cm.mad.ClassPortInfo}, and rdma_cm's
 * {@link io.jrxe.ulp.cm.mad.CmaHeader} (IBA Annex A11) that starts the PrivateData of a REQ or SIDR_REQ.
 *
 * <h2>Conventions</h2>
 * <ul>
 *   <li>Every multi-byte field is big-endian ({@link io.jrxe.ulp.cm.mad.MadHeader#BYTE_ORDER}).</li>
 *   <li>Message flyweights wrap at the MAD's first byte; field offsets in their javadoc are from the start of the
 *       data area (MAD offset 24), as in the IBA tables and Linux {@code include/rdma/ibta_vol1_c12.h}.</li>
 *   <li>Sub-byte fields follow the kernel's notation: FIELD8/16/32(offset, width) is the top {@code width} bits of
 *       the byte or big-endian word at {@code offset}; BLOC(offset, skip, width) is {@code width} bits after the top
 *       {@code skip} bits of a byte. Setters mask to the width and keep the neighbouring bits.</li>
 *   <li>Unsigned fields come back in an {@code int} (use {@link java.lang.Integer#toUnsignedLong(int)} for the
 *       32-bit ones); GIDs and IPv6 addresses as two {@code long}s, bytes 0..7 then 8..15.</li>
 *   <li>No allocation in accessors; not thread safe: one flyweight per owner thread.</li>
 * </ul>
 *
 * <h2>Use</h2>
 * Allocate the flyweights once and re-wrap them per MAD:
 * <pre>{@code
 *   req.wrap(mad, 0);
 *   if (req.header().attributeId() == ReqMessage.ATTRIBUTE_ID && cma.wrap(mad, req.privateDataIndex()).isValid())
 *   {
 *       rep.wrap(reply, 0).init(req.header().transactionId())
 *           .localCommId(myCommId).remoteCommId(req.localCommId()).localQpn(myQpn).startingPsn(myPsn);
 *   }
 * }</pre>
 */
package io.jrxe.ulp.cm.mad;
