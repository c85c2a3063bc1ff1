/**
 * The IB communication manager (IBA Vol. 1 ch. 12; Linux {@code drivers/infiniband/core/cm.c}): connections
 * made and ended with MADs on QP1, the layer under {@link io.jrxe.ulp.rdmacm}. Internal: applications use
 * rdma_cm.
 * <pre>
 *   CmService (one per device, one thread)
 *     ├── MadPort: QP1 (GSI), receive slots [GRH 40 | MAD 256], send slots [MAD 256],
 *     │            UD SENDs to QPN 1 with Q_Key 0x80010000
 *     ├── CmReceiver: each received MAD checked and dispatched (cm.c's handlers, one counted reason per drop)
 *     ├── connections by local comm ID and by (peer CA GUID, peer comm ID); listeners by service ID
 *     ├── CmTimers: retransmission after each CM timeout (2 packet lifetimes + the peer's response time),
 *     │             MaxCMRetries, MRA extensions, time-wait, on the injected clock
 *     └── CmCounters (infiniband_cm's groups, in a CmCountersFile for jrxe stat)
 *   CmConnection: one communication, its CmState, the REQ/REP parameters, the last MAD for retransmission
 *   CmHandler: what the consumer hears (REQ, REP, RTU, REJ, DREQ, DREP, time-outs, time-wait exit, SIDR)
 *   mad: the wire formats (MAD header, REQ ... APR, SIDR, ClassPortInfo, rdma_cm's cma_hdr)
 * </pre>
 * Behaviour on the wire (each rule cited where it is enforced): a duplicate REQ re-sends our REP or MRA, a
 * duplicate REP re-sends the RTU, a DREQ in time-wait re-sends the DREP, a REQ for an unknown service gets REJ 8,
 * a REP for an unknown comm ID REJ 6, a REQ from a QP still connected REJ 10, a DREQ for an unknown connection a
 * DREP; LAP is refused with an APR (RoCE has no alternate path); a Get of ClassPortInfo is answered and other Gets
 * get a GetResp with a status. Malformed or unexpected MADs are counted, one reason per drop, and dropped. Where
 * Linux and the text of the spec could be read two ways (the Starting PSN), jrxe does what Linux does.
 */
package io.jrxe.ulp.cm;
