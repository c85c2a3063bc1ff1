# Baseline: RDMA WRITE bandwidth of the kernel's Soft-RoCE against jrxe's, on the same hub and the same guest,
# both measured by this scenario on one clock (the steady-state baselines in lib.sh):
#
#   rxe:  ib_write_bw rxe0 (eth0, NIC A, 10.9.0.1)  -->  ib_write_bw server rxe1 (NIC D, 10.9.0.4)
#   jrxe: jrxe perf (NIC C, 10.9.0.3)  -->  jrxe perf --server (NIC B, 10.9.0.2), two processes (peer mode)
#
# 64 KiB messages, tx depth 128, ACK timeout code 18 on both (ACK_TIMEOUT in lib.sh); the path MTU is the active MTU
# (1024 on 1500-byte NICs, 4096 with --host-mtu 9000). Both pairs run for the whole scenario (ib_write_bw -D,
# jrxe perf --run_infinitely) and take turns: BL_RUNS measured periods of BL_PERIOD s each, alternating, after the
# same BL_WARMUP s of traffic on each side. A period's figure is the responder's new packets (rxe1's or jrxe-b's
# rcvd_pkts less duplicate and out-of-sequence requests) x path MTU x 8 bits over the /proc/uptime interval: every
# packet of a 64 KiB WRITE carries exactly one path MTU of payload, so this is the payload rate perftest means.
# JIT: the periods come after 20 s of traffic (longer than the JVM start itself); the compilations inside each
# measured period are counted from -XX:+PrintCompilation and printed (jit_compiles=, summed in the result). Prints
#   GUEST-BASELINE write_bw mtu=<B> rxe=<Gb/s> jrxe=<Gb/s> ratio=<jrxe/rxe> runs=<n>   (medians)
# timeout: 600

SIZE=65536
DURATION=1200            # longer than the scenario: the pairs are killed at the end

require_jar
two_rxe_devices
mtu=$(rxe_active_mtu rxe0)
log "rxe0 on $ETH_A (GID $GID_A), rxe1 on $ETH_D (GID $GID_D), active MTU ${mtu:-?}"
[ -n "$mtu" ] || fail "no active MTU for rxe0"
bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
bind_vfio "$NIC_C_BDF" || fail "cannot bind $NIC_C_BDF to vfio-pci"
problems=()

# 1. the rxe pair, warmed up, then stopped; 2. the jrxe pair, the same
rxe_before=$(rxe_counters rxe1)
bl_rxe_pair /tmp/bl-write-rxe ib_write_bw -s $SIZE -F --report_gbits -u $ACK_TIMEOUT -D $DURATION
BL_RXE_DEV=rxe1
bl_warm_up rxe "${BL_RXE_PIDS[@]}"

bl_jrxe_pair bl-write --op write -s $SIZE --run_infinitely --report-gbits --timeout $DURATION
bl_jrxe_file bl-write-b "${BL_JRXE_PIDS[@]}"
bl_warm_up jrxe "${BL_JRXE_PIDS[@]}"
jmtu=$(awk '$1 == "Mtu" { sub(/\[B\].*/, "", $3); print $3; exit }' "${BL_JRXE_LOGS[1]}")
[ "$jmtu" = "$mtu" ] || problems+=("jrxe path MTU ${jmtu:-?} is not rxe's $mtu")

# 3. the measured periods
# write_figure SIDE A B: Gb/s of payload between samples A and B.
write_figure()
{
    awk -v p="$(bl_new_pkts "$2" "$3")" -v m="$mtu" -v t="$(bl_interval "$2" "$3")" \
        'BEGIN { if (t > 0) printf "%.4f", p * m * 8 / t / 1e9; else print "?" }'
}
bl_alternate write_figure
jit=$(bl_jit_total)

# 4. the end: both pairs killed, logs and counters
bl_stop "${BL_RXE_PIDS[@]}"
bl_stop "${BL_JRXE_PIDS[@]}"
log "rxe1 over the whole run: $(rxe_delta "$rxe_before" "$(rxe_counters rxe1)")"
bl_show_logs 6
check_jrxe_counters bl-write-b bl-write-c
log "jrxe server counters: $SRV_COUNTERS"

rxe_bw=$(median "${BL_RXE_FIGURES[@]}")
jrxe_bw=$(median "${BL_JRXE_FIGURES[@]}")
ratio=$(bl_ratio "$jrxe_bw" "$rxe_bw")
echo "GUEST-BASELINE write_bw mtu=$mtu rxe=$rxe_bw jrxe=$jrxe_bw ratio=$ratio runs=$BL_RUNS"
figures="mtu=$mtu rxe_gbps=$rxe_bw jrxe_gbps=$jrxe_bw ratio=$ratio runs=$BL_RUNS"
figures+=" $(bl_runs_figures) jit_compiles=$jit"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
