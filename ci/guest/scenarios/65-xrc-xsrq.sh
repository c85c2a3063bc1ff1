# `jrxe pingpong --xsrq` (ibv_xsrq_pingpong) against itself over two VFIO NICs: XRC through real VFIO, initiator
# QPs sending into the peer's XRC SRQ through its target QPs, every request's XRCETH naming that SRQ. The kernel's
# rxe has no XRC (ibv_xsrq_pingpong cannot open an XRC domain on it; 20-rc-pingpong records kernel_xrc=), so no
# kernel peer plays here:
#
#   NIC C (vfio-pci, jrxe, 10.9.0.3) --- QEMU hub --- NIC B (vfio-pci, jrxe, 10.9.0.2)
#   jrxe pingpong --xsrq client (C)  ->  jrxe pingpong --xsrq server (B), TESTS messages each way
#
# Checks: both sides print the tool's "success" and TESTS receives and sends; both sides' counters show no errors
# (xrc_bad_srqn among them).
# timeout: 600

TESTS=50
SIZE=4096
RUN_TIMEOUT=180

require_jar
bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
bind_vfio "$NIC_C_BDF" || fail "cannot bind $NIC_C_BDF to vfio-pci"
xsrq=("${JRXE[@]}" pingpong --xsrq "${JRXE_NODE_OPTS[@]}" --keep-counters -n "$TESTS" -s "$SIZE"
    --timeout "$RUN_TIMEOUT")
problems=()

srv_log=/tmp/jrxe-xsrq-server.log
cli_log=/tmp/jrxe-xsrq-client.log
t0=${EPOCHREALTIME}
start_jrxe_server "$srv_log" "${xsrq[@]}" --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" --name jrxe-b-xsrq
jpid=$JRXE_PID
timeout $((RUN_TIMEOUT + 120)) "${xsrq[@]}" --pci "$NIC_C_BDF" --ip "$JRXE_C_IP/$NIC_PREFIX" \
    --name jrxe-c-xsrq 127.0.0.1 > "$cli_log" 2>&1
crc=$?
wait_pid_exit $jpid 60
src=$?
run_s=$(elapsed_since "$t0")
show_log "$srv_log" "jrxe xsrq server" 12
show_log "$cli_log" "jrxe xsrq client" 12
[ $crc = 0 ] || problems+=("jrxe xsrq client exited $crc")
[ $src = 0 ] || problems+=("jrxe xsrq server exited $src")
for log_file in "$srv_log" "$cli_log"; do
    grep -q '^success$' "$log_file" || problems+=("no success in $log_file")
    line=$(grep -m1 '^JRXE-XSRQ' "$log_file")
    [ "$(value_of receives "$line")" = "$TESTS" ] && [ "$(value_of sends "$line")" = "$TESTS" ] ||
        problems+=("$log_file: ${line:-no JRXE-XSRQ line}")
done
srqn=$(sed -n 's/^   local: .*, SRQN \([0-9a-f]*\), .*/\1/p' "$srv_log")

check_jrxe_counters jrxe-b-xsrq jrxe-c-xsrq
figures="tests=$TESTS size=$SIZE server_srqn=${srqn:-?} run_s=$run_s"
figures+=" jrxe_srv_rcvd=$(value_of rcvd_pkts "$SRV_COUNTERS") jrxe_cli_rcvd=$(value_of rcvd_pkts "$CLI_COUNTERS")"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
