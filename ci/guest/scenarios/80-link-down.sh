# The kernel peer's link goes down in the middle of a transfer (issue 13, link state): jrxe's RC requester must
# ride out an outage shorter than its retry budget and end cleanly in RETRY_EXC_ERR when the peer stays away.
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0)  --- QEMU hub ---  NIC B (vfio-pci, jrxe, 10.9.0.2)
#   ib_write_bw server (responder)                         jrxe perf --op write client (requester)
#
# 1. Short outage: once rxe0 has received the first writes, `ip link set eth0 down` for OUTAGE_S seconds (rxe's
#    port goes DOWN, nothing reaches or leaves rxe0), then up. ACK timeout code 18 (1.07 s) and 7 retries give
#    jrxe about 8.6 s: the transfer must finish with every message, jrxe having retransmitted (IBA 9.7.6.1.3: a
#    requester that sees no ACK in time retries from the oldest unacknowledged PSN).
# 2. Long outage: the same with ACK timeout code 14 (67 ms; about 0.5 s of retries) and the link down until jrxe
#    gives up: once the retry count is spent the QP must end with RETRY_EXC_ERR (IBA 9.7.6.1.3; retry_exceeded_err
#    counted; jrxe's retry_cnt 7 means seven retries, where rxe would retry forever) and the client exit with an
#    error instead of hanging; then the link comes back.
# Checks: as above; jrxe's counters show no other error; rxe's link_downed counted both outages.
# It runs last, after the baselines, so that no measurement follows a netdev that went down and up. (It was moved
# when rxe's write_bw in 50-baseline-write was 0.0036 Gb/s after this cell against 0.0216 in a fresh guest; the
# next full run, with this cell last, still gave rxe 0.0038: what slows rxe later in a guest is not this cell alone.)
# timeout: 900

ITERS=400
SIZE=65536
OUTAGE_S=2
RUN_TIMEOUT=300

interop_setup
at_exit "ip link set $eth up"
log "rxe0 on $eth, RoCE v2 GID index $gidx; NIC B on vfio-pci"

problems=()
rxe_file=/sys/class/infiniband/rxe0/ports/1/hw_counters

# rxe_received: rxe0's rcvd_pkts (builtins only: it runs in a wait loop).
rxe_received()
{
    local v
    read -r v < "$rxe_file/rcvd_pkts"
    echo "$v"
}

# received_more THAN: rxe0 has received more than THAN packets.
received_more()
{
    [ "$(rxe_received)" -gt "$1" ]
}

# run_outage TAG ACK_TIMEOUT: ib_write_bw server, jrxe client; takes eth down once 200 packets arrived. With
# OUTAGE set the link comes back after that many seconds, without it once the jrxe client has exited. Sets
# JRC, KRC, DOWN_STATE, SECS.
run_outage()
{
    local tag=$1 timeout_code=$2 klog=/tmp/ib-write-bw-$1.log log=/tmp/jrxe-write-$1.log kpid jpid base t0
    timeout $((RUN_TIMEOUT + 240)) ib_write_bw -d rxe0 -x "$gidx" -s $SIZE -n $ITERS -F --report_gbits \
        -u "$timeout_code" > "$klog" 2>&1 &
    kpid=$!
    wait_until 30 tcp_listening $OOB_PORT || problems+=("$tag: ib_write_bw server not listening")
    base=$(rxe_received)
    t0=${EPOCHREALTIME}
    "${JRXE[@]}" perf --op write --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" "${JRXE_NODE_OPTS[@]}" \
        --keep-counters --name "jrxe-$tag" -s $SIZE -n $ITERS --report-gbits -u "$timeout_code" \
        --timeout $RUN_TIMEOUT 127.0.0.1 > "$log" 2>&1 &
    jpid=$!
    if wait_until 240 received_more $((base + 200)); then
        ip link set "$eth" down
        log "$tag: $eth down at $(elapsed_since "$t0") s, rxe0 had received $(( $(rxe_received) - base )) packets"
        if [ -n "${OUTAGE:-}" ]; then
            sleep "$OUTAGE"
        else
            WAIT_POLL=1 wait_until 120 eval "! kill -0 $jpid 2> /dev/null"
        fi
        read -r DOWN_STATE < /sys/class/infiniband/rxe0/ports/1/state
        ip link set "$eth" up
        log "$tag: $eth up at $(elapsed_since "$t0") s (rxe0 port was '$DOWN_STATE')"
    else
        problems+=("$tag: rxe0 received no writes within 240 s")
    fi
    wait_pid_exit $jpid $RUN_TIMEOUT
    JRC=$?
    SECS=$(elapsed_since "$t0")
    wait_pid_exit $kpid 120
    KRC=$?
    show_log "$log" "$tag jrxe client" 8
    show_log "$klog" "$tag ib_write_bw server" 4
    JLOG=$log
}

