# Baseline: RDMA WRITE bandwidth of the kernel's Soft-RoCE against jrxe's, on the same hub and the same guest:
#
#   rxe0 (eth0, NIC A, 10.9.0.1)  --ib_write_bw-->  rxe1 (NIC D, 10.9.0.4)
#   jrxe perf (NIC C, 10.9.0.3)  --write-->  jrxe perf --server (NIC B, 10.9.0.2), two processes (peer mode)
#
# 64 KiB messages, ACK timeout code 18 on both (ACK_TIMEOUT in lib.sh); the path MTU is the active MTU (1024 on
# 1500-byte NICs, 4096 with --host-mtu 9000). Two rxe
# devices in one network namespace need policy routing, or their traffic short-cuts through lo (see the QEMU lab
# notes); it is undone at the end. Prints
#   GUEST-BASELINE write_bw mtu=<B> size=<B> iters=<n> rxe=<Gb/s> jrxe=<Gb/s> ratio=<jrxe/rxe>
# timeout: 900

ITERS=300
SIZE=65536
RUN_TIMEOUT=300

require_jar
eth_a=$(netdev_of "$NIC_A_BDF")
eth_d=$(netdev_of "$NIC_D_BDF")
[ -n "$eth_a" ] && [ -n "$eth_d" ] || fail "NIC A or D has no kernel interface ($eth_a/$eth_d)"

# Policy routing between the two local addresses (undone on exit, whatever happens).
sysctl_keys=()
for dev in all default "$eth_a" "$eth_d"; do
    for key in rp_filter accept_local arp_ignore arp_announce; do
        sysctl_keys+=("net.ipv4.conf.$dev.$key")
    done
done
declare -A saved
for k in "${sysctl_keys[@]}"; do
    read -r saved[$k] < "/proc/sys/${k//.//}"
done
undo_routing()
{
    ip rule add pref 0 lookup local 2> /dev/null
    ip rule del pref 1000 lookup local 2> /dev/null
    ip rule del pref 10 2> /dev/null
    ip rule del pref 11 2> /dev/null
    ip route flush table 100 2> /dev/null
    ip route flush table 101 2> /dev/null
    local k
    for k in "${!saved[@]}"; do
        sysctl -q -w "$k=${saved[$k]}"
    done
}
trap undo_routing EXIT
for dev in all default "$eth_a" "$eth_d"; do
    sysctl -q -w "net.ipv4.conf.$dev.rp_filter=0" "net.ipv4.conf.$dev.accept_local=1" \
        "net.ipv4.conf.$dev.arp_ignore=1" "net.ipv4.conf.$dev.arp_announce=2"
done
ip addr add "$NIC_D_IP/$NIC_PREFIX" dev "$eth_d" || fail "cannot give $eth_d $NIC_D_IP"
ip route add "$NIC_D_IP" dev "$eth_a" src "$NIC_A_IP" table 100
ip route add "$NIC_A_IP" dev "$eth_d" src "$NIC_D_IP" table 101
ip rule add pref 10 iif lo to "$NIC_D_IP" lookup 100
ip rule add pref 11 iif lo to "$NIC_A_IP" lookup 101
ip rule add pref 1000 lookup local
ip rule del pref 0 lookup local

rxe_add rxe0 "$eth_a" || fail "rdma link add rxe0 netdev $eth_a failed"
rxe_add rxe1 "$eth_d" || fail "rdma link add rxe1 netdev $eth_d failed"
gid_a=$(roce_v2_gid_index rxe0 "$NIC_A_IP") || fail "rxe0 has no RoCE v2 GID for $NIC_A_IP"
gid_d=$(roce_v2_gid_index rxe1 "$NIC_D_IP") || fail "rxe1 has no RoCE v2 GID for $NIC_D_IP"
read -r mtu_line < /sys/class/infiniband/rxe0/ports/1/active_mtu 2> /dev/null
log "rxe0 on $eth_a (GID $gid_a), rxe1 on $eth_d (GID $gid_d), active MTU ${mtu_line:-?}"
problems=()

