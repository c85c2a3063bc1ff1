# Helpers for the guest init and the scenarios (sourced; runs inside the QEMU guest).
#
# The machine (see ci/lib/qemu.sh), all four NICs on one QEMU hub:
#
#   NIC  PCI            MAC                 at the start of every scenario
#   A    0000:00:02.0   52:54:00:00:00:01   virtio_net, up, 10.9.0.1/24 (normally eth0), MTU 1500 or host_mtu
#   B    0000:00:03.0   52:54:00:00:00:02   virtio_net, down: the scenario hands it to vfio-pci / jrxe
#   C    0000:00:04.0   52:54:00:00:00:03   virtio_net, down: the scenario hands it to vfio-pci / jrxe
#   D    0000:00:05.0   52:54:00:00:00:04   virtio_net, up, no address
#
# IPv6 is disabled on every interface so the kernel NICs send nothing on their own (no DAD, router solicitations
# or MLD reports): frame counters then count only what a scenario sent.
#
# A scenario is a bash script, ci/guest/scenarios/NN-name.sh, run in its own session with this file sourced. It
# ends with `pass FIGURES` or `fail REASON`; exiting without either, or outliving its "# timeout: SECONDS" header
# (default 300), is a FAIL. Everything it leaves running is killed afterwards. It must undo routing rules or
# sysctls it changes; the init restores drivers, addresses, neighbours and rxe links between scenarios.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

JRXE_JAR=/opt/jrxe/jrxe.jar
NIC_A_BDF=0000:00:02.0
NIC_B_BDF=0000:00:03.0
NIC_C_BDF=0000:00:04.0
NIC_D_BDF=0000:00:05.0
NIC_A_MAC=52:54:00:00:00:01
NIC_B_MAC=52:54:00:00:00:02
NIC_C_MAC=52:54:00:00:00:03
NIC_D_MAC=52:54:00:00:00:04
NIC_A_IP=10.9.0.1
NIC_PREFIX=24

uptime_s()
{
    local up rest
    read -r up rest < /proc/uptime
    echo "$up"
}

log()
{
    echo "[${SCENARIO:-init}] $*"
}

# Records the scenario's result (first word PASS or FAIL, then figures or the reason) and ends the scenario.
pass()
{
    echo "PASS $*" > "$RESULT_FILE"
    exit 0
}

fail()
{
    echo "FAIL $*" > "$RESULT_FILE"
    log "FAIL: $*"
    exit 1
}

# wait_until SECONDS COMMAND...: polls COMMAND every 0.5 s (WAIT_POLL; each poll forks a sleep, which costs a
# TCG guest dearly) until it succeeds (0) or the deadline passes (1).
wait_until()
{
    local secs=$1
    shift
    local deadline=$((SECONDS + secs))
    until "$@"; do
        [ $SECONDS -ge $deadline ] && return 1
        sleep "${WAIT_POLL:-0.5}"
    done
    return 0
}

bdf_of()
{
    local var=NIC_${1}_BDF
    echo "${!var}"
}

# The lookups below use globs and builtins only: under TCG every fork+exec costs a good fraction of a second.

# Kernel network interface of a PCI function, empty when no kernel driver owns it.
netdev_of()
{
    local d
    for d in /sys/bus/pci/devices/"$1"/virtio*/net/*; do
        [ -e "$d" ] && { echo "${d##*/}"; return 0; }
    done
    return 0
}

driver_of()
{
    local d
    for d in /sys/bus/pci/drivers/*/"$1"; do
        [ -e "$d" ] && { d=${d%/*}; echo "${d##*/}"; return 0; }
    done
    return 0
}

iommu_group_of()
{
    local d
    for d in /sys/kernel/iommu_groups/*/devices/"$1"; do
        [ -e "$d" ] && { d=${d%/devices/*}; echo "${d##*/}"; return 0; }
    done
    return 0
}

# Hands a PCI function to vfio-pci with plain sysfs writes (what `jrxe bind` is expected to do for real).
bind_vfio()
{
    local bdf=$1 dev=/sys/bus/pci/devices/$1
    echo vfio-pci > "$dev/driver_override"
    [ -e "$dev/driver" ] && echo "$bdf" > "$dev/driver/unbind"
    echo "$bdf" > /sys/bus/pci/drivers_probe
    [ "$(driver_of "$bdf")" = vfio-pci ]
}

# Gives a PCI function back to its kernel driver (virtio-pci, then virtio_net) and waits for its interface.
bind_kernel()
{
    local bdf=$1 dev=/sys/bus/pci/devices/$1
    echo > "$dev/driver_override"
    if [ "$(driver_of "$bdf")" != virtio-pci ]; then
        [ -e "$dev/driver" ] && echo "$bdf" > "$dev/driver/unbind"
        echo "$bdf" > /sys/bus/pci/drivers_probe
    fi
    wait_until 10 test -n "$(netdev_of "$bdf")"
}

net_counter()
{
    echo "$(< "/sys/class/net/$1/statistics/$2")"
}