# 1. short outage
rxe_before=$(rxe_counters rxe0)
OUTAGE=$OUTAGE_S run_outage short "$ACK_TIMEOUT"
short_secs=$SECS
short_state=$DOWN_STATE
[ $JRC = 0 ] || problems+=("short outage: jrxe client exited $JRC")
[ $KRC = 0 ] || problems+=("short outage: ib_write_bw server exited $KRC")
[ -n "$(value_of bw_avg_gbps "$(grep -m1 '^JRXE-PERF' "$JLOG")")" ] \
    || problems+=("short outage: jrxe client printed no result")
[[ $short_state == *DOWN* ]] || problems+=("short outage: rxe0's port was '$short_state' while $eth was down")
wait_until 20 rxe_port_active rxe0 || problems+=("rxe0's port did not come back ACTIVE after the short outage")

# 2. long outage
OUTAGE="" run_outage long 14
long_secs=$SECS
[ $JRC != 0 ] || problems+=("long outage: jrxe client exited 0 though the peer was gone")
[ $JRC != 124 ] || problems+=("long outage: jrxe client hung until killed")
# ibv_wc_status_str's words for IBV_WC_RETRY_EXC_ERR (12), as jrxe prints a failed completion
grep -q 'transport retry counter exceeded (status 12' "$JLOG" \
    || problems+=("long outage: jrxe client did not report a RETRY_EXC_ERR completion (status 12)")
wait_until 20 rxe_port_active rxe0 || problems+=("rxe0's port did not come back ACTIVE after the long outage")
rxe_after=$(rxe_counters rxe0)
rxe_delta_all=$(rxe_delta "$rxe_before" "$rxe_after")
rxe_downs=$(( $(value_of link_downed "$rxe_after") - $(value_of link_downed "$rxe_before") ))

stat_out=/tmp/jrxe-stat-$SCENARIO.txt
"${JRXE[@]}" stat --all jrxe-short jrxe-long > "$stat_out" 2>&1 || problems+=("jrxe stat failed")
short_c=$(jrxe_counters "$stat_out" jrxe-short)
long_c=$(jrxe_counters "$stat_out" jrxe-long)
log "short jrxe: $short_c"
log "long jrxe: $long_c"
log "rxe0: $rxe_delta_all"
errs=$(jrxe_errors "$short_c")
[ -z "$errs" ] || problems+=("short outage: jrxe counters $errs")
errs=$(jrxe_errors_except retry_exceeded_err "$long_c")
[ -z "$errs" ] || problems+=("long outage: jrxe counters $errs")
short_retx=$(value_of retransmitted_pkts "$short_c")
[ "${short_retx:-0}" -gt 0 ] || problems+=("short outage: jrxe retransmitted nothing")
long_exc=$(value_of retry_exceeded_err "$long_c")
[ "${long_exc:-0}" -ge 1 ] || problems+=("long outage: jrxe counted no retry_exceeded_err")
[ "$rxe_downs" -ge 2 ] 2> /dev/null || problems+=("rxe0 counted $rxe_downs link_downed for two outages")

figures="size=$SIZE iters=$ITERS outage_s=$OUTAGE_S short_s=$short_secs short_retx=${short_retx:-0}"
figures+=" long_s=$long_secs long_retry_exceeded=${long_exc:-0} long_jrxe_exit=$JRC rxe_link_downed=$rxe_downs"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
