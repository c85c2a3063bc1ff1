# Fault cells against the kernel peer (issue 13): the kernel NIC's egress loses, duplicates and reorders RoCE
# data (faults.sh: NETEM_SPEC on RoCE frames other than MADs), and rxe and jrxe must recover as IBA says:
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0) --[netem]--> QEMU hub --- NIC B (vfio-pci, jrxe, 10.9.0.2)
#
#   cell    tool (both directions: k2j = kernel client, jrxe server; j2k = jrxe client, kernel server)
#   pp      ibv_rc_pingpong -c        SEND; both sides check every received byte
#   write   ib_write_bw               64 KiB RDMA WRITEs
#   read    ib_read_bw                64 KiB RDMA READs
#   rping   rping -V (rdma_cm)        per ping an RDMA READ and an RDMA WRITE of 4 KiB; the client checks every byte
#
# pp, write and read run clean first, then under netem; each faulty run must stay within FAULT_SLOWDOWN_MAX times
# its clean run. Times: the kernel client's run (k2j: from its start to its exit, the jrxe server already listening;
# ibv_rc_pingpong's own "iters in" seconds) and jrxe's own transfer figure (j2k: JRXE-PINGPONG seconds, and the
# size and iterations over JRXE-PERF's bandwidth). perftest validates no data: for write and read the cell shows
# that every run completes with all its messages and no ICRC, length or key error on either side; pp and rping
# carry the byte-for-byte checks. rping runs under netem only (its CM exchange is what costs, and MADs pass clean).
# Checks: every run completes and validates; jrxe's counters show no errors beyond the NAKs recovery sends; the
# retransmit counters of both sides show that the faults were there (rxe's completer_retry_err / rcvd_seq_err, jrxe's
# seq_nak_sent / duplicate_request / retransmitted_pkts); netem dropped packets; the slowdowns stay within bounds.
# timeout: 1500

source "${BASH_SOURCE[0]%/scenarios/*}/faults.sh"

PP_ITERS=200
PP_SIZE=4096
BW_ITERS=200
BW_SIZE=65536
RPING_COUNT=50
RPING_SIZE=4096
RUN_TIMEOUT=300

interop_setup
at_exit "netem_off $eth"
log "rxe0 on $eth, RoCE v2 GID index $gidx; NIC B on vfio-pci; netem: $NETEM_SPEC"