# Index of the RoCE v2 GID of an rxe device that holds the IPv4 address $2 (an IPv4-mapped IPv6 GID), by type.
roce_v2_gid_index()
{
    local port=/sys/class/infiniband/$1/ports/1 ip=$2 i gid want
    want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${ip//./ })
    for i in $(ls "$port/gid_attrs/types" 2> /dev/null | sort -n); do
        [ "$(< "$port/gid_attrs/types/$i")" = "RoCE v2" ] 2> /dev/null || continue
        gid=$(< "$port/gids/$i") 2> /dev/null || continue
        [ "$gid" = "$want" ] && { echo "$i"; return 0; }
    done
    return 1
}

require_jar()
{
    [ -f "$JRXE_JAR" ] || fail "no jrxe.jar in the guest ($JRXE_JAR): the host had none to copy in" \
        "(build tools/target/jrxe.jar or pass --jar)"
}

# The jrxe command line: "${JRXE[@]}" bind BDF. An array rather than a function so that "${JRXE[@]}" nic ... &
# puts the JVM itself in $!, which is what a later kill -TERM must reach. JRXE_JAVA_OPTS adds JVM options.
# The default stops the JIT at C1 (-XX:TieredStopAtLevel=1). Under TCG a C2 compilation costs a hundred times what it
# costs on a host, and the two vCPUs are shared by two JVMs: a guest profile of a jrxe ping-pong 50 s into the run
# still had the C2 compiler threads on 23 % of all samples, competing with the engine threads for the vCPUs. A jrxe
# pair's SEND ping-pong went from p50 13.8 ms one-way to 2.0 ms with it (ci/README.md, "JVM settings"). This is a
# setting for the emulated guest only; on a host, C2's code is what jrxe is measured with.
JRXE_JAVA_OPTS=${JRXE_JAVA_OPTS--XX:TieredStopAtLevel=1}
# shellcheck disable=SC2206
JRXE=(java ${JRXE_JAVA_OPTS:-} -jar "$JRXE_JAR")

# value_of KEY LINE: the value of KEY=value in a line of key=value words (empty when absent).
value_of()
{
    local word
    for word in $2; do
        [ "${word%%=*}" = "$1" ] && { echo "${word#*=}"; return 0; }
    done
    return 0
}

# dmar_faults: the kernel log's IOMMU fault lines for the NICs jrxe drives (B and C), e.g.
#     DMAR: [DMA Write NO_PASID] Request device [00:03.0] fault addr 0x0 [fault reason 0x05] PTE Write access ...
# Read by the init after every scenario (issue 13: a scenario with one fails).
dmar_faults()
{
    local b=${NIC_B_BDF#0000:} c=${NIC_C_BDF#0000:}
    dmesg | grep -E "DMAR: \[(DMA (Read|Write)|INTR-REMAP)[^]]*\] Request device \[(${b//./\.}|${c//./\.})\]"
}

# The machine's state at the start of each scenario (see the table at the top). Used by the init only.
reset_machine()
{
    local dev bdf
    for dev in /sys/class/infiniband/*; do
        [ -e "$dev" ] && rdma link delete "${dev##*/}" 2> /dev/null
    done
    sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    for bdf in $NIC_B_BDF $NIC_C_BDF; do
        bind_kernel "$bdf" || log "WARNING: $bdf did not come back to virtio_net"
        dev=$(netdev_of "$bdf")
        [ -n "$dev" ] && { ip addr flush dev "$dev"; ip link set "$dev" down; }
    done
    for bdf in $NIC_A_BDF $NIC_D_BDF; do
        [ "$(driver_of "$bdf")" = virtio-pci ] || bind_kernel "$bdf" || log "WARNING: $bdf has no interface"
        dev=$(netdev_of "$bdf")
        [ -n "$dev" ] || continue
        sysctl -q -w "net.ipv6.conf.$dev.disable_ipv6=1"
        ip addr flush dev "$dev"
        ip link set "$dev" mtu "${HOST_MTU:-1500}" up
    done
    dev=$(netdev_of $NIC_A_BDF)
    [ -n "$dev" ] && ip addr add "$NIC_A_IP/$NIC_PREFIX" dev "$dev"
    # a fault cell killed before its clean-up left netem on a NIC (faults.sh)
    for dev in /run/jrxe-ci/netem-*; do
        [ -e "$dev" ] && { tc qdisc del dev "${dev#/run/jrxe-ci/netem-}" root 2> /dev/null; rm -f "$dev"; }
    done
    ip neigh flush all 2> /dev/null
    return 0
}

# ---- RoCE interop (scenarios that pair the kernel's Soft-RoCE with jrxe) ----
#
#   NIC A  eth0  10.9.0.1  rxe0 (kernel)          NIC B  vfio-pci  10.9.0.2  jrxe
#   NIC D  eth3  10.9.0.4  rxe1 (kernel, baseline) NIC C  vfio-pci  10.9.0.3  jrxe
# The out-of-band TCP exchanges of the tools run over the guest's loopback; RoCE crosses the hub.

JRXE_B_IP=10.9.0.2
JRXE_C_IP=10.9.0.3
NIC_D_IP=10.9.0.4
OOB_PORT=18515
# Local ACK timeout code (perftest -u) of both sides in the perftest scenarios: 18 = 1.07 s instead of 67 ms. A busy
# TCG guest stalls either side for longer than 67 ms, and spurious go-back-N retransmissions then flood the hub.
ACK_TIMEOUT=18
# Driver buffers must hold a whole frame: jumbo frames (--host-mtu) need bigger ones.
# Park when idle, woken by doorbells and the NIC's MSI-X interrupt (a clock-timed park, backoff, can last
# milliseconds on a TCG guest, and the peer times out; yield takes a vCPU from the kernel peer).
JRXE_NODE_OPTS=(--idle park)
[ "${HOST_MTU:-1500}" -gt 1900 ] && JRXE_NODE_OPTS+=(--buffer-size $(( (HOST_MTU + 14 + 64 + 1023) / 1024 * 1024 )))
# jrxe counters that must stay 0 in a clean run against a well-behaved peer (retransmits, RNR NAKs and the
# first packets sent before ARP resolves are not errors).
JRXE_ERROR_COUNTERS="icrc_err bad_opcode bad_pkey bad_qpn bad_qkey bad_header_length bad_pad truncated bad_tver
    bad_qp_type bad_ip_header opcode_seq_err nak_sent nak_rcvd retry_exceeded_err retry_rnr_exceeded_err
    rkey_violation cq_overflow link_downed xrc_bad_srqn"
# rxe hw_counters shown beside jrxe's.
RXE_SHOWN_COUNTERS="sent_pkts rcvd_pkts duplicate_request out_of_seq_request rcvd_rnr_err send_rnr_err rcvd_seq_err
    completer_retry_err retry_exceeded_err"

# rxe_add NAME NETDEV: a Soft-RoCE device on NETDEV, its port ACTIVE.
rxe_add()
{
    rdma link add "$1" type rxe netdev "$2" || return 1
    wait_until 20 rxe_port_active "$1"
}

rxe_port_active()
{
    local state
    read -r state < "/sys/class/infiniband/$1/ports/1/state" 2> /dev/null || return 1
    [[ $state == *ACTIVE* ]]
}

# tcp_listening PORT: a socket listens on PORT (IPv4 or IPv6); builtins only, it runs in wait loops.
tcp_listening()
{
    local hex f slot local_addr remote st rest
    printf -v hex '%04X' "$1"
    for f in /proc/net/tcp /proc/net/tcp6; do
        [ -r "$f" ] || continue
        while read -r slot local_addr remote st rest; do
            [[ $local_addr == *":$hex" && $st == 0A ]] && return 0
        done < "$f"
    done
    return 1
}

# rxe_counters DEV: "name=value ..." of the hw_counters of DEV's port 1 (all of them, for deltas).
rxe_counters()
{
    local f v out=""
    for f in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
        [ -r "$f" ] || continue
        read -r v < "$f" || continue
        out+="${f##*/}=$v "
    done
    echo "$out"
}

# rxe_delta BEFORE AFTER: the RXE_SHOWN_COUNTERS that changed between two rxe_counters snapshots.
rxe_delta()
{
    local name out="" a b
    for name in $RXE_SHOWN_COUNTERS; do
        a=$(value_of "$name" "$1")
        b=$(value_of "$name" "$2")
        [ -n "$b" ] && [ "${b:-0}" != "${a:-0}" ] && out+="$name=$(( b - ${a:-0} )) "
    done
    echo "${out% }"
}

# jrxe_counters FILE DEVICE: "name=value ..." of DEVICE's non-zero counters in a saved `jrxe stat` output.
jrxe_counters()
{
    local line current="" out="" name value rest
    while read -r name value rest; do
        if [[ $value == pid ]]; then
            current=$name
            continue
        fi
        [ "$current" = "$2" ] && [[ $value =~ ^[0-9]+$ ]] && [ "$value" != 0 ] && out+="$name=$value "
    done < "$1"
    echo "${out% }"
}

# jrxe_errors COUNTERS: the JRXE_ERROR_COUNTERS that are non-zero in a jrxe_counters string.
jrxe_errors()
{
    local name out="" v
    for name in $JRXE_ERROR_COUNTERS; do
        v=$(value_of "$name" "$1")
        [ -n "$v" ] && [ "$v" != 0 ] && out+="$name=$v "
    done
    echo "${out% }"
}

# jrxe_errors_except EXPECTED COUNTERS: jrxe_errors without the counters named in EXPECTED (those a fault cell
# provokes on purpose).
jrxe_errors_except()
{
    local name kept=""
    for name in $JRXE_ERROR_COUNTERS; do
        [[ " $1 " == *" $name "* ]] || kept+="$name "
    done
    JRXE_ERROR_COUNTERS=$kept jrxe_errors "$2"
}

# wait_pid_exit PID SECONDS: waits for a background job; its exit status, or 124 if it outlived SECONDS (then
# it is killed).
wait_pid_exit()
{
    local pid=$1
    # Poll once a second: every poll forks a sleep, and under TCG that costs the measured tools several per cent.
    if ! WAIT_POLL=1 wait_until "$2" eval "! kill -0 $pid 2> /dev/null"; then
        kill -TERM "$pid" 2> /dev/null
        wait_until 10 eval "! kill -0 $pid 2> /dev/null" || kill -KILL "$pid" 2> /dev/null
        wait "$pid" 2> /dev/null
        return 124
    fi
    wait "$pid"
}

# show_log FILE TAG: the last lines of a tool's output in the console, prefixed.
show_log()
{
    [ -f "$1" ] && tail -"${3:-40}" "$1" | sed "s/^/[$SCENARIO] $2: /"
    return 0
}

# show_jvm_crashes: the head of every JVM fatal error report (hs_err) left in / or /tmp, for the console.
show_jvm_crashes()
{
    local f
    for f in /hs_err_pid*.log /tmp/hs_err_pid*.log; do
        [ -f "$f" ] || continue
        head -80 "$f" | sed "s/^/[$SCENARIO] ${f##*/}: /"
        rm -f "$f"
    done
    return 0
}

# start_jrxe_server LOG COMMAND...: starts a jrxe server in the background (its pid in JRXE_PID) and waits until it
# listens on OOB_PORT; fails the scenario, with its output, if it exits or does not listen within 240 s (JVM start
# under TCG).
start_jrxe_server()
{
    local out=$1
    shift
    "$@" > "$out" 2>&1 &
    JRXE_PID=$!
    if ! wait_until 240 eval 'tcp_listening $OOB_PORT || ! kill -0 $JRXE_PID 2> /dev/null' \
        || ! tcp_listening $OOB_PORT; then
        show_log "$out" "jrxe server"
        fail "jrxe server was not listening on $OOB_PORT within 240 s: $*"
    fi
}

# check_jrxe_counters SERVER_DEVICE [CLIENT_DEVICE]: one `jrxe stat` (one JVM) for the counters files the runs
# left; sets SRV_COUNTERS and CLI_COUNTERS ("name=value ..." of the non-zero ones; CLI_COUNTERS empty without a
# second device) and appends what is wrong to the caller's problems array.
check_jrxe_counters()
{
    local stat_out=/tmp/jrxe-stat-$SCENARIO.txt errs
    "${JRXE[@]}" stat --all "$@" > "$stat_out" 2>&1 || problems+=("jrxe stat failed")
    show_log "$stat_out" "jrxe stat" 120
    SRV_COUNTERS=$(jrxe_counters "$stat_out" "$1")
    [ -n "$SRV_COUNTERS" ] || problems+=("no counters for $1 in jrxe stat")
    errs=$(jrxe_errors "$SRV_COUNTERS")
    [ -z "$errs" ] || problems+=("jrxe ${2:+server }counters ($1): $errs")
    CLI_COUNTERS=""
    [ -n "${2:-}" ] || return 0
    CLI_COUNTERS=$(jrxe_counters "$stat_out" "$2")
    [ -n "$CLI_COUNTERS" ] || problems+=("no counters for $2 in jrxe stat")
    errs=$(jrxe_errors "$CLI_COUNTERS")
    [ -z "$errs" ] || problems+=("jrxe client counters ($2): $errs")
}

# interop_setup: the pair of the interop scenarios, or the scenario fails: rxe0 on NIC A's netdev (in `eth`, its
# RoCE v2 GID index for NIC_A_IP in `gidx`) and NIC B on vfio-pci for jrxe.
interop_setup()
{
    require_jar
    eth=$(netdev_of "$NIC_A_BDF")
    [ -n "$eth" ] || fail "NIC A ($NIC_A_BDF) has no kernel interface"
    rxe_add rxe0 "$eth" || fail "rdma link add rxe0 netdev $eth failed or its port is not ACTIVE"
    gidx=$(roce_v2_gid_index rxe0 "$NIC_A_IP") || fail "rxe0 has no RoCE v2 GID for $NIC_A_IP"
    bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
}

# perftest_bw_average FILE SIZE: the "BW average" column of the result line of a perftest table (jrxe's or perftest's).
perftest_bw_average()
{
    awk -v s="$2" '$1 == s && $2 ~ /^[0-9]+$/ && NF >= 5 { v = $4 } END { if (v != "") print v }' "$1"
}

# perftest_interop OP ITERS SIZE: ib_OP_bw (send, write or read) between rxe0 (NIC A) and jrxe perftest peer mode
# (NIC B, `jrxe perf` in peer mode), both roles: kernel client -> jrxe server, then jrxe client -> kernel server. Ends the scenario with pass
# or fail; figures in Gb/s.
perftest_interop()
{
    local op=$1 iters=$2 size=$3 tool=ib_${1}_bw run_timeout=300
    interop_setup
    log "rxe0 on $eth, RoCE v2 GID index $gidx; NIC B on vfio-pci; $tool -s $size -n $iters"

    local jrxe_perf=("${JRXE[@]}" perf --op "$op" --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX"
        "${JRXE_NODE_OPTS[@]}" --keep-counters -s "$size" -n "$iters" --report-gbits -u "$ACK_TIMEOUT"
        --timeout "$run_timeout")
    local kernel=(timeout $((run_timeout + 240)) "$tool" -d rxe0 -x "$gidx" -s "$size" -n "$iters" -F
        --report_gbits -u "$ACK_TIMEOUT")
    local problems=() jpid kpid jrc krc before after
    local srv_log=/tmp/jrxe-$op-server.log kcli_log=/tmp/$tool-client.log
    local cli_log=/tmp/jrxe-$op-client.log ksrv_log=/tmp/$tool-server.log

    # 1. kernel client -> jrxe server
    before=$(rxe_counters rxe0)
    start_jrxe_server "$srv_log" "${jrxe_perf[@]}" --name jrxe-b-srv --server
    jpid=$JRXE_PID
    "${kernel[@]}" 127.0.0.1 > "$kcli_log" 2>&1
    krc=$?
    wait_pid_exit $jpid 120
    jrc=$?
    after=$(rxe_counters rxe0)
    show_log "$kcli_log" "$tool client"
    show_log "$srv_log" "jrxe server"
    local k2j_rxe k2j k2j_srv
    k2j_rxe=$(rxe_delta "$before" "$after")
    k2j=$(perftest_bw_average "$kcli_log" "$size")
    k2j_srv=$(perftest_bw_average "$srv_log" "$size")
    [ $krc = 0 ] || problems+=("$tool client exited $krc")
    [ $jrc = 0 ] || problems+=("jrxe server exited $jrc")
    [ -n "$k2j" ] || problems+=("$tool client printed no result line")
    [ -n "$k2j_srv" ] || problems+=("jrxe server printed no result line")

    # 2. jrxe client -> kernel server
    before=$(rxe_counters rxe0)
    "${kernel[@]}" > "$ksrv_log" 2>&1 &
    kpid=$!
    wait_until 30 tcp_listening $OOB_PORT || problems+=("$tool server not listening")
    timeout $((run_timeout + 240)) "${jrxe_perf[@]}" --name jrxe-b-cli 127.0.0.1 > "$cli_log" 2>&1
    jrc=$?
    wait_pid_exit $kpid 120
    krc=$?
    after=$(rxe_counters rxe0)
    show_log "$cli_log" "jrxe client"
    show_log "$ksrv_log" "$tool server"
    local j2k_rxe j2k j2k_srv lat
    j2k_rxe=$(rxe_delta "$before" "$after")
    j2k=$(perftest_bw_average "$cli_log" "$size")
    j2k_srv=$(perftest_bw_average "$ksrv_log" "$size")
    lat=$(grep -m1 '^JRXE-PERF' "$cli_log")
    [ $krc = 0 ] || problems+=("$tool server exited $krc")
    [ $jrc = 0 ] || problems+=("jrxe client exited $jrc")
    [ -n "$j2k" ] || problems+=("jrxe client printed no result line")
    [ -n "$j2k_srv" ] || problems+=("$tool server printed no result line")

    check_jrxe_counters jrxe-b-srv jrxe-b-cli
    log "k2j jrxe: $SRV_COUNTERS"
    log "k2j rxe0: $k2j_rxe"
    log "j2k jrxe: $CLI_COUNTERS"
    log "j2k rxe0: $j2k_rxe"

    local figures="size=$size iters=$iters k2j_gbps=${k2j:-?} k2j_jrxe_srv_gbps=${k2j_srv:-?}"
    figures+=" j2k_gbps=${j2k:-?} j2k_kernel_srv_gbps=${j2k_srv:-?}"
    figures+=" j2k_lat_p50_us=$(value_of lat_p50_us "$lat") j2k_lat_p99_us=$(value_of lat_p99_us "$lat")"
    if [ ${#problems[@]} -gt 0 ]; then
        show_jvm_crashes
        fail "$(printf '%s; ' "${problems[@]}")$figures"
    fi
    pass "$figures"
}

# ---- two kernel rxe devices and two jrxe nodes on one hub (baseline and profile scenarios) ----

# two_rxe_routing ETH_A ETH_D: gives ETH_D NIC_D_IP and the policy routing that makes traffic between the two
# local addresses leave through the NICs instead of short-cutting through lo (see the QEMU lab notes); undone when
# the scenario exits, whatever happens.
two_rxe_routing()
{
    local eth_a=$1 eth_d=$2 dev key k
    declare -gA ROUTING_SAVED=()
    for dev in all default "$eth_a" "$eth_d"; do
        for key in rp_filter accept_local arp_ignore arp_announce; do
            k=net.ipv4.conf.$dev.$key
            read -r "ROUTING_SAVED[$k]" < "/proc/sys/${k//.//}"
        done
    done
    at_exit undo_two_rxe_routing
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
}

undo_two_rxe_routing()
{
    ip rule add pref 0 lookup local 2> /dev/null
    ip rule del pref 1000 lookup local 2> /dev/null
    ip rule del pref 10 2> /dev/null
    ip rule del pref 11 2> /dev/null
    ip route flush table 100 2> /dev/null
    ip route flush table 101 2> /dev/null
    local k
    for k in "${!ROUTING_SAVED[@]}"; do
        sysctl -q -w "$k=${ROUTING_SAVED[$k]}"
    done
}

# two_rxe_devices: rxe0 on NIC A and rxe1 on NIC D with the routing above; sets ETH_A, ETH_D, GID_A, GID_D.
two_rxe_devices()
{
    ETH_A=$(netdev_of "$NIC_A_BDF")
    ETH_D=$(netdev_of "$NIC_D_BDF")
    [ -n "$ETH_A" ] && [ -n "$ETH_D" ] || fail "NIC A or D has no kernel interface ($ETH_A/$ETH_D)"
    two_rxe_routing "$ETH_A" "$ETH_D"
    rxe_add rxe0 "$ETH_A" || fail "rdma link add rxe0 netdev $ETH_A failed"
    rxe_add rxe1 "$ETH_D" || fail "rdma link add rxe1 netdev $ETH_D failed"
    GID_A=$(roce_v2_gid_index rxe0 "$NIC_A_IP") || fail "rxe0 has no RoCE v2 GID for $NIC_A_IP"
    GID_D=$(roce_v2_gid_index rxe1 "$NIC_D_IP") || fail "rxe1 has no RoCE v2 GID for $NIC_D_IP"
}

# rxe_write_run ITERS SIZE SRV_LOG CLI_LOG: ib_write_bw rxe0 -> rxe1 once; what went wrong goes to the caller's
# run_problems array.
rxe_write_run()
{
    local iters=$1 size=$2 srv_log=$3 cli_log=$4 run_timeout=300 kpid
    timeout $((run_timeout + 60)) ib_write_bw -d rxe1 -x "$GID_D" -s "$size" -n "$iters" -F --report_gbits \
        -u $ACK_TIMEOUT > "$srv_log" 2>&1 &
    kpid=$!
    wait_until 30 tcp_listening $OOB_PORT || run_problems+=("ib_write_bw server on rxe1 not listening")
    timeout $run_timeout ib_write_bw -d rxe0 -x "$GID_A" -s "$size" -n "$iters" -F --report_gbits \
        -u $ACK_TIMEOUT 127.0.0.1 > "$cli_log" 2>&1 || run_problems+=("ib_write_bw rxe0 -> rxe1 failed")
    wait_pid_exit $kpid 60 || run_problems+=("ib_write_bw server on rxe1 failed")
}

# jrxe_write_run ITERS SIZE SRV_LOG CLI_LOG [JVM OPTION...]: `jrxe perf --op write` NIC C -> NIC B (two JVMs
# started together, the client retries until the server listens); problems go to the caller's run_problems array.
jrxe_write_run()
{
    local iters=$1 size=$2 srv_log=$3 cli_log=$4 run_timeout=300 spid
    shift 4
    bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
    bind_vfio "$NIC_C_BDF" || fail "cannot bind $NIC_C_BDF to vfio-pci"
    local java=(java ${JRXE_JAVA_OPTS:-} "$@" -jar "$JRXE_JAR")
    local perf=(perf --op write -s "$size" -n "$iters" --report-gbits -u $ACK_TIMEOUT --timeout $run_timeout
        "${JRXE_NODE_OPTS[@]}")
    "${java[@]}" "${perf[@]}" --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" --name jrxe-b --server \
        > "$srv_log" 2>&1 &
    spid=$!
    timeout $((run_timeout + 240)) "${java[@]}" "${perf[@]}" --pci "$NIC_C_BDF" --ip "$JRXE_C_IP/$NIC_PREFIX" \
        --name jrxe-c 127.0.0.1 > "$cli_log" 2>&1 || run_problems+=("jrxe client (NIC C) failed")
    wait_pid_exit $spid 120 || run_problems+=("jrxe server (NIC B) failed")
}

# ---- RDMA CM scenarios: Linux rdma_cm on rxe0 (NIC A, 10.9.0.1) against jrxe's CM on NIC B (10.9.0.2) ----

# The node options of a jrxe CM tool on NIC B; counters files are kept for check_jrxe_counters.
JRXE_CM_NODE=(--pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" "${JRXE_NODE_OPTS[@]}" --keep-counters)

# cm_setup: rxe0 on NIC A and NIC B on vfio-pci.
cm_setup()
{
    require_jar
    local eth
    eth=$(netdev_of "$NIC_A_BDF")
    [ -n "$eth" ] || fail "NIC A ($NIC_A_BDF) has no kernel interface"
    rxe_add rxe0 "$eth" || fail "rdma link add rxe0 netdev $eth failed or its port is not ACTIVE"
    bind_vfio "$NIC_B_BDF" || fail "cannot bind $NIC_B_BDF to vfio-pci"
    log "rxe0 on $eth ($NIC_A_IP); NIC B on vfio-pci for jrxe ($JRXE_B_IP)"
}

# start_jrxe_cm_server LOG COMMAND...: starts a jrxe CM server in the background (pid in JRXE_PID) and waits until
# it prints JRXE-CM-LISTEN (its rdma_cm id listens); fails the scenario if it exits first or takes over 240 s.
start_jrxe_cm_server()
{
    local out=$1
    shift
    "$@" > "$out" 2>&1 &
    JRXE_PID=$!
    if ! wait_until 240 eval "grep -q '^JRXE-CM-LISTEN' $out || ! kill -0 $JRXE_PID 2> /dev/null" \
        || ! grep -q '^JRXE-CM-LISTEN' "$out"; then
        show_log "$out" "jrxe server"
        fail "jrxe server did not listen within 240 s: $*"
    fi
}

# kernel_cm_listening PORT: a kernel rdma_cm id listens on PORT (rdma resource show cm_id).
kernel_cm_listening()
{
    rdma resource show cm_id 2> /dev/null | grep LISTEN | grep -qE ":$1( |$)"
}

# start_kernel_cm_server LOG PORT COMMAND...: a kernel rdmacm-utils server in the background (pid in KERNEL_PID);
# waits until its id listens on PORT.
start_kernel_cm_server()
{
    local out=$1 port=$2
    shift 2
    "$@" > "$out" 2>&1 &
    KERNEL_PID=$!
    wait_until 30 kernel_cm_listening "$port" || problems+=("kernel $1 not listening on $port: $(tail -3 "$out")")
}

# elapsed_since START: seconds since an EPOCHREALTIME value, 3 decimals.
elapsed_since()
{
    awk -v a="$1" -v b="${EPOCHREALTIME}" 'BEGIN { printf "%.3f", b - a }'
}

# cm_figures COUNTERS: the CM counters of a jrxe_counters string, "cm_tx_msgs/req=1 ..." as "tx_req=1 ...".
cm_figures()
{
    local word out=""
    for word in $1; do
        case $word in
            cm_tx_msgs/*) out+="tx_${word#cm_tx_msgs/} " ;;
            cm_rx_msgs/*) out+="rx_${word#cm_rx_msgs/} " ;;
            cm_tx_retries/*) out+="retry_${word#cm_tx_retries/} " ;;
            cm_rx_duplicates/*) out+="dup_${word#cm_rx_duplicates/} " ;;
            cm_rx_drop_*) out+="drop_${word#cm_rx_drop_} " ;;
        esac
    done
    echo "${out% }"
}

# ---- NFS over RDMA: the kernel's server (knfsd, svcrdma) on NIC A, clients over rxe1 (NIC D) or jrxe (NIC B) ----
#
#   knfsd  10.9.0.1 (NIC A, rxe0)  RPC-over-RDMA on 20049 (rdma_cm, wildcard), NFS over TCP on 2049,
#          rpc.mountd on UDP+TCP 20048 (MOUNT never runs over RDMA), rpcbind on 111
#   export /srv/nfs (ext4 rootfs)  rw,async,no_root_squash,insecure,no_subtree_check; NFSv4 reaches it by the same
#          path through mountd's automatic pseudo-root (no fsid=0 export)
#
# The server outlives a scenario: rpcbind and rpc.mountd daemonize into sessions of their own and knfsd is kernel
# threads, so the scenario's process-group kill does not reach them. Its rdma listener is a wildcard rdma_cm id:
# when the init deletes rxe0 between scenarios the per-device listen under it goes, and the next rxe0 gets a new
# one, so nfs_server_start finds it running in a later scenario and only checks it.

NFS_EXPORT=/srv/nfs
NFS_RDMA_PORT=20049
NFS_MOUNTD_PORT=20048
NFS_THREADS=4
# rsize/wsize of every NFS scenario, for the kernel client and jrxe's alike.
NFS_RSIZE=262144
NFS_WSIZE=262144
NFS_MODULES="nfsd rpcrdma nfs nfsv3 nfsv4"
# lockd's grace period in seconds (its minimum), and where nfs_server_start writes when it ends (date +%s)
NFS_LOCKD_GRACE_S=3
NFS_GRACE_END_FILE=/run/jrxe-nfs-grace-end

# nfs_server_running: knfsd has threads and listens for RPC-over-RDMA on NFS_RDMA_PORT.
nfs_server_running()
{
    local threads line
    [ -r /proc/fs/nfsd/threads ] || return 1
    read -r threads < /proc/fs/nfsd/threads 2> /dev/null || return 1
    [ "${threads:-0}" -gt 0 ] || return 1
    while read -r line; do
        [ "$line" = "rdma $NFS_RDMA_PORT" ] && return 0
    done < /proc/fs/nfsd/portlist
    return 1
}

# nfs_server_start: knfsd by hand (no systemd in the guest), idempotent within one boot. Fails the scenario when
# a step fails. The NFSv4 grace period (90 s by default, every OPEN refused with NFS4ERR_GRACE meanwhile) is cut
# twice: grace and lease times are set to their minimum (10 s) before rpc.nfsd starts the server (the files only
# take writes while it is stopped), and v4_end_grace ends the grace period at once after it has started (nothing
# to reclaim on a fresh boot). A 10 s lease is harmless: the 6.1 server is "courteous" and keeps an expired
# client's state until another client conflicts with it.
# lockd has a grace period of its own (NLM, started with knfsd because v3 is on): nlm_timeout * 5 = 50 s by default,
# which v4_end_grace does not end. knfsd grants no delegation while any lock manager is in grace (locks_in_grace()
# in nfs4_open_delegation: the OPEN succeeds with why_no_delegation4 WND4_RESOURCE), so a fresh guest's first
# minute had no delegations. It is cut to 3 s (nlm_timeout and nlm_grace_period at their minimum of 3, set before
# lockd starts), and nfs_grace_wait waits out what is left of it before a step that needs a delegation.
nfs_server_start()
{
    local f threads
    if nfs_server_running; then
        NFS_SERVER_STATE=running
        log "knfsd already running: threads $(< /proc/fs/nfsd/threads), portlist $(tr '\n' ' ' < /proc/fs/nfsd/portlist)"
        return 0
    fi
    modprobe -a $NFS_MODULES || fail "modprobe -a $NFS_MODULES failed"
    mkdir -p "$NFS_EXPORT"
    chmod 0777 "$NFS_EXPORT"
    mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd || fail "mount -t nfsd failed"
    echo "$NFS_EXPORT *(rw,async,no_root_squash,insecure,no_subtree_check)" > /etc/exports
    pidof rpcbind > /dev/null || rpcbind || fail "rpcbind did not start"
    exportfs -ra || fail "exportfs -ra failed"
    pidof rpc.mountd > /dev/null || rpc.mountd --port "$NFS_MOUNTD_PORT" || fail "rpc.mountd did not start"
    # knfsd may run without its rdma listener (a scenario failed half-way): then only the listener is missing
    threads=0
    read -r threads < /proc/fs/nfsd/threads
    if [ "${threads:-0}" = 0 ]; then
        for f in nfsv4gracetime nfsv4leasetime; do
            echo 10 > "/proc/fs/nfsd/$f" || fail "cannot set /proc/fs/nfsd/$f to 10"
        done
        for f in nlm_timeout nlm_grace_period; do
            echo $NFS_LOCKD_GRACE_S > "/proc/sys/fs/nfs/$f" || fail "cannot set /proc/sys/fs/nfs/$f to $NFS_LOCKD_GRACE_S"
        done
        rpc.nfsd "$NFS_THREADS" || fail "rpc.nfsd $NFS_THREADS failed"
        echo $(($(date +%s) + NFS_LOCKD_GRACE_S + 1)) > "$NFS_GRACE_END_FILE"
    fi
    echo "rdma $NFS_RDMA_PORT" > /proc/fs/nfsd/portlist || fail "cannot add 'rdma $NFS_RDMA_PORT' to /proc/fs/nfsd/portlist"
    echo Y > /proc/fs/nfsd/v4_end_grace || log "WARNING: could not end the NFSv4 grace period (v4_end_grace)"
    nfs_server_running || fail "knfsd is not running after rpc.nfsd: threads $(< /proc/fs/nfsd/threads)," \
        "portlist $(tr '\n' ' ' < /proc/fs/nfsd/portlist)"
    NFS_SERVER_STATE=started
    log "knfsd started: threads $(< /proc/fs/nfsd/threads), portlist $(tr '\n' ' ' < /proc/fs/nfsd/portlist)," \
        "versions $(< /proc/fs/nfsd/versions), grace $(< /proc/fs/nfsd/nfsv4gracetime) s," \
        "lease $(< /proc/fs/nfsd/nfsv4leasetime) s, grace ended $(< /proc/fs/nfsd/v4_end_grace)," \
        "lockd grace $(< /proc/sys/fs/nfs/nlm_grace_period) s"
}

# nfs_grace_wait: returns once lockd's grace period (see nfs_server_start) is over. The kernel shows no sign of its
# end, so this waits for the timer's deadline, at most NFS_LOCKD_GRACE_S + 1 s after knfsd started.
nfs_grace_wait()
{
    local end now
    read -r end < "$NFS_GRACE_END_FILE" 2> /dev/null || return 0
    now=$(date +%s)
    [ "$now" -ge "$end" ] && return 0
    log "lockd's grace period: $((end - now)) s left"
    sleep $((end - now))
}

# nfs_server_stop: the reverse of nfs_server_start (knfsd threads and listeners, exports, mountd, rpcbind).
nfs_server_stop()
{
    [ -r /proc/fs/nfsd/threads ] && rpc.nfsd 0
    exportfs -au 2> /dev/null
    local pids
    pids=$(pidof rpc.mountd rpcbind) && kill $pids
    mountpoint -q /proc/fs/nfsd && umount /proc/fs/nfsd
    return 0
}

# nfs_rdma_listening: the server's rdma_cm id listens on NFS_RDMA_PORT on the rxe devices there are now.
nfs_rdma_listening()
{
    kernel_cm_listening "$NFS_RDMA_PORT"
}

# md5_of FILE: the file's md5, hex.
md5_of()
{
    local sum
    sum=$(md5sum < "$1") || return 1
    echo "${sum%% *}"
}

# nfs_make_file NAME MIB: NAME (relative to the export) filled with MIB MiB of random bytes; prints its md5.
nfs_make_file()
{
    dd if=/dev/urandom of="$NFS_EXPORT/$1" bs=1M count="$2" status=none || fail "cannot write $NFS_EXPORT/$1"
    md5_of "$NFS_EXPORT/$1"
}

# make_local_file PATH MIB: a local file of MIB MiB of random bytes; prints its md5.
make_local_file()
{
    dd if=/dev/urandom of="$1" bs=1M count="$2" status=none || fail "cannot write $1"
    md5_of "$1"
}

# nfs_kernel_mount VERS DIR: the kernel NFS client mounts the export over RPC-over-RDMA (3: MOUNT over TCP first,
# nolock as no rpc.statd runs; 4.1: nothing but port 20049). With two_rxe_devices set up, the connection leaves
# from rxe1 (NIC D, 10.9.0.4) and crosses the hub to rxe0.
nfs_kernel_mount()
{
    local vers=$1 dir=$2 opts
    opts="vers=$vers,proto=rdma,port=$NFS_RDMA_PORT,rsize=$NFS_RSIZE,wsize=$NFS_WSIZE,sec=sys,hard,timeo=600"
    [ "$vers" = 3 ] && opts+=",nolock,mountproto=tcp,mountport=$NFS_MOUNTD_PORT"
    mkdir -p "$dir"
    mount -t nfs -o "$opts" "$NIC_A_IP:$NFS_EXPORT" "$dir"
}

# nfs_kernel_umount DIR: umount, forced and lazy when the plain one fails (the scenario's exit trap uses it too).
nfs_kernel_umount()
{
    mountpoint -q "$1" || return 0
    umount "$1" 2> /dev/null || umount -f -l "$1"
}

# nfs_mount_opts DIR: the options the kernel settled on for the NFS mount at DIR (from /proc/mounts).
nfs_mount_opts()
{
    local src mnt type opts rest
    while read -r src mnt type opts rest; do
        [ "$mnt" = "$1" ] && { echo "$opts"; return 0; }
    done < /proc/mounts
    return 1
}

# rxe_active_mtu DEV: the active path MTU of an rxe device's port 1 in bytes (sysfs does not show it).
rxe_active_mtu()
{
    ibv_devinfo -d "$1" 2> /dev/null | awk '$1 == "active_mtu:" { print $2; exit }'
}

# svc_rdma_stats: "read=N write=N recv=N ..." of knfsd's RPC-over-RDMA counters (/proc/sys/sunrpc/svc_rdma).
svc_rdma_stats()
{
    local f v out=""
    for f in /proc/sys/sunrpc/svc_rdma/rdma_stat_*; do
        read -r v < "$f" || continue
        out+="${f##*/rdma_stat_}=$v "
    done
    echo "${out% }"
}

# counters_delta BEFORE AFTER: the "name=value" counters that changed between two snapshots, as differences.
counters_delta()
{
    local word name out="" a
    for word in $2; do
        name=${word%%=*}
        a=$(value_of "$name" "$1")
        [ "${word#*=}" != "${a:-0}" ] && out+="$name=$(( ${word#*=} - ${a:-0} )) "
    done
    echo "${out% }"
}

# nfs_xprt_stats DIR: the RPC-over-RDMA transport line of the NFS mount at DIR (/proc/self/mountstats "xprt: rdma
# ..."), named: read_chunks, write_chunks and reply_chunks count the calls that carried each kind of chunk.
nfs_xprt_stats()
{
    awk -v m="$1" '
        $1 == "device" { on = ($5 == m) }
        on && $1 == "xprt:" && $2 == "rdma" {
            n = split("port bind_count connect_count connect_time idle_time sends recvs bad_xids req_u bklog_u" \
                " read_chunks write_chunks reply_chunks total_rdma_req total_rdma_rep pullup fixup hardway" \
                " failed_marshal bad_reply nomsg_calls recovered orphaned allocated_mrs local_inv_needed" \
                " empty_sendctx reply_waits_for_send", k, " ")
            for (i = 1; i <= n && i + 2 <= NF; i++)
                if (k[i] ~ /sends|recvs|chunks|total_rdma|nomsg|bad_reply|failed|allocated_mrs|local_inv/)
                    printf "%s=%s ", k[i], $(i + 2)
            print ""; exit
        }' /proc/self/mountstats
}

# mbps BYTES SECONDS: MB/s (10^6 bytes per second), one decimal.
mbps()
{
    awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", b / 1e6 / s; else print "?" }'
}

# median VALUE...: the median of the arguments ("?" for none).
median()
{
    printf '%s\n' "$@" | sort -g | awk 'NF { v[++n] = $1 } END { if (n == 0) print "?"; else print v[int((n + 1) / 2)] }'
}

# at_exit COMMAND: runs COMMAND when the scenario's shell exits, after the ones registered before it (last in,
# first out); two_rxe_routing uses it too, so scenarios can stack their own clean-ups on top.
AT_EXIT=()
at_exit()
{
    AT_EXIT=("$1" "${AT_EXIT[@]}")
    trap run_at_exit EXIT
}

run_at_exit()
{
    local cmd
    for cmd in "${AT_EXIT[@]}"; do
        eval "$cmd"
    done
}

# jrxe_nfs_missing LOG: the jrxe in the guest has no `nfs` command: picocli rejected the command line ("Unmatched
# arguments", from 'nfs' on, or from a later word it took for another command, as 'bench read') and nothing in the
# log comes from an nfs command (no JRXE-NFS line, no "Usage: jrxe nfs").
jrxe_nfs_missing()
{
    grep -q '^Unmatched arguments from index' "$1" && ! grep -q '^JRXE-NFS \|Usage: jrxe nfs' "$1"
}

# log_has_prefix FILE PREFIX: a line of FILE starts with PREFIX (builtins only: it runs in wait loops).
log_has_prefix()
{
    local line
    [ -r "$1" ] || return 1
    while IFS= read -r line; do
        [[ $line == "$2"* ]] && return 0
    done < "$1"
    return 1
}

# nfs_recall_after LOG PREFIX FILE: in the background, waits (polling once a second) for a line starting with
# PREFIX in LOG, then opens FILE (relative to the export) for writing on the server without writing to it. A read
# delegation an NFSv4 client holds on FILE is recalled first (CB_RECALL over the backchannel; the open waits for
# the DELEGRETURN, at most /proc/sys/fs/lease-break-time, 45 s). Logs what /proc/locks showed and how long the open
# took. knfsd 6.1 sends a 4.1 client no CB_NULL: a recall is the only way to see its backchannel used.
nfs_recall_after()
{
    (
        WAIT_POLL=1 wait_until 600 log_has_prefix "$1" "$2" || exit 0
        local delegs t0
        delegs=$(grep -c DELEG /proc/locks)
        t0=${EPOCHREALTIME}
        timeout 60 bash -c ": >> '$NFS_EXPORT/$3'"
        log "opened $3 for writing on the server after '$2': $delegs delegation(s) in /proc/locks before," \
            "the open took $(elapsed_since "$t0") s"
    ) &
    NFS_RECALL_PID=$!
}

# jrxe_nfs_line LOG WHAT [N]: the Nth (default 1st) "JRXE-NFS WHAT ..." line of a `jrxe nfs` log.
jrxe_nfs_line()
{
    awk -v w="$2" -v n="${3:-1}" '$1 == "JRXE-NFS" && $2 == w && ++seen == n { print; exit }' "$1"
}

# jrxe_nfs_ls_entries LOG N: the entry names of the Nth `ls` of a `jrxe nfs` log (the "<type> <size> <name>" lines
# just before its JRXE-NFS ls line), one per line as "<size> <name>".
jrxe_nfs_ls_entries()
{
    awk -v n="$2" '
        $1 == "JRXE-NFS" { if ($2 == "ls" && ++seen == n) { printf "%s", buf; exit } buf = ""; next }
        NF >= 3 && $2 ~ /^[0-9]+$/ { name = $0; sub(/^[^ ]+ [^ ]+ /, "", name); buf = buf $2 " " name "\n" }' "$1"
}

# ---- steady-state baselines (50-baseline-write, 52-baseline-send-rate, 53-baseline-send-lat) ----
#
# Both figures of a GUEST-BASELINE line are measured the same way, by the scenario: it reads packet counters at two
# instants of a long run and divides by the interval between them on the guest's clock. Neither tool's own figure is
# used: perftest turns cycles into time with a CPU frequency it samples, which fails under TCG, and jrxe reads its
# own clock. The counters are rxe's hw_counters (sysfs, read with builtins) and the same-named slots of jrxe's
# counters file (read with od: starting `jrxe stat`, a JVM, in the middle of a measurement would take the CPU the
# measured tools are using). The clock is /proc/uptime: CLOCK_BOOTTIME, which is CLOCK_MONOTONIC plus time spent
# suspended (the guest never suspends), in 10 ms steps, 0.1 % of an 8 s period; read with a builtin, no fork.
#
# One pair of processes per side runs for the whole scenario; the two pairs take turns (SIGSTOP/SIGCONT), so
# measured periods alternate rxe, jrxe, rxe ... without a JVM start (~10 s under TCG) per run, and each period has
# the guest to itself. Each side first runs BL_WARMUP seconds of traffic (the same for both) before its first
# period, and BL_SETTLE seconds after every SIGCONT before the first sample (a jrxe requester resumed after a pause
# longer than its ACK timeout retransmits once). JIT: the measured periods come after the warm-up; the jrxe JVMs
# run with -XX:+PrintCompilation and the scenario appends a mark to their logs at each sample (both open the log
# O_APPEND), so the compilations inside each measured period are counted and printed (jit_compiles=).
BL_WARMUP=${BL_WARMUP:-20}
BL_SETTLE=${BL_SETTLE:-2}
BL_PERIOD=${BL_PERIOD:-8}
BL_RUNS=${BL_RUNS:-5}
# Counters sampled on both sides: a side's new packets in a period are rcvd_pkts minus the duplicates and
# out-of-sequence requests it also counted there.
BL_COUNTERS="rcvd_pkts sent_pkts duplicate_request out_of_seq_request"

# bl_now: BL_NOW = seconds since boot, /proc/uptime (builtin read, no fork).
bl_now()
{
    local rest
    read -r BL_NOW rest < /proc/uptime
}

# bl_wait SECONDS: waits on a FIFO nobody writes to (read -t, a builtin: a forked sleep costs a TCG guest dearly).
bl_wait()
{
    if [ -z "${BL_WAIT_FD:-}" ]; then
        rm -f /tmp/bl-wait.fifo
        mkfifo /tmp/bl-wait.fifo
        exec {BL_WAIT_FD}<> /tmp/bl-wait.fifo
    fi
    read -r -t "$1" -u "$BL_WAIT_FD" _
    return 0
}

# jrxe_counters_path NAME: the counters file of jrxe device NAME (/dev/shm/jrxe, else the JVM's tmp dir).
jrxe_counters_path()
{
    local f
    for f in /dev/shm/jrxe/"$1".counters /tmp/jrxe/"$1".counters; do
        [ -e "$f" ] && { echo "$f"; return 0; }
    done
    return 1
}

# jc_layout FILE: reads the layout of a jrxe counters file (CountersDescriptor: header, labels, device sets) into
# JC_* variables; JC_ID[label] = slot. Fails when the file is not a version-1 counters file.
jc_layout()
{
    local hdr magic
    magic=$(od -An -c -N 8 "$1" | tr -d ' ')
    [ "$magic" = JRXECNT1 ] || return 1
    # slots N, device sets W, QP slots, QP slot length, labels offset, device section offset (offset 40..63)
    hdr=($(od -An -v -t u4 -j 40 -N 24 "$1"))
    JC_SLOTS=${hdr[0]}
    JC_SETS=${hdr[1]}
    JC_DEV_OFF=${hdr[5]}
    JC_STRIDE=$(( (JC_SLOTS * 8 + 63) / 64 * 8 ))
    declare -gA JC_ID=()
    local id name
    # a here-string, not < <(...): the guest has no /dev/fd for process substitution
    while read -r id name; do
        [ -n "$name" ] && JC_ID[$name]=$id
    done <<< "$(od -An -v -t u1 -j "${hdr[4]}" -N $((JC_SLOTS * 64)) "$1" | awk '
        { for (i = 1; i <= NF; i++) b[n++] = $i }
        END {
            for (r = 0; r * 64 < n; r++) {
                o = r * 64; id = b[o] + 256 * b[o + 1]; len = b[o + 4] + 256 * b[o + 5]; s = ""
                for (i = 0; i < len; i++) s = s sprintf("%c", b[o + 8 + i])
                if (len > 0) print id, s
            }
        }')"
    [ -n "${JC_ID[rcvd_pkts]:-}" ]
}

# bl_sample_rxe DEV: BL_SAMPLE = "t0=<uptime> t1=<uptime> name=value ..." of BL_COUNTERS of rxe device DEV, with
# the clock read just before and just after the counters.
bl_sample_rxe()
{
    local t0 name v out=""
    bl_now
    t0=$BL_NOW
    for name in $BL_COUNTERS; do
        read -r v < "/sys/class/infiniband/$1/ports/1/hw_counters/$name" || v=?
        out+=" $name=$v"
    done
    bl_now
    BL_SAMPLE="t0=$t0 t1=$BL_NOW$out"
}

# bl_sample_jrxe FILE: the same from a jrxe counters file (jc_layout read first), summed over its device sets, plus
# acks_rcvd and retransmitted_pkts (jrxe counts them; rxe does not).
bl_sample_jrxe()
{
    local t0 vals name w s id out=""
    bl_now
    t0=$BL_NOW
    vals=($(od -An -v -t u8 -j "$JC_DEV_OFF" -N $((JC_SETS * JC_STRIDE * 8)) "$1"))
    bl_now
    for name in $BL_COUNTERS acks_rcvd retransmitted_pkts; do
        id=${JC_ID[$name]:-}
        [ -n "$id" ] || { out+=" $name=?"; continue; }
        s=0
        for ((w = 0; w < JC_SETS; w++)); do
            s=$(( s + ${vals[w * JC_STRIDE + id]:-0} ))
        done
        out+=" $name=$s"
    done
    BL_SAMPLE="t0=$t0 t1=$BL_NOW$out"
}

# bl_delta NAME A B: counter NAME in sample B minus sample A.
bl_delta()
{
    echo $(( $(value_of "$1" "$3") - $(value_of "$1" "$2") ))
}

# bl_new_pkts A B: new packets between two samples: rcvd_pkts minus duplicates and out-of-sequence requests.
bl_new_pkts()
{
    echo $(( $(bl_delta rcvd_pkts "$1" "$2") - $(bl_delta duplicate_request "$1" "$2")
        - $(bl_delta out_of_seq_request "$1" "$2") ))
}

# bl_interval A B: seconds between two samples, midpoint to midpoint of their clock brackets.
bl_interval()
{
    awk -v a0="$(value_of t0 "$1")" -v a1="$(value_of t1 "$1")" -v b0="$(value_of t0 "$2")" \
        -v b1="$(value_of t1 "$2")" 'BEGIN { printf "%.3f", (b0 + b1) / 2 - (a0 + a1) / 2 }'
}

# jc_ready NAME: the counters file of jrxe device NAME exists and its layout is read (BL_JRXE_FILE, JC_*).
jc_ready()
{
    BL_JRXE_FILE=$(jrxe_counters_path "$1") && jc_layout "$BL_JRXE_FILE"
}

# bl_jrxe_file NAME PID...: waits for jc_ready NAME (240 s: JVM start under TCG, polled every 2 s: each poll
# forks od) while PIDs run; fails the scenario otherwise.
bl_jrxe_file()
{
    local name=$1
    shift
    WAIT_POLL=2 wait_until 240 eval "jc_ready $name || ! bl_pids_alive $*"
    if ! jc_ready "$name"; then
        local alive
        alive=$(bl_pids_alive "$@" && echo yes || echo no)
        bl_show_logs 20
        show_jvm_crashes
        fail "no counters file for jrxe device $name (processes alive: $alive)"
    fi
    log "jrxe counters of $name: $BL_JRXE_FILE, $JC_SLOTS slots, $JC_SETS device sets"
}

# bl_quiet SIDE: SIDE's receiver counted no packet in half a second. A stopped perftest leaves the kernel's rxe
# sending what it had posted (up to its tx depth), which must not run into the other side's period.
bl_quiet()
{
    local a
    bl_sample "$1"
    a=$(value_of rcvd_pkts "$BL_SAMPLE")
    bl_wait 0.5
    bl_sample "$1"
    [ "$a" = "$(value_of rcvd_pkts "$BL_SAMPLE")" ]
}

# bl_pids_alive PID...: every PID is still running.
bl_pids_alive()
{
    local p
    for p in "$@"; do
        kill -0 "$p" 2> /dev/null || return 1
    done
    return 0
}

# bl_flowing SIDE MIN: the side's receiver has counted at least MIN new packets since BL_START_SAMPLE.
bl_flowing()
{
    bl_sample "$1"
    [ "$(bl_new_pkts "$BL_START_SAMPLE" "$BL_SAMPLE")" -ge "$2" ]
}

# bl_sample SIDE: BL_SAMPLE of the measured device of SIDE (rxe: BL_RXE_DEV; jrxe: BL_JRXE_FILE).
bl_sample()
{
    if [ "$1" = rxe ]; then
        bl_sample_rxe "$BL_RXE_DEV"
    else
        bl_sample_jrxe "$BL_JRXE_FILE"
    fi
}

# bl_mark TEXT: appends a mark to the jrxe logs (BL_JRXE_LOGS), between the JIT's PrintCompilation lines.
bl_mark()
{
    local f
    for f in "${BL_JRXE_LOGS[@]}"; do
        echo "BASELINE-MARK $1" >> "$f"
    done
}

# bl_jit_compiles RUN: PrintCompilation lines in the jrxe logs between the marks of measured period RUN.
bl_jit_compiles()
{
    cat "${BL_JRXE_LOGS[@]}" | awk -v s="BASELINE-MARK run=$1 start" -v e="BASELINE-MARK run=$1 end" '
        $0 == s { on = 1; next } $0 == e { on = 0; next }
        on && /^ *[0-9]+ +[0-9]+ / { n++ } END { print n + 0 }'
}

# bl_warm_up SIDE PID...: waits until SIDE's traffic flows (240 s: JVM start under TCG), then BL_WARMUP seconds
# more, and stops PIDs. A side that does not start fails the scenario.
bl_warm_up()
{
    local side=$1
    shift
    bl_sample "$side"
    BL_START_SAMPLE=$BL_SAMPLE
    if ! wait_until 240 eval "bl_flowing $side 50 || ! bl_pids_alive $*"; then
        fail "$side traffic did not start within 240 s"
    fi
    bl_pids_alive "$@" || fail "$side processes exited before the traffic started ($*)"
    log "$side traffic flowing: $BL_SAMPLE; warming up $BL_WARMUP s"
    bl_wait "$BL_WARMUP"
    bl_pids_alive "$@" || fail "$side processes exited during the warm-up ($*)"
    kill -STOP "$@"
    wait_until 30 bl_quiet "$side" || log "WARNING: $side still sending 30 s after SIGSTOP"
}

# bl_period SIDE LABEL [PROFILE]: one period of SIDE (BL_RXE_PIDS or BL_JRXE_PIDS; both pairs stopped on entry and
# left stopped): SIGCONT, BL_SETTLE s, sample, BL_PERIOD s (under a system-wide perf record named PROFILE if given,
# profile_start), sample, SIGSTOP. BL_A and BL_B are the two samples; for jrxe the period lies between the log marks
# "run=LABEL start" and "run=LABEL end" (bl_jit_compiles). A side that died fails the scenario.
bl_period()
{
    local side=$1 label=$2 profile=${3:-} pids
    if [ $side = rxe ]; then pids=("${BL_RXE_PIDS[@]}"); else pids=("${BL_JRXE_PIDS[@]}"); fi
    bl_pids_alive "${pids[@]}" || fail "$side processes died before period $label"
    kill -CONT "${pids[@]}"
    bl_wait "$BL_SETTLE"
    [ $side = jrxe ] && bl_mark "run=$label start"
    bl_sample $side
    BL_A=$BL_SAMPLE
    [ -n "$profile" ] && profile_start "$profile"
    bl_wait "$BL_PERIOD"
    bl_sample $side
    BL_B=$BL_SAMPLE
    [ -n "$profile" ] && profile_stop "$profile"
    [ $side = jrxe ] && bl_mark "run=$label end"
    kill -STOP "${pids[@]}"
    wait_until 30 bl_quiet $side || log "WARNING: $side still sending 30 s after SIGSTOP"
}

# bl_alternate FIGURE_FN: BL_RUNS measured periods per side (bl_period), alternating rxe and jrxe. FIGURE_FN SIDE A B
# prints the period's figure. Logs every raw sample (BASELINE-SAMPLE lines) and fills BL_RXE_FIGURES and
# BL_JRXE_FIGURES.
bl_alternate()
{
    local fn=$1 run side fig jit
    BL_RXE_FIGURES=()
    BL_JRXE_FIGURES=()
    for ((run = 1; run <= BL_RUNS; run++)); do
        for side in rxe jrxe; do
            bl_period $side $run
            fig=$($fn $side "$BL_A" "$BL_B")
            jit=""
            [ $side = jrxe ] && jit=" jit_compiles=$(bl_jit_compiles $run)"
            echo "BASELINE-SAMPLE $SCENARIO $side run=$run a: $BL_A"
            echo "BASELINE-SAMPLE $SCENARIO $side run=$run b: $BL_B"
            log "$side run $run: interval $(bl_interval "$BL_A" "$BL_B") s, new packets $(bl_new_pkts "$BL_A" "$BL_B"),"\
                "figure $fig$jit"
            if [ $side = rxe ]; then BL_RXE_FIGURES+=("$fig"); else BL_JRXE_FIGURES+=("$fig"); fi
        done
    done
}

# bl_profile SIDE FIGURE_FN: one more period of SIDE (bl_period, label "profile") under a system-wide perf record
# named SIDE-$BL_PROFILE_NAME; BL_PROFILE_FIGURE = the period's figure, which perf's own cost is in. Report with
# profile_report after the pair has exited (the JVMs' perf maps).
bl_profile()
{
    local side=$1 fn=$2
    bl_period $side profile "$side-$BL_PROFILE_NAME"
    BL_PROFILE_FIGURE=$($fn $side "$BL_A" "$BL_B")
    log "$side profiled period: interval $(bl_interval "$BL_A" "$BL_B") s, new packets $(bl_new_pkts "$BL_A" "$BL_B"),"\
        "figure $BL_PROFILE_FIGURE"
}

# bl_stop PID...: ends a stopped pair (TERM, then CONT so that it can act on it) and waits for it.
bl_stop()
{
    local p
    kill -TERM "$@" 2> /dev/null
    kill -CONT "$@" 2> /dev/null
    for p in "$@"; do
        wait_pid_exit "$p" 30 > /dev/null 2>&1
    done
}

# bl_ratio JRXE RXE: JRXE / RXE, two decimals ("?" when either is missing or RXE is 0).
bl_ratio()
{
    awk -v j="$1" -v r="$2" 'BEGIN { if (j != "?" && r != "?" && r > 0) printf "%.2f", j / r; else print "?" }'
}

# bl_rxe_pair LOG_PREFIX TOOL ARG...: a perftest pair on the two kernel devices, TOOL's server on rxe1 (NIC D) and
# its client on rxe0 (NIC A), both with ARGs; logs LOG_PREFIX-server.log and -client.log; BL_RXE_PIDS, BL_RXE_LOGS.
bl_rxe_pair()
{
    local prefix=$1 tool=$2 srv
    shift 2
    "$tool" -d rxe1 -x "$GID_D" "$@" > "$prefix-server.log" 2>&1 &
    srv=$!
    wait_until 30 tcp_listening $OOB_PORT || fail "$tool server on rxe1 not listening: $(tail -3 "$prefix-server.log")"
    "$tool" -d rxe0 -x "$GID_A" "$@" 127.0.0.1 > "$prefix-client.log" 2>&1 &
    BL_RXE_PIDS=($srv $!)
    BL_RXE_LOGS=("$prefix-server.log" "$prefix-client.log")
}

# bl_jrxe_pair NAME ARG...: `jrxe perf ARG...` peer mode, server NAME-b on NIC B and client NAME-c on NIC C,
# started together (the client retries until the server listens) on port OOB_PORT + 1 (a perftest pair may hold
# OOB_PORT), with -XX:+PrintCompilation and BL_JRXE_JVM_OPTS; logs /tmp/NAME-server.log and -client.log, opened O_APPEND (bl_mark);
# BL_JRXE_PIDS, BL_JRXE_LOGS. Removes NAME's counters files of an earlier run first.
bl_jrxe_pair()
{
    local name=$1 srv
    shift
    rm -f /dev/shm/jrxe/"$name"-[bc].counters /tmp/jrxe/"$name"-[bc].counters
    BL_JRXE_LOGS=("/tmp/$name-server.log" "/tmp/$name-client.log")
    : > "${BL_JRXE_LOGS[0]}"
    : > "${BL_JRXE_LOGS[1]}"
    local java=(java ${JRXE_JAVA_OPTS:-} ${BL_JRXE_JVM_OPTS:-} -XX:+PrintCompilation -jar "$JRXE_JAR")
    local perf=(perf "$@" -u $ACK_TIMEOUT -p $((OOB_PORT + 1)) "${JRXE_NODE_OPTS[@]}" --keep-counters)
    "${java[@]}" "${perf[@]}" --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" --name "$name-b" --server \
        >> "${BL_JRXE_LOGS[0]}" 2>&1 &
    srv=$!
    "${java[@]}" "${perf[@]}" --pci "$NIC_C_BDF" --ip "$JRXE_C_IP/$NIC_PREFIX" --name "$name-c" 127.0.0.1 \
        >> "${BL_JRXE_LOGS[1]}" 2>&1 &
    BL_JRXE_PIDS=($srv $!)
}

# bl_show_logs: the tail of every log of both pairs, without the JIT's PrintCompilation lines.
bl_show_logs()
{
    local f
    for f in "${BL_RXE_LOGS[@]}" "${BL_JRXE_LOGS[@]}"; do
        grep -v -e '^ *[0-9]\+ \+[0-9]\+ ' -e '^BASELINE-MARK' "$f" | tail -"${1:-6}" | sed "s|^|[$SCENARIO] ${f##*/}: |"
    done
}

# bl_jit_total: PrintCompilation lines inside all measured periods.
bl_jit_total()
{
    local run n=0
    for ((run = 1; run <= BL_RUNS; run++)); do
        n=$((n + $(bl_jit_compiles $run)))
    done
    echo $n
}

# bl_runs_figures: "rxe_runs=a,b,.. jrxe_runs=a,b,.." of the period figures.
bl_runs_figures()
{
    echo "rxe_runs=$(IFS=,; echo "${BL_RXE_FIGURES[*]}") jrxe_runs=$(IFS=,; echo "${BL_JRXE_FIGURES[*]}")"
}

# Profiles: Linux perf samples the whole guest (cpu-clock on both vCPUs: there is no PMU under TCG). JVMs to be
# profiled run with PROFILE_JVM_OPTS, so that they write a perf map at exit (SIGTERM included) and their compiled
# Java methods get names; report after they exited. PROFILE_FREQ 250 Hz per vCPU: enough samples in a short run
# without slowing the TCG guest noticeably. Each function adds what went wrong to the caller's `problems` array.
PROFILE_FREQ=250
PROFILE_JVM_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit"

# profile_start NAME: a system-wide `perf record` into /tmp/profile-NAME.data, in the background (PROFILE_PID).
profile_start()
{
    # --no-buildid: collecting build ids at the end takes minutes under TCG and the report runs here anyway.
    perf record -a -e cpu-clock -F $PROFILE_FREQ --no-buildid -o "/tmp/profile-$1.data" \
        > "/tmp/profile-$1.record.log" 2>&1 &
    PROFILE_PID=$!
}

# profile_stop NAME: ends the recording of profile_start.
profile_stop()
{
    local rc
    # TERM, not INT: a background job of a non-interactive shell ignores SIGINT. perf writes its data and then
    # re-raises the signal, so it ends with status 143.
    kill -TERM "$PROFILE_PID"
    wait_pid_exit "$PROFILE_PID" 120
    rc=$?
    show_log "/tmp/profile-$1.record.log" "perf record" 5
    [ $rc = 0 ] || [ $rc = 143 ] || problems+=("perf record for $1 ended with status $rc")
}

# profile_report NAME: the per-thread/object shares and the top symbols of a recording, as lines
#   GUEST-PROFILE NAME comm <percent> <thread> <shared object>
#   GUEST-PROFILE NAME sym <percent> <symbol>
profile_report()
{
    local name=$1 data=/tmp/profile-$1.data
    [ -s "$data" ] || { problems+=("no perf data for $name"); return; }
    perf report -i "$data" --stdio --no-children --sort comm,dso --percent-limit 1.5 -q 2> /dev/null \
        | awk -v n="$name" 'NF >= 3 { p = $1; $1 = ""; sub(/^ +/, ""); print "GUEST-PROFILE " n " comm " p " " $0 }' \
        > "/tmp/profile-$name.comm"
    perf report -i "$data" --stdio --no-children --sort sym --percent-limit 0.8 -q 2> /dev/null | head -30 \
        | awk -v n="$name" 'NF >= 2 { p = $1; $1 = ""; sub(/^ +/, ""); print "GUEST-PROFILE " n " sym " p " " $0 }' \
        > "/tmp/profile-$name.sym"
    cat "/tmp/profile-$name.comm" "/tmp/profile-$name.sym"
    [ -s "/tmp/profile-$name.comm" ] || problems+=("perf report for $name is empty")
}

# profile_samples NAME: how many samples a recording holds ("12K" style, from perf's report header).
profile_samples()
{
    perf report -i "/tmp/profile-$1.data" --stdio --sort comm 2> /dev/null | sed -n 's/^# Samples: \([^ ]*\) .*/\1/p' \
        | head -1
}
