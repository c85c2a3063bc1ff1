# ibv_rc_pingpong against `jrxe pingpong`, both roles, with buffer validation (-c):
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0) --- QEMU hub --- NIC B (vfio-pci, jrxe, 10.9.0.2)
#   1. jrxe pingpong server  <-  ibv_rc_pingpong -d rxe0 -g <RoCE v2 IPv4 index> -c 127.0.0.1
#   2. ibv_rc_pingpong server  <-  jrxe pingpong -c 127.0.0.1
#
# Checks: both runs complete every iteration; jrxe's validation (every message byte for byte) and the kernel
# server's (-c) find nothing; jrxe's counters (jrxe stat) show no errors. rxe's hw_counters are shown beside them.
# Also recorded, not checked: whether the kernel's rxe has XRC (ibv_xsrq_pingpong opens an XRC domain first and
# exits when the device refuses it), which is why jrxe's `pingpong --xsrq` has no kernel peer in this suite.
# timeout: 900

ITERS=200
SIZE=4096
RUN_TIMEOUT=300

interop_setup
log "rxe0 on $eth, RoCE v2 GID index $gidx; NIC B on vfio-pci"

jrxe_pp=("${JRXE[@]}" pingpong --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" "${JRXE_NODE_OPTS[@]}"
    --keep-counters -n "$ITERS" -s "$SIZE" -c --timeout "$RUN_TIMEOUT")
problems=()

# 1. kernel client -> jrxe server
srv_log=/tmp/jrxe-pp-server.log
rxe_before=$(rxe_counters rxe0)
start_jrxe_server "$srv_log" "${jrxe_pp[@]}" --name jrxe-b-srv
jpid=$JRXE_PID
k_client=$(timeout $RUN_TIMEOUT ibv_rc_pingpong -d rxe0 -g "$gidx" -n "$ITERS" -s "$SIZE" -c 127.0.0.1 2>&1)
krc=$?
wait_pid_exit $jpid 60
jrc=$?
rxe_after=$(rxe_counters rxe0)
echo "$k_client" | sed "s/^/[$SCENARIO] ibv_rc_pingpong client: /"
show_log "$srv_log" "jrxe server"
k2j_usec=$(echo "$k_client" | sed -n 's/^.* iters in .* = \([0-9.]*\) usec\/iter$/\1/p')
k2j_mbit=$(echo "$k_client" | sed -n 's/^.* = \([0-9.]*\) Mbit\/sec$/\1/p')
k2j_rxe=$(rxe_delta "$rxe_before" "$rxe_after")
[ $krc = 0 ] || problems+=("kernel client exited $krc")
[ $jrc = 0 ] || problems+=("jrxe server exited $jrc")
grep -q "^JRXE-PINGPONG role=server iters=$ITERS .* validate=ok" "$srv_log" \
    || problems+=("jrxe server did not report $ITERS validated iterations")

# 2. jrxe client -> kernel server
ksrv_log=/tmp/rc-pingpong-server.log
cli_log=/tmp/jrxe-pp-client.log
rxe_before=$(rxe_counters rxe0)
timeout $((RUN_TIMEOUT + 240)) ibv_rc_pingpong -d rxe0 -g "$gidx" -n "$ITERS" -s "$SIZE" -c > "$ksrv_log" 2>&1 &
kpid=$!
wait_until 30 tcp_listening $OOB_PORT || problems+=("ibv_rc_pingpong server not listening")
timeout $((RUN_TIMEOUT + 240)) "${jrxe_pp[@]}" --name jrxe-b-cli 127.0.0.1 > "$cli_log" 2>&1
jrc=$?
wait_pid_exit $kpid 60
krc=$?
rxe_after=$(rxe_counters rxe0)
show_log "$cli_log" "jrxe client"
show_log "$ksrv_log" "ibv_rc_pingpong server"
j2k_usec=$(sed -n 's/^.* iters in .* = \([0-9.]*\) usec\/iter$/\1/p' "$cli_log")
j2k_mbit=$(sed -n 's/^.* = \([0-9.]*\) Mbit\/sec$/\1/p' "$cli_log")
j2k_rxe=$(rxe_delta "$rxe_before" "$rxe_after")
[ $krc = 0 ] || problems+=("kernel server exited $krc")
[ $jrc = 0 ] || problems+=("jrxe client exited $jrc")
grep -q "invalid data" "$ksrv_log" && problems+=("kernel server: $(grep -m1 'invalid data' "$ksrv_log")")
grep -q "^$ITERS iters in" "$ksrv_log" || problems+=("kernel server did not finish $ITERS iterations")
grep -q "^JRXE-PINGPONG role=client iters=$ITERS .* validate=ok" "$cli_log" \
    || problems+=("jrxe client did not report $ITERS validated iterations")

# jrxe's counters of both runs, from the files the processes left.
check_jrxe_counters jrxe-b-srv jrxe-b-cli
srv_counters=$SRV_COUNTERS
cli_counters=$CLI_COUNTERS
log "k2j jrxe: $srv_counters"
log "k2j rxe0: $k2j_rxe"
log "j2k jrxe: $cli_counters"
log "j2k rxe0: $j2k_rxe"

# the kernel's XRC: a device without it fails ibv_open_xrcd ("Couldn't Open the XRC Domain <errno>") at once
xsrq_out=$(timeout 10 ibv_xsrq_pingpong -d rxe0 -g "$gidx" -p 18999 2>&1 < /dev/null)
if echo "$xsrq_out" | grep -q "Couldn't Open the XRC Domain"; then
    kernel_xrc="absent($(echo "$xsrq_out" | grep -o "XRC Domain [0-9]*" | tr ' ' '_'))"
else
    kernel_xrc="unknown"
    log "ibv_xsrq_pingpong on rxe0: $xsrq_out"
fi

figures="iters=$ITERS size=$SIZE k2j_usec_per_iter=${k2j_usec:-?} k2j_mbit=${k2j_mbit:-?}"
figures+=" j2k_usec_per_iter=${j2k_usec:-?} j2k_mbit=${j2k_mbit:-?}"
figures+=" jrxe_srv_rcvd=$(value_of rcvd_pkts "$srv_counters") jrxe_cli_rcvd=$(value_of rcvd_pkts "$cli_counters")"
retx_srv=$(value_of retransmitted_pkts "$srv_counters")
retx_cli=$(value_of retransmitted_pkts "$cli_counters")
figures+=" jrxe_retx=$(( ${retx_srv:-0} + ${retx_cli:-0} )) kernel_xrc=$kernel_xrc"
# MSI-X interrupts that woke jrxe's parked thread (the JRXE-NIC STATS line each run prints at exit)
figures+=" jrxe_srv_irqs=$(value_of interrupts "$(grep -m1 '^JRXE-NIC STATS' "$srv_log")")"
figures+=" jrxe_cli_irqs=$(value_of interrupts "$(grep -m1 '^JRXE-NIC STATS' "$cli_log")")"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
