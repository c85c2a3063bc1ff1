# Baseline: SEND ping-pong latency, the kernel's Soft-RoCE against jrxe's, measured by this scenario on one clock
# (the steady-state baselines in lib.sh):
#
#   rxe:  ib_send_lat -s 2 rxe0 (NIC A, 10.9.0.1)  <-->  ib_send_lat server rxe1 (NIC D, 10.9.0.4)
#   jrxe: jrxe perf --lat --op send -s 2 --layout single (NIC C, 10.9.0.3)  <-->  the same with --server (NIC B,
#         10.9.0.2): each side's application thread drives its node during the loop (run to completion), as
#         ib_send_lat's thread posts into rxe and polls its CQ itself
#
# Neither tool's per-iteration times are used: perftest's come from a cycle counter whose frequency it fails to
# measure under TCG, jrxe's from its own clock, and nothing shows the two agree. Instead the scenario counts round
# trips over a measured period of a long run (-n larger than the scenario can do) and divides the /proc/uptime
# interval by them, half of it, as perftest reports half the round trip. Round trips are counted on the client
# (rxe0, jrxe-c) as the pongs it received: its new packets (rcvd_pkts less duplicate and out-of-sequence requests)
# over the packets it receives per round trip (the pong and the ACK of its ping). jrxe counts the ACKs it receives
# (acks_rcvd), so its round trips are counted exactly; rxe does not, so its packets per round trip are measured
# first, by a run of CAL_ITERS iterations from start to exit (expected 2: rxe acknowledges every message). Both
# pairs then run for the whole scenario and take turns as in 50-baseline-write, after the same BL_WARMUP s each;
# JIT compilations inside the measured periods are counted. Prints
#   GUEST-BASELINE send_lat rxe=<us> jrxe=<us> ratio=<rxe/jrxe> runs=<n>   (medians, half round trip)
# Where the time goes: after the measured periods, one more period per side under a system-wide perf record (as
# 51-profile-write; the JVMs write perf maps at exit), reported after both pairs ended, with the figure of that
# period (perf's cost is in it, so it is not one of the runs):
#   GUEST-PROFILE <rxe|jrxe>-send-lat <comm|sym> <percent> <what>
# timeout: 800

SIZE=2
ITERS=1000000            # more than the scenario can do at these latencies: the pairs are killed at the end
CAL_ITERS=2000

require_jar
command -v perf > /dev/null || fail "no perf in the guest (package linux-perf)"
two_rxe_devices
log "rxe0 on $ETH_A (GID $GID_A), rxe1 on $ETH_D (GID $GID_D)"
bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
bind_vfio "$NIC_C_BDF" || fail "cannot bind $NIC_C_BDF to vfio-pci"
problems=()

# 1. rxe's packets per round trip, from a whole run of CAL_ITERS iterations
before=$(rxe_counters rxe0)
bl_rxe_pair /tmp/bl-lat-cal ib_send_lat -s $SIZE -F -u $ACK_TIMEOUT -n $CAL_ITERS
for pid in "${BL_RXE_PIDS[@]}"; do
    wait_pid_exit "$pid" 120 || problems+=("ib_send_lat calibration run (pid $pid) failed")
done
after=$(rxe_counters rxe0)
cal_rcvd=$(( $(value_of rcvd_pkts "$after") - $(value_of rcvd_pkts "$before") ))
RXE_PPI=$(awk -v p=$cal_rcvd -v n=$CAL_ITERS 'BEGIN { printf "%.3f", p / n }')
log "rxe calibration: rxe0 received $cal_rcvd packets in $CAL_ITERS round trips: $RXE_PPI per round trip;" \
    "rxe0: $(rxe_delta "$before" "$after")"
awk -v p="$RXE_PPI" 'BEGIN { exit !(p >= 1.9 && p <= 2.1) }' \
    || problems+=("rxe received $RXE_PPI packets per round trip, not 2 (pong + ACK)")

# 2. the long runs
rxe_before=$(rxe_counters rxe0)
bl_rxe_pair /tmp/bl-lat-rxe ib_send_lat -s $SIZE -F -u $ACK_TIMEOUT -n $ITERS
BL_RXE_DEV=rxe0
bl_warm_up rxe "${BL_RXE_PIDS[@]}"

BL_JRXE_JVM_OPTS=$PROFILE_JVM_OPTS
bl_jrxe_pair bl-lat --lat --op send -s $SIZE -n $ITERS --timeout 1200 --layout single
bl_jrxe_file bl-lat-c "${BL_JRXE_PIDS[@]}"
bl_warm_up jrxe "${BL_JRXE_PIDS[@]}"

# lat_figure SIDE A B: half the mean round trip between samples A and B, in microseconds.
lat_figure()
{
    local new trips
    new=$(bl_new_pkts "$2" "$3")
    if [ "$1" = jrxe ]; then
        trips=$(( new - $(bl_delta acks_rcvd "$2" "$3") ))
    else
        trips=$(awk -v p=$new -v r="$RXE_PPI" 'BEGIN { printf "%.1f", p / r }')
    fi
    awk -v n="$trips" -v t="$(bl_interval "$2" "$3")" \
        'BEGIN { if (n > 0) printf "%.1f", t * 1e6 / n / 2; else print "?" }'
}
bl_alternate lat_figure
jit=$(bl_jit_total)
BL_PROFILE_NAME=send-lat
bl_profile rxe lat_figure
rxe_profiled=$BL_PROFILE_FIGURE
bl_profile jrxe lat_figure
jrxe_profiled=$BL_PROFILE_FIGURE

bl_stop "${BL_RXE_PIDS[@]}"
bl_stop "${BL_JRXE_PIDS[@]}"
profile_report rxe-send-lat
profile_report jrxe-send-lat
log "rxe0 over the whole run: $(rxe_delta "$rxe_before" "$(rxe_counters rxe0)")"
bl_show_logs 6
check_jrxe_counters bl-lat-b bl-lat-c
log "jrxe client counters: $CLI_COUNTERS"

rxe_lat=$(median "${BL_RXE_FIGURES[@]}")
jrxe_lat=$(median "${BL_JRXE_FIGURES[@]}")
ratio=$(bl_ratio "$rxe_lat" "$jrxe_lat")
echo "GUEST-BASELINE send_lat rxe=$rxe_lat jrxe=$jrxe_lat ratio=$ratio runs=$BL_RUNS"
figures="rxe_us=$rxe_lat jrxe_us=$jrxe_lat ratio=$ratio runs=$BL_RUNS $(bl_runs_figures) rxe_pkts_per_trip=$RXE_PPI"
figures+=" jit_compiles=$jit rxe_profiled_us=$rxe_profiled jrxe_profiled_us=$jrxe_profiled"
figures+=" rxe_samples=$(profile_samples rxe-send-lat) jrxe_samples=$(profile_samples jrxe-send-lat)"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