JRXE_NODE=(--pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" "${JRXE_NODE_OPTS[@]}" --keep-counters)
problems=()
names=()
declare -A SECS RXE

# pp_k2j PHASE: ibv_rc_pingpong client -> jrxe pingpong server.
pp_k2j()
{
    local phase=$1 name=jrxe-pp-k2j-$1 log=/tmp/jrxe-pp-k2j-$1.log before out krc jrc
    names+=("$name")
    before=$(rxe_counters rxe0)
    start_jrxe_server "$log" "${JRXE[@]}" pingpong "${JRXE_NODE[@]}" --name "$name" -n $PP_ITERS -s $PP_SIZE -c \
        --timeout $RUN_TIMEOUT
    out=$(timeout $RUN_TIMEOUT ibv_rc_pingpong -d rxe0 -g "$gidx" -n $PP_ITERS -s $PP_SIZE -c 127.0.0.1 2>&1)
    krc=$?
    wait_pid_exit $JRXE_PID 60
    jrc=$?
    RXE[pp-k2j.$phase]=$(rxe_delta "$before" "$(rxe_counters rxe0)")
    echo "$out" | tail -4 | sed "s/^/[$SCENARIO] pp-k2j $phase ibv_rc_pingpong client: /"
    show_log "$log" "pp-k2j $phase jrxe server" 6
    SECS[pp-k2j.$phase]=$(echo "$out" | sed -n 's/^[0-9]* iters in \([0-9.]*\) seconds.*/\1/p')
    [ $krc = 0 ] || problems+=("pp-k2j $phase: kernel client exited $krc")
    [ $jrc = 0 ] || problems+=("pp-k2j $phase: jrxe server exited $jrc")
    grep -q "^JRXE-PINGPONG role=server iters=$PP_ITERS .* validate=ok" "$log" \
        || problems+=("pp-k2j $phase: jrxe server did not report $PP_ITERS validated iterations")
}

# pp_j2k PHASE: jrxe pingpong client -> ibv_rc_pingpong server.
pp_j2k()
{
    local phase=$1 name=jrxe-pp-j2k-$1 log=/tmp/jrxe-pp-j2k-$1.log klog=/tmp/rc-pingpong-j2k-$1.log before kpid
    local krc jrc
    names+=("$name")
    before=$(rxe_counters rxe0)
    timeout $((RUN_TIMEOUT + 240)) ibv_rc_pingpong -d rxe0 -g "$gidx" -n $PP_ITERS -s $PP_SIZE -c > "$klog" 2>&1 &
    kpid=$!
    wait_until 30 tcp_listening $OOB_PORT || problems+=("pp-j2k $phase: ibv_rc_pingpong server not listening")
    timeout $((RUN_TIMEOUT + 240)) "${JRXE[@]}" pingpong "${JRXE_NODE[@]}" --name "$name" -n $PP_ITERS -s $PP_SIZE \
        -c --timeout $RUN_TIMEOUT 127.0.0.1 > "$log" 2>&1
    jrc=$?
    wait_pid_exit $kpid 60
    krc=$?
    RXE[pp-j2k.$phase]=$(rxe_delta "$before" "$(rxe_counters rxe0)")
    show_log "$log" "pp-j2k $phase jrxe client" 6
    show_log "$klog" "pp-j2k $phase ibv_rc_pingpong server" 4
    SECS[pp-j2k.$phase]=$(value_of seconds "$(grep -m1 '^JRXE-PINGPONG' "$log")")
    [ $krc = 0 ] || problems+=("pp-j2k $phase: kernel server exited $krc")
    [ $jrc = 0 ] || problems+=("pp-j2k $phase: jrxe client exited $jrc")
    grep -q "invalid data" "$klog" && problems+=("pp-j2k $phase: kernel server: $(grep -m1 'invalid data' "$klog")")
    grep -q "^$PP_ITERS iters in" "$klog" || problems+=("pp-j2k $phase: kernel server did not finish $PP_ITERS iterations")
    grep -q "^JRXE-PINGPONG role=client iters=$PP_ITERS .* validate=ok" "$log" \
        || problems+=("pp-j2k $phase: jrxe client did not report $PP_ITERS validated iterations")
}

# bw_k2j OP PHASE: ib_OP_bw client -> jrxe perf server.
bw_k2j()
{
    local op=$1 phase=$2 name=jrxe-$1-k2j-$2 log=/tmp/jrxe-$1-k2j-$2.log klog=/tmp/ib-$1-k2j-$2.log before t0
    local krc jrc
    names+=("$name")
    before=$(rxe_counters rxe0)
    start_jrxe_server "$log" "${JRXE[@]}" perf --op "$op" "${JRXE_NODE[@]}" --name "$name" -s $BW_SIZE -n $BW_ITERS \
        --report-gbits -u "$FAULT_ACK_TIMEOUT" --timeout $RUN_TIMEOUT --server
    t0=${EPOCHREALTIME}
    timeout $((RUN_TIMEOUT + 240)) "ib_${op}_bw" -d rxe0 -x "$gidx" -s $BW_SIZE -n $BW_ITERS -F --report_gbits \
        -u "$FAULT_ACK_TIMEOUT" 127.0.0.1 > "$klog" 2>&1
    krc=$?
    SECS[$op-k2j.$phase]=$(elapsed_since "$t0")
    wait_pid_exit $JRXE_PID 120
    jrc=$?
    RXE[$op-k2j.$phase]=$(rxe_delta "$before" "$(rxe_counters rxe0)")
    show_log "$klog" "$op-k2j $phase ib_${op}_bw client" 4
    show_log "$log" "$op-k2j $phase jrxe server" 4
    [ $krc = 0 ] || problems+=("$op-k2j $phase: kernel client exited $krc")
    [ $jrc = 0 ] || problems+=("$op-k2j $phase: jrxe server exited $jrc")
    [ -n "$(perftest_bw_average "$klog" $BW_SIZE)" ] || problems+=("$op-k2j $phase: kernel client printed no result")
}

# bw_j2k OP PHASE: jrxe perf client -> ib_OP_bw server.
bw_j2k()
{
    local op=$1 phase=$2 name=jrxe-$1-j2k-$2 log=/tmp/jrxe-$1-j2k-$2.log klog=/tmp/ib-$1-j2k-$2.log before kpid
    local krc jrc gbps
    names+=("$name")
    before=$(rxe_counters rxe0)
    timeout $((RUN_TIMEOUT + 240)) "ib_${op}_bw" -d rxe0 -x "$gidx" -s $BW_SIZE -n $BW_ITERS -F --report_gbits \
        -u "$FAULT_ACK_TIMEOUT" > "$klog" 2>&1 &
    kpid=$!
    wait_until 30 tcp_listening $OOB_PORT || problems+=("$op-j2k $phase: ib_${op}_bw server not listening")
    timeout $((RUN_TIMEOUT + 240)) "${JRXE[@]}" perf --op "$op" "${JRXE_NODE[@]}" --name "$name" -s $BW_SIZE \
        -n $BW_ITERS --report-gbits -u "$FAULT_ACK_TIMEOUT" --timeout $RUN_TIMEOUT 127.0.0.1 > "$log" 2>&1
    jrc=$?
    wait_pid_exit $kpid 120
    krc=$?
    RXE[$op-j2k.$phase]=$(rxe_delta "$before" "$(rxe_counters rxe0)")
    show_log "$log" "$op-j2k $phase jrxe client" 4
    show_log "$klog" "$op-j2k $phase ib_${op}_bw server" 4
    gbps=$(value_of bw_avg_gbps "$(grep -m1 '^JRXE-PERF' "$log")")
    SECS[$op-j2k.$phase]=$(transfer_secs $BW_SIZE $BW_ITERS "$gbps")
    [ $krc = 0 ] || problems+=("$op-j2k $phase: kernel server exited $krc")
    [ $jrc = 0 ] || problems+=("$op-j2k $phase: jrxe client exited $jrc")
    [ -n "$gbps" ] || problems+=("$op-j2k $phase: jrxe client printed no JRXE-PERF bandwidth")
}

# rping_both: rping -V both ways (under netem).
rping_both()
{
    local slog=/tmp/jrxe-rping-k2j.log clog=/tmp/jrxe-rping-j2k.log klog=/tmp/rping-j2k-server.log out krc jrc t0
    local before pings
    names+=(jrxe-rping-k2j jrxe-rping-j2k)
    before=$(rxe_counters rxe0)
    start_jrxe_cm_server "$slog" "${JRXE[@]}" rping -C $RPING_COUNT -S $RPING_SIZE --timeout $RUN_TIMEOUT \
        "${JRXE_NODE[@]}" -s -a "$JRXE_B_IP" -p 7174 -V --name jrxe-rping-k2j
    t0=${EPOCHREALTIME}
    out=$(timeout $RUN_TIMEOUT rping -c -a "$JRXE_B_IP" -p 7174 -C $RPING_COUNT -S $RPING_SIZE -V -v 2>&1)
    krc=$?
    SECS[rping-k2j.netem]=$(elapsed_since "$t0")
    wait_pid_exit $JRXE_PID 60
    jrc=$?
    echo "$out" | tail -3 | sed "s/^/[$SCENARIO] rping-k2j rping client: /"
    show_log "$slog" "rping-k2j jrxe server" 4
    pings=$(echo "$out" | grep -c '^ping data: ')
    [ $krc = 0 ] || problems+=("rping-k2j: kernel client exited $krc")
    [ $jrc = 0 ] || problems+=("rping-k2j: jrxe server exited $jrc")
    [ "$pings" = $RPING_COUNT ] || problems+=("rping-k2j: kernel client printed $pings of $RPING_COUNT verified pings")

    start_kernel_cm_server "$klog" 7174 timeout $((RUN_TIMEOUT + 240)) rping -s -a "$NIC_A_IP" -p 7174 \
        -C $RPING_COUNT -S $RPING_SIZE -V -v
    t0=${EPOCHREALTIME}
    timeout $((RUN_TIMEOUT + 240)) "${JRXE[@]}" rping -C $RPING_COUNT -S $RPING_SIZE --timeout $RUN_TIMEOUT \
        "${JRXE_NODE[@]}" -c -a "$NIC_A_IP" -p 7174 -V --name jrxe-rping-j2k > "$clog" 2>&1
    jrc=$?
    SECS[rping-j2k.netem]=$(elapsed_since "$t0")
    wait_pid_exit $KERNEL_PID 60
    krc=$?
    RXE[rping.netem]=$(rxe_delta "$before" "$(rxe_counters rxe0)")
    show_log "$clog" "rping-j2k jrxe client" 4
    show_log "$klog" "rping-j2k rping server" 3
    pings=$(grep -c '^server ping data: \|^ping data: ' "$klog")
    # rping's own server teardown race (see 60-cm-rping): exit 255 with every ping served is rping's.
    if [ $krc = 255 ] && [ "$pings" = $RPING_COUNT ] && grep -q 'rdma_get_cm_event: Bad file descriptor' "$klog"; then
        krc=0
    fi
    [ $krc = 0 ] || problems+=("rping-j2k: kernel server exited $krc")
    [ $jrc = 0 ] || problems+=("rping-j2k: jrxe client exited $jrc")
    grep -q "^JRXE-RPING role=client count=$RPING_COUNT size=$RPING_SIZE validate=ok" "$clog" \
        || problems+=("rping-j2k: jrxe client did not report $RPING_COUNT verified pings")
}

# 1. clean
pp_k2j clean
pp_j2k clean
bw_k2j write clean
bw_j2k write clean
bw_k2j read clean
bw_j2k read clean

# 2. the same under netem, then rping
netem_on "$eth" $NETEM_SPEC || fail "tc: cannot put netem ($NETEM_SPEC) on $eth"
pp_k2j netem
pp_j2k netem
bw_k2j write netem
bw_j2k write netem
bw_k2j read netem
bw_j2k read netem
rping_both
netem_figures=$(netem_counts "$eth")
tc -s qdisc show dev "$eth" | sed "s/^/[$SCENARIO] tc: /"
netem_off "$eth"

# 3. counters: one jrxe stat for every run
stat_out=/tmp/jrxe-stat-$SCENARIO.txt
"${JRXE[@]}" stat --all "${names[@]}" > "$stat_out" 2>&1 || problems+=("jrxe stat failed")
jrxe_retx=0
jrxe_seq_naks=0
jrxe_dups=0
for name in "${names[@]}"; do
    counters=$(jrxe_counters "$stat_out" "$name")
    log "$name jrxe: $counters"
    [ -n "$counters" ] || problems+=("no counters for $name in jrxe stat")
    errs=$(fault_errors "$counters")
    [ -z "$errs" ] || problems+=("$name: jrxe counters $errs")
    if [[ $name == *netem || $name == jrxe-rping-* ]]; then
        jrxe_retx=$((jrxe_retx + $(count_of retransmitted_pkts "$counters")))
        jrxe_seq_naks=$((jrxe_seq_naks + $(count_of seq_nak_sent "$counters")))
        jrxe_dups=$((jrxe_dups + $(count_of duplicate_request "$counters")))
    fi
done
rxe_retry=0
rxe_seq=0
for key in "${!RXE[@]}"; do
    log "$key rxe0: ${RXE[$key]}"
    [[ $key == *.netem ]] || continue
    rxe_retry=$((rxe_retry + $(count_of completer_retry_err "${RXE[$key]}")))
    rxe_seq=$((rxe_seq + $(count_of rcvd_seq_err "${RXE[$key]}")))
done

# 4. slowdowns
figures="netem=[$NETEM_SPEC] netem_$netem_figures"
for cell in pp-k2j pp-j2k write-k2j write-j2k read-k2j read-j2k; do
    clean=${SECS[$cell.clean]:-}
    faulty=${SECS[$cell.netem]:-}
    figures+=" ${cell}_s=${clean:-?}/${faulty:-?}(x$(ratio "$faulty" "$clean"))"
    within_slowdown "$faulty" "$clean" \
        || problems+=("$cell: ${faulty:-?} s under netem against ${clean:-?} s clean (more than x$FAULT_SLOWDOWN_MAX)")
done
figures+=" rping_k2j_s=${SECS[rping-k2j.netem]:-?} rping_j2k_s=${SECS[rping-j2k.netem]:-?}"
figures+=" jrxe_retx=$jrxe_retx jrxe_seq_naks=$jrxe_seq_naks jrxe_dup_requests=$jrxe_dups"
figures+=" rxe_completer_retry=$rxe_retry rxe_rcvd_seq_err=$rxe_seq"
[ "$(value_of dropped "$netem_figures")" -gt 0 ] 2> /dev/null || problems+=("netem dropped nothing: no fault was injected")
[ $jrxe_retx -gt 0 ] || problems+=("jrxe retransmitted nothing under netem")
[ $((rxe_retry + rxe_seq)) -gt 0 ] || problems+=("rxe's retry counters did not move under netem")
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
