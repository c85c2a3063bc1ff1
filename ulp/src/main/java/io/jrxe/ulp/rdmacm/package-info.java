/**
 * The RDMA connection manager for applications: librdmacm's API in Java, on jrxe's IB CM ({@link io.jrxe.ulp.cm}),
 * with the kernel rdma_cm's semantics (cma.c, IBA Annex A11).
 * <pre>
 *   RdmaCm (per node: the CM thread, port spaces, ARP and ND through the node's stack)
 *     ├── EventChannel ── CmEvent (ADDR_RESOLVED ... TIMEWAIT_EXIT; status; ConnParam, UD peer)
 *     ├── CmId: bind, resolve address and route, listen / getRequest, connect / accept / reject / establish,
 *     │         disconnect, migrate, destroy, options; its QP, PD, CQs and completion channels
 *     ├── AddrInfo: getAddrInfo / createEp (rdma_getaddrinfo, rdma_create_ep)
 *     └── RdmaVerbs: rdma_verbs.h (register, post, getSendComp / getRecvComp)
 * </pre>
 * Addressing is RoCEv2 over IPv4 or IPv6 (the address is the GID): the service ID of a port is the port space
 * shifted left 16 bits plus the port, rdma_cm's 36-byte header (IP version 4 or 6, both addresses, the source
 * port) travels at the front of the REQ or SIDR_REQ private data (so 56 of the REQ's 92 bytes are the
 * application's), the path is made locally (RoCE has no SA), and the QP's attributes come from the exchange
 * (PSNs, MTU, read depths swapped on the passive side as the kernel does, retry and RNR counts, ACK timeout).
 * Threading: control calls are thread-safe and either report through the channel or, for a synchronous id (no
 * channel), wait for their event; the CM thread produces events and never blocks on the application.
 */
package io.jrxe.ulp.rdmacm;
