# rdmacm-utils against jrxe's tools, both ways: rdma_server/rdma_client (synchronous ids, rdma_create_ep, 16-byte
# echo), ucmatose with 10 connections at once (REQ/REP/RTU, data, DREQ), udaddy (UDP port space: SIDR_REQ/SIDR_REP,
# UD sends with immediate data):
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0, Linux rdma_cm) --- QEMU hub --- NIC B (vfio-pci, jrxe's CM, 10.9.0.2)
#   for each tool: 1. kernel client -> jrxe server   2. jrxe client -> kernel server
#
# Checks: both sides of every run exit 0 (the C tools' "return status 0" / "end 0"), jrxe's lines report status=ok,
# and jrxe's counters show no errors.
# timeout: 1200

RUN_TIMEOUT=240
CONNECTIONS=10

cm_setup
problems=()
figures=""

# cm_pair NAME KERNEL_CLIENT... -- JRXE_SERVER... -- KERNEL_SERVER_PORT KERNEL_SERVER... -- JRXE_CLIENT...
# runs kernel client -> jrxe server, then jrxe client -> kernel server, recording problems and times.
cm_pair()
{
    local name=$1
    shift
    local kcli=() jsrv=() port ksrv=() jcli=()
    while [ "$1" != -- ]; do kcli+=("$1"); shift; done; shift
    while [ "$1" != -- ]; do jsrv+=("$1"); shift; done; shift
    port=$1; shift
    while [ "$1" != -- ]; do ksrv+=("$1"); shift; done; shift
    jcli=("$@")
    local srv_log=/tmp/jrxe-$name-server.log kcli_log=/tmp/$name-client.log
    local ksrv_log=/tmp/$name-server.log cli_log=/tmp/jrxe-$name-client.log t0 krc jrc

    start_jrxe_cm_server "$srv_log" "${JRXE[@]}" "${jsrv[@]}" "${JRXE_CM_NODE[@]}" --name "jrxe-b-$name-srv" \
        --timeout $RUN_TIMEOUT
    local jpid=$JRXE_PID
    t0=${EPOCHREALTIME}
    timeout $RUN_TIMEOUT "${kcli[@]}" > "$kcli_log" 2>&1
    krc=$?
    figures+=" ${name}_k2j_s=$(elapsed_since "$t0")"
    wait_pid_exit $jpid 60
    jrc=$?
    show_log "$kcli_log" "$name kernel client" 6
    show_log "$srv_log" "$name jrxe server" 6
    [ $krc = 0 ] || problems+=("$name: kernel client exited $krc")
    [ $jrc = 0 ] || problems+=("$name: jrxe server exited $jrc")
    grep -q 'status=ok' "$srv_log" || problems+=("$name: jrxe server reported no status=ok")

    start_kernel_cm_server "$ksrv_log" "$port" timeout $((RUN_TIMEOUT + 240)) "${ksrv[@]}"
    local kpid=$KERNEL_PID
    t0=${EPOCHREALTIME}
    timeout $((RUN_TIMEOUT + 240)) "${JRXE[@]}" "${jcli[@]}" "${JRXE_CM_NODE[@]}" --name "jrxe-b-$name-cli" \
        --timeout $RUN_TIMEOUT > "$cli_log" 2>&1
    jrc=$?
    figures+=" ${name}_j2k_s=$(elapsed_since "$t0")"
    wait_pid_exit $kpid 60
    krc=$?
    show_log "$cli_log" "$name jrxe client" 6
    show_log "$ksrv_log" "$name kernel server" 6
    [ $jrc = 0 ] || problems+=("$name: jrxe client exited $jrc")
    [ $krc = 0 ] || problems+=("$name: kernel server exited $krc")
    grep -q 'status=ok' "$cli_log" || problems+=("$name: jrxe client reported no status=ok")
    check_jrxe_counters "jrxe-b-$name-srv" "jrxe-b-$name-cli"
    log "$name k2j jrxe: $SRV_COUNTERS"
    log "$name j2k jrxe: $CLI_COUNTERS"
}

cm_pair rdma \
    rdma_client -s "$JRXE_B_IP" -p 7471 -- \
    rdma-server -p 7471 -- \
    7471 rdma_server -p 7471 -- \
    rdma-client -s "$NIC_A_IP" -p 7471

cm_pair ucmatose \
    ucmatose -s "$JRXE_B_IP" -c $CONNECTIONS -- \
    ucmatose -b "$JRXE_B_IP" -c $CONNECTIONS -- \
    7471 ucmatose -b "$NIC_A_IP" -c $CONNECTIONS -- \
    ucmatose -s "$NIC_A_IP" -c $CONNECTIONS

cm_pair udaddy \
    udaddy -s "$JRXE_B_IP" -- \
    udaddy -b "$JRXE_B_IP" -- \
    7174 udaddy -b "$NIC_A_IP" -- \
    udaddy -s "$NIC_A_IP"

figures="connections=$CONNECTIONS${figures}"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
