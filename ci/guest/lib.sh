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

# wait_until SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds (0) or the deadline passes (1).
wait_until()
{
    local secs=$1
    shift
    local deadline=$((SECONDS + secs))
    until "$@"; do
        [ $SECONDS -ge $deadline ] && return 1
        sleep 0.1
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
    ip neigh flush all 2> /dev/null
    return 0
}
