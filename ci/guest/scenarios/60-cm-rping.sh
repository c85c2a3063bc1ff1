# rping over the RDMA connection manager, both ways, and a connection to a port nobody listens on, both ways:
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0, Linux rdma_cm) --- QEMU hub --- NIC B (vfio-pci, jrxe's CM, 10.9.0.2)
#   1. rping -c to jrxe's port 7999 (jrxe listens on 7174 only)  -> cma event RDMA_CM_EVENT_REJECTED, error 8
#   2. rping -c -C 100 -S 64 -V -v  ->  jrxe rping -s            (REQ/MRA/REP/RTU, READ + WRITE per ping, DREQ)
#   3. jrxe rping -c to the kernel's port 7999                    -> JRXE-CM-EVENT REJECTED status=8
#   4. jrxe rping -c -C 100 -S 64 -V  ->  rping -s -V
#
# Checks: every ping of both runs (the kernel prints one "ping data" line each with -v), -V on the verifying
# clients, REJ reason 8 both ways, jrxe's counters show no errors. The CM counters go into the figures.
# timeout: 900

COUNT=100
SIZE=64
RUN_TIMEOUT=300

cm_setup
problems=()
jrxe_rping=("${JRXE[@]}" rping -C $COUNT -S $SIZE --timeout $RUN_TIMEOUT "${JRXE_CM_NODE[@]}")

# 1 and 2: the kernel's client against jrxe's server
srv_log=/tmp/jrxe-rping-server.log
start_jrxe_cm_server "$srv_log" "${jrxe_rping[@]}" -s -a "$JRXE_B_IP" -p 7174 -V --name jrxe-b-srv
jpid=$JRXE_PID
rej=$(timeout 60 rping -c -a "$JRXE_B_IP" -p 7999 -C 1 2>&1)
log "kernel rping to jrxe's unused port 7999: $rej"
[[ $rej == *"RDMA_CM_EVENT_REJECTED, error 8"* ]] || problems+=("kernel rping to jrxe's unused port: no REJECTED error 8")
t0=${EPOCHREALTIME}
k_cli=$(timeout $RUN_TIMEOUT rping -c -a "$JRXE_B_IP" -p 7174 -C $COUNT -S $SIZE -V -v 2>&1)
krc=$?
k2j_secs=$(elapsed_since "$t0")
wait_pid_exit $jpid 60
jrc=$?
echo "$k_cli" | tail -5 | sed "s/^/[$SCENARIO] rping client: /"
show_log "$srv_log" "jrxe server" 15
k2j_pings=$(echo "$k_cli" | grep -c '^ping data: ')
[ $krc = 0 ] || problems+=("kernel rping client exited $krc")
[ $jrc = 0 ] || problems+=("jrxe rping server exited $jrc")
[ "$k2j_pings" = $COUNT ] || problems+=("kernel client printed $k2j_pings of $COUNT pings")
grep -q "^JRXE-RPING role=server count=$COUNT size=$SIZE" "$srv_log" || problems+=("jrxe server did not report $COUNT pings")

# 3 and 4: jrxe's client against the kernel's server
rej_log=/tmp/jrxe-rping-rej.log
"${jrxe_rping[@]}" -c -a "$NIC_A_IP" -p 7999 --name jrxe-b-rej > "$rej_log" 2>&1
rrc=$?
show_log "$rej_log" "jrxe client to port 7999" 4
[ $rrc != 0 ] || problems+=("jrxe client to the kernel's unused port exited 0")
grep -q '^JRXE-CM-EVENT REJECTED status=8' "$rej_log" || problems+=("jrxe client to the kernel's unused port: no REJECTED status=8")

ksrv_log=/tmp/rping-server.log
cli_log=/tmp/jrxe-rping-client.log
start_kernel_cm_server "$ksrv_log" 7174 timeout $((RUN_TIMEOUT + 240)) rping -s -a "$NIC_A_IP" -p 7174 -C $COUNT -S $SIZE -V -v
kpid=$KERNEL_PID
t0=${EPOCHREALTIME}
timeout $((RUN_TIMEOUT + 240)) "${jrxe_rping[@]}" -c -a "$NIC_A_IP" -p 7174 -V --name jrxe-b-cli > "$cli_log" 2>&1
jrc=$?
j2k_secs=$(elapsed_since "$t0")
wait_pid_exit $kpid 60
krc=$?
show_log "$cli_log" "jrxe client" 15
show_log "$ksrv_log" "rping server" 5
j2k_pings=$(grep -c '^server ping data: \|^ping data: ' "$ksrv_log")
[ $jrc = 0 ] || problems+=("jrxe rping client exited $jrc")
# rping's server has a teardown race of its own (rping.c): after the DISCONNECT its cm thread can call
# rdma_get_cm_event on the channel main has just destroyed, and it exits 255 with every ping served. That exit,
# with that message and all pings, is rping's; any other is a failure.
if [ $krc = 255 ] && [ "$j2k_pings" = $COUNT ] && grep -q 'rdma_get_cm_event: Bad file descriptor' "$ksrv_log" &&
    grep -q 'server DISCONNECT EVENT' "$ksrv_log"; then
    log "kernel rping server exited 255 in its own teardown race (rdma_get_cm_event after the channel went)"
    krc=0
fi
[ $krc = 0 ] || problems+=("kernel rping server exited $krc")
grep -q "^JRXE-RPING role=client count=$COUNT size=$SIZE validate=ok" "$cli_log" \
    || problems+=("jrxe client did not report $COUNT verified pings")

check_jrxe_counters jrxe-b-srv jrxe-b-cli
log "k2j jrxe: $SRV_COUNTERS"
log "j2k jrxe: $CLI_COUNTERS"
figures="count=$COUNT size=$SIZE k2j_s=$k2j_secs j2k_s=$j2k_secs kernel_srv_pings=$j2k_pings"
figures+=" srv_cm=[$(cm_figures "$SRV_COUNTERS")] cli_cm=[$(cm_figures "$CLI_COUNTERS")]"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
