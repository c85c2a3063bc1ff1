# A probe of jrxe<->jrxe SEND ping-pong latency in the guest under JVM and idle settings: `jrxe perf --lat --op send
# -s 2` NIC C -> NIC B, 1,000 measured iterations after 500 warm-up (PROBE_ITERS), ACK timeout code 18, jrxe's own
# clock, one line per setting:
#   PROBE <tag> jvm=[<JVM options>] opts=[<perf options>] rc=<exit> iters= t_typical_us= t_avg_us= lat_p50_us= ...
# It chose the suite's JVM setting and the peer-mode application poll (ci/README.md, "JVM settings"). Kernel
# settings can be tried with ci/qemu-suite.sh --append "...". Each setting here runs with JRXE_JAVA_OPTS replaced.
# Not part of the suite: it runs only when named, ci/qemu-suite.sh --only lat-probe.
# on-request
# timeout: 1200
require_jar
bind_vfio "$NIC_B_BDF" || fail "cannot bind B"
bind_vfio "$NIC_C_BDF" || fail "cannot bind C"
log "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) of $(cat /sys/devices/system/clocksource/clocksource0/available_clocksource)"
N=${PROBE_ITERS:-1000}
probe()
{
    local tag=$1 jopts=$2; shift 2
    local s=/tmp/probe-$tag-s.log c=/tmp/probe-$tag-c.log
    java $jopts -jar "$JRXE_JAR" perf --lat --op send -s 2 -n $N --warmup 500 -u 18 -p $((OOB_PORT + 3)) "$@" \
        --pci "$NIC_B_BDF" --ip "$JRXE_B_IP/$NIC_PREFIX" --name pb-$tag --server > $s 2>&1 &
    local sp=$!
    timeout 600 java $jopts -jar "$JRXE_JAR" perf --lat --op send -s 2 -n $N --warmup 500 -u 18 -p $((OOB_PORT + 3)) "$@" \
        --pci "$NIC_C_BDF" --ip "$JRXE_C_IP/$NIC_PREFIX" --name pc-$tag 127.0.0.1 > $c 2>&1
    local rc=$?
    wait $sp
    log "PROBE $tag jvm=[$jopts] opts=[$*] rc=$rc $(grep -h 'JRXE-PERF' $c | cut -d' ' -f5-9) irqs=$(grep -h 'JRXE-NIC' $c | grep -o 'interrupts=[0-9]*')"
    [ $rc = 0 ] || tail -5 $c
}
C1=-XX:TieredStopAtLevel=1
# idle strategies (the first probes chose C1 and park/park, ci/README.md)
probe parkpark-c1 "$C1" --idle park --app-idle park
# run to completion: the application's thread drives the node during the measured loop
probe single-c1 "$C1" --idle park --app-idle park --layout single
probe parkpark-c1-again "$C1" --idle park --app-idle park
probe single-c1-again "$C1" --idle park --app-idle park --layout single
pass "probe done"
