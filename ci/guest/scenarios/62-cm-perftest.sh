# perftest's rdma_cm mode (-R) against jrxe's, both ways, for ib_send_bw and ib_write_bw: the control channel and
# the data connection both go through the CM on port 18515 (no TCP exchange at all):
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0, Linux rdma_cm) --- QEMU hub --- NIC B (vfio-pci, jrxe's CM, 10.9.0.2)
#   for send and write: 1. ib_X_bw -R client -> jrxe perf -R --server   2. jrxe perf -R client -> ib_X_bw -R server
#
# Checks: every run finishes with its result line, jrxe's counters show no errors.
# timeout: 1200

ITERS=200
SIZE=65536
RUN_TIMEOUT=300
PORT=18515

cm_setup
problems=()
figures="size=$SIZE iters=$ITERS"

for op in send write; do
    tool=ib_${op}_bw
    jrxe_perf=("${JRXE[@]}" perf --op "$op" -R "${JRXE_CM_NODE[@]}" -s "$SIZE" -n "$ITERS" --report-gbits
        -u "$ACK_TIMEOUT" --timeout "$RUN_TIMEOUT")
    kernel=(timeout $((RUN_TIMEOUT + 240)) "$tool" -d rxe0 -R -s "$SIZE" -n "$ITERS" -F --report_gbits
        -u "$ACK_TIMEOUT")

    # 1. kernel client -> jrxe server
    srv_log=/tmp/jrxe-$op-cm-server.log
    kcli_log=/tmp/$tool-cm-client.log
    start_jrxe_cm_server "$srv_log" "${jrxe_perf[@]}" --name "jrxe-b-$op-srv" --server
    jpid=$JRXE_PID
    "${kernel[@]}" "$JRXE_B_IP" > "$kcli_log" 2>&1
    krc=$?
    wait_pid_exit $jpid 120
    jrc=$?
    show_log "$kcli_log" "$tool -R client" 12
    show_log "$srv_log" "jrxe server" 12
    k2j=$(perftest_bw_average "$kcli_log" "$SIZE")
    [ $krc = 0 ] || problems+=("$tool -R client exited $krc")
    [ $jrc = 0 ] || problems+=("jrxe $op -R server exited $jrc")
    [ -n "$k2j" ] || problems+=("$tool -R client printed no result line")

    # 2. jrxe client -> kernel server
    ksrv_log=/tmp/$tool-cm-server.log
    cli_log=/tmp/jrxe-$op-cm-client.log
    start_kernel_cm_server "$ksrv_log" $PORT "${kernel[@]}"
    kpid=$KERNEL_PID
    timeout $((RUN_TIMEOUT + 240)) "${jrxe_perf[@]}" --name "jrxe-b-$op-cli" "$NIC_A_IP" > "$cli_log" 2>&1
    jrc=$?
    wait_pid_exit $kpid 120
    krc=$?
    show_log "$cli_log" "jrxe client" 12
    show_log "$ksrv_log" "$tool -R server" 12
    j2k=$(perftest_bw_average "$cli_log" "$SIZE")
    [ $jrc = 0 ] || problems+=("jrxe $op -R client exited $jrc")
    [ $krc = 0 ] || problems+=("$tool -R server exited $krc")
    [ -n "$j2k" ] || problems+=("jrxe $op -R client printed no result line")

    check_jrxe_counters "jrxe-b-$op-srv" "jrxe-b-$op-cli"
    log "$op k2j jrxe: $SRV_COUNTERS"
    log "$op j2k jrxe: $CLI_COUNTERS"
    figures+=" ${op}_k2j_gbps=${k2j:-?} ${op}_j2k_gbps=${j2k:-?}"
done

if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
