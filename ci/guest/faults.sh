# Helpers of the fault cells (issue 13): scenarios 34-faults-netem and 80-link-down source this after lib.sh.
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0) --[egress: prio + netem]--> QEMU hub --- NIC B (vfio-pci, jrxe, 10.9.0.2)
#
# netem sits on the kernel NIC's egress, so it harms what rxe sends: requests when rxe is the requester, ACKs and
# READ responses when jrxe is. Only RoCE data goes through it: the GSI QP's MADs (rdma_cm) and ARP leave unharmed,
# so a fault cell measures the transports' recovery rather than the CM's multi-second MAD timeouts. The tools'
# out-of-band TCP exchanges run over the loopback and never reach eth0.
#
#   qdisc prio 1: (3 bands; every priority maps to band 1:1)
#     filter prio 1: UDP, dport 4791, BTH DestQP == 1  -> 1:1  (MADs: untouched)
#     filter prio 2: UDP, dport 4791                   -> 1:3  -> qdisc netem 30: (NETEM_SPEC)
#
# The u32 offsets count from the IPv4 header (rxe sends no IP options):
#
#   0                20      22      24      28          32         36
#   +----------------+-------+-------+-------+-----------+----------+-----
#   | IPv4 header    | sport | dport | len,  | BTH: op,  | rsvd (8) | PSN
#   | (no options)   |       | 4791  | csum  | flags,    | DestQP   | ...
#   |                |       |       |       | P_Key     | (24)     |
#   +----------------+-------+-------+-------+-----------+----------+-----

# 0.2 % lost, 0.2 % sent twice, 0.2 % held back 1 ms (netem's reorder sends the other 99.8 % at once, so the held
# ones are overtaken; it needs the delay to reorder). RoCE recovers go-back-N: every lost or overtaken packet costs
# the rest of the requester's window (an RDMA READ stream resends the READs after the gap, about 128 packets at 64
# KiB), so the slowdown grows with the fault rate. Measured in the guest: 1 % of each made ib_write_bw with rxe as
# the requester 11 times slower than clean (rxe also recovers from a second NAK within one retry sequence only by
# its ACK timeout, rxe_comp.c started_retry); 0.5 % of each left jrxe's ib_read_bw client at 2.2 to 3.5 times.
NETEM_SPEC="loss 0.2% duplicate 0.2% delay 1ms reorder 99.8%"
# Local ACK timeout code of both sides' perftest runs in the fault cells: 14 (67 ms, perftest's own default and
# ibv_rc_pingpong's) rather than the suite's 18 (lib.sh ACK_TIMEOUT): recovery by timeout is part of what a fault
# cell measures, and 1.07 s per timeout would make it the whole of it.
FAULT_ACK_TIMEOUT=14
# A faulty run may take this many times its clean run (issue 13).
FAULT_SLOWDOWN_MAX=3

# netem_on DEV SPEC...: puts RoCE data leaving DEV through netem SPEC (the tree above).
netem_on()
{
    local dev=$1
    shift
    modprobe -a sch_prio sch_netem cls_u32 || return 1
    # the init's reset_machine removes a tree a killed scenario left
    : > "/run/jrxe-ci/netem-$dev"
    tc qdisc add dev "$dev" root handle 1: prio bands 3 priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 || return 1
    tc qdisc add dev "$dev" parent 1:3 handle 30: netem "$@" || return 1
    tc filter add dev "$dev" parent 1: protocol ip prio 1 u32 match ip protocol 17 0xff match ip dport 4791 0xffff \
        match u32 0x00000001 0x00ffffff at 32 flowid 1:1 || return 1
    tc filter add dev "$dev" parent 1: protocol ip prio 2 u32 match ip protocol 17 0xff match ip dport 4791 0xffff \
        flowid 1:3
}

netem_off()
{
    tc qdisc del dev "$1" root 2> /dev/null
    rm -f "/run/jrxe-ci/netem-$1"
    return 0
}

# count_of KEY LINE: value_of, 0 when KEY is absent (jrxe_counters and rxe_delta leave out zeros).
count_of()
{
    local v
    v=$(value_of "$1" "$2")
    echo "${v:-0}"
}

# netem_counts DEV: "pkts=N dropped=M" of the netem qdisc on DEV (what it passed and what it lost).
netem_counts()
{
    tc -s qdisc show dev "$1" | awk '
        $1 == "qdisc" { netem = ($2 == "netem") }
        netem && $1 == "Sent" { pkts = $4; d = $7; sub(",", "", d); print "pkts=" pkts " dropped=" d; exit }'
}

# ratio NUM DEN: NUM/DEN with 2 decimals ("?" when either is missing or DEN is 0).
ratio()
{
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "?"; else printf "%.2f", a / b }'
}

# within_slowdown FAULTY CLEAN: FAULTY <= FAULT_SLOWDOWN_MAX * CLEAN (both in seconds).
within_slowdown()
{
    awk -v a="$1" -v b="$2" -v m="$FAULT_SLOWDOWN_MAX" 'BEGIN { exit !(a != "" && b != "" && a <= m * b) }'
}

# transfer_secs SIZE ITERS GBPS: the seconds a run of ITERS messages of SIZE bytes took at GBPS Gbit/s.
transfer_secs()
{
    awk -v s="$1" -v n="$2" -v g="$3" 'BEGIN { if (g + 0 > 0) printf "%.3f", s * n * 8 / (g * 1e9) }'
}

# fault_errors COUNTERS: the jrxe error counters that are non-zero in a jrxe_counters string, without the NAKs
# that recovering from a lost or reordered packet sends and receives (IBA 9.7.5.2.1: a PSN sequence error is NAKed).
fault_errors()
{
    jrxe_errors_except "nak_sent nak_rcvd" "$1"
}
