# Baseline: SEND message rate of 64-byte messages, the kernel's Soft-RoCE against jrxe's, measured by this scenario
# on one clock (the steady-state baselines in lib.sh):
#
#   rxe:  ib_send_bw -s 64 rxe0 (NIC A, 10.9.0.1)  -->  ib_send_bw server rxe1 (NIC D, 10.9.0.4)
#   jrxe: jrxe perf --op send -s 64 (NIC C, 10.9.0.3)  -->  jrxe perf --op send --server (NIC B, 10.9.0.2)
#
# Tx depth 128, rx depth 512, one QP, ACK timeout code 18 on both. Both pairs run for the whole scenario
# (ib_send_bw -D; jrxe's send_bw peer mode has no -D, so -n with more messages than the scenario can send at these
# rates, and the pair is killed at the end) and take turns: BL_RUNS measured periods of BL_PERIOD s each,
# alternating, after the same BL_WARMUP s of traffic on each side. A period's figure is the responder's new packets
# (rxe1's or jrxe-b's rcvd_pkts less duplicate and out-of-sequence requests; a 64-byte SEND is one packet) per second
# of /proc/uptime. JIT: as in 50-baseline-write, compilations inside the measured periods are counted. Prints
#   GUEST-BASELINE send_rate size=64 rxe=<Mpps> jrxe=<Mpps> ratio=<jrxe/rxe> runs=<n>   (medians)
# timeout: 600

SIZE=64
DURATION=1200            # longer than the scenario: the pairs are killed at the end
# jrxe: a few thousand messages a second under TCG; 10^6 outlast the scenario (1 QP keeps two longs per message)
JRXE_ITERS=1000000

require_jar
two_rxe_devices
log "rxe0 on $ETH_A (GID $GID_A), rxe1 on $ETH_D (GID $GID_D)"
bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
bind_vfio "$NIC_C_BDF" || fail "cannot bind $NIC_C_BDF to vfio-pci"
problems=()

rxe_before=$(rxe_counters rxe1)
bl_rxe_pair /tmp/bl-send-rxe ib_send_bw -s $SIZE -F -u $ACK_TIMEOUT -D $DURATION
BL_RXE_DEV=rxe1
bl_warm_up rxe "${BL_RXE_PIDS[@]}"

bl_jrxe_pair bl-send --op send -s $SIZE -n $JRXE_ITERS --timeout $DURATION
bl_jrxe_file bl-send-b "${BL_JRXE_PIDS[@]}"
bl_warm_up jrxe "${BL_JRXE_PIDS[@]}"

# rate_figure SIDE A B: millions of new packets per second between samples A and B.
rate_figure()
{
    awk -v p="$(bl_new_pkts "$2" "$3")" -v t="$(bl_interval "$2" "$3")" \
        'BEGIN { if (t > 0) printf "%.6f", p / t / 1e6; else print "?" }'
}
bl_alternate rate_figure
jit=$(bl_jit_total)

bl_stop "${BL_RXE_PIDS[@]}"
bl_stop "${BL_JRXE_PIDS[@]}"
log "rxe1 over the whole run: $(rxe_delta "$rxe_before" "$(rxe_counters rxe1)")"
bl_show_logs 6
check_jrxe_counters bl-send-b bl-send-c

rxe_rate=$(median "${BL_RXE_FIGURES[@]}")
jrxe_rate=$(median "${BL_JRXE_FIGURES[@]}")
ratio=$(bl_ratio "$jrxe_rate" "$rxe_rate")
echo "GUEST-BASELINE send_rate size=$SIZE rxe=$rxe_rate jrxe=$jrxe_rate ratio=$ratio runs=$BL_RUNS"
figures="rxe_mpps=$rxe_rate jrxe_mpps=$jrxe_rate ratio=$ratio runs=$BL_RUNS $(bl_runs_figures) jit_compiles=$jit"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
