# rdmacm-utils' mckey against jrxe mckey, both ways, on one IPv4 multicast group (UD, DQPN 0xFFFFFF, Q_Key
# 0x01234567 from rdma_join_multicast's event):
#
#   kernel eth0 (NIC A, 10.9.0.1, rxe0, Linux rdma_cm) --- QEMU hub --- NIC B (vfio-pci, jrxe's CM, 10.9.0.2)
#   1. jrxe mckey receiver, then kernel mckey -s (sender)      2. kernel mckey receiver, then jrxe mckey -s
#
# Each receiver joins first and prints "receiving data transfers" once its QP is attached (the kernel tool runs
# under stdbuf -oL so its line is seen at once); then the sender joins and sends COUNT messages. Checks: both sides
# exit 0 (the kernel receiver only exits after COUNT receive completions), jrxe reports completed=COUNT status=ok,
# the kernel's interface shows the group while its receiver runs, and jrxe's counters show no errors.
# timeout: 600

RUN_TIMEOUT=120
COUNT=10
SIZE=100
GROUP=239.1.2.3

cm_setup
problems=()
eth=$(netdev_of "$NIC_A_BDF")
# the kernel routes a multicast destination like any other: without a default route it needs 224.0.0.0/4 on eth
ip route replace 224.0.0.0/4 dev "$eth" || problems+=("cannot add a multicast route on $eth")

# 1. kernel -> jrxe
jlog=/tmp/jrxe-mckey-recv.log
klog=/tmp/mckey-send.log
t0=${EPOCHREALTIME}
"${JRXE[@]}" mckey -m $GROUP -C $COUNT -S $SIZE "${JRXE_CM_NODE[@]}" --name jrxe-b-mckey-recv \
    --timeout $RUN_TIMEOUT > "$jlog" 2>&1 &
jpid=$!
if ! wait_until 240 eval "grep -q '^receiving data transfers' $jlog || ! kill -0 $jpid 2> /dev/null"; then
    problems+=("jrxe receiver did not join within 240 s")
fi
timeout $RUN_TIMEOUT mckey -m $GROUP -s -C $COUNT -S $SIZE > "$klog" 2>&1
krc=$?
wait_pid_exit $jpid $RUN_TIMEOUT
jrc=$?
k2j_s=$(elapsed_since "$t0")
show_log "$klog" "kernel sender" 8
show_log "$jlog" "jrxe receiver" 8
[ $krc = 0 ] || problems+=("kernel mckey -s exited $krc")
[ $jrc = 0 ] || problems+=("jrxe mckey receiver exited $jrc")
k2j_received=$(value_of completed "$(grep '^JRXE-MCKEY' "$jlog")")
[ "$k2j_received" = $COUNT ] || problems+=("jrxe received ${k2j_received:-none} of $COUNT")

# 2. jrxe -> kernel
klog=/tmp/mckey-recv.log
jlog=/tmp/jrxe-mckey-send.log
t0=${EPOCHREALTIME}
timeout $((RUN_TIMEOUT + 240)) stdbuf -oL mckey -m $GROUP -C $COUNT -S $SIZE > "$klog" 2>&1 &
kpid=$!
wait_until 30 grep -q '^receiving data transfers' "$klog" ||
    problems+=("kernel mckey receiver did not join: $(tail -3 "$klog")")
ip maddr show dev "$eth" | grep -q "$GROUP" || problems+=("$eth has not joined $GROUP")
"${JRXE[@]}" mckey -m $GROUP -s -C $COUNT -S $SIZE "${JRXE_CM_NODE[@]}" --name jrxe-b-mckey-send \
    --timeout $RUN_TIMEOUT > "$jlog" 2>&1
jrc=$?
wait_pid_exit $kpid $RUN_TIMEOUT
krc=$?
j2k_s=$(elapsed_since "$t0")
show_log "$jlog" "jrxe sender" 8
show_log "$klog" "kernel receiver" 8
[ $jrc = 0 ] || problems+=("jrxe mckey -s exited $jrc")
[ $krc = 0 ] || problems+=("kernel mckey receiver exited $krc (it exits 0 only after $COUNT receives)")
j2k_sent=$(value_of completed "$(grep '^JRXE-MCKEY' "$jlog")")
j2k_received=0
[ $krc = 0 ] && j2k_received=$COUNT

check_jrxe_counters jrxe-b-mckey-recv jrxe-b-mckey-send
log "k2j jrxe: $SRV_COUNTERS"
log "j2k jrxe: $CLI_COUNTERS"
ip route del 224.0.0.0/4 dev "$eth" 2> /dev/null

figures="group=$GROUP count=$COUNT size=$SIZE k2j_received=${k2j_received:-0} j2k_sent=${j2k_sent:-0}"
figures+=" j2k_received=$j2k_received k2j_s=$k2j_s j2k_s=$j2k_s"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