# 1. rxe0 -> rxe1. perftest turns cycles into time with a CPU frequency it measures; under TCG that measurement
# can fail (r^2 < 0.9) and the tool then prints 0.000000, and a starved guest can fail a run outright: such a run
# is repeated, up to three times, and only the last attempt's problems count.
rxe_srv_log=/tmp/baseline-rxe-server.log
rxe_cli_log=/tmp/baseline-rxe-client.log
rxe_bw=""
for attempt in 1 2 3; do
    attempt_problems=()
    timeout $((RUN_TIMEOUT + 60)) ib_write_bw -d rxe1 -x "$gid_d" -s $SIZE -n $ITERS -F --report_gbits \
        -u $ACK_TIMEOUT > "$rxe_srv_log" 2>&1 &
    kpid=$!
    wait_until 30 tcp_listening $OOB_PORT || attempt_problems+=("ib_write_bw server on rxe1 not listening")
    timeout $RUN_TIMEOUT ib_write_bw -d rxe0 -x "$gid_a" -s $SIZE -n $ITERS -F --report_gbits -u $ACK_TIMEOUT \
        127.0.0.1 > "$rxe_cli_log" 2>&1 || attempt_problems+=("ib_write_bw rxe0 -> rxe1 failed")
    wait_pid_exit $kpid 60 || attempt_problems+=("ib_write_bw server on rxe1 failed")
    rxe_bw=$(perftest_bw_average "$rxe_cli_log" $SIZE)
    log "rxe0 -> rxe1 attempt $attempt: ${rxe_bw:-no result} Gb/s ${attempt_problems[*]}"
    [ ${#attempt_problems[@]} = 0 ] && [ -n "$rxe_bw" ] && awk -v v="$rxe_bw" 'BEGIN { exit !(v > 0) }' && break
done
problems+=("${attempt_problems[@]}")
show_log "$rxe_cli_log" "rxe client" 25
[ -n "$rxe_bw" ] || problems+=("no rxe result line")

# 2. jrxe (NIC C) -> jrxe (NIC B): both JVMs start together; the client retries until the server listens.
bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
bind_vfio "$NIC_C_BDF" || fail "cannot bind $NIC_C_BDF to vfio-pci"
jrxe_perf=(perf --op write -s $SIZE -n $ITERS --report-gbits -u $ACK_TIMEOUT --timeout $RUN_TIMEOUT
    "${JRXE_NODE_OPTS[@]}")
j_srv_log=/tmp/baseline-jrxe-server.log
j_cli_log=/tmp/baseline-jrxe-client.log
"${JRXE[@]}" "${jrxe_perf[@]}" --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" --name jrxe-b --server \
    > "$j_srv_log" 2>&1 &
spid=$!
timeout $((RUN_TIMEOUT + 240)) "${JRXE[@]}" "${jrxe_perf[@]}" --pci "$NIC_C_BDF" --ip "$JRXE_C_IP/$NIC_PREFIX" \
    --name jrxe-c 127.0.0.1 > "$j_cli_log" 2>&1 || problems+=("jrxe client (NIC C) failed")
wait_pid_exit $spid 120 || problems+=("jrxe server (NIC B) failed")
show_log "$j_cli_log" "jrxe client" 25
show_log "$j_srv_log" "jrxe server" 8
jrxe_bw=$(perftest_bw_average "$j_cli_log" $SIZE)
[ -n "$jrxe_bw" ] || problems+=("no jrxe result line")
lat=$(grep -m1 '^JRXE-PERF' "$j_cli_log")

mtu=$(value_of mtu "$lat")
ratio=$(awk -v j="${jrxe_bw:-0}" -v r="${rxe_bw:-0}" 'BEGIN { if (r > 0) printf "%.2f", j / r; else print "?" }')
echo "GUEST-BASELINE write_bw mtu=${mtu:-?} size=$SIZE iters=$ITERS rxe=${rxe_bw:-?} jrxe=${jrxe_bw:-?} ratio=$ratio"
figures="mtu=${mtu:-?} rxe_gbps=${rxe_bw:-?} jrxe_gbps=${jrxe_bw:-?} ratio=$ratio"
figures+=" jrxe_lat_p50_us=$(value_of lat_p50_us "$lat") jrxe_lat_p99_us=$(value_of lat_p99_us "$lat")"
if [ ${#problems[@]} -gt 0 ]; then
    show_jvm_crashes
    fail "$(printf '%s; ' "${problems[@]}")$figures"
fi
pass "$figures"
