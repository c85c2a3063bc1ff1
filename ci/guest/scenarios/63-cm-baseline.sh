# Baseline: RDMA CM connection set-up, the kernel's rdma_cm against jrxe's, in the same guest, with the same client:
#
#   rxe:  ucmatose client (rxe0, NIC A, 10.9.0.1)  ->  ucmatose server (rxe1, NIC D, 10.9.0.4)
#   jrxe: ucmatose client (rxe0, NIC A, 10.9.0.1)  ->  jrxe ucmatose server (NIC B, vfio-pci, 10.9.0.2)
#
# Each run is the C client making CONNS connections at once, one 100-byte message each way on each (-C 1), and
# disconnecting, timed from its start to its exit; RUNS runs against each server (a fresh kernel server per run,
# one jrxe JVM serving every run, so JVM start-up is not counted). connections/s = CONNS / median run time. Prints
#   GUEST-BASELINE cm_connect rxe=<connections/s> jrxe=<connections/s> ratio=<jrxe/rxe> runs=<RUNS>
# timeout: 1200

RUNS=5
CONNS=100
RUN_TIMEOUT=120

require_jar
two_rxe_devices
bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
problems=()

# 1. kernel client -> kernel server (rxe0 -> rxe1)
rxe_times=()
for run in $(seq 1 $RUNS); do
    ksrv_log=/tmp/ucmatose-rxe1-server-$run.log
    start_kernel_cm_server "$ksrv_log" 7471 timeout $RUN_TIMEOUT ucmatose -b "$NIC_D_IP" -c $CONNS -C 1
    kpid=$KERNEL_PID
    t0=${EPOCHREALTIME}
    timeout $RUN_TIMEOUT ucmatose -s "$NIC_D_IP" -b "$NIC_A_IP" -c $CONNS -C 1 > /tmp/ucmatose-rxe-client-$run.log 2>&1
    crc=$?
    secs=$(elapsed_since "$t0")
    wait_pid_exit $kpid 30
    src=$?
    [ $crc = 0 ] && [ $src = 0 ] && rxe_times+=("$secs") \
        || problems+=("rxe run $run: client exited $crc, server $src")
    log "rxe run $run: $CONNS connections in $secs s (client $crc, server $src)"
done
show_log /tmp/ucmatose-rxe-client-1.log "ucmatose client (rxe)" 4

# 2. kernel client -> jrxe server (rxe0 -> NIC B), one JVM for every run
srv_log=/tmp/jrxe-ucmatose-baseline.log
start_jrxe_cm_server "$srv_log" "${JRXE[@]}" ucmatose -b "$JRXE_B_IP" -c $CONNS -C 1 --rounds $RUNS \
    "${JRXE_CM_NODE[@]}" --name jrxe-b-base --timeout $RUN_TIMEOUT
jpid=$JRXE_PID
jrxe_times=()
for run in $(seq 1 $RUNS); do
    # round N listens once the previous one is over
    wait_until 60 eval "[ \$(grep -c '^JRXE-CM-LISTEN' $srv_log) -ge $run ]" \
        || { problems+=("jrxe server did not listen for run $run"); break; }
    t0=${EPOCHREALTIME}
    timeout $RUN_TIMEOUT ucmatose -s "$JRXE_B_IP" -b "$NIC_A_IP" -c $CONNS -C 1 > /tmp/ucmatose-jrxe-client-$run.log 2>&1
    crc=$?
    secs=$(elapsed_since "$t0")
    [ $crc = 0 ] && jrxe_times+=("$secs") || problems+=("jrxe run $run: client exited $crc")
    log "jrxe run $run: $CONNS connections in $secs s (client $crc)"
done
wait_pid_exit $jpid 120
jrc=$?
[ $jrc = 0 ] || problems+=("jrxe ucmatose server exited $jrc")
show_log "$srv_log" "jrxe server" 8
show_log /tmp/ucmatose-jrxe-client-1.log "ucmatose client (jrxe)" 4

rxe_med=$(median "${rxe_times[@]}")
jrxe_med=$(median "${jrxe_times[@]}")
rate()
{
    awk -v n=$CONNS -v t="$1" 'BEGIN { if (t + 0 > 0) printf "%.1f", n / t; else print "?" }'
}
rxe_rate=$(rate "$rxe_med")
jrxe_rate=$(rate "$jrxe_med")
ratio=$(awk -v j="$jrxe_rate" -v r="$rxe_rate" 'BEGIN { if (r + 0 > 0 && j + 0 > 0) printf "%.2f", j / r; else print "?" }')
echo "GUEST-BASELINE cm_connect rxe=$rxe_rate jrxe=$jrxe_rate ratio=$ratio runs=$RUNS"
figures="conns=$CONNS runs=$RUNS rxe_median_s=$rxe_med jrxe_median_s=$jrxe_med rxe=$rxe_rate jrxe=$jrxe_rate ratio=$ratio"
figures+=" rxe_runs=[${rxe_times[*]}] jrxe_runs=[${jrxe_times[*]}]"
[ ${#rxe_times[@]} -ge 5 ] || problems+=("only ${#rxe_times[@]} rxe runs")
[ ${#jrxe_times[@]} -ge 5 ] || problems+=("only ${#jrxe_times[@]} jrxe runs")
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
